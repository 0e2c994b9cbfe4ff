import Foundation
import MigratePlan

/// Reads App Store Connect Summary Sales reports (TSV, plain or gzipped) into an install base.
///
/// Columns are found by header name because Apple has shipped 20- to 28-column variants.
/// `Customer Price` and `Developer Proceeds` are per unit and `Units` is negative for refunds,
/// so totals are `units × per-unit`, summed exactly in ten-thousandths per currency.
public enum SalesReportImporter {
    /// Product Type Identifiers of first-time app downloads (paid when the customer price is not zero).
    public static let downloadTypes: Set<String> = ["1", "1F", "1T", "F1", "1E", "1EP", "1EU"]
    /// Redownloads and updates: not purchases.
    public static let redownloadTypes: Set<String> = ["3", "3F", "3T", "F3", "7", "7F", "7T", "F7"]
    /// In-app purchases and subscriptions.
    public static let inAppTypes: Set<String> = ["IA1", "IA1-M", "FI1", "IA9", "IA9-M", "IAY", "IAY-M", "IAC", "IAC-M"]

    static let neededColumns = ["Product Type Identifier", "Units", "Customer Price", "SKU"]

    /// - Parameter limit: the most bytes the report may hold, decompressed (`Limits.salesReportBytes`).
    public static func read(_ bytes: [UInt8], file: String, limit: Int = Limits.salesReportBytes) throws(ImportError) -> ImportResult {
        var data = bytes
        let tooLarge = "the report is larger than \(limit >= 1 << 20 ? "\(Limits.grouped(limit >> 20)) MiB (\(Limits.grouped(limit)) bytes)" : "\(Limits.grouped(limit)) bytes"), migrate's limit for a sales report"
        let split = "Import a shorter period (a monthly or yearly Summary Sales report), or split the file and import each part."
        if Inflate.isGzip(bytes) {
            do {
                data = try Inflate.gunzip(bytes, limit: limit)
            } catch where error.isTooLarge {
                throw ImportError(.badData, file: file, "\(tooLarge) once decompressed; stopped reading it", hint: split)
            } catch {
                throw ImportError(.badData, file: file, "\(error.description); the gzipped report cannot be read", hint: "Download the report again.")
            }
        }
        if data.count > limit {
            throw ImportError(.badData, file: file, tooLarge, hint: split)
        }
        if data.contains(0) {
            throw ImportError(.badData, file: file, "this is a binary file, not a tab-separated sales report", hint: "Pass the .txt or .txt.gz file App Store Connect gives.")
        }
        let text = String(decoding: data, as: UTF8.self)
        // "\r\n" is one Character in Swift, so both line ends are separators here.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        guard let headerLine = lines.first else {
            throw ImportError(.badData, file: file, "the file is empty; expected a Summary Sales report with a header line")
        }
        var header = headerLine.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() where columns[name] == nil { columns[name] = index }
        let missing = neededColumns.filter { columns[$0] == nil }
        if !missing.isEmpty {
            var hint = "A Summary Sales report (Sales and Trends → Reports → Sales, Summary) has them."
            if columns["Subscription Name"] != nil || columns["Active Standard Price Subscriptions"] != nil {
                hint = "This is a Subscription report; import the Summary Sales report instead."
            } else if header.count < 2 {
                hint = "The line has no tabs: the file is not tab-separated. " + hint
            } else if let guess = missing.lazy.compactMap({ Suggestions.closest(to: $0, in: header) }).first {
                hint = "Did you mean '\(guess)'? " + hint
            }
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            throw ImportError(
                .badData, file: file, location: SourceLocation(line: 1, column: 1), place: "header",
                "missing column\(missing.count == 1 ? "" : "s") \(names) (found \(header.count) columns)", hint: hint)
        }
        var reader = RowReader(file: file, columns: columns, width: header.count)
        for (offset, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.read(String(line), line: offset + 1)
        }
        return reader.finish()
    }

    private struct RowReader {
        let file: String
        let columns: [String: Int]
        let width: Int
        var downloads: [DownloadKey: DownloadCount] = [:]
        var products: [String: ProductCount] = [:]
        var from: Date?
        var until: Date?
        var monthly: [String: Int] = [:]
        var redownloads = 0
        var updates = 0
        var renewals = 0
        var otherTypes: [String: Int] = [:]
        var customerTotals: [String: Int64] = [:]
        var proceedsTotals: [String: Int64] = [:]
        var issues: [ImportIssue] = []
        var appNames = Set<String>()
        var firstSales: [FirstSale] = []
        /// Versions seen only in rows that span more than a day, which can't date a release.
        var undatedVersions = Set<String>()

        init(file: String, columns: [String: Int], width: Int) {
            self.file = file
            self.columns = columns
            self.width = width
        }

        func column(of name: String) -> Int { columns[name] ?? 0 }

        mutating func warn(line: Int, column name: String?, _ message: String, fields: [String]) {
            var column = 1
            if let name, let index = columns[name] {
                column = fields[..<min(index, fields.count)].reduce(1) { $0 + $1.count + 1 }
            }
            issues.append(ImportIssue(.warning, file: file, location: SourceLocation(line: line, column: column), place: name.map { "'\($0)'" }, message))
        }

        mutating func read(_ text: String, line: Int) {
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == width else {
                warn(line: line, column: nil, "the row has \(fields.count) fields but the header has \(width); skipped", fields: fields)
                return
            }
            func field(_ name: String) -> String? {
                guard let index = columns[name] else { return nil }
                let value = fields[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            let type = field("Product Type Identifier") ?? ""
            guard let unitsText = field("Units"), let units = Int(unitsText) else {
                warn(line: line, column: "Units", "'\(field("Units") ?? "")' is not a whole number of units; row skipped", fields: fields)
                return
            }
            var period: [String: Date] = [:]
            for name in ["Begin Date", "End Date"] {
                guard let value = field(name) else { continue }
                guard let date = Self.parseDate(value) else {
                    warn(line: line, column: name, "'\(value)' is not a date in MM/DD/YYYY form", fields: fields)
                    continue
                }
                period[name] = date
                if name == "Begin Date" { from = min(from ?? date, date) } else { until = max(until ?? date, date) }
            }
            var customerPrice = Int64(0)
            if let text = field("Customer Price") {
                guard let amount = Self.amount(text) else {
                    warn(line: line, column: "Customer Price", "'\(text)' is not an amount; row skipped", fields: fields)
                    return
                }
                customerPrice = amount
            }
            if let currency = field("Customer Currency") { customerTotals[currency, default: 0] += customerPrice * Int64(units) }
            if let text = field("Developer Proceeds"), let proceeds = Self.amount(text) {
                let currency = field("Currency of Proceeds") ?? field("Customer Currency") ?? "?"
                proceedsTotals[currency, default: 0] += proceeds * Int64(units)
            }
            if let title = field("Title") { appNames.insert(title) }
            let platform = Self.platform(type: type, supported: field("Supported Platforms"))
            if downloadTypes.contains(type) {
                var version: Version?
                if let text = field("Version") {
                    do {
                        version = try Version(text)
                    } catch {
                        warn(line: line, column: "Version", "\(error.description); counted without a version", fields: fields)
                    }
                }
                if let version, units > 0 {
                    // Only a one-day row says which day a version first sold; a week or a month says less.
                    if let begin = period["Begin Date"], let end = period["End Date"], begin == end {
                        firstSales.append(FirstSale(platform: platform ?? .iOS, version: version, day: begin, origin: "\(file):\(line)"))
                    } else {
                        undatedVersions.insert(version.text)
                    }
                }
                let key = DownloadKey(platform: platform, version: version)
                var count = downloads[key] ?? DownloadCount(platform: platform, version: version)
                if customerPrice == 0 {
                    count.free += units
                } else {
                    count.paid += units
                    if let begin = field("Begin Date").flatMap(Self.parseDate) { monthly[MonthlyDownloads.month(of: begin), default: 0] += units }
                    if units < 0 { count.refunds += -units }
                }
                downloads[key] = count
            } else if redownloadTypes.contains(type) {
                if type.contains("7") { updates += units } else { redownloads += units }
            } else if inAppTypes.contains(type) {
                guard let id = field("SKU") else {
                    warn(line: line, column: "SKU", "an in-app purchase row without a SKU (the product id); row skipped", fields: fields)
                    return
                }
                if field("Subscription") == "Renewal" { renewals += units }
                var count = products[id] ?? ProductCount(product: id, units: 0)
                count.units += units
                if units < 0 { count.refunds += -units }
                products[id] = count
            } else {
                otherTypes[type.isEmpty ? "(blank)" : type, default: 0] += units
            }
        }

        func finish() -> ImportResult {
            var result = ImportResult(source: "sales")
            result.issues = issues
            result.installBase = InstallBase(
                from: from, until: until, downloads: InstallBaseBuilder.sorted(Array(downloads.values)),
                products: products.values.sorted { $0.product < $1.product },
                months: monthly.sorted { $0.key < $1.key }.map { MonthlyDownloads(month: $0.key, paid: max(0, $0.value)) })
            result.firstSales = FirstSale.earliest(firstSales).map { sale in
                var sale = sale
                sale.isReportStart = sale.day == from
                return sale
            }
            let dated = Set(result.firstSales.map(\.version.text))
            let undated = undatedVersions.subtracting(dated)
            if !undated.isEmpty {
                result.ignored.append(
                    "note: \(undated.count) version\(undated.count == 1 ? "" : "s") sold only in rows spanning more than a day; "
                        + "a daily report dates the day each version first sold")
            }
            if redownloads != 0 || updates != 0 {
                result.ignored.append("\(redownloads) redownloads and \(updates) updates (not purchases)")
            }
            if renewals != 0 { result.ignored.append("note: in-app units include \(renewals) subscription renewals") }
            for (type, units) in otherTypes.sorted(by: { $0.key < $1.key }) {
                result.ignored.append("\(units) units of product type '\(type)' (not an app download or in-app purchase)")
            }
            for (currency, total) in customerTotals.sorted(by: { $0.key < $1.key }) where total != 0 {
                result.ignored.append("customer sales \(Self.format(total)) \(currency) (money is not stored in the plan)")
            }
            for (currency, total) in proceedsTotals.sorted(by: { $0.key < $1.key }) where total != 0 {
                result.ignored.append("developer proceeds \(Self.format(total)) \(currency)")
            }
            if appNames.count == 1 { result.app.name = appNames.first }
            return result
        }

        static func platform(type: String, supported: String?) -> Platform? {
            if let supported, let platform = Platform(named: supported) { return platform }
            if type.hasPrefix("F") || type.hasSuffix("-M") { return .macOS }
            return .iOS
        }

        /// `10/05/2020` (MM/DD/YYYY) as midnight UTC.
        static func parseDate(_ text: String) -> Date? {
            let parts = text.split(separator: "/")
            guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4 else { return nil }
            return Timestamp.parse("\(parts[2])-\(parts[0])-\(parts[1])")
        }

        /// A signed decimal amount in ten-thousandths, exactly: `-1.99` → -19900.
        static func amount(_ text: String) -> Int64? {
            let negative = text.hasPrefix("-")
            let digits = negative ? String(text.dropFirst()) : text
            guard let price = try? Price(digits.replacingOccurrences(of: ",", with: "")) else { return nil }
            return negative ? -price.tenThousandths : price.tenThousandths
        }

        static func format(_ tenThousandths: Int64) -> String {
            let text = Price(tenThousandths: abs(tenThousandths)).description
            return tenThousandths < 0 ? "-" + text : text
        }
    }
}
