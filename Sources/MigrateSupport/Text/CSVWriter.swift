/// The one CSV writer (RFC 4180, as `CSVReader` reads it): every command and generated table that writes CSV
/// quotes its fields here, and every field is made spreadsheet-safe on the way (`spreadsheetSafe`): a person opens
/// these files in Excel or Numbers, and a cell that starts like a formula is run as one (OWASP, "CSV Injection").
public enum CSVWriter {
    /// `value` as a CSV field: spreadsheet-safe, and quoted when it holds a comma, a quote or a line break.
    public static func field(_ value: String) -> String {
        let value = spreadsheetSafe(value)
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
    public static func field(bytes given: [UInt8]) -> [UInt8] {
        var bytes = given
        if let first = bytes.first, first < 0x80, formulaStarts.contains(Unicode.Scalar(first)), !isNumber(bytes) {
            bytes.insert(UInt8(ascii: "'"), at: 0)
        }
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
    /// (OWASP, "CSV Injection"). A plain number (`-12.5`, `+3`) is a number in any spreadsheet and is left alone.
    public static func spreadsheetSafe(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, Self.formulaStarts.contains(first), !isNumber(Array(value.utf8)) else { return value }
        return "'" + value
    }

    /// `-12.5`, `+3`, `-0.25`: a sign, digits, and at most one point between digits.
    static func isNumber(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") else { return false }
        var sawPoint = false
        var sawDigit = false
        for (index, byte) in bytes.dropFirst().enumerated() {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
            } else if byte == UInt8(ascii: "."), !sawPoint, sawDigit, index < bytes.count - 2 {
                sawPoint = true
            } else {
                return false
            }
        }
        return sawDigit
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// One record: the fields, quoted where they must be, separated by commas, ended by a line feed.
    public static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }
}
