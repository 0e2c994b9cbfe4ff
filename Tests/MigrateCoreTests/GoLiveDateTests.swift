import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// A go-live written as a date alone follows one rule, and a go-live still to come is planned, not yet in force.
@Suite("Go-live dates", .timeLimit(.minutes(20)))
struct GoLiveDateTests {
    @Test(
        "A planned go-live is left to cutoff-in-future until it passes; then it is as weak as a tag",
        arguments: [("2021-12-01T00:00:00Z", true), ("2023-01-01T00:00:00Z", false)])
    func plannedGoLive(now: String, stillToCome: Bool) {
        var plan = FreeUpdateTests.plan()
        plan.releases[3].releasedSource = .planned
        let codes = PlanChecker.check(plan, now: date(now)).diagnostics.map(\.code)
        #expect(codes.contains(.cutoffInFuture) == stillToCome)
        #expect(codes.contains(.weakReleaseDate) == !stillToCome)
    }

    @Test(
        "A go-live written as a date alone is the end of that day everywhere on Earth; other dates are midnight UTC",
        arguments: [
            ("2021-06-01", "2021-06-02T12:00:00Z", "2021-06-01T00:00:00Z"),
            ("2021-06-01T17:00:00Z", "2021-06-01T17:00:00Z", "2021-06-01T17:00:00Z"),
        ])
    func dateAlone(written: String, goLive: String, tierBound: String) throws {
        var plan = FreeUpdateTests.plan(tiers: [LegacyTier(id: "paid", name: "Paid", until: date("2022-01-10T16:00:00Z"))])
        plan.releases[3].released = date("2022-01-10T16:00:00Z")
        let text = PlanEncoder.encode(plan)
            .replacingOccurrences(of: "\"released\": \"2022-01-10T16:00:00Z\"", with: "\"released\": \"\(written)\"")
            .replacingOccurrences(of: "\"until\": \"2022-01-10T16:00:00Z\"", with: "\"until\": \"\(written)\"")
        let decoded = try #require(PlanDecoder.decode(text).plan)
        #expect(decoded.releases[3].released == date(goLive))
        #expect(decoded.tiers[0].until == date(tierBound))
        #expect(Timestamp.parseGoLive(Timestamp.formatGoLive(date(goLive))) == date(goLive))
    }
}
