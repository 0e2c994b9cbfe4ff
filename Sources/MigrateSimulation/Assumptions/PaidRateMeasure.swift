import Foundation
import MigratePlan

/// The paid downloads a month the install base measures, and how sure the count makes it.
///
/// A count of N sales is N ± √N, so a rate from one month of 266 sales is known to about ±8% at P10–P90
/// (1.28 ÷ √266) before any month-to-month variation: a log-normal whose P10 and P90 are
/// `rate × exp(∓1.28 σ)`, with σ = 1 ÷ √N for the reports' average, or the fitted line's standard error in the
/// last month when a trend is fitted (`TrendFit.currentLogError`), whichever is larger.
public struct PaidRateMeasure: Sendable, Hashable, CustomStringConvertible {
    /// Paid downloads the reports count, and the months they cover.
    public var paid: Int
    public var months: Double
    /// Paid downloads a month now: the fitted trend's last month, or the reports' average; divided by the season
    /// of the months they cover when the season is known.
    public var rate: Double
    /// The fit that gave the rate, when there is one.
    public var fit: TrendFit?
    /// The average season factor of the months the reports cover (1 when the season is flat).
    public var seasonOfReports: Double
    /// The standard error of the rate's log.
    public var logError: Double

    /// z at the 90th percentile.
    static let z90 = 1.2815515655446004

    public init(_ base: InstallBase, season: Season) {
        let average = base.averagePaidPerMonth ?? (paid: 0, months: 0, rate: 0)
        paid = average.paid
        months = average.months
        fit = TrendFit.fit(base)
        seasonOfReports = fit == nil ? season.average(from: base.from, until: base.until) : 1
        rate = (fit?.currentRate ?? average.rate) / (seasonOfReports > 0 ? seasonOfReports : 1)
        let counting = paid > 0 ? 1 / Double(paid).squareRoot() : 0
        logError = max(counting, fit?.currentLogError ?? 0)
    }

    /// ±8% as P10 to P90 in percent of the rate.
    public var spread: Double { exp(Self.z90 * logError) - 1 }

    /// A log-normal over the counting uncertainty; a single value when nothing was counted.
    public var distribution: Distribution {
        guard rate > 0, logError > 0 else { return .point(rate) }
        return .logNormal(low: rate * exp(-Self.z90 * logError), high: rate * exp(Self.z90 * logError))
    }

    public var description: String {
        let count = "\(FigureText.count(paid)) paid downloads over \(FigureText.style.localized(String(format: "%.1f", months))) months"
        let band = "±" + FigureText.percentText(String(format: "%.0f", spread * 100))
        var text: String
        if let fit {
            text = "installBase: the fitted trend's last month (\(count), \(Int((Double(paid) / max(months, 1e-9)).rounded())) a month on average)"
            text += ", \(band) (P10–P90) from the fit's standard error over \(fit.months) months"
        } else {
            text = "installBase: \(count), \(band) (P10–P90) from counting them"
        }
        if seasonOfReports != 1 {
            text += "; ÷ \(FigureText.style.localized(String(format: "%.2f", seasonOfReports))), the season of the months they cover"
        }
        return text
    }
}
