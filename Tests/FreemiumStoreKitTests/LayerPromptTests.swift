import Foundation
import Testing

@testable import FreemiumStoreKit

/// What the store asks of the customer and where it reads from: a refresh never prompts, a failed restore or purchase
/// says so (and a cancelled one says nothing), and nothing but the App Store and the cache of its answers decides.
@Suite("PlanStore prompts and sources", .timeLimit(.minutes(20)))
@MainActor
struct LayerPromptTests {
    typealias Plan = TinyPlan<OwnPrice>

    @Test("A refresh never prompts: no AppStore.sync() and no AppTransaction.refresh(), online or not")
    func refreshNeverPrompts() async {
        for online in [true, false] {
            let model = PlanStoreTests.model(nil)
            model.isOnline = online
            let store = PlanStoreTests.store(Plan.self, model)
            await store.refresh()
            #expect(!model.calls.contains(.sync) && !model.calls.contains(.refreshAppTransaction))
            #expect(model.prompts == 0)
        }
    }

    @Test("Restore while the App Store can't be reached fails; cancelled at the password prompt, it shows nothing")
    func restoreOfflineFails() async {
        let model = PlanStoreTests.model()
        let store = PlanStoreTests.store(Plan.self, model)
        await store.refresh()
        model.isOnline = false
        #expect(await store.restore() == .failed)
        model.isOnline = true
        model.cancelsPrompts = true
        #expect(await store.restore() == nil)
    }

    @Test("A purchase the customer cancels is cancelled: nothing unlocked, nothing charged")
    func cancelledPurchase() async {
        let front = ScriptedStoreFront(appTransactions: [(.verified(PlanStoreTests.newCustomer), 0)], purchase: .userCancelled)
        let store = PlanStoreTests.store(Plan.self, front)
        await store.refresh()
        #expect(await store.purchase(.pro) == .cancelled)
        #expect(store.entitlements.products.isEmpty)
    }

    @Test("A record forged in UserDefaults grants nothing: the verified facts are never read from there")
    func userDefaultsForgeryGrantsNothing() async {
        // The key earlier generated layers used, for a bundle identifier an app could have.
        let key = "migrate.lastVerifiedPurchase.com.example.app"
        let forged: [String: Any] = ["verifiedAt": PlanStoreTests.start.timeIntervalSince1970, "originalAppVersion": "1"]
        UserDefaults.standard.set(forged, forKey: key)
        defer { UserDefaults.standard.removeObject(forKey: key) }
        let model = PlanStoreTests.model(PlanStoreTests.legacyBuyer)
        model.isOnline = false
        let store = PlanStoreTests.store(Plan.self, model)
        await store.refresh()
        #expect(!store.decision.isLegacy && store.state.proof == .unknown)
    }
}
