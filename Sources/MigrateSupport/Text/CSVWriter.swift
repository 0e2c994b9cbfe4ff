/// The one CSV writer (RFC 4180, as `CSVReader` reads it): every command and generated table that writes CSV
/// quotes its fields here.
public enum CSVWriter {
    /// `value` as a CSV field: quoted when it holds a comma, a quote or a line break.
    public static func field(_ value: String) -> String {
        guard value.utf8.contains(where: Self.needsQuotes) else { return value }
        var quoted = "\""
        for character in value {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }

    /// `bytes` as a CSV field, byte for byte (quoted, with quotes doubled, when it must be): for text that
    /// may not be UTF-8, such as a rejected record.
    public static func field(bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: Self.needsQuotes) else { return bytes }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        quoted.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return quoted
    }

    @inline(__always)
    static func needsQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 10 || byte == 13
    }

    /// `value` made safe for a spreadsheet to open: a leading `=`, `+`, `-`, `@`, tab or carriage return gets an
    /// apostrophe before it, so Excel, Numbers or Google Sheets shows it as text instead of running it as a formula
    /// (OWASP, "CSV Injection"). For files a person opens in a spreadsheet whose fields come from someone else, such
    /// as a buyer's name in a store's export; never for files migrate reads back.
    public static func spreadsheetSafe(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, Self.formulaStarts.contains(first) else { return value }
        return "'" + value
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// One record: the fields, quoted where they must be, separated by commas, ended by a line feed.
    public static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }
}
