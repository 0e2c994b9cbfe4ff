import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import Testing

@testable import MigrateSimulation

@Suite("Monte Carlo and percentiles", .timeLimit(.minutes(20)))
struct MonteCarloTests {
    @Test("Point distributions: every percentile equals the deterministic run")
    func pointEqualsDeterministic() throws {
        let plan = try decode(handPlan(assumptions: RevenueModelTests.flat, horizon: 6))
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        let series = RevenueSeries.evaluate(prepared.model, values: prepared.medians)
        let summary = MonteCarlo.run(prepared, draws: 3_000, seed: 9)
        for month in 0..<6 {
            for p in [summary.cumulativeFreemium[month].p10, summary.cumulativeFreemium[month].p50, summary.cumulativeFreemium[month].p90] {
                #expect(p == series.cumulativeFreemium[month])
            }
            #expect(summary.cumulativePaid[month].p50 == series.cumulativePaid[month])
            #expect(summary.monthlyFreemium[month].p90 == series.freemium[month])
        }
        #expect(summary.freemiumWins == 0 && summary.ties == 0)
        #expect(summary.notBreakingEven == 3_000 && summary.breakEvenByMonth.allSatisfy { $0 == 0 })
        #expect(summary.breakEvenMonth(atPercentile: 0.5) == nil)
    }

    @Test("The sketch's percentiles of 1…10,000 are within 0.5%")
    func sketchOnKnownValues() {
        var sketch = QuantileSketch()
        for value in 1...10_000 { sketch.add(Double(value)) }
        #expect(sketch.count == 10_000)
        for (p, exact) in [(0.1, 1_000.0), (0.5, 5_000.0), (0.9, 9_000.0), (1.0, 10_000.0)] {
            let estimate = sketch.quantile(p)
            #expect(abs(estimate - exact) / exact <= 0.005, "P\(Int(p * 100)): \(estimate)")
        }
        #expect(sketch.quantile(0) == 1)
    }

    @Test("Several quantiles from one pass, asked in any order and past the zeros, are each the one asked alone")
    func quantilesAtOnce() {
        var sketch = QuantileSketch()
        for _ in 0..<300 { sketch.add(0) }
        for value in 1...700 { sketch.add(Double(value) * 1.5) }
        let probabilities = [0.9, 0.1, 0.5, 0.3, 0.3, 1.0, 0.0, 0.31, 0.299]
        let together = sketch.quantiles(probabilities)
        let alone = probabilities.map { sketch.quantile($0) }
        #expect(together == alone)
        #expect(together[1] == 0 && together[6] == 0, "the lowest 30% are zeros")
        #expect(together[3] == 0 && together[7] > 0 && together[5] == 1_050)
        let empty = QuantileSketch().quantiles([0.5, 0.9])
        #expect(empty.count == 2 && empty.allSatisfy(\.isNaN))
    }

    @Test("Merging sketches in any order gives the same answer")
    func mergeOrder() {
        var a = QuantileSketch()
        var b = QuantileSketch()
        for value in stride(from: 0.0, to: 500, by: 0.7) { a.add(value) }
        for value in stride(from: 3.0, to: 90_000, by: 13.1) { b.add(value) }
        var ab = a
        var ba = b
        ab.merge(b)
        ba.merge(a)
        #expect(ab == ba)
    }

    /// How many draws the bank gets: none, fewer than a batch, one batch, one more, several.
    static let bankDraws = [0, 1, SketchBank.batchSize - 1, SketchBank.batchSize, SketchBank.batchSize + 1, 5 * SketchBank.batchSize + 17]

    @Test("The batched sketch bank counts exactly as adding each value to its own sketch", arguments: bankDraws)
    func bankMatchesSketches(draws: Int) {
        // Zeros, negatives, cents, bucket boundaries, the top of the range and past it, infinity and NaN.
        let special: [Double] = [0, -3, 0.004, 0.01, 0.0100001, 1, 1.01, 99.5, 1e12, 1e13, 2e13, .infinity, .nan, -.infinity, -2e13]
        var generator = SeededGenerator(seed: UInt64(draws) + 1)
        // Columns 0 and 1 plain; column 2 signed: its values ≥ 0 in sketch 2, the others negated in sketch 3.
        let bank = SketchBank(columns: 3, signed: [2])
        var expected = [QuantileSketch](repeating: QuantileSketch(), count: 4)
        func draw(_ index: Int) {
            for column in 0..<3 {
                let random = exp(generator.nextUnit() * 30 - 5) * (column == 2 && index % 3 == 0 ? -1 : 1)
                let value = index % 7 == 0 ? special[(index / 7 + column) % special.count] : random
                bank.set(value, column: column)
                if column == 2, !(value >= 0) { expected[3].add(-value) } else { expected[column].add(value) }
            }
            bank.endDraw()
        }
        for index in 0..<draws { draw(index) }
        #expect(bank.sketchCount == 4)
        for sketch in 0..<4 {
            let counted = bank.sketch(sketch)
            #expect(counted.count == expected[sketch].count)
            #expect(counted.buckets == expected[sketch].buckets && counted.zeros == expected[sketch].zeros)
            #expect(counted.minimum.bitPattern == expected[sketch].minimum.bitPattern)
            #expect(counted.maximum.bitPattern == expected[sketch].maximum.bitPattern)
        }
        #expect(bank.sketch(0).count + bank.sketch(2).count + bank.sketch(3).count == UInt64(2 * draws))
        // Reading a sketch counts what was waiting; drawing on afterwards keeps counting from there.
        draw(draws)
        #expect(bank.sketch(0).buckets == expected[0].buckets && bank.sketch(0).count == UInt64(draws + 1))
    }

    @Test("A uniform assumption: the draws' percentiles match the distribution's")
    func uniformAssumption() throws {
        let assumptions = """
            { "paidDownloadsPerMonth": { "distribution": "uniform", "low": 1000, "high": 2000 }, "paidPrice": 1, "refundRate": 0 }
            """
        let plan = try decode(handPlan(assumptions: assumptions, horizon: 2, commission: "smallBusiness"))
        let summary = MonteCarlo.run(try PreparedScenario.prepare(plan, scenario: nil), draws: 40_000, seed: 3)
        for (estimate, exact) in [(summary.monthlyPaid[0].p10, 1100.0), (summary.monthlyPaid[0].p50, 1500.0), (summary.monthlyPaid[0].p90, 1900.0)] {
            #expect(abs(estimate - exact * 0.85) / (exact * 0.85) < 0.015, "\(estimate) vs \(exact * 0.85)")
        }
    }

    @Test("Distribution quantiles: triangular and log-normal")
    func distributionQuantiles() {
        #expect(close(Distribution.triangular(low: 0, mode: 0, high: 1).quantile(0.75), 0.5))
        #expect(close(Distribution.triangular(low: 5, mode: 10, high: 15).median, 10))
        let logNormal = Distribution.logNormal(low: 5, high: 20)
        #expect(close(logNormal.quantile(0.1), 5, tolerance: 1e-6))
        #expect(close(logNormal.quantile(0.9), 20, tolerance: 1e-6))
        #expect(close(logNormal.median, 10, tolerance: 1e-6))
    }

    @Test("The same seed gives the same summary on 1, 2 and 3 threads; another seed differs")
    func seededDeterminism() throws {
        let prepared = try PreparedScenario.prepare(try flagshipPlan(), scenario: nil)
        let one = MonteCarlo.run(prepared, draws: 9_000, seed: 42, threads: 1)
        let two = MonteCarlo.run(prepared, draws: 9_000, seed: 42, threads: 2)
        let three = MonteCarlo.run(prepared, draws: 9_000, seed: 42, threads: 3)
        #expect(one == two)
        #expect(two == three)
        let other = MonteCarlo.run(prepared, draws: 9_000, seed: 43, threads: 2)
        #expect(other != one)
    }
}
