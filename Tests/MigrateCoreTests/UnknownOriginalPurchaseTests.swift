import Foundation
import MigrateCore
import MigratePlan
import Testing

/// Unknown is not new, and refunded is not unknown: a refunded download may buy anything; an original
/// purchase that can't be verified withholds only what a legacy tier could own.
@Suite("Unknown and refunded original purchases", .timeLimit(.minutes(20)))
struct UnknownOriginalPurchaseTests {
    static let plan = MigrationPlan(
        app: AppInfo(name: "U", bundleID: "u", platforms: [.iOS]),
        features: features("pro", "extra"),
        releases: [
            release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "2.99", includes: ["pro"]),
            release("2.0", build: "2", "2021-01-01T00:00:00Z", includes: []),
        ],
        products: [
            product("pro", "4.99", grants: ["pro"]), product("extra", "1.99", grants: ["extra"]), product("both", "5.99", grants: ["pro", "extra"]),
        ],
        tiers: [LegacyTier(id: "paid", name: "Paid", grants: ["pro"])])

    static func report(_ customer: Customer) -> CustomerReport { Advisor(plan: plan).report(for: customer) }

    @Test("An original purchase that can't be verified withholds what the tier could own and sells the rest")
    func unknownSellsTheRest() {
        let report = Self.report(Customer(platform: .iOS, originalAppVersion: "1", appTransaction: .failed(lastVerifiedDaysAgo: nil)))
        #expect(report.decision.rule == .noProof && report.decision.cohort == .newCustomer)
        #expect(report.upsell.offers.map(\.productID) == ["extra"])
        #expect(report.upsell.withheld.map(\.productID) == ["both", "pro"])
        #expect(report.upsell.withheld.allSatisfy { $0.reason.contains("a legacy tier may already own 'pro'") })
    }

    @Test("A refunded paid download is proven new: it may buy everything")
    func refundedBuys() {
        let report = Self.report(Customer(platform: .iOS, originalAppVersion: "1", isAppPurchaseRevoked: true))
        #expect(report.decision.rule == .refunded && report.decision.cohort == .newCustomer)
        #expect(Set(report.upsell.offers.map(\.productID)) == ["pro", "extra", "both"])
        #expect(report.upsell.withheld.isEmpty)
    }
}
