import Foundation
import MigratePlan
import MigrateSupport

/// How the calendar months weigh against each other: a ski app sells in winter, a tax app in January. Staying
/// paid's sales and the free app's downloads both follow it, so a switch at the start of a season is compared
/// with the same months of staying paid, not with the year's average month.
public struct Season: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// No season known: every month alike.
        case flat
        /// The plan's `simulation.seasonality`.
        case plan(JSONPath?)
        /// The install base's paid downloads by month, against their fitted trend.
        case installBase(months: Int)
    }

    /// The twelve calendar months' factors, January first; their mean is 1.
    public var factors: [Double]
    public var source: Source

    public static let flat = Season(factors: [Double](repeating: 1, count: Seasonality.months), source: .flat)

    public var isFlat: Bool { source == .flat }

    /// The plan's season: `simulation.seasonality`; else the install base's months when they cover every calendar
    /// month (a year or more of reports); else flat.
    public static func of(_ plan: MigrationPlan) -> Season {
        if let written = plan.simulation?.seasonality {
            return Season(factors: written.factors, source: .plan(written.origin))
        }
        if let fit = TrendFit.fit(plan.installBase) {
            let observed = fit.observed.filter { $0.paid > 0 }
            // The trend, measured without the season: from the same calendar month a year apart where the reports have
            // one (a fitted line through seasonal months would take part of the season for trend), else the fit's slope.
            let byIndex = Dictionary(observed.map { ($0.index, $0.paid) }, uniquingKeysWith: { first, _ in first })
            let yearApart = observed.compactMap { month in byIndex[month.index + 12].map { log($0 / month.paid) / 12 } }
            let slope = yearApart.isEmpty ? fit.logSlope : yearApart.reduce(0, +) / Double(yearApart.count)
            let level = observed.reduce(0) { $0 + log($1.paid) - slope * Double($1.index) } / Double(max(1, observed.count))
            var ratios = [[Double]](repeating: [], count: Seasonality.months)
            for month in observed {
                ratios[month.calendarMonth - 1].append(month.paid / exp(level + slope * Double(month.index)))
            }
            if ratios.allSatisfy({ !$0.isEmpty }) {
                let weights = ratios.map { $0.reduce(0, +) / Double($0.count) }
                return Season(factors: Seasonality(weights: weights).factors, source: .installBase(months: observed.count))
            }
        }
        return .flat
    }

    /// The factor of a calendar month (1 = January).
    public func factor(calendarMonth: Int) -> Double { factors[(calendarMonth - 1) % Seasonality.months] }

    /// The factors of the horizon's months: month 1 is the calendar month of `start` (the switch).
    public func horizon(from start: Date?, months: Int) -> [Double] {
        guard !isFlat, let start else { return [Double](repeating: 1, count: months) }
        let first = Self.calendar.component(.month, from: start)
        return (0..<months).map { factor(calendarMonth: (first - 1 + $0) % Seasonality.months + 1) }
    }

    /// The average factor over the days from `from` to `until` (both included): what a count over those days
    /// is divided by to make it an average month's. 1 when the season is flat or the days are unknown.
    public func average(from: Date?, until: Date?) -> Double {
        guard !isFlat, let from, let until, until >= from else { return 1 }
        var total = 0.0
        var days = 0
        var day = Self.calendar.startOfDay(for: from)
        // At most ten years of days; longer reports average out to 1 anyway.
        while day <= until, days < 3_653 {
            total += factor(calendarMonth: Self.calendar.component(.month, from: day))
            days += 1
            day = day.addingTimeInterval(86_400)
        }
        return days > 0 ? total / Double(days) : 1
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// "Nov" for 11.
    public static func monthName(_ calendarMonth: Int) -> String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][(calendarMonth - 1) % 12]
    }
}
