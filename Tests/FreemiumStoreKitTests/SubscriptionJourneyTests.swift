import Foundation
import FreemiumStoreKitTesting
import Testing

@_spi(Generated) @testable import FreemiumStoreKit

/// A subscription plan as `migrate generate` writes one: Monthly and Yearly at one level of one group (the same
/// features), a one-year coaching pass, and Lifetime, family-shareable.
enum SubscriptionPlan: CatalogPlan {
    typealias Product = CatalogRulesTests.Product
    typealias PlanFeature = CatalogRulesTests.Feature
    typealias PlanTier = CohortRulesTests.Tier
    typealias Platform = CohortRulesTests.Platform
    typealias Purchase = OriginalPurchaseFacts<Platform>
    typealias Decision = PlanCohortDecision<PlanTier, Platform>
    typealias Entitlements = PlanEntitlements<Product, PlanFeature, PlanTier>
    typealias Upsell = PlanUpsell<Product, PlanFeature>
    typealias Withheld = PlanWithholdReason<Product, PlanFeature>

    static var cohortRules: CohortRules<PlanTier, Platform> { CohortRulesTests.rules() }

    static var catalogRules: CatalogRules<Product, PlanFeature, PlanTier, Platform> {
        CatalogRules(
            tierFeatures: [.paid: [.pro]],
            productGrants: [.lifetime: [.pro, .sync], .monthly: [.pro, .sync], .yearly: [.pro, .sync], .pass: [.pro, .sync]],
            productContents: [:], freeFeatures: [.iOS: [], .macOS: [], .visionOS: []], consumables: [],
            subscriptionGroups: [.monthly: "pro", .yearly: "pro"], subscriptionLevels: [.monthly: 1, .yearly: 1],
            subscriptionPeriods: [.monthly: "P1M", .yearly: "P1Y"], nonRenewing: [.pass], trials: [:],
            passes: [.pass: DateComponents(year: 1)], familyShareable: [.lifetime, .monthly, .yearly], familySharingEntitles: true,
            forSale: [.lifetime, .monthly, .yearly, .pass], prices: [.lifetime: 499_900, .monthly: 29_900, .yearly: 199_900, .pass: 99_900],
            requirements: [:], legacyPrices: [:], legacyOnly: [])
    }

    static func platform(for storePlatform: StorePlatform) -> Platform? { Platform(rawValue: storePlatform.rawValue) }
}

/// What subscribers do every day, through the App Store model: change plan on an account screen, extend a pass, and
/// what a family member is told. Each rule cites its Apple page in the layer; each test fails when the rule is removed.
@Suite("Subscriptions as customers use them", .timeLimit(.minutes(20)))
@MainActor
struct SubscriptionJourneyTests {
    static let day: TimeInterval = 86_400
    static let newCustomer = AppTransactionFacts(
        appTransactionID: "new-1", originalAppVersion: "2", originalPurchaseDate: CohortRulesTests.day("2021-06-01"))

    /// `SubscriptionPlan`'s products as App Store Connect declares them.
    static let products: [AppStoreModel.Product] = [
        .init(id: "lifetime", kind: .nonConsumable, isFamilyShareable: true),
        .init(id: "monthly", kind: .autoRenewable(group: "pro", level: 1, period: 30 * day), isFamilyShareable: true),
        .init(id: "yearly", kind: .autoRenewable(group: "pro", level: 1, period: 365 * day), isFamilyShareable: true),
        .init(id: "pass", kind: .nonRenewing),
    ]

    static func model() -> AppStoreModel {
        AppStoreModel(products: products, appTransaction: newCustomer, now: PlanStoreTests.start)
    }

    // MARK: - Plan changes

    @Test("A monthly subscriber moves to yearly on the account screen, and is charged once, at the next renewal")
    func monthlyToYearly() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        #expect(await store.purchase(.monthly) == .purchased(.monthly))
        let renewal = try #require(model.records.last?.expirationDate)
        // The paywall never sells a plan that adds nothing.
        #expect(store.upsell.withheld[.yearly] == .switchAddsNothing(from: .monthly))
        #expect(!store.mayBuy(.yearly))
        let yearly = try #require(store.planOptions().first { $0.change.to == .yearly })
        #expect(yearly.status == .open)
        #expect(yearly.change.kind == .crossgrade && yearly.change.timing == .nextRenewal)
        #expect(yearly.change.fromPeriod == "P1M" && yearly.change.toPeriod == "P1Y")
        #expect(yearly.change.toPrice == 199_900 && yearly.change.adds.isEmpty && yearly.change.removes.isEmpty)
        #expect(yearly.takesEffect == renewal)

        #expect(await store.changePlan(to: .yearly) == .scheduled(.yearly, from: renewal))
        #expect(model.charges.map(\.productID) == ["monthly"], "nothing is charged before the renewal")
        // Pending: shown with its date, never offered again, and the plan in use is there to undo it.
        let options = store.planOptions()
        #expect(options.first { $0.change.to == .yearly }?.status == .pending(renewal))
        #expect(options.first { $0.change.to == .monthly }?.status == .keepsCurrent)
        let again = await store.changePlan(to: .yearly)
        #expect(again == .refused(.alreadySwitched(.init(product: .yearly, date: renewal))))
        #expect(model.calls.filter { $0 == .purchase("yearly") }.count == 1, "the pending change reached the App Store again")

        model.now = renewal.addingTimeInterval(Self.day)
        await store.refresh()
        #expect(store.entitlements.activeProducts == [.yearly])
        #expect(model.charges.map(\.productID) == ["monthly", "yearly"])
        #expect(model.charges.last?.isRenewal == true)
        #expect(store.planOptions().map(\.change.to) == [.monthly])
    }

    @Test("A pending change is undone by choosing the plan in use: it renews as before, and nothing more is charged")
    func undoPendingChange() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        #expect(await store.purchase(.monthly) == .purchased(.monthly))
        let renewal = try #require(model.records.last?.expirationDate)
        #expect(await store.changePlan(to: .yearly) == .scheduled(.yearly, from: renewal))
        #expect(await store.changePlan(to: .monthly) == .kept(.monthly))
        #expect(store.state.pendingChanges.isEmpty)
        #expect(store.planOptions().allSatisfy { $0.status == .open })
        model.now = renewal.addingTimeInterval(Self.day)
        await store.refresh()
        #expect(store.entitlements.activeProducts == [.monthly])
        #expect(model.charges.map(\.productID) == ["monthly", "monthly"])
    }

    @Test("A family member can't change the organizer's plan: no option, and a change is refused")
    func familyMemberHasNoPlanChanges() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        #expect(model.shareFromFamily("monthly"))
        try await model.settle()
        #expect(store.entitlements.activeProducts.contains(.monthly))
        #expect(store.planOptions().isEmpty)
        #expect(await store.changePlan(to: .yearly) == .refused(.notOffered))
        #expect(model.charges.isEmpty)
    }

    @Test("Apple's ranking decides when a change happens: higher level at once, lower level or another period at the renewal")
    func changeTiming() {
        typealias Rules = CatalogRules<CatalogRulesTests.Product, CatalogRulesTests.Feature, CatalogRulesTests.Tier, CatalogRulesTests.Platform>
        let rules = Rules(
            tierFeatures: [:], productGrants: [.monthly: [.pro], .yearly: [.pro], .otherMonthly: [.pro], .yearlyLegacy: [.pro]],
            productContents: [:], freeFeatures: [:], consumables: [],
            subscriptionGroups: [.monthly: "g", .yearly: "g", .otherMonthly: "g", .yearlyLegacy: "g"],
            subscriptionLevels: [.monthly: 2, .yearly: 2, .otherMonthly: 1],
            subscriptionPeriods: [.monthly: "P1M", .yearly: "P1Y", .otherMonthly: "P1M"],
            nonRenewing: [], trials: [:], passes: [:], familyShareable: [], familySharingEntitles: true, forSale: [],
            prices: [:], requirements: [:], legacyPrices: [:], legacyOnly: [])
        #expect(rules.change(from: .monthly, to: .otherMonthly) == (.upgrade, .immediately))
        #expect(rules.change(from: .otherMonthly, to: .monthly) == (.downgrade, .nextRenewal))
        #expect(rules.change(from: .monthly, to: .yearly) == (.crossgrade, .nextRenewal))
        #expect(rules.change(from: .yearly, to: .yearly) == (.crossgrade, .immediately))
        // No period said: never "at once" when the App Store may wait.
        #expect(rules.change(from: .otherMonthly, to: .yearlyLegacy) == (.crossgrade, .nextRenewal))
    }

    // MARK: - Passes

    @Test("A pass bought while one runs starts where it ends: no day is lost, offline too, and it ends on time")
    func passExtended() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        #expect(await store.purchase(.pass) == .purchased(.pass))
        let first = try #require(CatalogRulesTests.Rules.end(of: DateComponents(year: 1), from: PlanStoreTests.start))
        model.now = PlanStoreTests.start.addingTimeInterval(300 * Self.day)
        await store.refresh()
        #expect(store.mayBuy(.pass))
        #expect(store.upsell.offers.first { $0.product == .pass }?.extendsPass == true)
        #expect(await store.purchase(.pass) == .purchased(.pass))
        #expect(model.charges.map(\.productID) == ["pass", "pass"])
        let second = try #require(CatalogRulesTests.Rules.end(of: DateComponents(year: 1), from: first))
        model.now = first.addingTimeInterval(Self.day)
        model.isOnline = false
        await store.refresh()
        #expect(store.entitlements.activeProducts.contains(.pass), "the second pass restarted the clock, or was lost offline")
        model.now = second.addingTimeInterval(-Self.day)
        await store.refresh()
        #expect(store.entitlements.activeProducts.contains(.pass))
        model.now = second
        await store.refresh()
        #expect(!store.entitlements.activeProducts.contains(.pass))
    }

    @Test("A refunded pass removes its own period only: the one bought after it starts at its own purchase")
    func refundedPassRemovesItsPeriod() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        let firstRecord = try #require(model.purchaseElsewhere("pass"))
        model.now = PlanStoreTests.start.addingTimeInterval(300 * Self.day)
        _ = model.purchaseElsewhere("pass")
        model.refund(transactionID: firstRecord.id)
        await store.refresh()
        let secondStart = PlanStoreTests.start.addingTimeInterval(300 * Self.day)
        let end = try #require(CatalogRulesTests.Rules.end(of: DateComponents(year: 1), from: secondStart))
        model.now = end.addingTimeInterval(-Self.day)
        await store.refresh()
        #expect(store.entitlements.activeProducts.contains(.pass))
        model.now = end
        await store.refresh()
        #expect(!store.entitlements.activeProducts.contains(.pass), "the refunded pass's period was kept")
    }

    @Test("The rules chain a pass's purchases: each starts where the one before ends; a refund leaves its gap closed")
    func passPeriods() throws {
        let rules = CatalogRulesTests.rules()
        let start = CatalogRulesTests.start
        let month = try #require(CatalogRulesTests.Rules.end(of: DateComponents(month: 1), from: start))
        let bought = [
            CatalogRulesTests.owned(.pass, bought: start),
            CatalogRulesTests.owned(.pass, bought: start.addingTimeInterval(10 * CatalogRulesTests.day)),
        ]
        let periods = rules.passPeriods(of: bought)
        #expect(periods[0]?.start == start && periods[0]?.end == month)
        #expect(periods[1]?.start == month)
        #expect(periods[1]?.end == CatalogRulesTests.Rules.end(of: DateComponents(month: 1), from: month))
        let refunded = [CatalogRulesTests.owned(.pass, revoked: true, bought: start)] + bought.dropFirst()
        let afterRefund = rules.passPeriods(of: refunded)
        #expect(afterRefund[0] == nil)
        #expect(afterRefund[1]?.start == start.addingTimeInterval(10 * CatalogRulesTests.day))
    }

    // MARK: - The server

    /// What a server that follows the model's App Store Server Notifications decides the customer has now.
    static func serverHas(_ model: AppStoreModel, twice: Bool = false) -> Set<SubscriptionPlan.Product> {
        var ledger = NotificationLedger()
        for notification in model.serverNotifications + (twice ? model.serverNotifications : []) {
            _ = ledger.apply(notification)
        }
        let app = VerifiedAppTransaction(
            originalApplicationVersion: newCustomer.originalAppVersion, originalPurchaseDate: newCustomer.originalPurchaseDate)
        return SubscriptionPlan.decideOnServer(app: app, ledger: ledger, environment: .production, platform: .iOS, now: model.now)
            .entitlements.activeProducts
    }

    @Test("A server that follows the App Store's notifications decides as the app does: buy, renew, change plan, cancel, lapse")
    func serverFollowsNotifications() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        func agree(_ step: String) async {
            await store.refresh()
            #expect(Self.serverHas(model) == store.entitlements.activeProducts, "\(step)")
            #expect(Self.serverHas(model, twice: true) == store.entitlements.activeProducts, "\(step), each delivered twice")
        }
        #expect(await store.purchase(.monthly) == .purchased(.monthly))
        await agree("subscribed")
        model.advance(by: 31 * Self.day)
        await agree("renewed")
        #expect(await store.changePlan(to: .yearly) != .refused(.notOffered))
        #expect(Self.serverHasPending(model) == ["monthly": "yearly"])
        model.advance(by: 30 * Self.day)
        await agree("the change applied at the renewal")
        model.cancel("yearly")
        await agree("auto-renew off")
        model.advance(by: 366 * Self.day)
        await agree("lapsed")
        #expect(await store.purchase(.lifetime) == .purchased(.lifetime))
        await agree("a one-time charge")
        model.refund("lifetime")
        await agree("refunded")
        let types = model.serverNotifications.compactMap(\.notificationType)
        #expect(types.contains(.didRenew) && types.contains(.didChangeRenewalPref) && types.contains(.expired))
    }

    static func serverHasPending(_ model: AppStoreModel) -> [String: String] {
        var ledger = NotificationLedger()
        for notification in model.serverNotifications { _ = ledger.apply(notification) }
        return ledger.pendingChanges(in: .production)
    }

    // MARK: - Family Sharing

    @Test("An offer to a family member who has everything through the organizer's plan says so, and what buying adds")
    func familyMemberOfferSaysWhatTheyHave() async throws {
        let model = Self.model()
        let store = await model.launch(SubscriptionPlan.self, on: .iOS)
        #expect(model.shareFromFamily("yearly"))
        try await model.settle()
        #expect(store.entitlements.activeProducts.contains(.yearly))
        let lifetime = store.upsell.offers.first { $0.product == .lifetime }
        #expect(lifetime?.sharedByFamily == [.yearly])
        #expect(lifetime?.familySharing == FamilySharedOffer(coversEverything: true, ownership: .forGood))
        #expect(lifetime?.familySharing?.message.contains("through Family Sharing") == true)
        #expect(lifetime?.familySharing?.message.contains("yours for good") == true)
        // A customer of their own hears nothing of it.
        let own = await Self.model().launch(SubscriptionPlan.self, on: .iOS)
        #expect(own.upsell.offers.allSatisfy { $0.familySharing == nil && $0.sharedByFamily.isEmpty })
    }
}
