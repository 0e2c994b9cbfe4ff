import Foundation
import MigratePlan
import MigrateSimulation
import Testing

@Suite("Uncertainty by default, ties, the verdict, the paid trend and price response", .timeLimit(.minutes(20)))
struct VerdictTests {
    static func prepare(_ assumptions: String, horizon: Int = 3, products: String? = nil, neutral: Bool = true) throws -> PreparedScenario {
        try PreparedScenario.prepare(
            decode(handPlan(assumptions: assumptions, horizon: horizon, products: products, neutral: neutral)), scenario: nil)
    }

    static let assumed: [SimulationAssumption] = SimulationAssumption.allCases.filter { AssumptionDefaults.of($0).derivation == nil }

    @Test("Every assumption the plan doesn't derive has a default range with a source", arguments: assumed)
    func defaultRange(assumption: SimulationAssumption) throws {
        let known = AssumptionDefaults.of(assumption)
        let distribution = try #require(known.distribution)
        #expect(!distribution.isPoint)
        #expect(known.source.hasPrefix("judgement") || known.source.contains("20"), "a public source with its year, or judgement")
        let prepared = try Self.prepare(#"{ "paidDownloadsPerMonth": 100 }"#, neutral: false)
        guard assumption != .codeRedemptionRate else {
            // Only a plan with license holders (directSales) uses it: DirectSaleSimulationTests resolves its default.
            #expect(!prepared.assumptions.contains { $0.assumption == assumption })
            return
        }
        let resolved = try #require(prepared.assumptions.first { $0.assumption == assumption })
        #expect(resolved.distribution == distribution)
        #expect(resolved.origin == .documentedDefault(known))
        #expect(resolved.source.hasPrefix("default: "))
        #expect(resolved.sensitivityRange == distribution.quantile(0.1)...distribution.quantile(0.9))
    }

    @Test("A point in the plan is kept; with every assumption a point the verdict says no uncertainty is modelled")
    func pointsKept() throws {
        let points = try Self.prepare(RevenueModelTests.flat)
        let allPoints = points.assumptions.allSatisfy { $0.distribution.isPoint }
        #expect(allPoints)
        let series = RevenueSeries.evaluate(points.model, values: points.medians)
        let verdict = Verdict.of(points, deterministic: series, monteCarlo: nil, sensitivity: Sensitivity.rows(for: points))
        #expect(!verdict.uncertaintyModelled)
        let ranged = try Self.prepare(#"{ "paidDownloadsPerMonth": 100, "conversion": 0.03 }"#)
        #expect(ranged.assumptions.first { $0.assumption == .conversion }?.distribution == .point(0.03))
        let rangedVerdict = Verdict.of(ranged, deterministic: series, monteCarlo: nil, sensitivity: [])
        #expect(rangedVerdict.uncertaintyModelled)
    }

    @Test("0 against 0 is a tie, never a win, and the verdict cannot compare")
    func tie() throws {
        let prepared = try Self.prepare(#"{ "paidDownloadsPerMonth": 0, "legacyBuyers": 0 }"#)
        let summary = MonteCarlo.run(prepared, draws: 1_000, seed: 3)
        #expect(summary.freemiumWins == 0)
        #expect(summary.ties == 1_000)
        #expect(summary.probabilityTie == 1)
        #expect(summary.breakEvenMonth(atPercentile: 0.5) == nil)
        let series = RevenueSeries.evaluate(prepared.model, values: prepared.medians)
        #expect(series.isTie && series.breakEvenMonth == nil)
        let verdict = Verdict.of(prepared, deterministic: series, monteCarlo: summary, sensitivity: Sensitivity.rows(for: prepared))
        #expect(verdict.cannotCompare == .noPaidDownloads)
        #expect(verdict.cannotCompare?.reason.contains("paidDownloadsPerMonth is 0") == true)
        #expect(verdict.thresholds.isEmpty)
    }

    // 3 months: staying paid 6,279; freemium 3 × 10,000 × c × 1.74212 (the split's proceeds per buyer) + 5,000 × u × 1.99 × 0.7.
    static let conversionBreakEven: Double = (6279 - 696.5) / (3 * 10_000 * RevenueModelTests.newBuyersProceeds / 200)
    static let upgradeBreakEven: Double = (6279 - 3 * RevenueModelTests.newBuyersProceeds) / (5_000 * 1.99 * 0.7)
    static let thresholdCases: [(SimulationAssumption, Double)] = [(.conversion, conversionBreakEven)]

    @Test("Break-even thresholds match the hand-computed values", arguments: thresholdCases)
    func thresholds(assumption: SimulationAssumption, expected: Double) throws {
        let prepared = try Self.prepare(RevenueModelTests.flat)
        let threshold = try #require(Verdict.threshold(prepared, assumption: assumption))
        #expect(threshold.domain.contains(expected), "inside the plausible range searched")
        #expect(!threshold.aheadNow)
        guard case .atLeast(let value) = threshold.outcome else {
            Issue.record("expected ≥, found \(threshold.outcome)")
            return
        }
        #expect(close(value, expected, tolerance: 1e-9), "\(value) against \(expected)")
    }

    @Test("A lever outside its assumption's plausible range is no lever: legacyUpgradeRate would have to be 75%")
    func leverOutsidePlausibleRange() throws {
        let prepared = try Self.prepare(RevenueModelTests.flat)
        #expect(Self.upgradeBreakEven > 0.7)
        let plausible = try #require(prepared.resolved(.legacyUpgradeRate)).plausibleRange
        #expect(!plausible.contains(Self.upgradeBreakEven))
        #expect(Verdict.threshold(prepared, assumption: .legacyUpgradeRate) == nil)
    }

    @Test("No lever is a tie of nothing against nothing, and when freemium is ahead the levers say what would make it fall behind")
    func meaningfulLevers() throws {
        // A plan that writes paidDownloadsPerMonth: both paths scale with it, so 0 would tie nothing against nothing.
        let behind = try Self.prepare(#"{ "paidDownloadsPerMonth": 1000 }"#, horizon: 24)
        let series = RevenueSeries.evaluate(behind.model, values: behind.medians)
        let verdict = Verdict.of(behind, deterministic: series, monteCarlo: nil, sensitivity: Sensitivity.rows(for: behind))
        #expect(!verdict.thresholds.contains { $0.assumption == .paidDownloadsPerMonth })
        for lever in verdict.thresholds {
            #expect(lever.domain.contains(lever.value))
            var values = behind.medians
            values.set(lever.assumption, lever.value)
            let level = RevenueSeries.evaluate(behind.model, values: values)
            #expect((level.cumulativePaid.last ?? 0) > MonteCarlo.tieTolerance)
        }
        // Ahead at the median: a high lasting multiple.
        let ahead = try Self.prepare(#"{ "paidDownloadsPerMonth": 1000, "lastingMultiple": 60, "launchMultiple": 200 }"#, horizon: 24)
        let aheadSeries = RevenueSeries.evaluate(ahead.model, values: ahead.medians)
        let aheadVerdict = Verdict.of(ahead, deterministic: aheadSeries, monteCarlo: nil, sensitivity: Sensitivity.rows(for: ahead))
        #expect(aheadVerdict.aheadAtMedian)
        let lever = try #require(aheadVerdict.thresholds.first)
        #expect(lever.aheadNow)
        #expect(LeverText.sentence(lever).hasPrefix("freemium falls behind at the median if "))
        #expect(LeverText.sentence(lever).contains("(\(lever.assumption.rawValue) "), "the plan key beside the words")
    }

    @Test("The verdict asks about the assumptions that matter most, not what the plan measures")
    func verdictPicksAssumptions() throws {
        let prepared = try Self.prepare(#"{ "paidDownloadsPerMonth": 1000 }"#, horizon: 24)
        let series = RevenueSeries.evaluate(prepared.model, values: prepared.medians)
        let sensitivity = Sensitivity.rows(for: prepared)
        let verdict = Verdict.of(prepared, deterministic: series, monteCarlo: nil, sensitivity: sensitivity)
        #expect(!verdict.thresholds.isEmpty)
        #expect(!verdict.thresholds.contains { $0.assumption == .paidPrice || $0.assumption == .legacyBuyers })
        #expect(!verdict.searched.contains(.paidPrice))
        #expect(close(verdict.medianDifference, series.advantage))
    }

    @Test("Staying paid follows its monthly trend")
    func trend() throws {
        let declining = RevenueModelTests.flat.replacingOccurrences(of: "\"paidTrendPerMonth\": 0", with: "\"paidTrendPerMonth\": -0.1")
        let series = try deterministic(handPlan(assumptions: declining))
        #expect(close(series.paid[0], 2093))
        #expect(close(series.paid[1], 2093 * 0.9))
        #expect(close(series.paid[2], 2093 * 0.81))
    }

    static let splitCases: [([Double], [Double])] = [
        ([4.99], [1.0]),
        ([2.0, 2.0], [2.0 / 3, 1.0 / 3]),
        ([1.0, 2.0], [0.8, 0.2]),
        ([1.0, 1.0, 1.0], [6.0 / 11, 3.0 / 11, 2.0 / 11]),
    ]

    @Test("Buyers split over offers by position and price", arguments: splitCases)
    func split(prices: [Double], expected: [Double]) {
        let weights = OfferSpec.splitWeights(prices)
        #expect(weights.count == expected.count)
        for (weight, value) in zip(weights, expected) { #expect(close(weight, value)) }
    }

    @Test("With price elasticity a price sweep has an interior optimum at the paid app's price ÷ elasticity")
    func elasticityOptimum() throws {
        let products = #"[ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] } ]"#
        let assumptions = RevenueModelTests.flat.replacingOccurrences(of: "\"priceElasticity\": 0", with: "\"priceElasticity\": 2")
        let plan = try decode(handPlan(assumptions: assumptions, products: products))
        let report = try Simulator.run(plan, options: SimulationOptions(draws: 0, sweeps: ["price.com.example.demo.pro=0.5:10:0.5"]))
        let sweep = try #require(report.sweep)
        // Proceeds per download p × exp(−2 (p ÷ 2.99 − 1)), against the paid app's 2.99 whatever the plan writes, peak at
        // 2.99 ÷ 2 = 1.495.
        #expect(sweep.points.first?.settings.first?.1 == 1.5)
        let low = try #require(sweep.points.first { $0.settings.first?.1 == 0.5 })
        let high = try #require(sweep.points.first { $0.settings.first?.1 == 10 })
        let best = try #require(sweep.points.first)
        #expect(best.series.advantage > low.series.advantage && best.series.advantage > high.series.advantage)
    }

    @Test("The verdict at a typed price and the sweep at that price are one answer, against the paid app's price")
    func typedPriceIsTheSweep() throws {
        let assumptions = RevenueModelTests.flat.replacingOccurrences(of: "\"priceElasticity\": 0", with: "\"priceElasticity\": 1")
        func plan(_ price: String) throws -> MigrationPlan {
            let products = #"[ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "PRICE", "grants": ["pro"] } ]"#
            return try decode(handPlan(assumptions: assumptions, horizon: 12, products: products.replacingOccurrences(of: "PRICE", with: price)))
        }
        let report = try Simulator.run(try plan("4.99"), options: SimulationOptions(draws: 0, sweeps: ["price.com.example.demo.pro=0.99:29.99:1"]))
        let sweep = try #require(report.sweep)
        var typed: [(price: Double, advantage: Double)] = []
        for price in ["0.99", "2.99", "9.99", "29.99"] {
            let typedReport = try Simulator.run(try plan(price), options: SimulationOptions(draws: 0))
            let advantage = try #require(typedReport.scenarios.first).verdict.medianDifference
            let point = try #require(sweep.points.first { abs(($0.settings.first?.1 ?? 0) - (Double(price) ?? 0)) < 1e-9 })
            #expect(close(advantage, point.series.advantage), "\(price): typed \(advantage), swept \(point.series.advantage)")
            typed.append((Double(price)!, advantage))
        }
        // 29.99 against a 2.99 paid app sells almost nothing: typing it doesn't make freemium win.
        let best = try #require(sweep.points.first)
        #expect(typed.allSatisfy { $0.advantage <= best.series.advantage + 1e-6 })
        #expect(typed.first { $0.price == 29.99 }!.advantage < typed.first { $0.price == 2.99 }!.advantage)
    }

    @Test("The draws' median difference reads negative values as well as positive ones")
    func signedMedian() throws {
        let prepared = try Self.prepare(RevenueModelTests.flat)
        let series = RevenueSeries.evaluate(prepared.model, values: prepared.medians)
        let summary = MonteCarlo.run(prepared, draws: 500, seed: 1)
        #expect(series.advantage < 0)
        #expect(abs(summary.advantage.p50 - series.advantage) <= abs(series.advantage) * 0.006)
    }
}
