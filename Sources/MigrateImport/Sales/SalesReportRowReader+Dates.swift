import Foundation
import MigratePlan
import MigrateSupport

/// The report's days: Begin and End Dates read once per distinct text, and the platform a row's type names.
extension SalesReportImporter.RowReader {
    /// A Begin or End Date (nil when the column is missing or blank, or with a warning when it is not a date).
    /// MM/DD/YYYY is recognised from its bytes; anything else is read as text, as `parseDate` reads it.
    mutating func readDate(_ column: Int?, name: String, fields: Fields, line: Int) -> Date? {
        guard let column else { return nil }
        if let bytes = fields.ascii(column), let key = Self.dateKey(bytes) {
            if key == lastDate.key, let date = lastDate.date { return date }
            let parsed = datesByDigits[key] ?? Self.parseDate(String(decoding: bytes, as: UTF8.self))
            if datesByDigits.count < 100_000 { datesByDigits[key] = parsed }
            lastDate = (key, parsed)
            if let parsed { return parsed }
        }
        guard let value = fields.string(column) else { return nil }
        let key = Substring(value)
        let parsed = dates[key] ?? Self.parseDate(value)
        if dates.count < 100_000 { dates[key] = parsed }
        guard let date = parsed else {
            warn(.invalidDate, line: line, column: name, "'\(value)' is not a date in MM/DD/YYYY form", fields: fields)
            return nil
        }
        return date
    }

    /// `MM/DD/YYYY` with ASCII digits as the number YYYYMMDD, or nil for any other text.
    static func dateKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 10, bytes[2] == 0x2F, bytes[5] == 0x2F else { return nil }
        var key = 0
        for index in 0..<8 {
            // Year, month, day: bytes 6 to 9, then 0 and 1, then 3 and 4.
            let digit = bytes[index < 4 ? index + 6 : index < 6 ? index - 4 : index - 3] &- 0x30
            guard digit < 10 else { return nil }
            key = key * 10 + Int(digit)
        }
        return key
    }

    /// `10/05/2020` (MM/DD/YYYY) as midnight UTC.
    static func parseDate(_ text: String) -> Date? {
        let parts = text.split(separator: "/")
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4 else { return nil }
        return Timestamp.parse("\(parts[2])-\(parts[0])-\(parts[1])")
    }

    static func platform(type: String, supported: String?) -> Platform? {
        if let supported, let platform = Platform(named: supported) { return platform }
        if type.hasPrefix("F") || type.hasSuffix("-M") { return .macOS }
        return .iOS
    }
}
