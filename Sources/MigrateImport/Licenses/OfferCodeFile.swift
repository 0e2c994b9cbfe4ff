import Foundation
import MigratePlan
import MigrateSupport

/// One one-time-use offer code as App Store Connect gave it.
public struct OfferCode: Sendable, Hashable {
    public var code: String
    /// The product the code is for: from the file's product column, or `--codes PRODUCT=FILE`.
    public var product: String
    /// When it stops working, when the file says.
    public var expires: Date?
    public var file: String
    public var line: Int

    public var place: String { "\(file):\(line)" }
}

/// A codes file read: its codes, in file order, and the rows skipped with their reasons.
public struct OfferCodeFile: Sendable {
    public var file: String
    public var codes: [OfferCode] = []
    public var skipped: [SkippedLicenseRow] = []
    public var rowsRead = 0
    /// The lines of the file that hold no code row: the count of all lines, the header's and the blank ones.
    public var lines = LineTally()

    /// Every line of the file accounted for: the header (when it has one), each code, each skipped row, blank lines.
    public var tally: LineTally {
        var tally = lines
        tally.decided = codes.count
        tally.skipped = skipped.count
        return tally
    }
}

/// Reads the one-time-use codes downloaded from App Store Connect (Offer Codes → the offer → one-time-use codes →
/// Download), strictly. Apple doesn't document the download's columns, so either form is read: a header naming a
/// code column (`Code`, `Offer Code`, `One-Time Use Code`; with, when present, `Expiration Date` or `Expires` and
/// `Product` or `Product ID`), or no header, one code per line (and an optional date after a comma).
public enum OfferCodeReader {
    static let codeColumns = ["code", "codes", "offer code", "one-time use code", "one time use code", "one-time-use code"]
    static let expiryColumns = ["expiration date", "expires", "expiration", "expiry", "expirationdate"]
    static let productColumns = ["product", "product id", "productid", "in-app purchase", "product identifier"]

    /// Reads `bytes`. `product` is the product the codes are for when the file has no product column.
    public static func read(_ bytes: [UInt8], file: String, product: String?) throws(ImportError) -> OfferCodeFile {
        var reader = CSVReader(maxRecordBytes: 64 * 1024, maxFields: 64)
        var records: [CSVRecord] = []
        var failures: [CSVRecordError] = []
        reader.feed(bytes[...], record: { records.append($0) }, failure: { failures.append($0) })
        reader.finish(record: { records.append($0) }, failure: { failures.append($0) })
        if let fatal = failures.first(where: \.isFatal) { throw ImportError(.badData, file: file, fatal.message) }
        var result = OfferCodeFile(file: file)
        guard let first = records.first else {
            throw ImportError(
                .badData, file: file, "the file holds no codes", hint: "Download the one-time-use codes from App Store Connect and give that file.")
        }
        let names = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let codeIndex = names.firstIndex { codeColumns.contains($0) }
        let hasHeader = codeIndex != nil
        if !hasHeader && !isCode(first.fields[0].trimmingCharacters(in: .whitespaces)) {
            throw ImportError(
                .badData, file: file, place: "line \(first.line)",
                "the first line ('\(first.fields.prefix(4).joined(separator: ","))') is neither a header with a Code column nor a code",
                hint: "Give the file App Store Connect downloaded, or a file with a 'code' column (and 'product', 'expires' if you like).")
        }
        let column = codeIndex ?? 0
        let expiryIndex = hasHeader ? names.firstIndex { expiryColumns.contains($0) } : (first.fields.count > 1 ? 1 : nil)
        let productIndex = hasHeader ? names.firstIndex { productColumns.contains($0) } : nil
        if productIndex == nil && product == nil {
            throw ImportError(
                .badData, file: file, "the file doesn't say which product its codes are for",
                hint: "Name it: --codes PRODUCT=\(file) (the legacy product's id in the plan), or add a 'product' column.")
        }
        result.lines.lines = reader.lines
        result.lines.header = hasHeader ? 1 : 0
        result.lines.blank = reader.blankLines
        let rows =
            (hasHeader ? Array(records.dropFirst()) : records).filter { record in
                if record.isBlank { result.lines.blank += 1 }
                return !record.isBlank
            }.map { (line: $0.line, record: Optional($0), error: String?.none) }
            + failures.map { (line: $0.line, record: CSVRecord?.none, error: Optional($0.message)) }
        for row in rows.sorted(by: { $0.line < $1.line }) {
            result.rowsRead += 1
            guard let record = row.record else {
                result.skipped.append(SkippedLicenseRow(file: file, line: row.line, reason: row.error ?? "unreadable"))
                continue
            }
            func field(_ index: Int?) -> String? {
                guard let index, index < record.fields.count else { return nil }
                let text = record.fields[index].trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            guard let code = field(column) else {
                result.skipped.append(SkippedLicenseRow(file: file, line: record.line, reason: "no code"))
                continue
            }
            guard isCode(code) else {
                result.skipped.append(
                    SkippedLicenseRow(file: file, line: record.line, reason: "'\(code)' is not an offer code (letters and digits, up to 64)"))
                continue
            }
            var expires: Date?
            if let text = field(expiryIndex) {
                guard let date = LicenseImporter.parseDate(text) else {
                    result.skipped.append(
                        SkippedLicenseRow(file: file, line: record.line, reason: "'\(text)' is not an expiration date such as 2027-03-31"))
                    continue
                }
                expires = date
            }
            guard let owner = field(productIndex) ?? product else {
                result.skipped.append(SkippedLicenseRow(file: file, line: record.line, reason: "no product for the code"))
                continue
            }
            result.codes.append(OfferCode(code: code, product: owner, expires: expires, file: file, line: record.line))
        }
        return result
    }

    /// Whether `text` can be a one-time-use code: letters and digits (App Store Connect's are upper-case), 1 to 64.
    static func isCode(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
