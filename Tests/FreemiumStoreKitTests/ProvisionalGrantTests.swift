import Foundation
import FreemiumStoreKitTesting
import Testing

@testable import FreemiumStoreKit

/// `policies.provisionalGrant`: a first launch offline may grant the plan's tier on the app's own
/// evidence, for the plan's days at most, and never past the App Store's answer.
@Suite("Provisional grant", .timeLimit(.minutes(20)))
@MainActor
struct ProvisionalGrantTests {
    typealias Plan = TinyPlan<ProvisionalPrice>
    nonisolated static let day: TimeInterval = 86_400

    /// An offline first launch of a plan with the policy, the model's clock driving the store's.
    static func offlineStore<P: StorePlan>(
        _ plan: P.Type = Plan.self, facts: AppTransactionFacts?, cache: InMemoryPurchaseCache = InMemoryPurchaseCache(),
        evidence: Bool? = true
    ) -> (PlanStore<P>, AppStoreModel) where P.Platform == String {
        let model = PlanStoreTests.model(facts)
        model.isOnline = false
        let store = PlanStore<P>(platform: "iOS", storeFront: model, cache: cache, now: { model.now })
        store.recheckDelays = [3_600]
        if let evidence { store.provisionalEvidence = { evidence } }
        return (store, model)
    }

    @Test("While the purchase is checked, the app's evidence grants the tier for the plan's days; nothing is sold")
    func grantWhileChecking() async {
        let (store, model) = Self.offlineStore(facts: PlanStoreTests.legacyBuyer)
        await store.refresh()
        #expect(store.isCheckingOriginalPurchase)
        #expect(store.entitlements.keepsPro)
        #expect(!store.decision.isLegacy, "the decision is still the undecided one")
        #expect(store.state.provisionalGrant == .init(started: model.now, ends: model.now.addingTimeInterval(3 * Self.day)))
        #expect(store.upsell == Plan.noOffers)
        #expect(!store.mayBuy(.pro) && !store.mayBuy(.yearly))
    }

    @Test("No evidence hook, evidence that says no, or a plan without the policy: checking, no grant")
    func noGrantWithoutPolicyOrEvidence() async {
        for evidence in [nil, false] as [Bool?] {
            let (store, _) = Self.offlineStore(facts: PlanStoreTests.legacyBuyer, evidence: evidence)
            await store.refresh()
            #expect(store.isCheckingOriginalPurchase && !store.entitlements.keepsPro && store.state.provisionalGrant == nil)
        }
        let (store, _) = Self.offlineStore(TinyPlan<OwnPrice>.self, facts: PlanStoreTests.legacyBuyer)
        await store.refresh()
        #expect(store.isCheckingOriginalPurchase && !store.entitlements.keepsPro && store.state.provisionalGrant == nil)
    }

    @Test("The App Store answers new customer: the grant is withdrawn at once, and the real decision stands")
    func withdrawnWhenNewCustomer() async {
        let (store, model) = Self.offlineStore(facts: PlanStoreTests.newCustomer)
        await store.refresh()
        #expect(store.entitlements.keepsPro)
        model.isOnline = true
        await store.refresh()
        #expect(store.state.proof == .verified && store.state.provisionalGrant == nil)
        #expect(!store.entitlements.keepsPro && !store.decision.isLegacy)
        #expect(store.upsell.offers.contains(.pro), "a verified new customer is sold what the grant gave")
        // Offline again: what the App Store verified decides, never the evidence.
        model.isOnline = false
        model.advance(by: 60)
        await store.refresh()
        #expect(store.state.provisionalGrant == nil && !store.entitlements.keepsPro)
    }

    @Test("The App Store answers paid: the real tier replaces the grant")
    func replacedWhenPaid() async {
        let (store, model) = Self.offlineStore(facts: PlanStoreTests.legacyBuyer)
        await store.refresh()
        #expect(store.state.provisionalGrant != nil)
        model.isOnline = true
        await store.refresh()
        #expect(store.state.provisionalGrant == nil && store.state.proof == .verified)
        #expect(store.decision.isLegacy && store.entitlements.keepsPro)
    }

    @Test("The grant ends at the window's end, and a relaunch or a clock set back doesn't restart it")
    func endsAtWindowEnd() async {
        let cache = InMemoryPurchaseCache()
        let (store, model) = Self.offlineStore(facts: PlanStoreTests.legacyBuyer, cache: cache)
        await store.refresh()
        let ends = store.state.provisionalGrant?.ends
        #expect(ends != nil)
        model.advance(by: 3 * Self.day - 1)
        await store.refresh()
        #expect(store.entitlements.keepsPro && store.state.provisionalGrant?.ends == ends, "still inside the window")
        // A relaunch keeps the window's start.
        let relaunched = PlanStore<Plan>(platform: "iOS", storeFront: model, cache: cache, now: { model.now })
        relaunched.provisionalEvidence = { true }
        await relaunched.refresh()
        #expect(relaunched.state.provisionalGrant?.ends == ends)
        model.advance(by: 1)
        await store.refresh()
        #expect(store.isCheckingOriginalPurchase && !store.entitlements.keepsPro && store.state.provisionalGrant == nil)
        // The clock set back inside the window, in a new launch: still over.
        let rewound = PlanStore<Plan>(platform: "iOS", storeFront: model, cache: cache, now: { model.now - Self.day })
        rewound.provisionalEvidence = { true }
        await rewound.refresh()
        #expect(!rewound.entitlements.keepsPro && rewound.state.provisionalGrant == nil)
    }

    @Test("The store asks again at the window's end, so the grant ends on time without a refresh")
    func recheckAtWindowEnd() async throws {
        let model = PlanStoreTests.model(PlanStoreTests.legacyBuyer)
        model.isOnline = false
        // The window began on this device 0.2 seconds short of three days ago.
        let cache = InMemoryPurchaseCache()
        let began = model.now.addingTimeInterval(-3 * Self.day + 0.2)
        cache.saveProvisionalWindow(try #require(ProvisionalGrantWindow(startedAt: began, latestSeen: began).encoded()))
        // On the model's clock: the store's attempt runs when the test moves time on, not in real time.
        let store = PlanStore<Plan>(platform: "iOS", storeFront: model, cache: cache, clock: model)
        store.recheckDelays = [3_600]
        store.provisionalEvidence = { true }
        await store.refresh()
        #expect(store.state.provisionalGrant?.started == began)
        // The window's end passes, long before the next hourly attempt; only an attempt at that moment sees it.
        let attempt = try #require(store.recheck, "no attempt scheduled")
        model.advance(by: 1)
        #expect(await PlanStoreTests.finishes(attempt), "no attempt at the window's end")
        #expect(store.state.provisionalGrant == nil)
        #expect(!store.entitlements.keepsPro && store.isCheckingOriginalPurchase)
    }

    @Test("A window edited or malformed in the cache counts as spent: no grant")
    func malformedWindowIsSpent() async {
        for data in [Data("{}".utf8), Data("{\"startedAt\":1e400,\"latestSeen\":0}".utf8), Data([0xFF])] {
            let cache = InMemoryPurchaseCache()
            cache.saveProvisionalWindow(data)
            let (store, _) = Self.offlineStore(facts: PlanStoreTests.legacyBuyer, cache: cache)
            await store.refresh()
            #expect(store.isCheckingOriginalPurchase && store.state.provisionalGrant == nil && !store.entitlements.keepsPro)
        }
    }
}
