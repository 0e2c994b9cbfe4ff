import Foundation
import MigratePlan
import MigrateSimulation
import Testing

@Suite("Monte Carlo and percentiles")
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
        #expect(summary.breakEven.last == 3_000)
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

    @Test("Merging sketches in any order gives the same answer")
    func mergeOrder() {
        var a = QuantileSketch(), b = QuantileSketch()
        for value in stride(from: 0.0, to: 500, by: 0.7) { a.add(value) }
        for value in stride(from: 3.0, to: 90_000, by: 13.1) { b.add(value) }
        var ab = a, ba = b
        ab.merge(b)
        ba.merge(a)
        #expect(ab == ba)
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
