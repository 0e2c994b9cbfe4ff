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
}
