import Dispatch
import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// P10, P50 and P90 of one figure.
public struct Percentiles: Sendable, Hashable {
    public var p10: Double
    public var p50: Double
    public var p90: Double
}

/// What many draws of the assumptions say about one scenario.
public struct MonteCarloSummary: Sendable, Hashable {
    public var draws: Int
    public var seed: UInt64
    /// Per month: cumulative proceeds if the app stays paid, and with the freemium plan.
    public var cumulativePaid: [Percentiles]
    public var cumulativeFreemium: [Percentiles]
    /// Per month: that month's freemium proceeds (the chart's band).
    public var monthlyFreemium: [Percentiles]
    public var monthlyPaid: [Percentiles]
    /// `breakEvenByMonth[m]`: draws whose break-even month is m + 1, one entry per month of the horizon.
    public var breakEvenByMonth: [Int]
    /// Draws that do not break even within the horizon (the ties among them).
    public var notBreakingEven: Int
    /// Draws where freemium's cumulative proceeds at the horizon are above staying paid's by more than
    /// `MonteCarlo.tieTolerance`.
    public var freemiumWins: Int
    /// Draws where the two are equal within `MonteCarlo.tieTolerance` (0 against 0 among them): neither wins.
    public var ties: Int
    /// Freemium's cumulative proceeds minus staying paid's at the horizon.
    public var advantage: Percentiles

    public var probabilityFreemiumWins: Double { draws == 0 ? 0 : Double(freemiumWins) / Double(draws) }
    public var probabilityTie: Double { draws == 0 ? 0 : Double(ties) / Double(draws) }

    /// The break-even month at percentile p (nil: not within the horizon).
    public func breakEvenMonth(atPercentile p: Double) -> Int? {
        let rank = max(1, Int((p * Double(draws)).rounded(.up)))
        var seen = 0
        for (index, count) in breakEvenByMonth.enumerated() {
            seen += count
            if seen >= rank { return index + 1 }
        }
        return nil
    }
}

/// Runs draws in fixed-size chunks, each with its own generator seeded from (seed, chunk index), so
/// the same seed gives the same draws however many threads run them; results go into fixed-size
/// sketches, so memory does not grow with the number of draws.
public enum MonteCarlo {
    /// Draws per chunk: the unit of work and of seeding.
    public static let chunkSize = 2_048
    /// Totals closer than this (half a unit of the plan's currency: equal once rounded) are a tie.
    public static let tieTolerance = 0.5

    /// The generator of one chunk: the seed and the chunk index mixed through SplitMix64 inside `SeededGenerator`.
    static func generator(seed: UInt64, chunk: Int) -> SeededGenerator {
        SeededGenerator(seed: seed ^ (UInt64(chunk) &* 0xD1B5_4A32_D192_ED03) &+ UInt64(chunk))
    }

    private final class Box: @unchecked Sendable {
        var parts: [Accumulator?]
        let lock = NSLock()
        var chunksDone = 0
        init(count: Int) { parts = [Accumulator?](repeating: nil, count: count) }
    }

    struct Accumulator {
        var cumulativePaid: [QuantileSketch]
        var cumulativeFreemium: [QuantileSketch]
        var monthlyFreemium: [QuantileSketch]
        var monthlyPaid: [QuantileSketch]
        var breakEvenByMonth: [Int]
        var notBreakingEven = 0
        var wins = 0
        var ties = 0
        var ahead = QuantileSketch()
        var behind = QuantileSketch()

        init(months: Int) {
            cumulativePaid = Array(repeating: QuantileSketch(), count: months)
            cumulativeFreemium = cumulativePaid
            monthlyFreemium = cumulativePaid
            monthlyPaid = cumulativePaid
            breakEvenByMonth = Array(repeating: 0, count: months)
        }

        mutating func merge(_ other: Accumulator) {
            for month in cumulativePaid.indices {
                cumulativePaid[month].merge(other.cumulativePaid[month])
                cumulativeFreemium[month].merge(other.cumulativeFreemium[month])
                monthlyFreemium[month].merge(other.monthlyFreemium[month])
                monthlyPaid[month].merge(other.monthlyPaid[month])
            }
            for index in breakEvenByMonth.indices { breakEvenByMonth[index] += other.breakEvenByMonth[index] }
            notBreakingEven += other.notBreakingEven
            wins += other.wins
            ties += other.ties
            ahead.merge(other.ahead)
            behind.merge(other.behind)
        }
    }

    /// - Parameters:
    ///   - threads: workers; the result is the same for any value.
    ///   - progress: called with the fraction done after each chunk, from worker threads.
    public static func run(
        _ scenario: PreparedScenario, draws: Int, seed: UInt64, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (Double) -> Void)? = nil
    ) -> MonteCarloSummary {
        let model = scenario.model
        let months = model.months
        let sampling = DrawSampling(scenario)
        let chunks = (draws + chunkSize - 1) / chunkSize
        let workers = max(1, min(threads, chunks))
        let box = Box(count: workers)

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var accumulator = Accumulator(months: months)
            // Columns: month m's cumulative paid, cumulative freemium, monthly freemium and monthly paid at m,
            // months + m, 2 months + m and 3 months + m; then the advantage, whose sketch holds it when ahead
            // (≥ 0) and sketch 4 months + 1 its magnitude when behind.
            let advantage = 4 * months
            let bank = SketchBank(columns: advantage + 1, signed: [advantage])
            var values = scenario.medians
            var paid = [Double](repeating: 0, count: months)
            var freemium = [Double](repeating: 0, count: months)
            var ledger = [Double](repeating: 0, count: model.scratchSize)
            var chunk = worker
            while chunk < chunks {
                var generator = generator(seed: seed, chunk: chunk)
                let count = min(chunkSize, draws - chunk * chunkSize)
                for _ in 0..<count {
                    sampling.draw(into: &values, using: &generator)
                    model.evaluate(values, paid: &paid, freemium: &freemium, ledger: &ledger)
                    var sumPaid = 0.0
                    var sumFreemium = 0.0
                    var lastBehind = -1
                    for month in 0..<months {
                        sumPaid += paid[month]
                        sumFreemium += freemium[month]
                        if sumFreemium < sumPaid { lastBehind = month }
                        bank.set(sumPaid, column: month)
                        bank.set(sumFreemium, column: months + month)
                        bank.set(freemium[month], column: 2 * months + month)
                        bank.set(paid[month], column: 3 * months + month)
                    }
                    let difference = sumFreemium - sumPaid
                    if abs(difference) <= tieTolerance {
                        accumulator.ties += 1
                        accumulator.notBreakingEven += 1
                    } else {
                        // Still behind in the last month: no break-even within the horizon.
                        if lastBehind + 1 < months {
                            accumulator.breakEvenByMonth[lastBehind + 1] += 1
                        } else {
                            accumulator.notBreakingEven += 1
                        }
                        if difference > 0 { accumulator.wins += 1 }
                    }
                    bank.set(difference, column: advantage)
                    bank.endDraw()
                }
                if let progress {
                    box.lock.lock()
                    box.chunksDone += 1
                    let done = Double(box.chunksDone) / Double(chunks)
                    box.lock.unlock()
                    progress(done)
                }
                chunk += workers
            }
            for month in 0..<months {
                accumulator.cumulativePaid[month] = bank.sketch(month)
                accumulator.cumulativeFreemium[month] = bank.sketch(months + month)
                accumulator.monthlyFreemium[month] = bank.sketch(2 * months + month)
                accumulator.monthlyPaid[month] = bank.sketch(3 * months + month)
            }
            accumulator.ahead = bank.sketch(advantage)
            accumulator.behind = bank.sketch(advantage + 1)
            box.lock.lock()
            box.parts[worker] = accumulator
            box.lock.unlock()
        }

        var total = Accumulator(months: months)
        for part in box.parts { if let part { total.merge(part) } }
        func percentiles(_ sketches: [QuantileSketch]) -> [Percentiles] {
            sketches.map { sketch in
                let values = sketch.quantiles([0.1, 0.5, 0.9])
                return Percentiles(p10: values[0], p50: values[1], p90: values[2])
            }
        }
        return MonteCarloSummary(
            draws: draws, seed: seed, cumulativePaid: percentiles(total.cumulativePaid), cumulativeFreemium: percentiles(total.cumulativeFreemium),
            monthlyFreemium: percentiles(total.monthlyFreemium), monthlyPaid: percentiles(total.monthlyPaid),
            breakEvenByMonth: total.breakEvenByMonth,
            notBreakingEven: total.notBreakingEven,
            freemiumWins: total.wins, ties: total.ties,
            advantage: Percentiles(
                p10: signedQuantile(0.1, ahead: total.ahead, behind: total.behind),
                p50: signedQuantile(0.5, ahead: total.ahead, behind: total.behind),
                p90: signedQuantile(0.9, ahead: total.ahead, behind: total.behind)))
    }

    /// The value at probability p of numbers kept as two sketches: those ≥ 0 in `ahead`, the others negated in `behind`.
    static func signedQuantile(_ p: Double, ahead: QuantileSketch, behind: QuantileSketch) -> Double {
        let count = ahead.count + behind.count
        guard count > 0 else { return .nan }
        let rank = max(1, UInt64((p * Double(count)).rounded(.up)))
        if rank <= behind.count {
            // The rank-th smallest is the (behind.count − rank + 1)-th largest magnitude below zero.
            let fromTop = behind.count - rank + 1
            let q = (Double(fromTop) - 0.5) / Double(behind.count)
            return -behind.quantile(q)
        }
        let q = (Double(rank - behind.count) - 0.5) / Double(ahead.count)
        return ahead.quantile(q)
    }
}

/// How one draw takes its values: one uniform per resolved assumption, in their order, always (so changing one
/// distribution leaves the others' draws alone), through each one's inverse distribution function. A derived
/// assumption (`legacyBuyers` from the paid downloads) takes its uniform too, and stays nil for the model.
public struct DrawSampling: Sendable {
    private let samplers: [(assumption: SimulationAssumption, sampler: DistributionSampler, derived: Bool)]

    public init(_ scenario: PreparedScenario) {
        samplers = scenario.assumptions.map { ($0.assumption, DistributionSampler($0.distribution), $0.origin.isDerived) }
    }

    /// Draws every assumption into `values` from `generator`.
    @inline(__always)
    public func draw(into values: inout AssumptionValues, using generator: inout SeededGenerator) {
        for entry in samplers {
            let unit = max(generator.nextUnit(), 0x1p-60)
            if entry.derived {
                values[entry.assumption] = nil
            } else {
                values.set(entry.assumption, entry.sampler.quantile(unit))
            }
        }
    }
}
