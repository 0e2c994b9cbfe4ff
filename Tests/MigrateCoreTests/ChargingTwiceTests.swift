import Foundation
import MigrateCore
import MigratePlan
import Testing

/// What "charging twice" means for each pair of kinds (`UpsellPolicy.chargesTwice`): held for good
/// counts against everything; a subscription doesn't withhold Lifetime, and another plan in its own group
/// is a switch; a subscription in another group, or a pass, does count.
@Suite("Charging twice, per kind", .timeLimit(.minutes(20)))
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
            // A monthly subscriber: Lifetime (held for good); not the yearly plan (a switch that adds nothing, for
            // an account screen), a second subscription in another group, nor a pass for what they have.
            (["monthly"], ["lifetime"], ["other.monthly", "pass", "yearly"]),
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

    @Test("A monthly subscriber's yearly plan is a switch that adds nothing, and Lifetime says the subscription keeps renewing")
    func switchAndCancel() throws {
        let report = Self.offers(owning: ["monthly"]).report
        let yearly = try #require(report.upsell.withheld.first { $0.productID == "yearly" })
        #expect(
            yearly.reason.hasPrefix(
                "a switch from 'monthly' in subscription group 'main' that adds nothing the subscriber lacks (P1Y instead of P1M, 39.99 instead of 4.99)"
            ))
        let lifetime = try #require(report.upsell.offers.first { $0.productID == "lifetime" })
        #expect(lifetime.switchesFrom == nil && lifetime.keepsRenewing == ["monthly"])
        #expect(lifetime.reason.contains("cancel it in Settings"))
    }

    /// Individual and family plans, monthly and yearly, all at level 1 of one group (a real app's catalog), and
    /// a level above them that adds a feature.
    static let familyPlan: MigrationPlan = {
        func plan(_ id: String, _ price: String, level: Int = 1, family: Bool = false, grants: [String] = ["sync", "groups"]) -> Product {
            Product(
                id: id, name: id, kind: .autoRenewable, price: try! Price(price), grants: grants, familyShareable: family,
                subscription: SubscriptionInfo(group: "plus", level: level, period: id.hasSuffix("yearly") ? "P1Y" : "P1M"))
        }
        return MigrationPlan(
            app: AppInfo(name: "F", bundleID: "f", platforms: [.iOS]),
            features: features("sync", "groups", "studio"),
            releases: [release("1.0", build: "1", "2020-01-01T00:00:00Z", includes: [])],
            products: [
                plan("individual_monthly", "2.99", level: 2), plan("individual_yearly", "29.99", level: 2),
                plan("family_monthly", "4.99", level: 2, family: true), plan("family_yearly", "49.99", level: 2, family: true),
                plan("studio_monthly", "9.99", level: 1, grants: ["sync", "groups", "studio"]),
            ])
    }()

    @Test(
        "Plans of one group: a switch is offered only when it adds what the subscriber lacks",
        arguments: [
            ([], ["individual_monthly", "family_monthly", "studio_monthly", "individual_yearly", "family_yearly"]),
            (["individual_monthly"], ["studio_monthly"]),
            (["family_yearly"], ["studio_monthly"]),
            (["studio_monthly"], []),
        ])
    func sameGroup(owned: [String], offered: [String]) throws {
        let customer = Customer(platform: .iOS, originalAppVersion: "1", purchases: owned.map { OwnedProduct(productID: $0) })
        let report = Advisor(plan: Self.familyPlan).report(for: customer)
        #expect(report.upsell.offers.map(\.productID) == offered)
        if let studio = report.upsell.offers.first(where: { $0.productID == "studio_monthly" }), !owned.isEmpty {
            #expect(studio.adds == ["studio"], "an upgrade adds only what the subscriber lacks")
            #expect(studio.switchesFrom == owned.first)
        }
        let switches = report.upsell.withheld.filter { $0.reason.hasPrefix("a switch from") }.map(\.productID)
        #expect(Set(switches).isDisjoint(with: offered))
    }

    @Test("Buying whatever is offered, again and again, never holds two plans of one group")
    func journey() {
        var owned: [String] = []
        for _ in 0..<10 {
            let customer = Customer(platform: .iOS, originalAppVersion: "1", purchases: owned.map { OwnedProduct(productID: $0) })
            guard let next = Advisor(plan: Self.familyPlan).report(for: customer).upsell.offers.first?.productID else { break }
            // A switch replaces the plan the customer has in the group.
            owned.removeAll { Self.familyPlan.products.first(where: { $0.id == next })?.subscription?.group == "plus" && $0 != next }
            #expect(!owned.contains(next), "\(next) sold twice")
            owned.append(next)
        }
        #expect(owned == ["studio_monthly"], "the cheapest plan, then the upgrade that adds something, then nothing: \(owned)")
    }

    @Test(
        "A family member's shared subscription is the organizer's: never switched from, never to be cancelled; their own is",
        arguments: [(OwnedProduct.Ownership.familyShared, true), (.purchased, false)])
    func familyMember(ownership: OwnedProduct.Ownership, sharedOnly: Bool) throws {
        var plan = Self.plan
        for index in plan.products.indices { plan.products[index].familyShareable = true }
        let customer = Customer(platform: .iOS, originalAppVersion: "2", purchases: [OwnedProduct(productID: "monthly", ownership: ownership)])
        let report = Advisor(plan: plan).report(for: customer)
        #expect(report.entitlements.has("pro"))
        #expect(report.entitlements.familySharedOnly == (sharedOnly ? ["monthly"] : []))
        let yearly = try #require(report.upsell.withheld.first { $0.productID == "yearly" })
        let lifetime = try #require(report.upsell.offers.first { $0.productID == "lifetime" })
        if sharedOnly {
            // Another plan adds nothing the member lacks; it is no switch from a subscription that isn't theirs.
            #expect(yearly.why == .addsNothing)
            #expect(lifetime.keepsRenewing.isEmpty && !lifetime.reason.contains("cancel"), "\(lifetime.reason)")
        } else {
            #expect(yearly.switchesFrom == "monthly")
            #expect(lifetime.keepsRenewing == ["monthly"] && lifetime.reason.contains("cancel it in Settings"), "\(lifetime.reason)")
        }
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
