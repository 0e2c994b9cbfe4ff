import Foundation

/// The calibration set as the manual shows it, misses included: one row per published figure, its forecast
/// P10–P90 and whether it fell inside; then one row per published answer.
public enum CalibrationTable {
    public static func markdown(_ results: [CalibrationResult]) -> String {
        var out = "| switch | figure | months | published | forecast P10–P90 (P50) | inside |\n|---|---|---|---|---|---|\n"
        for result in results {
            for item in result.figures {
                let outcome = item.outcome
                let published = (outcome.bound == .atLeast ? "≥ " : "") + figure(outcome.value, outcome.figure)
                let band =
                    "\(figure(item.band.p10, outcome.figure))–\(figure(item.band.p90, outcome.figure)) (\(figure(item.band.p50, outcome.figure)))"
                let place = item.inside ? "yes" : (item.above ? "**no, above**" : "**no, below**")
                let months = outcome.months == 1 ? "1" : "1–\(outcome.months)"
                out += "| \(result.app) | \(name(outcome.figure)) | \(months) | \(published) | \(band) | \(place) |\n"
            }
        }
        out += "\n| switch | months | published | forecast: freemium ahead in | verdict |\n|---|---|---|---|---|\n"
        for result in results {
            guard let ahead = result.publishedAhead, let right = result.verdictRight else { continue }
            out +=
                "| \(result.app) | \(result.months) | freemium \(ahead ? "ahead" : "behind") | \(FigureText.percent(result.probabilityAhead)) of draws | \(right ? "right" : "**wrong**") |\n"
        }
        let summary = CalibrationSummary(results)
        out += "\n\(summary.inside) of \(summary.figures) published figures fell inside the forecast's P10–P90 "
        out += "(\(String(format: "%.0f%%", summary.hitRate * 100))); the verdict was right in \(summary.verdictsRight) of \(summary.verdicts).\n"
        return out
    }

    static func name(_ figure: CalibrationOutcome.Figure) -> String {
        switch figure {
        case .freeDownloads: "free downloads"
        case .freemiumProceeds: "freemium proceeds"
        case .proceedsRatio: "proceeds, freemium ÷ staying paid"
        case .monthlyProceedsRatio: "last month's proceeds, freemium ÷ staying paid"
        }
    }

    static func figure(_ value: Double, _ kind: CalibrationOutcome.Figure) -> String {
        guard value.isFinite else { return "—" }
        switch kind {
        case .proceedsRatio, .monthlyProceedsRatio: return String(format: "%.2f×", value)
        case .freeDownloads, .freemiumProceeds: return FigureText.money(value)
        }
    }
}
