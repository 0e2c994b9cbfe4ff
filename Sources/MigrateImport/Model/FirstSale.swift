import Foundation
import MigratePlan

/// The first day a sales report shows a version being downloaded: the version was live by the end of it.
///
/// App Store Connect keeps no go-live history, and git says when code was written; a daily Summary Sales
/// report is the one record of when customers could first get a version.
public struct FirstSale: Sendable, Hashable {
    public var platform: Platform
    /// The marketing version, as the report's Version column gives it.
    public var version: Version
    /// The first report day (midnight UTC of its date) with a download of this version.
    public var day: Date
    /// Where it was read, such as `sales-2019-03-28.txt:14`.
    public var origin: String
    /// The day is the report's first: the version may have sold before the report begins, so the day
    /// dates nothing. Kept so that a later report can't date the version by a later day.
    public var isReportStart: Bool

    public init(platform: Platform, version: Version, day: Date, origin: String, isReportStart: Bool = false) {
        self.platform = platform
        self.version = version
        self.day = day
        self.origin = origin
        self.isReportStart = isReportStart
    }

    /// The moment the version was live by, whatever time zone the report's day is in: the day's end in the
    /// last time zone (UTC−12), so that every purchase on that day counts as made before it. That errs
    /// towards customers: a first free release dated this way never turns a payer into a new customer.
    public var liveBy: Date { Timestamp.endOfDayEverywhere(day) }

    /// Whether `sale` wins over `other` of the same version: the earlier day; on the same day, a
    /// report's first day (it says the version may have sold before); then the origin, so the choice is stable.
    static func isEarlier(_ sale: FirstSale, than other: FirstSale) -> Bool {
        func rank(_ sale: FirstSale) -> (Date, Int, String) { (sale.day, sale.isReportStart ? 0 : 1, sale.origin) }
        return rank(sale) < rank(other)
    }

    /// One entry per platform and version, the earliest, in a stable order.
    public static func earliest(_ sales: [FirstSale]) -> [FirstSale] {
        var best: [String: FirstSale] = [:]
        for sale in sales {
            let key = "\(sale.platform.rawValue) \(sale.version.canonical)"
            if let known = best[key], !isEarlier(sale, than: known) { continue }
            best[key] = sale
        }
        return best.values.sorted { ($0.day, $0.platform, $0.version.canonical) < ($1.day, $1.platform, $1.version.canonical) }
    }
}
