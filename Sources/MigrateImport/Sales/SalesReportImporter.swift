import Foundation
import MigratePlan
import MigrateSupport

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

    /// - Parameters:
    ///   - limit: the most bytes the report may hold, decompressed (`Limits.salesReportBytes`); a cap
    ///     on bytes read, not on memory: a gzipped report is inflated and parsed as a stream.
    ///   - progress: told the share of the report read so far, every few thousand rows (for a progress line).
    public static func read(
        _ bytes: [UInt8], file: String, limit: Int = Limits.salesReportBytes, progress: (@Sendable (Double) -> Void)? = nil
    ) throws(ImportError) -> ImportResult {
        let tooLarge =
            "the report is larger than \(limit >= 1 << 20 ? "\(Limits.grouped(limit >> 20)) MiB (\(Limits.grouped(limit)) bytes)" : "\(Limits.grouped(limit)) bytes"), migrate's limit for a sales report"
        let split = "Import a shorter period (a monthly or yearly Summary Sales report), or split the file and import each part."
        let parser = StreamParser(file: file, progress: progress)
        let total = Double(max(1, bytes.count))
        if Inflate.isGzip(bytes) {
            do {
                // Lines are parsed as the data inflates: memory holds the DEFLATE window and one line, not the report.
                try Inflate.gunzip(bytes, limit: limit) { chunk, offset in
                    parser.feed(chunk, readUpTo: Double(offset) / total)
                    return parser.failure == nil
                }
            } catch  where error.isTooLarge {
                throw ImportError(.badData, file: file, "\(tooLarge) once decompressed; stopped reading it", hint: split)
            } catch {
                throw ImportError(.badData, file: file, "\(error.description); the gzipped report cannot be read", hint: "Download the report again.")
            }
        } else {
            if bytes.count > limit {
                throw ImportError(.badData, file: file, tooLarge, hint: split)
            }
            var start = 0
            while start < bytes.count && parser.failure == nil {
                let end = min(bytes.count, start + Inflate.chunkSize)
                parser.feed(bytes[start..<end], readUpTo: Double(end) / total)
                start = end
            }
        }
        if let failure = parser.failure { throw failure }
        let result = try parser.finish()
        progress?(1)
        return result
    }

    /// Reads a report from pieces of bytes in order: lines are cut at "\n" (a "\r" before it dropped),
    /// each decoded on its own (invalid UTF-8 becomes U+FFFD, as in a whole decode); only a line that
    /// spans two pieces is copied. The first problem that ends the import is kept in `failure`, and
    /// then the rest is ignored.
    final class StreamParser {
        let file: String
        private(set) var failure: ImportError?
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var rows = 0
        private var reader: RowReader?
        /// The first line, held while it is blank and nothing else has been seen: a file of blanks is
        /// empty, but a blank line before content is a header without the needed columns.
        private var blankHeader: String?

        private let progress: (@Sendable (Double) -> Void)?
        /// The share of the input read once the current piece is parsed, for `progress`.
        private var fraction = 0.0

        init(file: String, progress: (@Sendable (Double) -> Void)?) {
            self.file = file
            self.progress = progress
        }

        func feed(_ bytes: ArraySlice<UInt8>, readUpTo fraction: Double) {
            guard failure == nil else { return }
            self.fraction = fraction
            if bytes.contains(0) {
                failure = ImportError(
                    .badData, file: file, "this is a binary file, not a tab-separated sales report",
                    hint: "Pass the .txt or .txt.gz file App Store Connect gives.")
                return
            }
            var start = bytes.startIndex
            while failure == nil, let newline = bytes[start...].firstIndex(of: 0x0A) {
                if partial.count + (newline - start) > Limits.salesReportLineBytes {
                    tooLong()
                    return
                }
                if partial.isEmpty {
                    line(bytes[start..<newline])
                } else {
                    partial += bytes[start..<newline]
                    let whole = partial
                    partial.removeAll(keepingCapacity: true)
                    line(whole[...])
                }
                start = newline + 1
            }
            guard failure == nil, start < bytes.endIndex else { return }
            partial += bytes[start...]
            if partial.count > Limits.salesReportLineBytes { tooLong() }
        }

        private func tooLong() {
            failure = ImportError(
                .badData, file: file, location: SourceLocation(line: lineNumber + 1, column: 1), place: "line \(lineNumber + 1)",
                "the line is longer than \(Limits.grouped(Limits.salesReportLineBytes)) bytes, migrate's limit for a line of a sales report; stopped reading",
                hint: "A Summary Sales report's lines are a few hundred bytes: pass the .txt or .txt.gz file App Store Connect gives.")
        }

        private func line(_ raw: ArraySlice<UInt8>) {
            var bytes = raw
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            lineNumber += 1
            let text = String(decoding: bytes, as: UTF8.self)
            if reader == nil {
                if blankHeader == nil && lineNumber == 1 && text[...].isBlank {
                    blankHeader = text
                    return
                }
                if let blank = blankHeader {
                    // Content after a blank first line: the blank line was the header.
                    guard !text[...].isBlank else { return }
                    header(blank)
                    guard failure == nil else { return }
                } else {
                    header(text)
                    return
                }
            }
            guard !text[...].isBlank else { return }
            reader?.read(text, line: lineNumber)
            rows += 1
            if rows % 50_000 == 0 { progress?(fraction) }
        }

        private func header(_ text: String) {
            do throws(ImportError) {
                reader = try SalesReportImporter.header(text, file: file)
            } catch {
                failure = error
            }
        }

        /// The result, once every piece was fed.
        func finish() throws(ImportError) -> ImportResult {
            if !partial.isEmpty {
                fraction = 1
                let last = partial
                partial = []
                line(last[...])
                if let failure { throw failure }
            }
            guard let reader else {
                throw ImportError(.badData, file: file, "the file is empty; expected a Summary Sales report with a header line")
            }
            return reader.finish()
        }
    }

    /// The row reader for a header line, or the error that says which needed columns it lacks.
    fileprivate static func header(_ line: String, file: String) throws(ImportError) -> RowReader {
        var header = line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0.trimmedOfSpaces) }
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
        return RowReader(file: file, columns: columns, width: header.count)
    }

    fileprivate struct RowReader {
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
        var issues: [Diagnostic] = []
        var appNames = Set<String>()
        /// The earliest one-day sale of each platform and version so far (as `FirstSale.earliest` picks
        /// it): one per version, not one per row, so a report of millions of daily rows holds a few.
        var firstSales: [String: FirstSale] = [:]
        /// Versions seen only in rows that span more than a day, which can't date a release.
        var undatedVersions = Set<String>()
        /// Counts by reporting period (begin and end day) and series (provider, SKU, country, product type), for
        /// `simulate --actuals`: a report holds few periods and series however many rows it has.
        var periods: [PeriodKey: SalesPeriod] = [:]
        var identity = SalesReportIdentity()

        struct PeriodKey: Hashable {
            var begin: Date
            var end: Date
            var series: SalesSeries
        }

        init(file: String, columns: [String: Int], width: Int) {
            self.file = file
            self.columns = columns
            self.width = width
        }

        func column(of name: String) -> Int { columns[name] ?? 0 }

        /// Dates and versions repeat on almost every row of a report: each distinct text is parsed once.
        var dates: [Substring: Date?] = [:]
        var versions: [Substring: Version] = [:]
        var amounts: [Substring: Int64?] = [:]
        var months: [Date: String] = [:]
        /// Currencies whose total no longer fits in 64 bits (hostile or corrupt units × prices): not summed.
        var overflowed = Set<String>()
        /// Warnings past `Limits.salesReportWarnings`, counted only.
        var unlistedWarnings = 0

        mutating func warn(_ code: DiagnosticCode, line: Int, column name: String?, _ message: String, fields: [Substring]) {
            var column = 1
            if let name, let index = columns[name] {
                column = fields[..<min(index, fields.count)].reduce(1) { $0 + $1.count + 1 }
            }
            // Counted past the limit, not kept: a report of millions of bad rows must not hold a warning for each.
            guard issues.count < Limits.salesReportWarnings else {
                unlistedWarnings += 1
                return
            }
            issues.append(
                Diagnostic(
                    .warning, code: code, message, location: SourceLocation(line: line, column: column), file: file, place: name.map { "'\($0)'" }))
        }

        mutating func noteFirstSale(_ sale: FirstSale) {
            let key = "\(sale.platform.rawValue) \(sale.version.canonical)"
            if let known = firstSales[key], !FirstSale.isEarlier(sale, than: known) { return }
            firstSales[key] = sale
        }

        mutating func read(_ text: String, line: Int) {
            // Tabs split at the byte level: splitting by Character costs a grapheme break check per byte.
            let fields = text.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { Substring($0) }
            guard fields.count == width else {
                warn(
                    .rowMalformed, line: line, column: nil, "the row has \(fields.count) fields but the header has \(width); skipped", fields: fields)
                return
            }
            func field(_ name: String) -> String? {
                guard let index = columns[name] else { return nil }
                let value = fields[index].trimmedOfSpaces
                return value.isEmpty ? nil : String(value)
            }
            let type = field("Product Type Identifier") ?? ""
            guard let unitsText = field("Units"), let units = Int(unitsText) else {
                warn(
                    .invalidValue, line: line, column: "Units", "'\(field("Units") ?? "")' is not a whole number of units; row skipped",
                    fields: fields)
                return
            }
            guard abs(units) <= Limits.salesUnitsPerRow else {
                warn(
                    .invalidValue, line: line, column: "Units",
                    "\(unitsText) units is more than migrate's limit of \(Limits.grouped(Limits.salesUnitsPerRow)) a row; row skipped",
                    fields: fields)
                return
            }
            var period: [String: Date] = [:]
            for name in ["Begin Date", "End Date"] {
                guard let value = field(name) else { continue }
                let key = Substring(value)
                let parsed = dates[key] ?? Self.parseDate(value)
                if dates.count < 100_000 { dates[key] = parsed }
                guard let date = parsed else {
                    warn(.invalidDate, line: line, column: name, "'\(value)' is not a date in MM/DD/YYYY form", fields: fields)
                    continue
                }
                period[name] = date
                if name == "Begin Date" { from = min(from ?? date, date) } else { until = max(until ?? date, date) }
            }
            var customerPrice = Int64(0)
            if let text = field("Customer Price") {
                guard let amount = cachedAmount(text) else {
                    warn(.invalidPrice, line: line, column: "Customer Price", "'\(text)' is not an amount; row skipped", fields: fields)
                    return
                }
                customerPrice = amount
            }
            if let currency = field("Customer Currency") { Self.add(customerPrice, units, currency, to: &customerTotals, overflowed: &overflowed) }
            var periodKey: PeriodKey?
            if let begin = period["Begin Date"] {
                // By series, so that two reports of the same sales over overlapping days can be told apart.
                let series = SalesSeries(
                    provider: field("Provider") ?? "", sku: field("SKU") ?? "", country: field("Country Code") ?? "", productType: type)
                let key = PeriodKey(begin: begin, end: max(begin, period["End Date"] ?? begin), series: series)
                if periods[key] == nil { periods[key] = SalesPeriod(begin: key.begin, end: key.end, origin: "\(file):\(line)", series: series) }
                periodKey = key
            } else {
                identity.undatedRows += 1
            }
            if let text = field("Developer Proceeds"), let proceeds = cachedAmount(text) {
                let currency = field("Currency of Proceeds") ?? field("Customer Currency") ?? "?"
                Self.add(proceeds, units, currency, to: &proceedsTotals, overflowed: &overflowed)
                if let periodKey, downloadTypes.contains(type) || inAppTypes.contains(type) {
                    var overflow = Set<String>()
                    Self.add(proceeds, units, currency, to: &periods[periodKey]!.proceeds, overflowed: &overflow)
                }
            }
            if let title = field("Title") { appNames.insert(title) }
            let platform = Self.platform(type: type, supported: field("Supported Platforms"))
            if downloadTypes.contains(type) {
                var version: Version?
                if let text = field("Version") {
                    do {
                        if let known = versions[Substring(text)] {
                            version = known
                        } else {
                            let parsed = try Version(text)
                            if versions.count < 100_000 { versions[Substring(text)] = parsed }
                            version = parsed
                        }
                    } catch {
                        warn(.invalidVersion, line: line, column: "Version", "\(error.description); counted without a version", fields: fields)
                    }
                }
                if let version, units > 0 {
                    // Only a one-day row says which day a version first sold; a week or a month says less.
                    if let begin = period["Begin Date"], let end = period["End Date"], begin == end {
                        noteFirstSale(FirstSale(platform: platform ?? .iOS, version: version, day: begin, origin: "\(file):\(line)"))
                    } else {
                        undatedVersions.insert(version.text)
                    }
                }
                let key = DownloadKey(platform: platform, version: version)
                var count = downloads[key] ?? DownloadCount(platform: platform, version: version)
                if let title = field("Title") { identity.titles.insert(title) }
                if let sku = field("SKU") { identity.appSKUs.insert(sku) }
                if let periodKey {
                    if customerPrice == 0 { periods[periodKey]!.freeDownloads += units } else { periods[periodKey]!.paidDownloads += units }
                }
                if customerPrice == 0 {
                    count.free += units
                } else {
                    count.paid += units
                    if let begin = period["Begin Date"] {
                        let month = months[begin] ?? MonthlyDownloads.month(of: begin)
                        if months.count < 100_000 { months[begin] = month }
                        monthly[month, default: 0] += units
                    }
                    if units < 0 { count.refunds += -units }
                }
                downloads[key] = count
            } else if redownloadTypes.contains(type) {
                if type.contains("7") { updates += units } else { redownloads += units }
            } else if inAppTypes.contains(type) {
                guard let id = field("SKU") else {
                    warn(
                        .entrySkipped, line: line, column: "SKU", "an in-app purchase row without a SKU (the product id); row skipped", fields: fields
                    )
                    return
                }
                let renewal = field("Subscription") == "Renewal"
                if renewal { renewals += units }
                identity.products.insert(id)
                if let periodKey {
                    if units < 0 {
                        periods[periodKey]!.inAppRefunds[id, default: 0] += -units
                    } else if renewal {
                        periods[periodKey]!.renewals[id, default: 0] += units
                    } else {
                        periods[periodKey]!.inAppUnits[id, default: 0] += units
                    }
                }
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
            if unlistedWarnings > 0 {
                result.issues.append(
                    Diagnostic(
                        .warning, code: .rowMalformed,
                        "\(Limits.grouped(unlistedWarnings)) more rows skipped with warnings; only the first \(Limits.grouped(Limits.salesReportWarnings)) are listed",
                        location: nil, file: file, place: nil))
            }
            result.installBase = InstallBase(
                from: from, until: until, downloads: InstallBaseBuilder.sorted(Array(downloads.values)),
                products: products.values.sorted { $0.product < $1.product },
                months: monthly.sorted { $0.key < $1.key }.map { MonthlyDownloads(month: $0.key, paid: max(0, $0.value)) })
            result.firstSales = FirstSale.earliest(Array(firstSales.values)).map { sale in
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
            for currency in overflowed.sorted() {
                result.ignored.append("money in \(currency) is not summed: its total is past what 64 bits hold (check the report's Units and prices)")
            }
            if appNames.count == 1 { result.app.name = appNames.first }
            result.periods = periods.values.sorted(by: SalesPeriod.inOrder)
            result.salesIdentity = identity
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

        /// `amount(_:)`, parsed once per distinct text (prices repeat on most rows).
        mutating func cachedAmount(_ text: String) -> Int64? {
            let key = Substring(text)
            if let known = amounts[key] { return known }
            let parsed = Self.amount(text)
            if amounts.count < 100_000 { amounts[key] = parsed }
            return parsed
        }

        /// Adds units × a per-unit amount to a currency's total, with overflow checked: a total past 64 bits is
        /// dropped from the notes (said so) instead of trapping on a corrupt or hostile report.
        static func add(_ amount: Int64, _ units: Int, _ currency: String, to totals: inout [String: Int64], overflowed: inout Set<String>) {
            guard !overflowed.contains(currency) else { return }
            let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(units))
            let (sum, overflowSum) = (totals[currency] ?? 0).addingReportingOverflow(product)
            if overflow || overflowSum {
                overflowed.insert(currency)
                totals[currency] = nil
            } else {
                totals[currency] = sum
            }
        }

        static func format(_ tenThousandths: Int64) -> String {
            let text = Price(tenThousandths: abs(tenThousandths)).description
            return tenThousandths < 0 ? "-" + text : text
        }
    }
}

extension Substring {
    /// True for a line of spaces and tabs only (or nothing).
    var isBlank: Bool { trimmedOfSpaces.isEmpty }

    /// Without leading and trailing spaces and tabs (what `CharacterSet.whitespaces` holds: tab and the
    /// Unicode space separators), without Foundation's per-call cost on millions of fields.
    var trimmedOfSpaces: Substring {
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        // Almost every field starts and ends with an ASCII letter or digit: no Unicode lookup then.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self[...]
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
