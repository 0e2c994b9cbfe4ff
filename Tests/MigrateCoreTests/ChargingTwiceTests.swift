import Foundation
import MigrateCore
import MigratePlan
import Testing

/// What "charging twice" means for each pair of kinds (`UpsellPolicy.chargesTwice`): held for good
/// counts against everything; a subscription doesn't withhold Lifetime, and another plan in its own group
/// is a switch; a subscription in another group, or a pass, does count.
@Suite("Charging twice, per kind")
struct ChargingTwiceTests {
    static func subscription(_ id: String, _ price: String, group: String, grants: [String] = ["pro"]) -> Product {
        Product(
            id: id, name: id, kind: .autoRenewable, price: try! Price(price), grants: grants,
            subscription: SubscriptionInfo(group: group, level: 1, period: id.hasSuffix("yearly") ? "P1Y" : "P1M"))
    }

    static let plan = MigrationPlan(
        app: AppInfo(name: "S", bundleID: "s", platforms: [.iOS]),
        features: features("pro"),
        releases: [
            release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "4.99", includes: ["pro"]),
            release("2.0", build: "2", "2021-01-01T00:00:00Z", includes: []),
        ],
        products: [
            subscription("monthly", "4.99", group: "main"),
            subscription("yearly", "39.99", group: "main"),
            subscription("other.monthly", "5.99", group: "other"),
            product("lifetime", "99.99", grants: ["pro"]),
            Product(id: "pass", name: "pass", kind: .nonRenewing, price: try! Price("19.99"), grants: ["pro"]),
        ])

    static func offers(owning owned: [String]) -> (offered: [String], withheld: [String], report: CustomerReport) {
        let customer = Customer(platform: .iOS, originalAppVersion: "2", purchases: owned.map { OwnedProduct(productID: $0) })
        let report = Advisor(plan: plan).report(for: customer)
        return (report.upsell.offers.map(\.productID), report.upsell.withheld.map(\.productID), report)
    }

    @Test(
        "What each holder may be sold",
        arguments: [
            // Nothing held: every product is on offer, cheapest first.
            ([], ["monthly", "other.monthly", "pass", "yearly", "lifetime"], []),
            // A monthly subscriber: the yearly plan (a switch) and Lifetime (held for good); not a second
            // subscription in another group, nor a pass for what they have.
            (["monthly"], ["yearly", "lifetime"], ["other.monthly", "pass"]),
            // Lifetime owned: nothing more to sell for the same feature.
            (["lifetime"], [], ["monthly", "other.monthly", "pass", "yearly"]),
            // A pass: Lifetime may be bought; a subscription would charge again for the same period.
            (["pass"], ["lifetime"], ["monthly", "other.monthly", "yearly"]),
        ])
    func sold(owned: [String], offered: [String], withheld: [String]) {
        let result = Self.offers(owning: owned)
        #expect(result.offered == offered, "\(owned)")
        #expect(result.withheld == withheld, "\(owned)")
    }

    @Test("A monthly subscriber's yearly plan is a switch, and Lifetime says the subscription keeps renewing")
    func switchAndCancel() throws {
        let report = Self.offers(owning: ["monthly"]).report
        let yearly = try #require(report.upsell.offers.first { $0.productID == "yearly" })
        #expect(yearly.switchesFrom == "monthly" && yearly.keepsRenewing.isEmpty)
        #expect(yearly.reason.contains("a switch from 'monthly' in subscription group 'main'"))
        let lifetime = try #require(report.upsell.offers.first { $0.productID == "lifetime" })
        #expect(lifetime.switchesFrom == nil && lifetime.keepsRenewing == ["monthly"])
        #expect(lifetime.reason.contains("cancel it in Settings"))
    }

    @Test("Each pair's rule, stated once")
    func pairs() throws {
        let policy = UpsellPolicy(catalog: PlanCatalog(Self.plan))
        func product(_ id: String) throws -> Product { try #require(Self.plan.products.first { $0.id == id }) }
        #expect(try policy.chargesTwice(product("lifetime"), for: .product("monthly")) == false)
        #expect(try policy.chargesTwice(product("yearly"), for: .product("monthly")) == false)
        #expect(try policy.chargesTwice(product("other.monthly"), for: .product("monthly")) == true)
        #expect(try policy.chargesTwice(product("pass"), for: .product("monthly")) == true)
        #expect(try policy.chargesTwice(product("monthly"), for: .product("lifetime")) == true)
        #expect(try policy.chargesTwice(product("lifetime"), for: .tier("paid")) == true)
        #expect(try policy.chargesTwice(product("yearly"), for: .free) == true)
    }
}
