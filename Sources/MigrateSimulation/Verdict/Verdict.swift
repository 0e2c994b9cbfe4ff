import Foundation
import MigratePlan

/// The value of one assumption at which the median outcome changes sides, the others at their medians: a lever
/// that means something, since it lies inside the assumption's plausible range and its crossing is not a tie of
/// nothing against nothing.
public struct BreakEvenThreshold: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Freemium is level at the value and ahead above it.
        case atLeast(Double)
        /// Freemium is level at the value and ahead below it.
        case atMost(Double)
    }

    public var assumption: SimulationAssumption
    public var outcome: Outcome
    /// Whether freemium is ahead at the median now: then the lever says what would make it fall behind.
    public var aheadNow: Bool
    /// What the scenario assumes now.
    public var now: Distribution
    /// The values searched: the assumption's plausible range (`ResolvedAssumption.plausibleRange`).
    public var domain: ClosedRange<Double>

    /// The value where the two paths are level.
    public var value: Double {
        switch outcome {
        case .atLeast(let value), .atMost(let value): value
        }
    }
}

/// The answer, before the tables: who is ahead at the horizon, by how much, from when, and what would
/// have to be true for that to change.
public struct Verdict: Sendable, Hashable {
    /// Why freemium and staying paid cannot be compared, when they can't.
    public enum CannotCompare: Sendable, Hashable {
        /// The install base measures no paid downloads.
        case noPaidDownloadsMeasured
        /// The plan's paidDownloadsPerMonth is 0.
        case noPaidDownloads
        /// The paid price is 0.
        case freePaidPrice
    }

    /// Nil when freemium and staying paid can be compared; else why not.
    public var cannotCompare: CannotCompare?
    /// False when every assumption is a single value: then P10 = P50 = P90 and the draws add nothing.
    public var uncertaintyModelled: Bool
    /// From the draws, when there are any: the share of draws in which freemium ends ahead, under these
    /// assumptions (the calibration, `Calibration.published`, says how often such ranges held).
    public var probabilityAhead: Double?
    public var probabilityTie: Double?
    /// Freemium minus staying paid at the horizon: the draws' median, or the median model's without draws.
    public var medianDifference: Double
    /// The draws' median break-even month, or the median model's without draws.
    public var breakEvenMonth: Int?
    /// Whether the median model ends with freemium ahead: the levers then say what would make it fall behind.
    public var aheadAtMedian: Bool
    /// Up to three levers, in the sensitivity table's order, leaving out what the plan measures (its price, its
    /// install base's downloads and buyers): each an assumption whose plausible range holds a value at which the
    /// median model changes sides.
    public var thresholds: [BreakEvenThreshold]
    /// The assumptions searched for a lever (those that move the answer and are not measured): when none of
    /// them has one, no single assumption within its plausible range changes the answer.
    public var searched: [SimulationAssumption]

    public static let thresholdCount = 3

    public static func of(_ scenario: PreparedScenario, deterministic: RevenueSeries, monteCarlo: MonteCarloSummary?, sensitivity: [SensitivityRow])
        -> Verdict
    {
        var cannotCompare: CannotCompare?
        if let rate = scenario.resolved(.paidDownloadsPerMonth), rate.distribution == .point(0) {
            if case .installBaseRate = rate.origin { cannotCompare = .noPaidDownloadsMeasured } else { cannotCompare = .noPaidDownloads }
        } else if scenario.resolved(.paidPrice)?.distribution == .point(0) {
            cannotCompare = .freePaidPrice
        }
        let candidates =
            cannotCompare != nil
            ? []
            : sensitivity.filter { row in
                row.swing > MonteCarlo.tieTolerance && !(scenario.resolved(row.assumption)?.measured ?? true)
            }.map(\.assumption)
        var thresholds: [BreakEvenThreshold] = []
        for assumption in candidates where thresholds.count < thresholdCount {
            if let found = threshold(scenario, assumption: assumption) { thresholds.append(found) }
        }
        return Verdict(
            cannotCompare: cannotCompare, uncertaintyModelled: scenario.assumptions.contains { !$0.distribution.isPoint && !$0.origin.isDerived },
            probabilityAhead: monteCarlo?.probabilityFreemiumWins, probabilityTie: monteCarlo?.probabilityTie,
            medianDifference: monteCarlo?.advantage.p50 ?? deterministic.advantage,
            breakEvenMonth: monteCarlo.map { $0.breakEvenMonth(atPercentile: 0.5) } ?? deterministic.breakEvenMonth,
            aheadAtMedian: deterministic.advantage > MonteCarlo.tieTolerance, thresholds: thresholds, searched: candidates)
    }

    /// Where to look for the value of an assumption that changes sides: its plausible range, within its bound.
    static func domain(_ resolved: ResolvedAssumption) -> ClosedRange<Double> {
        let range = resolved.plausibleRange
        switch resolved.assumption.bound {
        case .probability: return max(0, range.lowerBound)...min(1, max(range.upperBound, max(0, range.lowerBound)))
        case .change: return max(-1, range.lowerBound)...min(1, max(range.upperBound, max(-1, range.lowerBound)))
        case .nonNegative: return max(0, range.lowerBound)...max(range.upperBound, max(0, range.lowerBound))
        case .positive: return max(1e-9, range.lowerBound)...max(range.upperBound, max(1e-9, range.lowerBound))
        }
    }

    /// Bisection on the median model: every other assumption at its median, this one moved over its plausible
    /// range until freemium and staying paid are level at the horizon. Nil when the sides don't change within that
    /// range, or only where both paths earn nothing (a tie of nothing against nothing is not a lever).
    public static func threshold(_ scenario: PreparedScenario, assumption: SimulationAssumption) -> BreakEvenThreshold? {
        guard let resolved = scenario.resolved(assumption) else { return nil }
        let medians = scenario.medians
        func series(_ value: Double) -> RevenueSeries {
            var values = medians
            values.set(assumption, value)
            return RevenueSeries.evaluate(scenario.model, values: values)
        }
        let domain = domain(resolved)
        var low = domain.lowerBound
        var high = domain.upperBound
        let atLow = series(low).advantage
        let atHigh = series(high).advantage
        guard low < high, (atLow >= 0) != (atHigh >= 0) else { return nil }
        let rising = atHigh > atLow
        for _ in 0..<80 {
            let middle = (low + high) / 2
            if (series(middle).advantage >= 0) == rising { high = middle } else { low = middle }
        }
        let value = (low + high) / 2
        let level = series(value)
        let nothing = MonteCarlo.tieTolerance
        if (level.cumulativePaid.last ?? 0) <= nothing && (level.cumulativeFreemium.last ?? 0) <= nothing { return nil }
        let now = RevenueSeries.evaluate(scenario.model, values: medians).advantage > MonteCarlo.tieTolerance
        return BreakEvenThreshold(
            assumption: assumption, outcome: rising ? .atLeast(value) : .atMost(value), aheadNow: now, now: resolved.distribution, domain: domain)
    }
}
