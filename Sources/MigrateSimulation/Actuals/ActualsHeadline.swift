import Foundation
import MigratePlan
import MigrateSupport

/// The sentence that opens `simulate --actuals`: what happened, against what the plan expected, and what it means
/// for the decision, such as "Free downloads in the month of the switch ran at 31× the paid rate, against the 5–20×
/// the plan assumed; with the refit, freemium comes out ahead in 64.0% of draws (was 6.5%)."
///
/// It leads with the assumption that matters most: the first contradicted one, else the first whose implied value
/// is outside its range, else the first compared, in the order launchMultiple, lastingMultiple, conversion,
/// legacyUpgradeRate, refundRate.
public enum ActualsHeadline {
    static let order: [SimulationAssumption] = [.launchMultiple, .lastingMultiple, .conversion, .legacyUpgradeRate, .refundRate]

    public static func sentence(
        implied: [ImpliedAssumption], before: Verdict, after: Verdict?, draws: Int
    ) -> String {
        let ranked = implied.filter { order.contains($0.assumption) }.sorted {
            order.firstIndex(of: $0.assumption)! < order.firstIndex(of: $1.assumption)!
        }
        let lead = ranked.first(where: \.isContradicted) ?? ranked.first(where: \.isOutside) ?? ranked.first
        var text: String
        if let lead {
            text = what(lead)
            let others = ranked.filter { $0.isContradicted && $0.assumption != lead.assumption }.map(\.assumption.rawValue)
            if !others.isEmpty {
                text += " (\(others.joined(separator: " and ")) \(others.count == 1 ? "is" : "are") contradicted too)"
            }
        } else {
            text = "The reports say nothing about the plan's assumptions"
        }
        if let reason = (after ?? before).cannotCompare {
            return text + "; freemium and staying paid cannot be compared: \(reason.reason)."
        }
        guard let after else {
            return text + "; nothing is refitted, so the verdict stays: " + outcome(before, draws: draws) + "."
        }
        return text + "; with the refit, " + outcome(after, draws: draws) + " (was \(figure(before, draws: draws)))."
    }

    /// "freemium comes out ahead in 64.0% of draws", or, without draws, the median model's difference.
    static func outcome(_ verdict: Verdict, draws: Int) -> String {
        if draws > 0, verdict.probabilityAhead != nil {
            return "freemium comes out ahead in \(figure(verdict, draws: draws)) of draws"
        }
        return "freemium minus staying paid is \(figure(verdict, draws: draws)) at the horizon, every assumption at its median"
    }

    static func figure(_ verdict: Verdict, draws: Int) -> String {
        if draws > 0, let ahead = verdict.probabilityAhead { return percent(ahead) }
        if verdict.cannotCompare != nil { return "not comparable" }
        return whole(verdict.medianDifference)
    }

    /// What happened, against what the plan assumed.
    static func what(_ item: ImpliedAssumption) -> String {
        let value = shown(item.implied, item.assumption)
        let subject: String
        switch item.assumption {
        case .launchMultiple: subject = "Free downloads in the month of the switch ran at \(value) the paid rate"
        case .lastingMultiple: subject = "Free downloads after the launch settled at \(value) the paid rate"
        case .conversion: subject = "\(value) of free downloads bought in-app"
        case .legacyUpgradeRate: subject = "\(value) of legacy buyers bought"
        case .refundRate: subject = "\(value) of in-app purchases were refunded"
        default: subject = "\(item.assumption.rawValue) came out at \(value)"
        }
        let expected =
            item.distribution.isPoint
            ? "the plan's \(shown(item.distribution.median, item.assumption))"
            : "the \(shown(item.range.lowerBound, item.assumption, unit: false))–\(shown(item.range.upperBound, item.assumption)) the plan assumed"
        return subject + (item.isOutside ? ", against " : ", within ") + expected
    }

    /// `31×`, `2.6%`: three significant digits at most.
    static func shown(_ value: Double, _ assumption: SimulationAssumption, unit: Bool = true) -> String {
        switch assumption.bound {
        case .probability:
            return number(ActualsComparison.significant(value * 100)) + (unit ? "%" : "")
        default:
            return number(ActualsComparison.significant(value)) + (unit && [.launchMultiple, .lastingMultiple].contains(assumption) ? "×" : "")
        }
    }

    /// Written for `FigureText.style`: as `simulate` prints it, or for a page's locale.
    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return FigureText.style.localized(String(Int64(value))) }
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return FigureText.style.localized(text)
    }

    /// As `simulate`'s verdict shows it.
    static func percent(_ value: Double) -> String { FigureText.percent(value) }

    static func whole(_ value: Double) -> String { FigureText.count(Int(value.rounded())) }
}
