import Foundation
import FreemiumStoreKitTesting
import Testing

@_spi(Generated) @testable import FreemiumStoreKit

/// A plan that is only tables, as `migrate generate` writes one: the cutoff of `CohortRulesTests` (iOS build 1 paid,
/// build 2 free) and a catalog whose `paid` tier keeps `pro`. Generated plans are proven by their own tests; this one
/// proves what `CatalogPlan` adds to `PlanStore` for every plan.
enum ShopPlan: CatalogPlan {
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
            tierFeatures: [.paid: [.pro]], productGrants: [.lifetime: [.pro, .sync], .yearly: [.pro, .sync]], productContents: [:],
            freeFeatures: [.iOS: [], .macOS: [], .visionOS: []], consumables: [], subscriptionGroups: [.yearly: "pro"], nonRenewing: [],
            trials: [:], passes: [:], familyShareable: [], familySharingEntitles: false, forSale: [.lifetime, .yearly],
            prices: [.lifetime: 499_900, .yearly: 199_900], requirements: [:], legacyPrices: [:], legacyOnly: [])
    }

    static func platform(for storePlatform: StorePlatform) -> Platform? { Platform(rawValue: storePlatform.rawValue) }
}

/// `PlanStore` over a `CatalogPlan`: how the App Store's facts become the plan's purchase, and how an offer's legacy
/// price becomes what the app's server signs.
@Suite("PlanStore over a catalog plan", .timeLimit(.minutes(20)))
@MainActor
struct CatalogPlanStoreTests {
    static let paidBuyer = AppTransactionFacts(
        appTransactionID: "paid-1", originalAppVersion: "1", originalPurchaseDate: CohortRulesTests.day("2020-06-01"))

    static func model(_ facts: AppTransactionFacts?) -> AppStoreModel {
        AppStoreModel(
            products: [
                .init(id: "lifetime", kind: .nonConsumable),
                .init(id: "yearly", kind: .autoRenewable(group: "pro", level: 1, period: 365 * 86_400)),
            ],
            appTransaction: facts, now: PlanStoreTests.start)
    }

    @Test(
        "A server reads Apple's environment names; a name added later, or none, is production, where the original version is real",
        arguments: [
            ("Production", StoreEnvironment.production), ("Sandbox", .sandbox), ("ProductionSandbox", .sandbox), ("Xcode", .xcode),
            ("LocalTesting", .xcode), ("SomethingNew", .production), (nil, .production),
        ] as [(String?, StoreEnvironment)])
    func serverEnvironment(name: String?, environment: StoreEnvironment) {
        #expect(ShopPlan.serverEnvironment(name) == environment)
    }

    @Test("A paid download keeps its tier; refunded, it is a proven new customer, who may buy")
    func refundedDownloadBuys() async {
        let paid = await Self.model(Self.paidBuyer).launch(ShopPlan.self, on: .iOS)
        #expect(paid.decision.cohort == .legacy(.paid) && paid.entitlements.contains(.pro))
        let model = Self.model(Self.paidBuyer)
        model.refundApp()
        let store = await model.launch(ShopPlan.self, on: .iOS)
        #expect(store.state.proof == .verified)
        #expect(store.decision.rule == .refunded && store.decision.cohort == .newCustomer)
        #expect(store.mayBuy(.lifetime))
        #expect(await store.purchase(.lifetime) == .purchased(.lifetime))
        #expect(model.charges.map(\.productID) == ["lifetime"])
    }

    @Test("A journey's store is launched and loaded; what arrives through the updates is waited for until handled, boundedly")
    func journeyHelpers() async throws {
        let newCustomer = AppTransactionFacts(
            appTransactionID: "new-1", originalAppVersion: "2", originalPurchaseDate: CohortRulesTests.day("2021-06-01"))
        let model = Self.model(newCustomer)
        let store = await model.launch(ShopPlan.self, on: .iOS)
        #expect(store.state.isLoaded && store.upsell.offers.contains { $0.product == .lifetime })
        _ = model.purchaseElsewhere("lifetime")
        try await model.settle()
        #expect(store.entitlements.activeProducts == [.lifetime])
        // A listener that takes nothing: the wait gives up and says what is left; once it goes away, nothing is.
        let quiet = Self.model(newCustomer)
        do {
            let stuck = quiet.transactionUpdates()
            _ = quiet.purchaseElsewhere("lifetime")
            await #expect(throws: AppStoreModel.Unsettled(limit: .milliseconds(50), updates: 1, intents: 0)) {
                try await quiet.settle(within: .milliseconds(50))
            }
            withExtendedLifetime(stuck) {}
        }
        try await quiet.settle(within: .milliseconds(50))
    }

    @Test(
        "A legacy price is bought as its charge says: a promotional offer or the introductory offer signed, a product at its own price",
        arguments: [
            (PlanLegacyCharge<ShopPlan.Product>.promotionalOffer(id: "legacy"), SignedOffer.Kind?.some(.promotional(offerID: "legacy"))),
            (.introductoryOffer, .introductory),
            (.legacyProduct(.yearlyLegacy), nil),
        ])
    func legacyChargeSigned(charge: PlanLegacyCharge<ShopPlan.Product>, signing: SignedOffer.Kind?) {
        let offer = PlanOffer<ShopPlan.Product, ShopPlan.PlanFeature>(product: .yearly, adds: [.pro], legacyCharge: charge)
        let upsell = ShopPlan.Upsell(offers: [offer], withheld: [:], showsRestore: true)
        #expect(ShopPlan.terms(of: .yearly, in: upsell) == .offered(signing: signing))
        #expect(ShopPlan.terms(of: .lifetime, in: upsell) == .notOffered)
    }
}
