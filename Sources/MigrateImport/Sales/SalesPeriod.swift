import Foundation
import MigratePlan

/// What a sales report says about one reporting period (its `Begin Date` and `End Date`): a day, a week, a
/// month or a year. `simulate --actuals` puts these periods beside the forecast month by month; `import sales`
/// keeps only their totals in the install base.
public struct SalesPeriod: Sendable, Hashable {
    /// The period's first and last day, midnight UTC.
    public var begin: Date
    public var end: Date
    /// First-time app downloads at a customer price of 0, and above it (refunds subtracted).
    public var freeDownloads = 0
    public var paidDownloads = 0
    /// In-app purchase units bought in the period (renewals apart), by product id (the row's SKU).
    public var inAppUnits: [String: Int] = [:]
    /// In-app units refunded in the period (rows with negative units), by product id.
    public var inAppRefunds: [String: Int] = [:]
    /// Subscription renewals, by product id: not new purchases.
    public var renewals: [String: Int] = [:]
    /// Developer proceeds (units × per-unit proceeds) in ten-thousandths (`proceedsScale`), by currency of proceeds.
    public var proceeds: [String: Int64] = [:]
    /// Ten-thousandths in one unit of a currency: the report's figures have at most four decimals.
    public static let proceedsScale: Int64 = 10_000
    /// `proceeds` in units of each currency.
    public var proceedsAmounts: [String: Double] { proceeds.mapValues { Double($0) / Double(Self.proceedsScale) } }
    /// Where the period was first seen: `file:line`.
    public var origin: String
    /// The rows counted: one provider's SKU in one country and of one product type. Nil for counts of every row.
    public var series: SalesSeries?

    public init(begin: Date, end: Date, origin: String, series: SalesSeries? = nil) {
        self.begin = begin
        self.end = end
        self.origin = origin
        self.series = series
    }

    /// Adds another report's counts for the same period.
    public mutating func add(_ other: SalesPeriod) {
        freeDownloads += other.freeDownloads
        paidDownloads += other.paidDownloads
        inAppUnits.merge(other.inAppUnits, uniquingKeysWith: +)
        inAppRefunds.merge(other.inAppRefunds, uniquingKeysWith: +)
        renewals.merge(other.renewals, uniquingKeysWith: +)
        proceeds.merge(other.proceeds, uniquingKeysWith: { $0 &+ $1 })
    }

    /// Periods of several reports in date order, the same period (and series) of two reports added up.
    public static func combined(_ periods: [SalesPeriod]) -> [SalesPeriod] {
        var byKey: [Key: SalesPeriod] = [:]
        for period in periods {
            byKey[
                Key(begin: period.begin, end: period.end, series: period.series),
                default: SalesPeriod(begin: period.begin, end: period.end, origin: period.origin, series: period.series)
            ].add(period)
        }
        return byKey.values.sorted(by: inOrder)
    }

    /// Date order, then series order: the same order on every run.
    public static func inOrder(_ left: SalesPeriod, _ right: SalesPeriod) -> Bool {
        if (left.begin, left.end) != (right.begin, right.end) { return (left.begin, left.end) < (right.begin, right.end) }
        switch (left.series, right.series) {
        case (let left?, let right?): return left < right
        case (nil, _?): return true
        default: return false
        }
    }

    struct Key: Hashable {
        var begin: Date
        var end: Date
        var series: SalesSeries?
    }
}

/// Who a sales report is about, to tell a report of another app from this one's.
public struct SalesReportIdentity: Sendable, Hashable {
    /// The `Title` of app download rows.
    public var titles: Set<String> = []
    /// The `SKU` of app download rows (the SKU chosen in App Store Connect, often the bundle id).
    public var appSKUs: Set<String> = []
    /// The `SKU` of in-app rows: the product ids.
    public var products: Set<String> = []
    /// Rows with no `Begin Date`, which no period can hold.
    public var undatedRows = 0

    public init() {}

    public mutating func add(_ other: SalesReportIdentity) {
        titles.formUnion(other.titles)
        appSKUs.formUnion(other.appSKUs)
        products.formUnion(other.products)
        undatedRows += other.undatedRows
    }
}
