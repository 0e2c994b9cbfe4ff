import Foundation
import MigratePlan

extension InstallBase {
    /// Days in an average Gregorian month: a month of reports is this many days of them.
    static let daysPerMonth = 30.436875

    /// The paid downloads the reports count, the months they cover (`from` to `until`, both days included) and
    /// their quotient; nil without `from` and `until`.
    public var averagePaidPerMonth: (paid: Int, months: Double, rate: Double)? {
        guard let from, let until else { return nil }
        let paid = downloads.reduce(0) { $0 + $1.paid }
        let months = max(1 / Self.daysPerMonth, (until.timeIntervalSince(from) + 86_400) / (Self.daysPerMonth * 86_400))
        return (paid, months, Double(paid) / months)
    }

    /// Whether the reports say how paid downloads are moving: enough months for `TrendFit`. Without that,
    /// the rate and its trend are guesses, and `init` asks for the rate as a range.
    public var showsTrend: Bool { TrendFit.fit(self) != nil }
}
