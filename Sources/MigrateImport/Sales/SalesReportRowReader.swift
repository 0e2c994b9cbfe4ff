import Foundation
import MigratePlan
import MigrateSupport

extension SalesReportImporter {
    /// The state of one read of a report, row after row: what is counted, what was seen and what each row can
    /// skip because an earlier one found it. Its work is in the extensions beside this file: the header's columns,
    /// a row's fields, the counts, dates, money, texts, the survey, warnings and the result.
    struct RowReader {
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

        /// Supported Platforms texts that name a platform, and the platform.
        var namedPlatforms: [(name: String, platform: Platform)] = []

        /// The earliest one-day sale noted for a platform and a version's text: rows of later days skip `noteFirstSale`.
        var firstSaleDays: [FirstSaleText: Date] = [:]

        struct FirstSaleText: Hashable {
            var platform: Platform
            var version: String
        }

        /// Currencies whose total no longer fits in 64 bits (hostile or corrupt units × prices): not summed.
        var overflowed = Set<String>()
        /// Warnings past `Limits.salesReportWarnings`, counted only.
        var unlistedWarnings = 0

        /// Where each currency's total is in `customerTotals` and `proceedsTotals` (`TotalIndexes`).
        var customerIndexes = TotalIndexes()
        var proceedsIndexes = TotalIndexes()
    }
}
