import Foundation
import MigratePlan
import MigrateSimulation
import Testing

@Suite("Revenue model, worked out on paper", .timeLimit(.minutes(20)))
struct RevenueModelTests {
    static let flat = """
        { "paidDownloadsPerMonth": 1000, "legacyBuyers": 5000, "launchMultiple": 10, "lastingMultiple": 10,
          "conversion": 0.02, "legacyUpgradeRate": 0.1, "refundRate": 0, "monthlyChurn": 0, "burstHalfLifeMonths": 1,
          "paidTrendPerMonth": 0, "priceElasticity": 0, "taxInPrice": 0 }
        """

    /// New buyers split over 'extra' (1.99, shown first) and 'pro' (4.99): weights 1 and ½ × 1.99 ÷ 4.99.
    static let extraShare = 1 / (1 + 0.5 * 1.99 / 4.99)
    /// 200 new buyers a month (10,000 downloads × 2%) at the split's average price, after 30%.
    static let newBuyersProceeds = 200 * (extraShare * 1.99 + (1 - extraShare) * 4.99) * 0.7

    @Test("Staying paid, new buyers split over two offers, legacy buyers upgrading in month 1")
    func handComputed() throws {
        let series = try deterministic(handPlan(assumptions: Self.flat))
        // Staying paid: 1,000 downloads × 2.99 × (1 − 30%) = 2,093 a month.
        #expect(series.paid.allSatisfy { close($0, 2093) })
        // Free: 10,000 downloads × 2% = 200 buyers, 83.4% of 'extra' (1.99) and 16.6% of 'pro' (4.99): 348.42 after 30%.
        #expect(close(Self.newBuyersProceeds, 348.42456140350873))
        // Month 1 adds 5,000 legacy buyers × 10% = 500 buyers of 'extra', the only offer they see: 995 × 0.7 = 696.5.
        #expect(close(series.freemium[0], Self.newBuyersProceeds + 696.5))
        #expect(close(series.freemium[1], Self.newBuyersProceeds))
        #expect(close(series.freemium[2], Self.newBuyersProceeds))
        #expect(close(series.cumulativeFreemium[2], 3 * Self.newBuyersProceeds + 696.5))
        #expect(close(series.cumulativePaid[2], 6279))
        #expect(series.breakEvenMonth == nil)
        #expect(close(series.advantage, 3 * Self.newBuyersProceeds + 696.5 - 6279))
    }

    @Test("The Small Business Program takes 15%")
    func smallBusiness() throws {
        let series = try deterministic(handPlan(assumptions: Self.flat, commission: "smallBusiness"))
        #expect(close(series.paid[0], 1000 * 2.99 * 0.85))
        #expect(close(series.freemium[1], Self.newBuyersProceeds / 0.7 * 0.85))
    }

    @Test("Refunds return the whole price, and Apple its commission")
    func refunds() throws {
        let withRefunds = Self.flat.replacingOccurrences(of: "\"refundRate\": 0", with: "\"refundRate\": 0.1")
        let series = try deterministic(handPlan(assumptions: withRefunds))
        #expect(close(series.paid[0], 2093 * 0.9))
        #expect(close(series.freemium[0], (Self.newBuyersProceeds + 696.5) * 0.9))
        #expect(close(series.freemium[2], Self.newBuyersProceeds * 0.9))
    }

    /// 10,000 downloads in month 1 and none after (a lasting multiple of 0 and a tiny half-life); 1% subscribe.
    static let oneMonthOfSubscribers = """
        { "paidDownloadsPerMonth": 1000, "legacyBuyers": 0, "launchMultiple": 10, "lastingMultiple": 0, "burstHalfLifeMonths": 0.001,
          "conversion": 0.01, "legacyUpgradeRate": 0, "refundRate": 0, "monthlyChurn": CHURN }
        """

    static func subscriptionPlan(period: String, price: String, churn: String = "0", commission: String = "standard") -> String {
        handPlan(
            assumptions: oneMonthOfSubscribers.replacingOccurrences(of: "CHURN", with: churn), horizon: 14, commission: commission,
            products: """
                [ { "id": "com.example.demo.sub", "type": "autoRenewable", "price": "\(price)", "grants": ["pro", "extra"],
                    "subscription": { "group": "main", "period": "\(period)" } } ]
                """)
    }

    @Test("Subscriptions: 30% in a subscriber's first paid year, 15% after it")
    func firstYearRate() throws {
        let monthly = try deterministic(Self.subscriptionPlan(period: "P1M", price: "10"))
        // 100 subscribers × 10: 700 a month for 12 months, then 850.
        for month in 0..<12 { #expect(close(monthly.freemium[month], 700), "month \(month + 1)") }
        #expect(close(monthly.freemium[12], 850))
        #expect(close(monthly.freemium[13], 850))

        let yearly = try deterministic(Self.subscriptionPlan(period: "P1Y", price: "120"))
        #expect(close(yearly.freemium[0], 8400))
        #expect(yearly.freemium[1...11].allSatisfy { close($0, 0) })
        #expect(close(yearly.freemium[12], 100 * 120 * 0.85))

        let small = try deterministic(Self.subscriptionPlan(period: "P1M", price: "10", commission: "smallBusiness"))
        #expect(small.freemium.allSatisfy { close($0, 850) })
    }

    @Test("Churn: half the subscribers leave each month")
    func churn() throws {
        let series = try deterministic(Self.subscriptionPlan(period: "P1M", price: "10", churn: "0.5"))
        #expect(close(series.freemium[0], 700))
        #expect(close(series.freemium[1], 350))
        #expect(close(series.freemium[2], 175))
        #expect(close(series.freemium[12], 100 * pow(0.5, 12) * 10 * 0.85))
    }

    @Test("The launch burst halves its excess over the lasting multiple every half-life")
    func burst() throws {
        let assumptions = """
            { "paidDownloadsPerMonth": 100, "legacyBuyers": 0, "launchMultiple": 50, "lastingMultiple": 10, "burstHalfLifeMonths": 1,
              "conversion": 0.1, "legacyUpgradeRate": 0, "refundRate": 0 }
            """
        let plan = try decode(handPlan(assumptions: assumptions, horizon: 3))
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        // 100 × (10 + 40) + 100 × (10 + 20) + 100 × (10 + 10) = 10,000 downloads.
        #expect(close(prepared.model.totalDownloads(prepared.medians), 10_000))
    }

    @Test("Legacy buyers default to paid downloads × months on sale; the paid price to the last paid release")
    func derivedDefaults() throws {
        let plan = try decode(handPlan(assumptions: #"{ "paidDownloadsPerMonth": 100 }"#))
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        #expect(prepared.medians.paidPrice == 2.99)
        #expect(prepared.medians.legacyBuyers == nil, "derived in each draw, not a number standing for 'missing'")
        guard case .derivedFromPaidRate(let months)? = prepared.resolved(.legacyBuyers)?.origin else {
            Issue.record("legacyBuyers is derived from the paid downloads")
            return
        }
        #expect(close(months, 366 / 30.436875))
        #expect(close(try #require(prepared.resolved(.legacyBuyers)?.derived), 100 * 366 / 30.436875))
        // 2020-01-01 to 2021-01-01 is 366 days: 12.02 months of 30.44 days.
        #expect(close(prepared.model.legacyBuyers(prepared.medians), 100 * 366 / 30.436875))
        let conversion = try #require(prepared.assumptions.first { $0.assumption == .conversion })
        #expect(conversion.distribution == .logNormal(low: 0.005, high: 0.082), "a range, not a point")
        #expect(close(conversion.distribution.median, 0.0202, tolerance: 0.001))
        #expect(conversion.source.contains("RevenueCat"))
    }

    @Test("A scenario's prices and tiers change what is offered, through the engine")
    func scenarios() throws {
        let scenarios = """
            [ { "id": "pro-9.99", "prices": [ { "product": "com.example.demo.pro", "price": "9.99" } ] },
              { "id": "everything-for-buyers", "tiers": [ { "id": "buyers", "until": "2021-01-01T00:00:00Z", "grants": ["pro", "extra"] } ] } ]
            """
        let text = handPlan(assumptions: Self.flat, scenarios: scenarios)
        let elastic = text.replacingOccurrences(of: "\"priceElasticity\": 0", with: "\"priceElasticity\": 1")
        let pricier = try deterministic(elastic, scenario: "pro-9.99")
        // 'pro' at 9.99: its weight is ½ × 1.99 ÷ 9.99; against the paid app's 2.99, exp(−1 × (9.99 ÷ 2.99 − 1)) as many buy
        // it, and exp(−1 × (1.99 ÷ 2.99 − 1)) as many 'extra'.
        let extra = 1 / (1 + 0.5 * 1.99 / 9.99)
        let response = exp(-(9.99 / 2.99 - 1))
        let extraResponse = exp(-(1.99 / 2.99 - 1))
        #expect(close(pricier.freemium[1], 200 * (extra * extraResponse * 1.99 + (1 - extra) * response * 9.99) * 0.7))
        let generous = try deterministic(text, scenario: "everything-for-buyers")
        #expect(close(generous.freemium[0], Self.newBuyersProceeds), "legacy buyers keep 'extra' too, so they are offered nothing")
    }
}
