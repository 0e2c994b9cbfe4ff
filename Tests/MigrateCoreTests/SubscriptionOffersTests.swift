import Foundation
import MigrateCore
import MigratePlan
import Testing

import struct FreemiumStoreKit.FamilySharedOffer

/// What `explain` says of a pass bought twice and of a family member's offer: the same expiry the app computes from the
/// same purchases (`CatalogRules.passPeriods(of:)`), and the same words the app shows (`FamilySharedOffer.message`).
@Suite("Passes and Family Sharing in explain", .timeLimit(.minutes(20)))
struct SubscriptionOffersTests {
    static let plan = MigrationPlan(
        app: AppInfo(name: "C", bundleID: "c", platforms: [.iOS]),
        features: features("coaching"),
        releases: [release("1.0", build: "1", "2020-01-01T00:00:00Z", includes: [])],
        products: [
            Product(
                id: "coaching.year", name: "Coaching", kind: .nonRenewing, price: try! Price("49.99"), grants: ["coaching"],
                duration: try! TrialPeriod("P1Y", for: .purchase)),
            Product(
                id: "monthly", name: "Monthly", kind: .autoRenewable, price: try! Price("4.99"), grants: ["coaching"],
                familyShareable: true, subscription: SubscriptionInfo(group: "main", level: 1, period: "P1M")),
            Product(id: "lifetime", name: "Lifetime", kind: .nonConsumable, price: try! Price("99.99"), grants: ["coaching"]),
        ])
    static let bought = Timestamp.parse("2030-01-01T00:00:00Z")!
    static let day: TimeInterval = 86_400

    static func report(_ purchases: [OwnedProduct], now: Date) -> CustomerReport {
        Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "1", purchases: purchases, now: now))
    }

    @Test("A pass bought 300 days into a year is offered again, and runs a year after the first ends; refunded, its own period goes")
    func passExtended() throws {
        let first = OwnedProduct(productID: "coaching.year", purchaseDate: Self.bought)
        let second = OwnedProduct(productID: "coaching.year", purchaseDate: Self.bought.addingTimeInterval(300 * Self.day))
        let during = Self.report([first], now: Self.bought.addingTimeInterval(300 * Self.day))
        let offer = try #require(during.upsell.offers.first { $0.productID == "coaching.year" })
        #expect(offer.extendsPass && offer.reason.contains("starts where the running one ends"))
        let firstEnd = Timestamp.parse("2031-01-01T00:00:00Z")!
        let secondEnd = Timestamp.parse("2032-01-01T00:00:00Z")!
        let kept = Self.report([first, second], now: secondEnd.addingTimeInterval(-Self.day))
        #expect(kept.entitlements.activeProducts == ["coaching.year"])
        #expect(kept.entitlements.notes.contains { $0.contains("until \(Timestamp.format(secondEnd))") })
        #expect(kept.entitlements.notes.contains { $0.contains("from \(Timestamp.format(firstEnd))") })
        #expect(Self.report([first, second], now: secondEnd).entitlements.activeProducts.isEmpty)
        // The first refunded: the second runs from its own purchase.
        let refunded = [OwnedProduct(productID: "coaching.year", isRevoked: true, purchaseDate: Self.bought), second]
        let ownEnd = Self.bought.addingTimeInterval(300 * Self.day)
        let end = try #require(Calendar(identifier: .gregorian).date(byAdding: .year, value: 1, to: ownEnd))
        #expect(Self.report(refunded, now: end.addingTimeInterval(-Self.day)).entitlements.activeProducts == ["coaching.year"])
        #expect(Self.report(refunded, now: end).entitlements.activeProducts.isEmpty)
    }

    @Test("An offer to a family member who has everything through the organizer's plan quotes the words the app shows")
    func familyMemberOffer() throws {
        let shared = OwnedProduct(productID: "monthly", ownership: .familyShared, purchaseDate: Self.bought)
        let report = Self.report([shared], now: Self.bought)
        let lifetime = try #require(report.upsell.offers.first { $0.productID == "lifetime" })
        let words = FamilySharedOffer(coversEverything: true, ownership: .forGood).message
        #expect(lifetime.familySharing == words)
        #expect(lifetime.reason.contains("'monthly' through Family Sharing") && lifetime.reason.contains(words))
        let own = Self.report([], now: Self.bought).upsell.offers.first { $0.productID == "lifetime" }
        #expect(own?.familySharing == nil)
    }
}
