import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

/// A plan under Tests/Fixtures/plans.
func fixturePlan(_ name: String) throws -> MigrationPlan {
    let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/plans/\(name)")
    let document = PlanDecoder.decode(bytes: Array(try Data(contentsOf: url)))
    #expect(!document.hasErrors, "\(name): \(document.diagnostics.map(\.message))")
    return try #require(document.plan)
}

@Suite("Tier windows", .timeLimit(.minutes(20)))
struct TierWindowTests {
    /// Server Pal, paid 1.0–1.2, free from 2.0 (2017-10-01T16:00Z), with one written tier that has no `until`.
    @Test(
        "A tier without 'until' ends when the first free release went live",
        arguments: [
            (version: "31", date: nil, tier: "paid-era"),  // bought 1.2
            // The version rule holds and the window ends at a go-live: the version decides, as roll-outs blur dates.
            (version: "31", date: "2017-10-01T16:00:00Z", tier: "paid-era"),
            (version: "40", date: nil, tier: nil),  // downloaded free 2.0
            (version: "44", date: nil, tier: nil),  // downloaded free 2.1
            (version: nil, date: "2017-10-01T15:59:59Z", tier: "paid-era"),
            (version: nil, date: "2017-10-01T16:00:00Z", tier: nil),
            (version: nil, date: "2018-03-01T00:00:00Z", tier: nil),
        ] as [(version: String?, date: String?, tier: String?)])
    func withoutUntil(version: String?, date purchased: String?, tier: String?) throws {
        let advisor = Advisor(plan: try fixturePlan("tier-without-until.json"))
        let customer = Customer(platform: .iOS, originalAppVersion: version, originalPurchaseDate: purchased.map(date))
        #expect(advisor.cohort(customer) == (tier.map { .legacy(tierID: $0) } ?? .newCustomer))
        #expect(advisor.catalog.tier(withID: "paid-era")?.releases.count == 3, "the free releases are not the tier's")
    }

    /// Tiers 'early' (until 2017-09-10, while 1.1 is on sale) and 'late' (from then, no until); the date rule.
    @Test(
        "A tier window is compared with the purchase date, not the release's go-live",
        arguments: [
            (date: "2017-08-25T00:00:00Z", tier: "early"),  // 1.0 on sale
            (date: "2017-09-05T00:00:00Z", tier: "early"),  // 1.1, inside early's window
            (date: "2017-09-15T00:00:00Z", tier: "late"),  // 1.1 still on sale, after early's window
            (date: "2017-09-25T00:00:00Z", tier: "late"),  // 1.2
            (date: "2017-10-05T00:00:00Z", tier: nil),  // free 2.0: 'late' has no until and ends here
        ] as [(date: String, tier: String?)])
    func purchaseDate(date purchased: String, tier: String?) throws {
        let advisor = Advisor(plan: try fixturePlan("tier-window-mid-release.json"))
        let report = advisor.report(for: Customer(platform: .iOS, originalAppVersion: nil, originalPurchaseDate: date(purchased)))
        #expect(report.decision.cohort == (tier.map { .legacy(tierID: $0) } ?? .newCustomer), "\(purchased)")
        if purchased == "2017-09-15T00:00:00Z" {
            #expect(report.decision.notes.contains { $0.contains("outside tier 'early''s window") }, "\(report.decision.notes)")
        }
    }

    @Test("check sees the derived end of a tier without 'until': no overlap with a tier from the free release on")
    func checkUsesDerivedWindow() throws {
        var plan = try fixturePlan("tier-without-until.json")
        plan.tiers.append(
            LegacyTier(
                id: "free-launch", name: "Free launch week", from: date("2017-10-01T16:00:00Z"), until: date("2017-10-08T00:00:00Z"),
                grants: ["live-graphs"]))
        let codes = PlanChecker.check(plan, now: date("2026-01-01T00:00:00Z")).diagnostics.map(\.code.rawValue)
        #expect(!codes.contains("tier-overlap"), "\(codes)")
    }

    /// The same plan under the version rule: the window ends while 1.1 (build 23) is on sale, so
    /// the purchase date decides for 1.1's buyers, and the version for everyone else.
    @Test(
        "Under the version rule, a window that ends mid-release is still compared with the purchase date",
        arguments: [
            (version: "23", date: "2017-09-05T00:00:00Z", tier: "early"),
            (version: "23", date: "2017-09-15T00:00:00Z", tier: "late"),
            (version: "12", date: "2017-09-15T00:00:00Z", tier: "early"),  // 1.0's window isn't split: the version decides
            (version: "31", date: "2017-09-25T00:00:00Z", tier: "late"),
            (version: "40", date: "2017-10-05T00:00:00Z", tier: nil),
        ] as [(version: String, date: String, tier: String?)])
    func versionRule(version: String, date purchased: String, tier: String?) throws {
        var plan = try fixturePlan("tier-window-mid-release.json")
        plan.policies.cutoffRule = .automatic
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: version, originalPurchaseDate: date(purchased)))
        #expect(report.decision.rule == .buildNumber)
        #expect(report.decision.cohort == (tier.map { .legacy(tierID: $0) } ?? .newCustomer), "\(version) \(purchased)")
    }
}
