import Foundation
import MigratePlan

extension Verdict.CannotCompare {
    /// Why freemium and staying paid can't be compared, in words.
    public var reason: String {
        switch self {
        case .noPaidDownloadsMeasured:
            "the install base has no paid downloads, so staying paid earns nothing and freemium has no paid rate to multiply"
        case .noPaidDownloads: "paidDownloadsPerMonth is 0, so staying paid earns nothing and freemium has no paid rate to multiply"
        case .freePaidPrice: "paidPrice is 0, so staying paid earns nothing"
        }
    }
}

extension Verdict {
    /// Said when every assumption is a single value: in `simulate` and the report alike.
    public static let noUncertaintyNotice =
        "No uncertainty is modelled: every assumption is a single value, so P10 = P50 = P90. Give ranges in simulation.assumptions, or leave assumptions out for their default ranges."
}

/// "What would have to be true" in words, with the plan key beside: the same sentence in `simulate` and the report.
public enum LeverText {
    /// "Freemium breaks even if free downloads settle at 24 times the paid downloads or more (lastingMultiple ≥ 24;
    /// now 5 to 80)", or, when freemium is ahead now, what would make it fall behind.
    public static func sentence(_ threshold: BreakEvenThreshold) -> String {
        let value = threshold.value
        // The side freemium is ahead on is above the value for `atLeast`; the lever names the side it moves to.
        var above: Bool
        switch threshold.outcome {
        case .atLeast: above = true
        case .atMost: above = false
        }
        if threshold.aheadNow { above.toggle() }
        let verb = threshold.aheadNow ? "falls behind" : "breaks even"
        let sign = threshold.aheadNow ? (above ? ">" : "<") : (above ? "≥" : "≤")
        let name = threshold.assumption.rawValue
        let shown = FigureText.assumptionValue(value, threshold.assumption)
        let now = FigureText.now(threshold.now, threshold.assumption)
        return "freemium \(verb) at the median if \(phrase(threshold.assumption, value)) \(above ? "or more" : "or less") "
            + "(\(name) \(sign) \(shown); now \(now))"
    }

    /// The assumption at `value`, said as what it means.
    static func phrase(_ assumption: SimulationAssumption, _ value: Double) -> String {
        // The sentences say "a month" themselves.
        let shown = FigureText.assumptionValue(value, assumption, perMonth: false)
        switch assumption {
        case .paidDownloadsPerMonth: return "the paid app sells \(shown) downloads a month"
        case .paidPrice: return "the paid app's price is \(shown)"
        case .legacyBuyers: return "\(shown) people bought the paid app"
        case .launchMultiple: return "the first free month brings \(shown) times a paid month's downloads"
        case .burstHalfLifeMonths: return "the launch burst takes \(shown) months to halve"
        case .lastingMultiple: return "free downloads settle at \(shown) times the paid downloads"
        case .conversion: return "\(shown) of new free users buy"
        case .legacyUpgradeRate: return "\(shown) of those who paid buy an offer"
        case .monthlyChurn: return "\(shown) of subscribers cancel each month"
        case .refundRate: return "refunds take \(shown) of revenue"
        case .paidTrendPerMonth: return "staying paid's downloads change by \(shown) a month"
        case .priceElasticity: return "the price elasticity of buying is \(shown)"
        case .taxInPrice: return "VAT or GST is \(shown) of the customer's price"
        case .codeRedemptionRate: return "\(shown) of license seats redeem their code"
        }
    }
}
