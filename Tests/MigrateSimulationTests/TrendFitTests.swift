import Foundation
import MigratePlan
import MigrateSimulation
import Testing

@Suite("Staying paid's trend, fitted to the install base's months", .timeLimit(.minutes(20)))
struct TrendFitTests {
    static func base(_ paid: [Int], from: String = "2020-01-01T00:00:00Z", until: String? = nil) -> InstallBase {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let months = paid.enumerated().map {
            MonthlyDownloads(
                month: MonthlyDownloads.month(of: calendar.date(from: DateComponents(year: 2020, month: $0.offset + 1, day: 1))!), paid: $0.element)
        }
        let after = calendar.date(from: DateComponents(year: 2020, month: paid.count + 1, day: 1))!
        let end = until.flatMap { ISO8601DateFormatter().date(from: $0) } ?? after.addingTimeInterval(-86_400)
        return InstallBase(
            from: ISO8601DateFormatter().date(from: from), until: end, downloads: [DownloadCount(paid: paid.reduce(0, +))], months: months)
    }

    static let declines: [(Double, Int)] = [(-0.03, 8), (-0.10, 6), (0.02, 12)]

    @Test("A series with a known steady change gives it back, with R² near 1", arguments: declines)
    func knownDecline(change: Double, months: Int) throws {
        let paid = (0..<months).map { Int((10_000 * pow(1 + change, Double($0))).rounded()) }
        let fit = try #require(TrendFit.fit(Self.base(paid)))
        #expect(fit.months == months)
        #expect(abs(fit.monthlyChange - change) < 0.0005, "\(fit.monthlyChange)")
        #expect(fit.rSquared > 0.999)
        #expect(fit.low <= fit.monthlyChange && fit.monthlyChange <= fit.high)
        #expect(fit.description.hasPrefix("installBase: fitted to \(months) months of paid downloads"))
    }

    @Test("A partial first month is scaled up by the share of it covered; under half a month is left out")
    func partialMonths() throws {
        // Reports from 16 January: January's 500 are half a month of a steady 1,000 a month.
        let steady = try #require(TrendFit.fit(Self.base([500, 1000, 1000, 1000, 1000, 1000, 1000], from: "2020-01-16T00:00:00Z")))
        #expect(abs(steady.monthlyChange) < 0.01, "\(steady.monthlyChange)")
        let late = try #require(TrendFit.fit(Self.base([100, 1000, 1000, 1000, 1000, 1000, 1000], from: "2020-01-28T00:00:00Z")))
        #expect(late.months == 6 && abs(late.monthlyChange) < 1e-9)
    }

    @Test("Fewer than 6 months: no fit, so the simulation uses the documented default range")
    func tooShort() throws {
        #expect(TrendFit.fit(Self.base([900, 800, 700, 600, 500])) == nil)
        var plan = try decode(handPlan(assumptions: #"{ "paidDownloadsPerMonth": 100 }"#))
        plan.installBase = Self.base([900, 800, 700, 600, 500])
        let short = try PreparedScenario.prepare(plan, scenario: nil)
        #expect(short.assumptions.first { $0.assumption == .paidTrendPerMonth }?.source.hasPrefix("default: ") == true)
        plan.installBase = Self.base([900, 850, 800, 760, 720, 680, 650])
        let long = try PreparedScenario.prepare(plan, scenario: nil)
        let trend = try #require(long.assumptions.first { $0.assumption == .paidTrendPerMonth })
        #expect(trend.source.hasPrefix("installBase: fitted to 7 months"))
        #expect(trend.distribution.median < -0.04 && trend.distribution.median > -0.07)
    }

    @Test("Staying paid starts from the fitted trend's last month, not the period's average; a short history keeps the average")
    func currentRate() throws {
        // 10% fewer each month from 10,000: the average (~6,860) is the rate of the middle months; now it is ~5,905.
        let paid = (0..<6).map { Int((10_000 * pow(0.9, Double($0))).rounded()) }
        let fit = try #require(TrendFit.fit(Self.base(paid)))
        #expect(abs(fit.currentRate - 5_905) < 1, "\(fit.currentRate)")
        var plan = try decode(handPlan(assumptions: "{}"))
        plan.installBase = Self.base(paid)
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        let rate = try #require(prepared.assumptions.first { $0.assumption == .paidDownloadsPerMonth })
        #expect(abs(rate.distribution.median - 5_905) < 1, "\(rate.distribution.median)")
        #expect(rate.source.hasPrefix("installBase: the fitted trend's last month ("), "\(rate.source)")
        plan.installBase = Self.base(Array(paid.prefix(5)))
        let short = try #require(try PreparedScenario.prepare(plan, scenario: nil).assumptions.first { $0.assumption == .paidDownloadsPerMonth })
        #expect(
            short.source.hasPrefix("installBase: 40,951 paid downloads") || short.source.hasPrefix("installBase: 40951 paid downloads"),
            "\(short.source)")
    }

    @Test("installBase.months round-trips and is checked")
    func decoding() throws {
        let text = handPlan(assumptions: "{}").replacingOccurrences(
            of: #""simulation":"#,
            with:
                #""installBase": { "from": "2020-01-01T00:00:00Z", "until": "2020-02-29T00:00:00Z", "downloads": [ { "paid": 30 } ], "months": [ { "month": "2020-02", "paid": 10 }, { "month": "2020-01", "paid": 20 } ] }, "simulation":"#
        )
        let plan = try decode(text)
        #expect(plan.installBase?.months == [MonthlyDownloads(month: "2020-01", paid: 20), MonthlyDownloads(month: "2020-02", paid: 10)])
        #expect(try decode(PlanEncoder.encode(plan)).installBase == plan.installBase)
        let bad = PlanDecoder.decode(text.replacingOccurrences(of: #""month": "2020-02""#, with: #""month": "2020-13""#))
        #expect(
            bad.diagnostics.contains {
                $0.message == "'2020-13' is not a month written YYYY-MM, such as 2011-03" && $0.path?.description == "installBase.months[0].month"
            })
    }
}
