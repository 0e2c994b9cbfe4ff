import Foundation
import MigratePlan
import MigrateSimulation
import Testing

@Suite("Taxes, the season, the count's uncertainty and the commission where it applies", .timeLimit(.minutes(20)))
struct ForecastInputsTests {
    @Test("Proceeds are net of the VAT or GST in the customer's price, on both paths")
    func tax() throws {
        let taxed = RevenueModelTests.flat.replacingOccurrences(of: "\"taxInPrice\": 0", with: "\"taxInPrice\": 0.16")
        let series = try deterministic(handPlan(assumptions: taxed))
        // 1,000 × 2.99 × 0.84 × 0.7: what a sale at 19% VAT leaves after 30%.
        #expect(close(series.paid[0], 2093 * 0.84))
        #expect(close(series.freemium[1], RevenueModelTests.newBuyersProceeds * 0.84))
        let defaulted = try VerdictTests.prepare(#"{ "paidDownloadsPerMonth": 100 }"#, neutral: false)
        let resolved = try #require(defaulted.resolved(.taxInPrice))
        #expect(!resolved.distribution.isPoint)
        #expect(resolved.source.contains("judgement, from a storefront mix"))
    }

    @Test("Without a season the note names the switch's month; with one both paths follow it from that month")
    func season() throws {
        let flatPlan = try decode(handPlan(assumptions: RevenueModelTests.flat))
        let flat = try PreparedScenario.prepare(flatPlan, scenario: nil)
        #expect(flat.season.isFlat)
        #expect(flat.notes.contains(.flatSeason(switchDate: flat.switchDate)))
        #expect(try #require(flat.notes.first).text.contains("the switch in January 2021 is compared with the paid app's average month"))

        // The switch is on 1 January 2021: month 1 is January. Twice the average month in January, the rest alike.
        var seasonal = flatPlan
        seasonal.simulation?.seasonality = Seasonality(weights: [13] + [Double](repeating: 1, count: 11))
        let prepared = try PreparedScenario.prepare(seasonal, scenario: nil)
        let factors = prepared.model.season
        #expect(close(factors[0], 13 / 2.0))
        #expect(close(factors[1], 1 / 2.0))
        let series = RevenueSeries.evaluate(prepared.model, values: prepared.medians)
        let plain = RevenueSeries.evaluate(flat.model, values: flat.medians)
        #expect(close(series.paid[0], plain.paid[0] * factors[0]))
        #expect(close(series.paid[1], plain.paid[1] * factors[1]))
        #expect(try #require(prepared.notes.first).text.contains("Jan 6.50"))
    }

    @Test("A year of monthly sales gives the season, each calendar month against the fitted trend")
    func seasonFromInstallBase() throws {
        var plan = try decode(handPlan(assumptions: RevenueModelTests.flat))
        var months: [MonthlyDownloads] = []
        for index in 0..<24 {
            let month = index % 12 + 1
            months.append(MonthlyDownloads(month: String(format: "%04d-%02d", 2019 + index / 12, month), paid: month == 12 ? 300 : 100))
        }
        plan.installBase = InstallBase(
            from: Timestamp.parse("2019-01-01T00:00:00Z"), until: Timestamp.parse("2020-12-31T00:00:00Z"), downloads: [], months: months)
        let season = Season.of(plan)
        guard case .installBase(let count) = season.source else {
            Issue.record("expected a season from the install base, found \(season.source)")
            return
        }
        #expect(count == 24)
        #expect(close(season.factor(calendarMonth: 12), 300 / (1_400 / 12.0)), "\(season.factors)")
        #expect(close(season.factors.reduce(0, +) / 12, 1))
    }

    @Test("One month of 266 sales is a rate known to ±8%, not an exact one")
    func countingUncertainty() throws {
        var plan = try decode(handPlan(assumptions: #"{ "legacyBuyers": 0 }"#))
        plan.installBase = InstallBase(
            from: Timestamp.parse("2013-10-08T00:00:00Z"), until: Timestamp.parse("2013-11-06T00:00:00Z"),
            downloads: [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 266, free: 0)])
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        let rate = try #require(prepared.resolved(.paidDownloadsPerMonth))
        guard case .logNormal(let low, let high) = rate.distribution else {
            Issue.record("expected a log-normal, found \(rate.distribution)")
            return
        }
        let median = 266 / (30 / 30.436875)
        #expect(close(rate.distribution.median, median, tolerance: 1e-6))
        #expect(close(high / median - 1, exp(1.2815515655446004 / 266.0.squareRoot()) - 1, tolerance: 1e-6))
        #expect(close(median / low - 1, high / median - 1, tolerance: 1e-6))
        #expect(rate.source.contains("±8% (P10–P90) from counting them"), "\(rate.source)")
        #expect(rate.measured)
    }

    @Test("Cohort sizes carry their P10–P90 over the draws; a count the plan measures has none")
    func cohortBands() throws {
        let prepared = try VerdictTests.prepare(#"{ "paidDownloadsPerMonth": 1000, "legacyBuyers": 5000 }"#)
        let rows = CohortPreview.rows(for: prepared, draws: 500, seed: 1)
        let newUsers = try #require(rows.first { $0.cohort == "new free users" && $0.owns.isEmpty })
        let band = try #require(newUsers.sizeBand)
        #expect(band.p10 < band.p50 && band.p50 < band.p90)
        let legacy = try #require(rows.first { $0.tierID != nil && $0.owns.isEmpty })
        #expect(legacy.sizeBand == nil, "5,000 legacy buyers, as the plan writes them")
        #expect(CohortPreview.rows(for: prepared).allSatisfy { $0.sizeBand == nil }, "no draws, no band")
    }

    @Test("The Small Business Program's 15% is assumed after it began, with a note; before it, 30%")
    func smallBusinessWhereItApplies() throws {
        let text = handPlan(assumptions: RevenueModelTests.flat).replacingOccurrences(of: "\"commission\": \"standard\", ", with: "")
        let plan = try decode(text)
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        #expect(prepared.model.commission == .smallBusiness)
        #expect(prepared.notes.contains { if case .smallBusinessAssumed = $0 { true } else { false } })
        var older = plan
        for index in older.releases.indices { older.releases[index].released.addTimeInterval(-3 * 365 * 86_400) }
        #expect(try PreparedScenario.prepare(older, scenario: nil).model.commission == .standard)
    }

    @Test("A subscription's period is read by the plan's one ISO 8601 reader: a week is charged 30.44 ÷ 7 times a month")
    func renewalPeriods() throws {
        let weekly = try deterministic(RevenueModelTests.subscriptionPlan(period: "P1W", price: "1"))
        // 100 subscribers × 1 × 30.436875 ÷ 7 charges × 0.7.
        #expect(close(weekly.freemium[0], 100 * 30.436875 / 7 * 0.7))
        let quarterly = try deterministic(RevenueModelTests.subscriptionPlan(period: "P3M", price: "30"))
        #expect(close(quarterly.freemium[0], 2100))
        #expect(close(quarterly.freemium[1], 0))
        #expect(close(quarterly.freemium[3], 2100))
    }

    @Test(
        "A bad seasonality names its path",
        arguments: [
            ("[1, 2, 3]", "simulation.seasonality: 'seasonality' needs one weight for each of the 12 calendar months, January first; found 3"),
            ("[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1]", "simulation.seasonality[11]: a month's weight must not be negative, found -1"),
            ("[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", "simulation.seasonality: 'seasonality' has no month above 0"),
            ("[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \"2\"]", "simulation.seasonality[11]: a month's weight must be a number, found a string"),
        ])
    func badSeasonality(weights: String, expected: String) {
        let text = handPlan(assumptions: RevenueModelTests.flat).replacingOccurrences(
            of: "\"horizonMonths\": 3,", with: "\"horizonMonths\": 3, \"seasonality\": \(weights),")
        let found = PlanDecoder.decode(text).diagnostics.filter { $0.severity == .error }.map { "\($0.path?.description ?? ""): \($0.message)" }
        #expect(found.contains(expected), "\(found)")
    }

    @Test("seasonality round-trips through the encoder")
    func seasonalityRoundTrip() throws {
        let text = handPlan(assumptions: RevenueModelTests.flat).replacingOccurrences(
            of: "\"horizonMonths\": 3,", with: "\"horizonMonths\": 3, \"seasonality\": [2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1.5, 2],")
        let plan = try decode(text)
        #expect(plan.simulation?.seasonality?.weights == [2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1.5, 2])
        let again = try decode(PlanEncoder.encode(plan))
        #expect(again.simulation?.seasonality?.weights == plan.simulation?.seasonality?.weights)
    }
}
