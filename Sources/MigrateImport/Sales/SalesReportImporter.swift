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
    ///   - bySeries: keep each period's counts per series (provider, SKU, country, product type), as
    ///     `simulate --actuals` needs to tell overlapping reports apart; without it, one count per period, which
    ///     is all `import sales` needs and several times faster on a large report.
    ///   - progress: told the share of the report read so far, every few thousand rows (for a progress line).
    public static func read(
        _ bytes: [UInt8], file: String, limit: Int = Limits.salesReportBytes, bySeries: Bool = false, scope: SalesScope? = nil,
        progress: (@Sendable (Double) -> Void)? = nil
    ) throws(ImportError) -> ImportResult {
        var rowScope: SalesRowScope?
        var survey: SalesReportSurvey?
        if let scope {
            // A first pass over the columns that say whose each row is: the report may hold every app of the account.
            let surveyor = StreamParser(file: file, bySeries: false, progress: nil, surveying: true)
            try feed(bytes, to: surveyor, file: file, limit: limit)
            let found = try surveyor.survey()
            let scoped = SalesRowScope(survey: found, scope: scope)
            let parentless = !found.parentlessProducts.keys.filter(scope.products.contains).isEmpty
            guard !scoped.appSKUs.isEmpty || parentless else { throw anotherApp(found, scope: scope, file: file) }
            rowScope = scoped
            survey = found
        }
        let parser = StreamParser(file: file, bySeries: bySeries, progress: progress, rowScope: rowScope)
        try feed(bytes, to: parser, file: file, limit: limit)
        var result = try parser.finish()
        if let survey, let rowScope {
            result.salesScope = SalesScopeReport(survey: survey, appSKUs: rowScope.appSKUs, setAside: result.salesScope?.setAside ?? SalesSetAside())
            result.salesScope?.tookSoleApp = scope.map { survey.appSKUs(for: $0).isEmpty } ?? false
        }
        progress?(1)
        return result
    }

    /// Feeds a report's bytes to a parser, inflating a gzipped one as it goes, within `limit` bytes.
    private static func feed(_ bytes: [UInt8], to parser: StreamParser, file: String, limit: Int) throws(ImportError) {
        let tooLarge =
            "the report is larger than \(limit >= 1 << 20 ? "\(Limits.grouped(limit >> 20)) MiB (\(Limits.grouped(limit)) bytes)" : "\(Limits.grouped(limit)) bytes"), migrate's limit for a sales report"
        let split = "Import a shorter period (a monthly or yearly Summary Sales report), or split the file and import each part."
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
    }

    /// The error for a report none of whose apps is the scope's: it names the apps the report holds.
    static func anotherApp(_ survey: SalesReportSurvey, scope: SalesScope, file: String) -> ImportError {
        let apps = survey.apps.values.sorted { $0.sku < $1.sku }
        guard !apps.isEmpty || !survey.parentlessProducts.isEmpty else {
            return ImportError(.badData, file: file, "the report has no app downloads or in-app purchases to compare")
        }
        var names = apps.prefix(5).map(\.label)
        if apps.count > 5 { names.append("and \(apps.count - 5) more") }
        if names.isEmpty { names = survey.parentlessProducts.keys.sorted().prefix(3).map { "'\($0)'" } }
        return ImportError(
            .badData, file: file,
            "this report is for another app: it holds \(names.joined(separator: ", ")), and none of their titles, SKUs, Apple Identifiers or products is \(scope.name)'s (\(scope.bundleID))",
            hint:
                "Pass the Summary Sales report of \(scope.name), or the plan of the app the report is for. If one of those apps is \(scope.name) under another name, write its SKU in the plan's app (\"sku\": \"…\") or its Apple ID (\"appleID\": \"…\")."
        )
    }

    /// Reads a report from pieces of bytes in order: lines are cut at "\n" (a "\r" before it dropped) and
    /// handed to the row reader as bytes, which decodes only the fields it reads (invalid UTF-8 becomes U+FFFD,
    /// as in a whole decode); only a line that spans two pieces is copied. The first problem that ends the
    /// import is kept in `failure`, and then the rest is ignored.
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

        let bySeries: Bool
        /// The first pass: whose rows these are, nothing counted.
        let surveying: Bool
        let rowScope: SalesRowScope?
        /// Blank lines passed over.
        private var blankLines = 0

        init(
            file: String, bySeries: Bool, progress: (@Sendable (Double) -> Void)?, surveying: Bool = false, rowScope: SalesRowScope? = nil
        ) {
            self.bySeries = bySeries
            self.file = file
            self.progress = progress
            self.surveying = surveying
            self.rowScope = rowScope
        }

        /// What the first pass found.
        func survey() throws(ImportError) -> SalesReportSurvey {
            finishLine()
            if let failure { throw failure }
            return reader?.survey ?? SalesReportSurvey()
        }

        func feed(_ bytes: ArraySlice<UInt8>, readUpTo fraction: Double) {
            guard failure == nil else { return }
            self.fraction = fraction
            bytes.withUnsafeBufferPointer { feed($0) }
        }

        /// Lines found with `memchr`, which reads a word or more at a time.
        private func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if memchr(base, 0, bytes.count) != nil {
                failure = ImportError(
                    .badData, file: file, "this is a binary file, not a tab-separated sales report",
                    hint: "Pass the .txt or .txt.gz file App Store Connect gives.")
                return
            }
            var start = 0
            while failure == nil, let found = memchr(base + start, 0x0A, bytes.count - start) {
                let newline = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                if partial.count + (newline - start) > Limits.salesReportLineBytes {
                    tooLong()
                    return
                }
                let piece = UnsafeBufferPointer(start: base + start, count: newline - start)
                if partial.isEmpty {
                    line(piece)
                } else {
                    partial += piece
                    let whole = partial
                    partial.removeAll(keepingCapacity: true)
                    whole.withUnsafeBufferPointer { line($0) }
                }
                start = newline + 1
            }
            guard failure == nil, start < bytes.count else { return }
            partial += UnsafeBufferPointer(start: base + start, count: bytes.count - start)
            if partial.count > Limits.salesReportLineBytes { tooLong() }
        }

        private func tooLong() {
            failure = ImportError(
                .badData, file: file, location: SourceLocation(line: lineNumber + 1, column: 1), place: "line \(lineNumber + 1)",
                "the line is longer than \(Limits.grouped(Limits.salesReportLineBytes)) bytes, migrate's limit for a line of a sales report; stopped reading",
                hint: "A Summary Sales report's lines are a few hundred bytes: pass the .txt or .txt.gz file App Store Connect gives.")
        }

        private func line(_ raw: UnsafeBufferPointer<UInt8>) {
            var bytes = raw
            if bytes.last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            lineNumber += 1
            if reader == nil {
                let text = String(decoding: bytes, as: UTF8.self)
                if blankHeader == nil && lineNumber == 1 && text[...].isBlank {
                    blankHeader = text
                    return
                }
                if let blank = blankHeader {
                    // Content after a blank first line: the blank line was the header.
                    guard !text[...].isBlank else {
                        blankLines += 1
                        return
                    }
                    header(blank)
                    guard failure == nil else { return }
                } else {
                    header(text)
                    return
                }
            }
            guard !Self.isBlank(bytes) else {
                blankLines += 1
                return
            }
            reader?.read(bytes, line: lineNumber)
            rows += 1
            if rows % 50_000 == 0 { progress?(fraction) }
        }

        /// `isBlank` without decoding the line unless it holds bytes past ASCII (a Unicode space, perhaps).
        static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for byte in bytes where byte != 0x20 && byte != 0x09 {
                return byte < 0x80 ? false : String(decoding: bytes, as: UTF8.self)[...].isBlank
            }
            return true
        }

        private func header(_ text: String) {
            do throws(ImportError) {
                reader = try SalesReportImporter.header(text, file: file, bySeries: bySeries)
                reader?.surveying = surveying
                reader?.rowScope = rowScope
            } catch {
                failure = error
            }
        }

        /// Reads the last line, when the input doesn't end with a line feed.
        private func finishLine() {
            guard !partial.isEmpty, failure == nil else { return }
            fraction = 1
            let last = partial
            partial = []
            last.withUnsafeBufferPointer { line($0) }
        }

        /// The result, once every piece was fed.
        func finish() throws(ImportError) -> ImportResult {
            finishLine()
            if let failure { throw failure }
            guard let reader else {
                throw ImportError(.badData, file: file, "the file is empty; expected a Summary Sales report with a header line")
            }
            var result = reader.finish()
            // Every line accounted for: the header, each row counted, set aside or skipped, and the blank lines.
            var tally = LineTally()
            tally.lines = lineNumber
            tally.header = 1
            tally.blank = blankLines
            tally.decided = reader.countedRows
            tally.skipped = reader.skippedRows
            tally.setAside = reader.setAside.total
            result.salesTally = tally
            if rowScope != nil { result.salesScope = SalesScopeReport(survey: SalesReportSurvey(), appSKUs: [], setAside: reader.setAside) }
            return result
        }
    }

    /// The row reader for a header line, or the error that says which needed columns it lacks.
    fileprivate static func header(_ line: String, file: String, bySeries: Bool) throws(ImportError) -> RowReader {
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
        return RowReader(file: file, columns: columns, width: header.count, bySeries: bySeries)
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
        /// The first pass over a report: only whose each row is (`survey`), nothing counted.
        var surveying = false
        var survey = SalesReportSurvey()
        /// Which rows are the app's, when the report is read for one app; nil: every row counts.
        var rowScope: SalesRowScope?
        /// Rows of other apps, set aside whole.
        var setAside = SalesSetAside()
        /// Paid download units by customer currency and price (ten-thousandths): what the download cost.
        var paidPrices: [String: [Int64: Int]] = [:]
        /// Rows counted, and rows skipped (each with a warning).
        var countedRows = 0
        var skippedRows = 0

        struct PeriodKey: Hashable {
            var begin: Date
            var end: Date
            var series: SalesSeries?
        }

        /// The columns read, found once from the header: a row looks each field up by index.
        let typeColumn: Int?
        let unitsColumn: Int?
        let beginColumn: Int?
        let endColumn: Int?
        let customerPriceColumn: Int?
        let customerCurrencyColumn: Int?
        let proceedsColumn: Int?
        let proceedsCurrencyColumn: Int?
        let titleColumn: Int?
        let platformsColumn: Int?
        let versionColumn: Int?
        let skuColumn: Int?
        let providerColumn: Int?
        let countryColumn: Int?
        let subscriptionColumn: Int?
        let parentColumn: Int?
        let appleIDColumn: Int?

        /// Counts kept per series in each period (`read(_:file:bySeries:)`).
        let bySeries: Bool

        init(file: String, columns: [String: Int], width: Int, bySeries: Bool) {
            self.bySeries = bySeries
            self.file = file
            self.columns = columns
            self.width = width
            typeColumn = columns["Product Type Identifier"]
            unitsColumn = columns["Units"]
            beginColumn = columns["Begin Date"]
            endColumn = columns["End Date"]
            customerPriceColumn = columns["Customer Price"]
            customerCurrencyColumn = columns["Customer Currency"]
            proceedsColumn = columns["Developer Proceeds"]
            proceedsCurrencyColumn = columns["Currency of Proceeds"]
            titleColumn = columns["Title"]
            platformsColumn = columns["Supported Platforms"]
            versionColumn = columns["Version"]
            skuColumn = columns["SKU"]
            providerColumn = columns["Provider"]
            countryColumn = columns["Country Code"]
            subscriptionColumn = columns["Subscription"]
            parentColumn = columns["Parent Identifier"]
            appleIDColumn = columns["Apple Identifier"]
        }

        /// Notes whose row this is, for the survey: the app's SKU, title and Apple Identifier, or an in-app
        /// purchase's parent.
        mutating func note(_ fields: Fields) {
            func field(_ column: Int?) -> String? {
                column.flatMap { column in interned(column, fields).map { texts.strings[$0] } ?? fields.string(column) }
            }
            let type = field(typeColumn) ?? ""
            let kind = typeColumn.flatMap { fields.ascii($0) }.flatMap { TypeKind($0) } ?? TypeKind(type)
            let units = unitsColumn.flatMap { fields.integer($0) } ?? 0
            survey.hasParentColumn = parentColumn != nil
            guard let sku = field(skuColumn) else { return }
            if kind == .inApp {
                guard let parent = field(parentColumn) else {
                    survey.parentlessProducts[sku, default: 0] += 1
                    return
                }
                survey.productsByParent[parent, default: []].insert(sku)
                var app = survey.apps[parent] ?? SalesReportApp(sku: parent)
                app.inAppRows += 1
                app.inAppUnits += units
                survey.apps[parent] = app
            } else {
                var app = survey.apps[sku] ?? SalesReportApp(sku: sku)
                app.rows += 1
                app.units += units
                if let title = field(titleColumn), app.titles.count < 8 { app.titles.insert(title) }
                if let appleID = field(appleIDColumn), app.appleIDs.count < 8 { app.appleIDs.insert(appleID) }
                survey.apps[sku] = app
            }
        }

        func column(of name: String) -> Int { columns[name] ?? 0 }

        /// Dates and versions repeat on almost every row of a report: each distinct text is parsed once.
        var dates: [Substring: Date?] = [:]
        /// Dates in MM/DD/YYYY form by their digits (`dateKey`), and the last one read.
        var datesByDigits: [Int: Date?] = [:]
        var lastDate: (key: Int, date: Date?) = (-1, nil)
        var versions: [Substring: Version] = [:]
        var amounts: [Substring: Int64?] = [:]
        var months: [Date: String] = [:]
        /// Where the fields of a row start, kept between rows so that a row allocates nothing for them.
        var spareBounds: [Int] = []
        /// What the last rows read, so that a row repeating it skips the lookups (a set already holds the value).
        var lastRow = LastRow()

        struct LastRow {
            var version: Version?
            var period: (key: PeriodKey, index: [PeriodKey: SalesPeriod].Index)?
            var month: (begin: Date, month: String)?
        }

        /// Titles and SKUs seen so far.
        var texts = Interner()

        /// The entry in `texts` of a field whose ends are ASCII and that isn't blank; nil to read it as text.
        mutating func interned(_ column: Int?, _ fields: Fields) -> Int? {
            guard let column, let bytes = fields.ascii(column), !bytes.isEmpty else { return nil }
            return texts.entry(bytes)
        }

        /// Supported Platforms texts that name a platform, and the platform.
        var namedPlatforms: [(name: String, platform: Platform)] = []

        /// The earliest one-day sale noted for a platform and a version's text: rows of later days skip `noteFirstSale`.
        var firstSaleDays: [FirstSaleText: Date] = [:]

        struct FirstSaleText: Hashable {
            var platform: Platform
            var version: String
        }

        /// What a Product Type Identifier counts as: `downloadTypes`, `redownloadTypes` (a "7" in it an update),
        /// `inAppTypes`, or none of them.
        enum TypeKind {
            case download, redownload, update, inApp, other

            init(_ type: String) {
                if downloadTypes.contains(type) {
                    self = .download
                } else if redownloadTypes.contains(type) {
                    self = type.contains("7") ? .update : .redownload
                } else if inAppTypes.contains(type) {
                    self = .inApp
                } else {
                    self = .other
                }
            }

            /// The kind of an ASCII identifier up to 8 bytes, without hashing it; nil for any other.
            init?(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard bytes.count <= 8, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                let packed = Self.pack(bytes)
                guard let kind = Self.table.first(where: { $0.packed == packed })?.kind else {
                    self = .other
                    return
                }
                self = kind
            }

            static func pack<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
                bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | UInt64(bytes.count) << 60
            }

            /// Every identifier of the three sets, packed, with its kind.
            static let table: [(packed: UInt64, kind: TypeKind)] = (downloadTypes.union(redownloadTypes).union(inAppTypes)).map {
                (pack(Array($0.utf8)), TypeKind($0))
            }
        }
        /// Currencies whose total no longer fits in 64 bits (hostile or corrupt units × prices): not summed.
        var overflowed = Set<String>()
        /// Warnings past `Limits.salesReportWarnings`, counted only.
        var unlistedWarnings = 0

        mutating func warn(_ code: DiagnosticCode, line: Int, column name: String?, _ message: String, fields: Fields) {
            var column = 1
            if let name, let index = columns[name] {
                // Characters, not bytes, as an editor counts them.
                column = (0..<min(index, fields.count)).reduce(1) { $0 + fields.text($1).count + 1 }
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

        mutating func read(_ line: UnsafeBufferPointer<UInt8>, line number: Int) {
            // Tabs split at the byte level, into offsets kept from row to row; a field is decoded only when read.
            var bounds = spareBounds
            spareBounds = []
            bounds.removeAll(keepingCapacity: true)
            bounds.append(0)
            var index = 0
            if let base = line.baseAddress {
                // Eight bytes a step: a byte's high bit marks a tab, exactly (no carry crosses a byte).
                while index + 8 <= line.count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian ^ 0x0909_0909_0909_0909
                    var tabs = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
                    while tabs != 0 {
                        bounds.append(index + tabs.trailingZeroBitCount >> 3 + 1)
                        tabs &= tabs &- 1
                    }
                    index += 8
                }
            }
            while index < line.count {
                if line[index] == 0x09 { bounds.append(index + 1) }
                index += 1
            }
            bounds.append(line.count + 1)
            let fields = Fields(line: line, bounds: bounds)
            bounds = []
            defer { spareBounds = fields.bounds }
            read(fields, line: number)
        }

        mutating func read(_ fields: Fields, line: Int) {
            guard fields.count == width else {
                warn(
                    .rowMalformed, line: line, column: nil, "the row has \(fields.count) fields but the header has \(width); skipped", fields: fields)
                skippedRows += 1
                return
            }
            if surveying { return note(fields) }
            func field(_ column: Int?) -> String? { column.flatMap { fields.string($0) } }
            // Made only when needed: most rows are classified from the bytes and their platform named.
            lazy var type = field(typeColumn) ?? ""
            let kind = typeColumn.flatMap { fields.ascii($0) }.flatMap { TypeKind($0) } ?? TypeKind(type)
            guard let units = unitsColumn.flatMap({ fields.integer($0) }) ?? field(unitsColumn).flatMap({ Int($0) }) else {
                warn(
                    .invalidValue, line: line, column: "Units", "'\(field(unitsColumn) ?? "")' is not a whole number of units; row skipped",
                    fields: fields)
                skippedRows += 1
                return
            }
            guard abs(units) <= Limits.salesUnitsPerRow else {
                warn(
                    .invalidValue, line: line, column: "Units",
                    "\(field(unitsColumn) ?? "") units is more than migrate's limit of \(Limits.grouped(Limits.salesUnitsPerRow)) a row; row skipped",
                    fields: fields)
                skippedRows += 1
                return
            }
            // Whose row it is, before anything of it is counted: another app's is set aside whole.
            let skuEntry = interned(skuColumn, fields)
            let sku = skuEntry.map { texts.strings[$0] } ?? field(skuColumn)
            if kind == .inApp && sku == nil {
                warn(.entrySkipped, line: line, column: "SKU", "an in-app purchase row without a SKU (the product id); row skipped", fields: fields)
                skippedRows += 1
                return
            }
            if let rowScope {
                let parent = parentColumn.flatMap { column in interned(column, fields).map { texts.strings[$0] } ?? field(column) }
                guard rowScope.contains(inApp: kind == .inApp, sku: sku, parent: parent) else {
                    let owner = (kind == .inApp ? parent : sku) ?? ""
                    setAside.rows[owner, default: 0] += 1
                    setAside.units[owner, default: 0] += units
                    return
                }
            }
            var customerPrice = Int64(0)
            if let column = customerPriceColumn {
                if let amount = fields.amount(column) {
                    customerPrice = amount
                } else if let text = field(column) {
                    guard let amount = cachedAmount(text) else {
                        warn(.invalidPrice, line: line, column: "Customer Price", "'\(text)' is not an amount; row skipped", fields: fields)
                        skippedRows += 1
                        return
                    }
                    customerPrice = amount
                }
            }
            countedRows += 1
            let begin = readDate(beginColumn, name: "Begin Date", fields: fields, line: line)
            if let begin { from = min(from ?? begin, begin) }
            let end = readDate(endColumn, name: "End Date", fields: fields, line: line)
            if let end { until = max(until ?? end, end) }
            // Currencies repeat: each is found in `texts`, and its total by the index remembered for it.
            let customerEntry = interned(customerCurrencyColumn, fields)
            let customerCurrency = customerEntry.map { texts.strings[$0] } ?? field(customerCurrencyColumn)
            if let currency = customerCurrency {
                Self.add(customerPrice, units, currency, customerEntry, to: &customerTotals, indexes: &customerIndexes, overflowed: &overflowed)
            }
            // The period's index in `periods`, which stays valid until a period is added: a row of the last row's
            // period updates it without hashing the key again.
            var periodKey: [PeriodKey: SalesPeriod].Index?
            if let begin {
                // By series, so that two reports of the same sales over overlapping days can be told apart.
                let series =
                    bySeries
                    ? SalesSeries(
                        provider: field(providerColumn) ?? "", sku: field(skuColumn) ?? "", country: field(countryColumn) ?? "", productType: type)
                    : nil
                let key = PeriodKey(begin: begin, end: max(begin, end ?? begin), series: series)
                if key != lastRow.period?.key {
                    if periods[key] == nil {
                        periods[key] = SalesPeriod(begin: key.begin, end: key.end, origin: "\(file):\(line)", series: series)
                    }
                    lastRow.period = (key, periods.index(forKey: key)!)
                }
                periodKey = lastRow.period?.index
            } else {
                identity.undatedRows += 1
            }
            if let column = proceedsColumn, let proceeds = fields.amount(column) ?? field(column).flatMap({ cachedAmount($0) }) {
                var currencyEntry = interned(proceedsCurrencyColumn, fields)
                var currency = currencyEntry.map { texts.strings[$0] } ?? field(proceedsCurrencyColumn) ?? ""
                if currency.isEmpty { (currency, currencyEntry) = (customerCurrency ?? "?", customerEntry) }
                Self.add(proceeds, units, currency, currencyEntry, to: &proceedsTotals, indexes: &proceedsIndexes, overflowed: &overflowed)
                if let periodKey, kind == .download || kind == .inApp {
                    var overflow = Set<String>()
                    Self.add(proceeds, units, currency, to: &periods.values[periodKey].proceeds, overflowed: &overflow)
                }
            }
            // Titles and SKUs repeat: one seen before is neither decoded nor hashed again, nor inserted into a set holding it.
            let titleEntry = interned(titleColumn, fields)
            let title = titleEntry.map { texts.strings[$0] } ?? field(titleColumn)
            if let title { texts.insert(title, titleEntry, into: &appNames, flag: Interner.appNames) }
            let supported = field(platformsColumn)
            let platform: Platform?
            // A named platform doesn't depend on the type: the few names a report holds are remembered.
            if let supported, let named = namedPlatforms.first(where: { $0.name == supported }) {
                platform = named.platform
            } else {
                platform = Self.platform(type: type, supported: supported)
                if let supported, namedPlatforms.count < 8, let named = Platform(named: supported) { namedPlatforms.append((supported, named)) }
            }
            if kind == .download {
                var version: Version?
                if let text = field(versionColumn) {
                    do {
                        if let last = lastRow.version, last.text == text {
                            version = last
                        } else if let known = versions[Substring(text)] {
                            version = known
                        } else {
                            let parsed = try Version(text)
                            if versions.count < 100_000 { versions[Substring(text)] = parsed }
                            version = parsed
                        }
                    } catch {
                        warn(.invalidVersion, line: line, column: "Version", "\(error.description); counted without a version", fields: fields)
                    }
                    if let version { lastRow.version = version }
                }
                if let version, units > 0 {
                    // Only a one-day row says which day a version first sold; a week or a month says less.
                    if let begin, let end, begin == end {
                        // A later day than one already noted for this version's text can't be its first sale.
                        let noted = FirstSaleText(platform: platform ?? .iOS, version: version.text)
                        if firstSaleDays[noted].map({ begin <= $0 }) ?? true {
                            noteFirstSale(FirstSale(platform: platform ?? .iOS, version: version, day: begin, origin: "\(file):\(line)"))
                            firstSaleDays[noted] = min(firstSaleDays[noted] ?? begin, begin)
                        }
                    } else {
                        undatedVersions.insert(version.text)
                    }
                }
                let key = DownloadKey(platform: platform, version: version)
                // Found once by its index, updated in place: one hash of the key for a known one.
                let index =
                    downloads.index(forKey: key)
                    ?? {
                        downloads[key] = DownloadCount(platform: platform, version: version)
                        return downloads.index(forKey: key)!
                    }()
                var count = downloads.values[index]
                if let title { texts.insert(title, titleEntry, into: &identity.titles, flag: Interner.titles) }
                if let sku { texts.insert(sku, skuEntry, into: &identity.appSKUs, flag: Interner.appSKUs) }
                if let periodKey {
                    if customerPrice == 0 {
                        periods.values[periodKey].freeDownloads += units
                    } else {
                        periods.values[periodKey].paidDownloads += units
                    }
                }
                if customerPrice == 0 {
                    count.free += units
                } else {
                    count.paid += units
                    if let currency = customerCurrency { paidPrices[currency, default: [:]][customerPrice, default: 0] += units }
                    if let begin {
                        let month = lastRow.month?.begin == begin ? lastRow.month!.month : months[begin] ?? MonthlyDownloads.month(of: begin)
                        if months.count < 100_000 { months[begin] = month }
                        lastRow.month = (begin, month)
                        monthly[month, default: 0] += units
                    }
                    if units < 0 { count.refunds += -units }
                }
                downloads.values[index] = count
            } else if kind == .update {
                updates += units
            } else if kind == .redownload {
                redownloads += units
            } else if kind == .inApp {
                let id = sku ?? ""
                let renewal =
                    subscriptionColumn.map { column in fields.ascii(column).map { $0.elementsEqual("Renewal".utf8) } ?? (field(column) == "Renewal") }
                    ?? false
                if renewal { renewals += units }
                texts.insert(id, skuEntry, into: &identity.products, flag: Interner.products)
                if let periodKey {
                    if units < 0 {
                        periods.values[periodKey].inAppRefunds[id, default: 0] += -units
                    } else if renewal {
                        periods.values[periodKey].renewals[id, default: 0] += units
                    } else {
                        periods.values[periodKey].inAppUnits[id, default: 0] += units
                    }
                }
                let index =
                    products.index(forKey: id)
                    ?? {
                        products[id] = ProductCount(product: id, units: 0)
                        return products.index(forKey: id)!
                    }()
                var count = products.values[index]
                count.units += units
                if units < 0 { count.refunds += -units }
                products.values[index] = count
            } else {
                otherTypes[type.isEmpty ? "(blank)" : type, default: 0] += units
            }
        }

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

        /// Texts found by their bytes with a cheap hash (eight bytes a step, not `Hasher`'s SipHash), each decoded once,
        /// with a bit for each set already holding it. Up to `limit` texts; past that, `entry` says nil.
        struct Interner {
            static let appNames: UInt8 = 1
            static let titles: UInt8 = 2
            static let appSKUs: UInt8 = 4
            static let products: UInt8 = 8
            static let limit = 4_096

            private(set) var strings: [String] = []
            var flags: [UInt8] = []
            private var hashes: [UInt64] = []
            /// Each text's bytes, `bytes[starts[i] ..< starts[i + 1]]`.
            private var bytes: [UInt8] = []
            private var starts: [Int] = [0]
            /// Open addressing: an entry's index, or -1.
            private var slots = [Int32](repeating: -1, count: 1_024)

            static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
                var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
                var index = 0
                while index + 8 <= bytes.count {
                    let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                    hash ^= hash >> 29
                    index += 8
                }
                var last: UInt64 = 0
                while index < bytes.count {
                    last = last << 8 | UInt64(bytes[index])
                    index += 1
                }
                hash = (hash ^ last) &* 0xC4CE_B9FE_1A85_EC53
                return hash ^ hash >> 32
            }

            /// Inserts a text into a set, unless its entry (if it has one) says the set holds it already.
            mutating func insert(_ text: String, _ entry: Int?, into set: inout Set<String>, flag: UInt8) {
                guard let entry else {
                    set.insert(text)
                    return
                }
                guard flags[entry] & flag == 0 else { return }
                set.insert(text)
                flags[entry] |= flag
            }

            mutating func entry(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
                let hash = Self.hash(text)
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] >= 0 {
                    let entry = Int(slots[slot])
                    if hashes[entry] == hash && starts[entry + 1] - starts[entry] == text.count
                        && bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[entry], text.baseAddress!, text.count) == 0 })
                    {
                        return entry
                    }
                    slot = (slot + 1) & mask
                }
                guard strings.count < Self.limit else { return nil }
                strings.append(String(decoding: text, as: UTF8.self))
                flags.append(0)
                hashes.append(hash)
                bytes += text
                starts.append(bytes.count)
                slots[slot] = Int32(strings.count - 1)
                if strings.count * 2 > slots.count {
                    // Twice the slots, every entry placed again.
                    slots = [Int32](repeating: -1, count: slots.count * 2)
                    for (index, hash) in hashes.enumerated() {
                        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
                        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
                        slots[slot] = Int32(index)
                    }
                }
                return strings.count - 1
            }
        }

        /// A row's fields as ranges of its line's bytes: field `i` is `line[bounds[i] ..< bounds[i + 1] - 1]`. What a row
        /// reads is decoded from them; the common forms (ASCII text, whole numbers, amounts) without making a `String`.
        struct Fields {
            let line: UnsafeBufferPointer<UInt8>
            let bounds: [Int]

            var count: Int { bounds.count - 1 }

            /// The field as text, untrimmed.
            func text(_ index: Int) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: line[bounds[index]..<bounds[index + 1] - 1]), as: UTF8.self)
            }

            /// The field's bytes without surrounding spaces (empty when blank) when ASCII decides where it starts and ends,
            /// or nil when a byte past ASCII is at an edge (a Unicode space, perhaps): then `string` trims as `trimmedOfSpaces`.
            func ascii(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
                var start = bounds[index]
                var end = bounds[index + 1] - 1
                while start < end && line[start] == 0x20 { start += 1 }
                while end > start && line[end - 1] == 0x20 { end -= 1 }
                guard start == end || (line[start] < 0x80 && line[end - 1] < 0x80) else { return nil }
                return UnsafeBufferPointer(rebasing: line[start..<end])
            }

            /// The field without surrounding spaces, or nil when that leaves nothing.
            func string(_ index: Int) -> String? {
                if let bytes = ascii(index) { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
                let value = Substring(text(index)).trimmedOfSpaces
                return value.isEmpty ? nil : String(value)
            }

            /// A whole number as `Int(_:)` reads it (a sign, ASCII digits, no overflow), or nil to read the field as text.
            func integer(_ index: Int) -> Int? {
                guard let bytes = ascii(index), let first = bytes.first else { return nil }
                let negative = first == 0x2D
                var position = negative || first == 0x2B ? 1 : 0
                guard position < bytes.count else { return nil }
                var value = 0
                while position < bytes.count {
                    let digit = bytes[position] &- 0x30
                    guard digit < 10 else { return nil }
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
                    guard !overflow && !overflowSum else { return nil }
                    value = sum
                    position += 1
                }
                return value
            }

            /// An amount in ten-thousandths as `amount(_:)` reads its plain forms (`-1.99`, `0`, `12.5`), or nil to read the
            /// field as text (blank, grouping commas, anything else).
            func amount(_ index: Int) -> Int64? {
                guard let bytes = ascii(index), let first = bytes.first else { return nil }
                let negative = first == 0x2D
                var position = negative ? 1 : 0
                var whole: Int64 = 0
                let wholeStart = position
                while position < bytes.count {
                    let digit = bytes[position] &- 0x30
                    guard digit < 10 else { break }
                    whole = whole &* 10 &+ Int64(digit)
                    position += 1
                }
                guard position > wholeStart, position - wholeStart <= Limits.priceWholeDigits else { return nil }
                var fraction: Int64 = 0
                if position < bytes.count {
                    guard bytes[position] == 0x2E, bytes.count - position - 1 <= 4, position + 1 < bytes.count else { return nil }
                    position += 1
                    var scale: Int64 = 1_000
                    while position < bytes.count {
                        let digit = bytes[position] &- 0x30
                        guard digit < 10 else { return nil }
                        fraction += Int64(digit) * scale
                        scale /= 10
                        position += 1
                    }
                }
                let value = whole * SalesPeriod.proceedsScale + fraction
                return negative ? -value : value
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
            // The price most paid downloads were sold at, in the currency most of them were sold in.
            if let (currency, prices) = paidPrices.max(by: { ($0.value.values.reduce(0, +), $1.key) < ($1.value.values.reduce(0, +), $0.key) }),
                let (price, units) = prices.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), units > 0,
                let parsed = try? Price(Self.format(price))
            {
                result.paidDownloadPrice = PaidDownloadPrice(price: parsed, currency: currency, units: units, of: prices.values.reduce(0, +))
            }
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
            guard overflowed.isEmpty || !overflowed.contains(currency) else { return }
            let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(units))
            // One hash of the currency for a total already there (the common case): updated in place by its index.
            let index = totals.index(forKey: currency)
            let (sum, overflowSum) = (index.map { totals.values[$0] } ?? 0).addingReportingOverflow(product)
            if overflow || overflowSum {
                overflowed.insert(currency)
                totals[currency] = nil
            } else if let index {
                totals.values[index] = sum
            } else {
                totals[currency] = sum
            }
        }

        /// Where each currency's total is in `customerTotals` or `proceedsTotals`, by its entry in `texts`: valid while
        /// the dictionary's `generation` is the one it was found in (a key added or removed moves the others).
        struct TotalIndexes {
            var generation = 0
            var found: [(generation: Int, index: [String: Int64].Index)?] = []
        }
        var customerIndexes = TotalIndexes()
        var proceedsIndexes = TotalIndexes()

        /// `add(_:_:_:to:overflowed:)` for a currency with an entry in `texts`: its total found by the remembered index,
        /// without hashing the currency.
        static func add(
            _ amount: Int64, _ units: Int, _ currency: String, _ entry: Int?, to totals: inout [String: Int64], indexes: inout TotalIndexes,
            overflowed: inout Set<String>
        ) {
            guard let entry else {
                add(amount, units, currency, to: &totals, overflowed: &overflowed)
                indexes.generation += 1  // it may have added or removed a key
                return
            }
            guard overflowed.isEmpty || !overflowed.contains(currency) else { return }
            let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(units))
            if indexes.found.count <= entry { indexes.found += repeatElement(nil, count: entry + 1 - indexes.found.count) }
            var index: [String: Int64].Index?
            if let found = indexes.found[entry], found.generation == indexes.generation {
                index = found.index
            } else {
                index = totals.index(forKey: currency)
            }
            let (sum, overflowSum) = (index.map { totals.values[$0] } ?? 0).addingReportingOverflow(product)
            if overflow || overflowSum {
                overflowed.insert(currency)
                totals[currency] = nil
                indexes.generation += 1
            } else if let index {
                totals.values[index] = sum
                indexes.found[entry] = (indexes.generation, index)
            } else {
                totals[currency] = sum
                indexes.generation += 1
                indexes.found[entry] = (indexes.generation, totals.index(forKey: currency)!)
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
