import Foundation
import MigratePlan

/// Staying paid's monthly trend, fitted to the install base's paid downloads per month: least squares of
/// `ln(paid downloads)` on the month, so the slope is a steady rate of change.
public struct TrendFit: Sendable, Hashable {
    /// Fewer months than this say too little about a trend; the documented default range is used instead.
    public static let minimumMonths = 6
    /// A month the reports cover less than this share of is left out: its count is a fraction of a month's.
    public static let minimumCoverage = 0.5

    /// Months the fit used.
    public var months: Int
    /// The fitted change per month (−0.03: 3% fewer each month).
    public var monthlyChange: Double
    /// The change per month at the slope ± 2 standard errors.
    public var low: Double
    public var high: Double
    /// The share of the variation in log downloads the line explains.
    public var rSquared: Double
    /// Paid downloads a month on the fitted line in the last month the fit used: where staying paid starts
    /// from. With a trend, the period's average is the rate of its middle, not of now.
    public var currentRate: Double
    /// The standard error of the fitted line's log in that month: how sure the fit is of the rate now.
    public var currentLogError: Double = 0
    /// The fitted slope of the log of downloads a month (unclamped), and the months the fit used, which `Season`
    /// reads the calendar months from.
    public var logSlope: Double = 0
    public var observed: [ObservedMonth] = []

    /// One month the fit used: its place in time (months since year 0, January 0), its calendar month (1–12) and
    /// its paid downloads scaled up to the whole month.
    public struct ObservedMonth: Sendable, Hashable {
        public var index: Int
        public var calendarMonth: Int
        public var paid: Double
    }

    /// A triangular range over the slope ± 2 standard errors, most likely the fitted change.
    public var distribution: Distribution {
        low < high ? .triangular(low: low, mode: monthlyChange, high: high) : .point(monthlyChange)
    }

    public var description: String {
        func percent(_ value: Double) -> String { (value < 0 ? "−" : "+") + FigureText.percentText(String(format: "%.1f", abs(value) * 100)) }
        return
            "installBase: fitted to \(months) months of paid downloads (log-linear least squares, R² \(FigureText.style.localized(String(format: "%.2f", rSquared)))): "
            + "\(percent(monthlyChange)) a month, \(percent(low)) to \(percent(high)) at ±2 standard errors"
    }

    public static func fit(_ base: InstallBase?) -> TrendFit? {
        guard let base, base.months.count >= minimumMonths else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var points: [(x: Double, y: Double)] = []
        var observed: [ObservedMonth] = []
        for entry in base.months where entry.paid > 0 {
            let parts = entry.month.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 1)),
                let end = calendar.date(byAdding: .month, value: 1, to: start)
            else { continue }
            // The share of the month the reports cover (the first and last months are often partial).
            var covered = end.timeIntervalSince(start)
            if let from = base.from, let until = base.until?.addingTimeInterval(86_400) {
                covered = max(0, min(end, until).timeIntervalSince(max(start, from)))
            }
            let coverage = covered / end.timeIntervalSince(start)
            guard coverage >= minimumCoverage else { continue }
            points.append((Double(parts[0] * 12 + parts[1]), log(Double(entry.paid) / coverage)))
            observed.append(ObservedMonth(index: parts[0] * 12 + parts[1], calendarMonth: parts[1], paid: Double(entry.paid) / coverage))
        }
        guard points.count >= minimumMonths else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / n
        let meanY = points.reduce(0) { $0 + $1.y } / n
        let sxx = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        let sxy = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        let syy = points.reduce(0) { $0 + ($1.y - meanY) * ($1.y - meanY) }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        let residual = max(0, syy - slope * sxy)
        let standardError = (residual / (n - 2) / sxx).squareRoot()
        func change(_ logSlope: Double) -> Double { min(0.5, max(-0.5, exp(logSlope) - 1)) }
        let lastX = points.reduce(-Double.infinity) { max($0, $1.x) }
        // The error of the line's value at the last month: the residual spread times √(1/n + (x − x̄)² / Sxx).
        let spread = (residual / (n - 2)).squareRoot()
        return TrendFit(
            months: points.count, monthlyChange: change(slope), low: change(slope - 2 * standardError), high: change(slope + 2 * standardError),
            rSquared: syy > 0 ? 1 - residual / syy : 1, currentRate: exp(meanY + slope * (lastX - meanX)),
            currentLogError: spread * (1 / n + (lastX - meanX) * (lastX - meanX) / sxx).squareRoot(), logSlope: slope, observed: observed)
    }
}
