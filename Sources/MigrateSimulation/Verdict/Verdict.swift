import Foundation
import MigratePlan

/// The value of one assumption at which the median outcome breaks even, the others at their medians.
public struct BreakEvenThreshold: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Freemium is level at `value` and ahead above it.
        case atLeast(Double)
        /// Freemium is level at `value` and ahead below it.
        case atMost(Double)
        /// Ahead (or level) over the assumption's whole domain.
        case alwaysAhead
        /// Behind over the assumption's whole domain.
        case neverAhead
    }

    public var assumption: SimulationAssumption
    public var outcome: Outcome
    /// What the scenario assumes now.
    public var now: Distribution
    /// The values searched.
    public var domain: ClosedRange<Double>
}

/// The answer, before the tables: who is ahead at the horizon, by how much, from when, and what would
/// have to be true for that to change.
public struct Verdict: Sendable, Hashable {
    /// Nil when freemium and staying paid can be compared; else why not.
    public var cannotCompare: String?
    /// False when every assumption is a single value: then P10 = P50 = P90 and the draws add nothing.
    public var uncertaintyModelled: Bool
    /// From the draws, when there are any.
    public var probabilityAhead: Double?
    public var probabilityTie: Double?
    /// Freemium minus staying paid at the horizon: the draws' median, or the median model's without draws.
    public var medianDifference: Double
    /// The draws' median break-even month, or the median model's without draws.
    public var breakEvenMonth: Int?
    /// For the three assumptions that move the answer most (the sensitivity table's order), leaving out
    /// what the plan measures (its price, its install base's downloads and buyers).
    public var thresholds: [BreakEvenThreshold]

    public static let thresholdCount = 3

    public static func of(_ scenario: PreparedScenario, deterministic: RevenueSeries, monteCarlo: MonteCarloSummary?, sensitivity: [SensitivityRow])
        -> Verdict
    {
        let rate = scenario.assumptions[RevenueModel.index[.paidDownloadsPerMonth]!]
        let price = scenario.assumptions[RevenueModel.index[.paidPrice]!]
        var cannotCompare: String?
        if rate.distribution == .point(0) {
            cannotCompare =
                rate.source.hasPrefix("installBase")
                ? "the install base has no paid downloads, so staying paid earns nothing and freemium has no paid rate to multiply"
                : "paidDownloadsPerMonth is 0, so staying paid earns nothing and freemium has no paid rate to multiply"
        } else if price.distribution == .point(0) {
            cannotCompare = "paidPrice is 0, so staying paid earns nothing"
        }
        let thresholds =
            cannotCompare != nil
            ? []
            : sensitivity.filter { row in
                row.swing > MonteCarlo.tieTolerance && !scenario.assumptions[RevenueModel.index[row.assumption]!].measured
            }.prefix(thresholdCount).map { row in
                threshold(scenario, assumption: row.assumption)
            }
        return Verdict(
            cannotCompare: cannotCompare, uncertaintyModelled: scenario.assumptions.contains { !$0.distribution.isPoint },
            probabilityAhead: monteCarlo?.probabilityFreemiumWins, probabilityTie: monteCarlo?.probabilityTie,
            medianDifference: monteCarlo?.advantage.p50 ?? deterministic.advantage,
            breakEvenMonth: monteCarlo.map { $0.breakEvenMonth(atPercentile: 0.5) } ?? deterministic.breakEvenMonth,
            thresholds: Array(thresholds))
    }

    /// Where to look for the break-even value of an assumption.
    static func domain(_ resolved: ResolvedAssumption) -> ClosedRange<Double> {
        switch resolved.assumption.bound {
        case .probability: return 0...1
        case .change: return -0.5...0.5
        case .nonNegative, .positive:
            let top = max(resolved.sensitivityRange.upperBound, resolved.distribution.median, 1) * 20
            return (resolved.assumption.bound == .positive ? top * 1e-6 : 0)...top
        }
    }

    /// Bisection on the median model: every other assumption at its median, this one moved until freemium
    /// and staying paid are level at the horizon.
    public static func threshold(_ scenario: PreparedScenario, assumption: SimulationAssumption) -> BreakEvenThreshold {
        let index = RevenueModel.index[assumption]!
        let resolved = scenario.assumptions[index]
        let medians = scenario.medians
        func advantage(_ value: Double) -> Double {
            var values = medians
            values[index] = value
            return RevenueSeries.evaluate(scenario.model, values: values).advantage
        }
        let domain = domain(resolved)
        var low = domain.lowerBound
        var high = domain.upperBound
        let atLow = advantage(low)
        let atHigh = advantage(high)
        let outcome: BreakEvenThreshold.Outcome
        if (atLow >= 0) == (atHigh >= 0) {
            outcome = atLow >= 0 ? .alwaysAhead : .neverAhead
        } else {
            let rising = atHigh > atLow
            for _ in 0..<80 {
                let middle = (low + high) / 2
                if (advantage(middle) >= 0) == rising { high = middle } else { low = middle }
            }
            let value = (low + high) / 2
            outcome = rising ? .atLeast(value) : .atMost(value)
        }
        return BreakEvenThreshold(assumption: assumption, outcome: outcome, now: resolved.distribution, domain: domain)
    }
}
