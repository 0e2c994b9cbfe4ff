import Foundation
import MigratePlan
import MigrateSupport

extension ForecastNote {
    /// The note in words, for `simulate` and the report alike.
    public var text: String {
        switch self {
        case .flatSeason(let date):
            let when =
                date.map { "the switch in \(Self.monthAndYear($0)) is compared with the paid app's average month" }
                ?? "every month is compared with the paid app's average month"
            return "Season: none known, so \(when). If sales rise and fall over the year, give a year of sales reports "
                + "(installBase.months) or simulation.seasonality (twelve weights, January first)."
        case .season(let season, let date):
            let from: String
            switch season.source {
            case .flat: from = "none"
            case .plan(let path): from = path?.description ?? "simulation.seasonality"
            case .installBase(let months): from = "\(months) months of paid downloads in installBase.months, against their trend"
            }
            let weights = (1...12).map { "\(Season.monthName($0)) \(String(format: "%.2f", season.factor(calendarMonth: $0)))" }.joined(
                separator: ", ")
            guard let date else {
                return "Season (from \(from)): not applied, as the plan has no free release after a paid one to start it from: \(weights)."
            }
            return "Season (from \(from)): the switch in \(Self.monthAndYear(date)) is month 1, and staying paid and the free app's downloads "
                + "both follow it: \(weights)."
        case .smallBusinessAssumed(let date):
            return "Commission: the plan sets none, and the switch (\(Timestamp.formatDate(date))) is after the App Store Small Business "
                + "Program began (1 January 2021), so its 15% is assumed: it needs enrolment, and proceeds up to $1M in the previous calendar "
                + "year. Set simulation.commission to \"standard\" if you pay 30%."
        }
    }

    static func monthAndYear(_ date: Date) -> String {
        let parts = Season.calendar.dateComponents([.year, .month], from: date)
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(names[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
    }
}
