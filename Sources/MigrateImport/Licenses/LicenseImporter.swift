import Foundation
import MigratePlan
import MigrateSupport

/// One license as an export has it: who bought which edition, when, how many seats, and whether it was refunded.
/// The buyer's e-mail address and name stay in memory: nothing here is written into the plan.
public struct License: Sendable, Hashable {
    public var store: LicenseStore
    /// The file as the user named it, and the 1-based line the row starts on.
    public var file: String
    public var line: Int
    /// The store's order (or purchase) id.
    public var order: String
    public var email: String
    public var name: String
    /// The product label the row's edition is matched by: `Product`, or `Product (Variant)`.
    public var label: String
    public var version: String?
    public var purchased: Date
    /// Why the license no longer counts (refunded, charged back, access revoked); nil when it counts.
    public var refund: String?
    public var seats: Int

    /// `file:line`, for messages.
    public var place: String { "\(file):\(line)" }

    /// The license's identity in a ledger: the store, its order id and the moment it was bought, so that two shops
    /// that both number their orders from #1001 never share one: `gumroad:AbC123==/2019-03-14T09:30:12Z`. No personal data.
    public var key: String { "\(store.rawValue):\(order)/\(Timestamp.format(purchased))" }

    /// The identity a ledger written before the purchase moment was part of it gave the license: `gumroad:AbC123==`.
    public var legacyKey: String { "\(store.rawValue):\(order)" }
}

/// A row that is no license, with its place and why.
public struct SkippedLicenseRow: Sendable, Hashable {
    public var file: String
    public var line: Int
    public var reason: String
    /// The row couldn't be read as a license (a stray quote, a missing e-mail address): its buyer may be owed a code,
    /// so the run fails until it is fixed. False for a row read whole that is no license (a totals row, a recurring
    /// charge, a pending order).
    public var isUnreadable: Bool

    public init(file: String, line: Int, reason: String, isUnreadable: Bool = true) {
        self.file = file
        self.line = line
        self.reason = reason
        self.isUnreadable = isUnreadable
    }

    public var place: String { "\(file):\(line)" }
}

/// What one export gave: its store, its licenses and the rows skipped.
public struct LicenseExport: Sendable {
    public var file: String
    public var store: LicenseStore
    public var licenses: [License] = []
    public var skipped: [SkippedLicenseRow] = []
    /// Records after the header: each is a license or skipped.
    public var rowsRead = 0
    /// Every line of the file accounted for: the header, each license (decided), each skipped row, blank lines.
    public var tally = LineTally()
    /// Quotes that opened a field and didn't close it on their line, with the lines they would have swallowed.
    public var strayQuotes: [StrayQuote] = []
}

/// Reads a store's customer export (Paddle, FastSpring, Gumroad, or the plain CSV) strictly, with MigrateSupport's
/// RFC 4180 `CSVReader`: the store is told by the header (`LicenseStore.detect`), and an unknown header is refused with
/// the columns each store's export has. Every record after the header is a license or skipped with its line and reason.
public enum LicenseImporter {
    /// The longest record read.
    static let maxRecordBytes = 1 << 20

    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> LicenseExport {
        // One record a line: a stray quote spoils its own row, never the holders after it.
        var reader = CSVReader(maxRecordBytes: maxRecordBytes, maxFields: 4_096)
        var records: [CSVRecord] = []
        var failures: [CSVRecordError] = []
        reader.feed(bytes[...], record: { records.append($0) }, failure: { failures.append($0) })
        reader.finish(record: { records.append($0) }, failure: { failures.append($0) })
        if let fatal = failures.first(where: \.isFatal) {
            throw ImportError(.badData, file: file, "\(fatal.message)")
        }
        // A bad first record is a bad header.
        if let first = failures.first, first.line == 1 || records.isEmpty || first.line < records[0].line {
            throw ImportError(.badData, file: file, place: "line \(first.line)", "the header can't be read: \(first.message)")
        }
        guard let header = records.first else {
            throw ImportError(
                .badData, file: file, "the file is empty", hint: "Export the store's orders or sales as CSV and give that file.")
        }
        guard let store = LicenseStore.detect(header.fields) else {
            let expected = LicenseStore.allCases.map { "  \($0.displayName): \($0.expectedColumns)" }.joined(separator: "\n")
            let found = header.fields.prefix(8).map { "'\($0)'" }.joined(separator: ", ") + (header.fields.count > 8 ? ", …" : "")
            throw ImportError(
                .badData, file: file, place: "line 1",
                "the header (\(found)) is no export migrate knows. It expected one of these sets of columns:\n\(expected)",
                hint: "Export the store's orders as CSV with every column, or write the plain CSV the manual describes (Direct sales).")
        }
        var columns: [LicenseStore.Field: Int] = [:]
        let trimmed = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        for (field, names) in store.columns {
            if let index = names.lazy.compactMap({ trimmed.firstIndex(of: $0) }).first { columns[field] = index }
        }
        let missing = store.required.filter { columns[$0] == nil }
        if !missing.isEmpty {
            let names = missing.map { field in (store.columns[field] ?? []).joined(separator: " or ") }
            throw ImportError(
                .badData, file: file, place: "line 1",
                "a \(store.displayName) export without the column\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")); it needs: \(store.expectedColumns)",
                hint: "Export again with every column, or write the plain CSV the manual describes (Direct sales).")
        }
        var export = LicenseExport(file: file, store: store)
        export.tally.lines = reader.lines
        export.tally.header = 1
        export.tally.blank = reader.blankLines
        export.strayQuotes = reader.strayQuotes
        var rows = records.dropFirst().map { RowOrFailure.row($0) } + failures.map { RowOrFailure.failure($0) }
        rows.sort { $0.line < $1.line }
        for item in rows {
            if case .row(let record) = item, record.isBlank {
                export.tally.blank += 1
                continue
            }
            export.rowsRead += 1
            switch item {
            case .failure(let error):
                let column = error.column.map { ", field \($0)" } ?? ""
                export.skipped.append(SkippedLicenseRow(file: file, line: error.line, reason: error.message + column))
                export.tally.skipped += 1
            case .row(let record):
                switch license(record, store: store, columns: columns, width: header.fields.count, file: file) {
                case .success(let license):
                    export.licenses.append(license)
                    export.tally.decided += 1
                case .failure(let reason):
                    export.skipped.append(SkippedLicenseRow(file: file, line: record.line, reason: reason.text, isUnreadable: !reason.isNoLicense))
                    if reason.isNoLicense {
                        export.tally.refused += 1
                    } else {
                        export.tally.skipped += 1
                    }
                }
            }
        }
        return export
    }

    private enum RowOrFailure {
        case row(CSVRecord)
        case failure(CSVRecordError)

        var line: Int {
            switch self {
            case .row(let record): record.line
            case .failure(let error): error.line
            }
        }
    }

    struct Reason: Error {
        var text: String
        /// Read whole, and no license: a store's totals row, a membership's recurring charge, an order not completed.
        var isNoLicense = false
    }

    /// One row as a license, or why it is none.
    static func license(
        _ record: CSVRecord, store: LicenseStore, columns: [LicenseStore.Field: Int], width: Int, file: String
    ) -> Result<License, Reason> {
        let fields = record.fields
        if store == .gumroad && fields.first == "Totals" { return .failure(Reason(text: "Gumroad's totals row, not a sale", isNoLicense: true)) }
        if fields.count != width {
            return .failure(Reason(text: "\(fields.count) fields where the header has \(width); a field with a comma must be quoted"))
        }
        func value(_ field: LicenseStore.Field) -> String? {
            guard let index = columns[field] else { return nil }
            let text = fields[index].trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
        func header(_ field: LicenseStore.Field) -> String {
            guard let index = columns[field] else { return "?" }
            return "'\(fieldName(index, columns: columns, store: store, field: field))'"
        }
        guard let order = value(.order) else { return .failure(Reason(text: "no order id in \(header(.order))")) }
        guard let email = value(.email) else {
            return .failure(Reason(text: "no e-mail address in \(header(.email)), so no code can reach the buyer"))
        }
        guard isEmail(email) else { return .failure(Reason(text: "\(header(.email)) holds no e-mail address")) }
        guard let product = value(.product) else { return .failure(Reason(text: "no product in \(header(.product))")) }
        let dateText = value(.time) ?? value(.date)
        guard let dateText else { return .failure(Reason(text: "no purchase date in \(header(.date))")) }
        guard let purchased = parseDate(dateText) else {
            return .failure(
                Reason(
                    text: "'\(dateText)' in \(header(value(.time) != nil ? .time : .date)) is not a date such as 2019-03-14 or 2019-03-14T09:30:00Z"))
        }
        var seats = 1
        if let text = value(.seats) {
            guard let number = Int(text), number >= 1, number <= 100_000 else {
                return .failure(Reason(text: "'\(text)' in \(header(.seats)) is not a number of seats from 1 to 100000"))
            }
            seats = number
        }
        func flag(_ field: LicenseStore.Field) -> Result<Bool, Reason> {
            guard let text = value(field) else { return .success(false) }
            switch text.lowercased() {
            case "1", "true", "yes", "y": return .success(true)
            case "0", "false", "no", "n": return .success(false)
            default: return .failure(Reason(text: "'\(text)' in \(header(field)) is neither yes nor no (1/0, true/false, yes/no)"))
            }
        }
        var refund: String?
        switch store {
        case .gumroad:
            if case .success(true) = flag(.recurring) {
                return .failure(Reason(text: "a membership's recurring charge, not a license (its first purchase counts)", isNoLicense: true))
            }
            for (field, reason) in [(LicenseStore.Field.fullyRefunded, "refunded"), (.accessRevoked, "access revoked")] {
                switch flag(field) {
                case .failure(let error): return .failure(error)
                case .success(true): refund = refund ?? reason
                case .success(false): break
                }
            }
            if case .success(true) = flag(.disputed), case .success(false) = flag(.disputeWon) { refund = refund ?? "charged back (dispute lost)" }
        case .paddle:
            let status = value(.status)?.lowercased() ?? ""
            switch status {
            case "completed", "partially refunded", "partially_refunded", "disputed": break
            case "refunded": refund = "refunded"
            case "chargeback", "charged back": refund = "charged back"
            default:
                return .failure(
                    Reason(
                        text: "order status '\(value(.status) ?? "")' is not completed, partially refunded, disputed or refunded; it is left out",
                        isNoLicense: true))
            }
        case .fastspring:
            for (field, reason) in [(LicenseStore.Field.refunded, "refunded"), (.chargeback, "charged back")] {
                switch flag(field) {
                case .failure(let error): return .failure(error)
                case .success(true): refund = refund ?? reason
                case .success(false): break
                }
            }
        case .csv:
            switch flag(.refunded) {
            case .failure(let error): return .failure(error)
            case .success(true): refund = "refunded"
            case .success(false): break
            }
        }
        let edition = value(.edition)
        let label = edition.map { "\(product) (\($0))" } ?? product
        return .success(
            License(
                store: store, file: file, line: record.line, order: order, email: email, name: value(.name) ?? "", label: label,
                version: value(.version), purchased: purchased, refund: refund, seats: seats))
    }

    private static func fieldName(_ index: Int, columns: [LicenseStore.Field: Int], store: LicenseStore, field: LicenseStore.Field) -> String {
        store.columns[field]?.first ?? "column \(index + 1)"
    }

    /// Whether `text` looks like an e-mail address: one `@` with text on both sides and no spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(" ")
    }

    /// An ISO 8601 date or date-time (`Timestamp.parse`), or `2019-03-14 09:30:00` with an optional ` UTC`, `Z` or
    /// ` +0000` (Gumroad's and spreadsheets' form), read as UTC. Other forms (03/14/2019) are ambiguous and refused.
    public static func parseDate(_ text: String) -> Date? {
        if let date = Timestamp.parse(text) { return date }
        var body = text
        for suffix in [" UTC", " +0000", "Z", " Z"] where body.hasSuffix(suffix) {
            body = String(body.dropLast(suffix.count))
            break
        }
        let parts = body.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let time = parts[1].split(separator: ":")
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }) else { return nil }
        return Timestamp.parse("\(parts[0])T\(time[0]):\(time[1]):\(time.count == 3 ? time[2] : "00")Z")
    }
}
