import Foundation
import FreemiumStoreKitTesting
import Testing

@testable import FreemiumStoreKit

/// How legacy buyers are charged for `yearly`: at its own price, or through a promotional offer the
/// app's server signs.
protocol LegacyPricing {
    static var signsLegacyPrice: Bool { get }
    /// `policies.provisionalGrant`'s days, or nil for a plan without it.
    static var provisionalDays: Int? { get }
}

extension LegacyPricing {
    static var provisionalDays: Int? { nil }
}

/// Own prices, and a plan that grants `pro` provisionally for three days.
enum ProvisionalPrice: LegacyPricing {
    static var signsLegacyPrice: Bool { false }
    static var provisionalDays: Int? { 3 }
}

enum OwnPrice: LegacyPricing {
    static var signsLegacyPrice: Bool { false }
}

enum SignedPrice: LegacyPricing {
    static var signsLegacyPrice: Bool { true }
}

/// The smallest plan the store's logic needs: the app was paid before version 2, and its buyers keep
/// `pro`. `coins` is a consumable. Generated plans are proven by their own tests; this one proves
/// `PlanStore` itself.
enum TinyPlan<Pricing: LegacyPricing>: StorePlan {
    enum Product: String, CaseIterable, Sendable {
        case pro, yearly, coins, monthly
    }

    struct Purchase: Hashable, Sendable {
        var facts: AppTransactionFacts?
        var verification: Verification
    }

    struct Decision: Hashable, Sendable {
        var isLegacy: Bool
    }

    struct Entitlements: Hashable, Sendable {
        var products: Set<String>
        var keepsPro: Bool
        var now: Date?
    }

    struct Upsell: Hashable, Sendable {
        var offers: [Product]
        var withheld: [Product: Withheld]
    }

    enum Withheld: Hashable, Sendable {
        case owned
    }

    static var legacyOffer: String { "legacy.yearly" }
    static var consumables: Set<Product> { [.coins] }

    static func sells(_ consumable: Product) -> Bool { consumable == .coins }

    static func purchase(from facts: AppTransactionFacts?, on platform: String, verification: Verification) -> Purchase {
        Purchase(facts: facts, verification: verification)
    }

    static func decide(_ purchase: Purchase) -> Decision {
        guard let facts = purchase.facts, !facts.isRevoked, facts.environment == .production else { return Decision(isLegacy: false) }
        return Decision(isLegacy: (Int(facts.originalAppVersion) ?? .max) < 2)
    }

    static func resolve(_ purchase: Purchase, decision: Decision, owned: [OwnedProduct], now: Date) -> Entitlements {
        let products = owned.filter { !$0.isRevoked && !$0.isExpired }.map(\.productID)
        return Entitlements(products: Set(products), keepsPro: decision.isLegacy, now: now)
    }

    static func unread(on platform: String) -> (purchase: Purchase, decision: Decision, entitlements: Entitlements) {
        (
            Purchase(facts: nil, verification: .unreachable(lastVerifiedDaysAgo: nil)), Decision(isLegacy: false),
            Entitlements(products: [], keepsPro: false)
        )
    }

    static var noOffers: Upsell { Upsell(offers: [], withheld: [:]) }

    static func upsell(for entitlements: Entitlements, decision: Decision) -> Upsell {
        var upsell = Upsell(offers: [], withheld: [:])
        for product in [Product.pro, .yearly] {
            if entitlements.products.contains(product.rawValue) || (product == .pro && entitlements.keepsPro) {
                upsell.withheld[product] = .owned
            } else {
                upsell.offers.append(product)
            }
        }
        return upsell
    }

    static func mayBuy(_ product: Product, entitlements: Entitlements, decision: Decision) -> Bool {
        upsell(for: entitlements, decision: decision).offers.contains(product)
    }

    static func upsell(_ upsell: Upsell, without products: Set<Product>) -> Upsell {
        Upsell(offers: upsell.offers.filter { !products.contains($0) }, withheld: upsell.withheld.filter { !products.contains($0.key) })
    }

    static func offeredProducts(in upsell: Upsell) -> [Product] { upsell.offers }

    static func terms(of product: Product, in upsell: Upsell) -> OfferTerms<Withheld> {
        if let reason = upsell.withheld[product] { return .withheld(reason) }
        guard upsell.offers.contains(product) else { return .notOffered }
        guard product == .yearly, Pricing.signsLegacyPrice else { return .offered(signing: nil) }
        return .offered(signing: .promotional(offerID: legacyOffer))
    }

    static func hasRestorable(_ decision: Decision, _ entitlements: Entitlements) -> Bool {
        decision.isLegacy || !entitlements.products.isEmpty
    }

    static var provisionalGrantDays: Int? { Pricing.provisionalDays }

    static func provisionalEntitlements(_ purchase: Purchase, owned: [OwnedProduct], now: Date) -> Entitlements {
        let products = owned.filter { !$0.isRevoked && !$0.isExpired }.map(\.productID)
        return Entitlements(products: Set(products), keepsPro: true, now: now)
    }
}

/// Signs every request with the server it is given, and remembers who asked.
final class RecordingSigner: OfferSigner, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [OfferRequest] = []
    private let server: (any OfferSigner)?
    var requests: [OfferRequest] { lock.withLock { seen } }

    init(signing server: (any OfferSigner)? = nil) {
        self.server = server
    }

    func compactJWS(for request: OfferRequest) async throws -> String {
        lock.withLock { seen.append(request) }
        return try await server?.compactJWS(for: request) ?? "signed"
    }
}

/// `PlanStore`'s own guards, each against the App Store model: what every generated store relies on.
@Suite("PlanStore", .timeLimit(.minutes(20)))
@MainActor
struct PlanStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let legacyBuyer = AppTransactionFacts(
        appTransactionID: "1", originalAppVersion: "1", originalPurchaseDate: Date(timeIntervalSince1970: 1_500_000_000),
        jwsRepresentation: "signed-app-transaction")
    static let newCustomer = AppTransactionFacts(appTransactionID: "2", originalAppVersion: "5", originalPurchaseDate: start)

    static func model(_ facts: AppTransactionFacts? = newCustomer) -> AppStoreModel {
        AppStoreModel(
            products: [
                .init(id: "pro", kind: .nonConsumable),
                .init(
                    id: "yearly", kind: .autoRenewable(group: "plus", level: 1, period: 365 * 86_400),
                    promotionalOffers: [TinyPlan<OwnPrice>.legacyOffer]),
                .init(id: "coins", kind: .consumable),
                .init(id: "monthly", kind: .autoRenewable(group: "plus", level: 1, period: 30 * 86_400)),
            ],
            appTransaction: facts, now: start)
    }

    static func store<Plan: StorePlan>(
        _ plan: Plan.Type, _ front: any StoreFront, cache: any PurchaseCacheStore = InMemoryPurchaseCache(), now: Date = start
    ) -> PlanStore<Plan> where Plan.Platform == String {
        PlanStore<Plan>(platform: "iOS", storeFront: front, cache: cache, now: { now })
    }

    /// Lets the store's listener and tasks run.
    static func settle() async {
        for _ in 0..<50 { await Task.yield() }
    }

    /// Whether `task`, something the store scheduled (`recheck`), finishes within `limit`: awaited, not polled,
    /// and a task that never runs fails the test after `limit` instead of holding it. As in `AppStoreModel.settle`,
    /// only time in which the main actor, where the store runs, was free counts: another test holding it fails
    /// nothing here.
    static func finishes(_ task: Task<Void, Never>, within limit: Duration = .seconds(5)) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let timer = Task.detached {
                for _ in 0..<100 {
                    do { try await Task.sleep(for: limit / 100) } catch { return }
                    await MainActor.run {}
                }
                answer.give(false)
            }
            Task {
                await task.value
                answer.give(true)
                timer.cancel()
            }
        }
    }

    @Test("Before the first refresh nothing is offered or buyable; after it, what the customer owns decides")
    func nothingBeforeLoad() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        #expect(store.upsell == TinyPlan<OwnPrice>.noOffers)
        #expect(!store.mayBuy(.pro))
        #expect(!store.state.isLoaded)
        await store.refresh()
        #expect(store.state.isLoaded && store.state.proof == .verified)
        #expect(store.upsell.offers == [.pro, .yearly])
        #expect(store.mayBuy(.pro))
    }

    @Test("A purchase is verified, unlocked, and only then finished; the same product isn't sold again")
    func purchaseUnlocksThenFinishes() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(await store.purchase(.pro) == .purchased(.pro))
        #expect(store.entitlements.products == ["pro"])
        #expect(model.records.first { $0.productID == "pro" }?.isFinished == true)
        #expect(await store.purchase(.pro) == .refused(.withheld(.owned)))
        #expect(model.charges.map(\.productID) == ["pro"])
    }

    @Test("While what the customer owns can't be read, a purchase is refused and nothing is charged")
    func unknownOwnershipRefused() async {
        let model = Self.model()
        model.isOnline = false
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        #expect(await store.purchase(.pro) == .refused(.ownershipUnknown))
        #expect(model.charges.isEmpty)
        #expect(model.calls.contains(.refreshAppTransaction), "buying is a user action: it may ask to sign in")
    }

    @Test("A legacy buyer is refused what they own; a legacy price without a signer is refused, not charged in full")
    func legacyRefusals() async {
        let model = Self.model(Self.legacyBuyer)
        let store = Self.store(TinyPlan<SignedPrice>.self, model)
        await store.refresh()
        #expect(store.decision.isLegacy)
        #expect(await store.purchase(.pro) == .refused(.withheld(.owned)))
        #expect(await store.purchase(.yearly) == .refused(.offerNotSigned))
        #expect(model.charges.isEmpty)
    }

    @Test("A signed legacy price carries the signed app transaction; the App Store's refusal is a refusal")
    func signedOffer() async throws {
        let model = Self.model(Self.legacyBuyer)
        let store = Self.store(TinyPlan<SignedPrice>.self, model)
        let signer = RecordingSigner(signing: model.offerSigner())
        store.offerSigner = signer
        await store.refresh()
        // Never subscribed in the group: the App Store refuses the promotional offer, and nothing is charged.
        #expect(await store.purchase(.yearly) == .refused(.offerRejected))
        #expect(model.charges.isEmpty)
        #expect(signer.requests.first?.kind == .promotional(offerID: TinyPlan<OwnPrice>.legacyOffer))
        // The server learns who asks from what the App Store signed, never from the app's word.
        #expect(signer.requests.first?.appTransactionJWS == "signed-app-transaction")
    }

    @Test("An unverified app transaction is never read: it can't claim to be a legacy buyer")
    func unverifiedNotRead() async {
        let model = Self.model(Self.legacyBuyer)
        model.appTransactionFailsVerification = true
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(store.state.proof == .verificationFailed)
        #expect(!store.decision.isLegacy)
        #expect(store.state.purchase.facts == nil)
    }

    @Test("Offline later in the same run, or at the next launch from the cache, the verified facts keep deciding")
    func offlineKeepsVerified() async {
        let model = Self.model(Self.legacyBuyer)
        let cache = InMemoryPurchaseCache()
        let store = Self.store(TinyPlan<OwnPrice>.self, model, cache: cache)
        await store.refresh()
        model.isOnline = false
        await store.refresh()
        #expect(store.state.proof == .verified && store.decision.isLegacy)
        let relaunched = Self.store(TinyPlan<OwnPrice>.self, model, cache: cache)
        await relaunched.refresh()
        #expect(relaunched.state.proof == .lastVerified(daysAgo: 0))
        #expect(relaunched.state.purchase.verification == .unreachable(lastVerifiedDaysAgo: 0))
        #expect(relaunched.decision.isLegacy)
    }

    @Test("First launch offline, nothing cached: the purchase is being checked, and recognised when the App Store answers, no relaunch")
    func firstLaunchOffline() async throws {
        let model = Self.model(Self.legacyBuyer)
        model.isOnline = false
        // On the model's clock: the store's next attempt comes when the test moves time on, not in real time.
        let store = PlanStore<TinyPlan<OwnPrice>>(platform: "iOS", storeFront: model, cache: InMemoryPurchaseCache(), clock: model)
        #expect(!store.isCheckingOriginalPurchase, "nothing read yet is loading, not checking")
        await store.refresh()
        #expect(store.isCheckingOriginalPurchase)
        #expect(store.state.proof == .unknown && !store.decision.isLegacy)
        model.isOnline = true
        let attempt = try #require(store.recheck, "no attempt scheduled")
        model.advance(by: store.recheckDelays[0] - 1)
        await Self.settle()
        #expect(!store.decision.isLegacy, "asked again before its delay")
        model.advance(by: 1)
        #expect(await Self.finishes(attempt), "the store didn't ask again")
        #expect(store.decision.isLegacy, "the store asked again on its own")
        #expect(!store.isCheckingOriginalPurchase && store.state.proof == .verified)
    }

    @Test("Checking stops once the App Store has answered: a verified customer isn't asked again")
    func noRecheckOnceKnown() async {
        let model = Self.model(Self.legacyBuyer)
        let store = PlanStore<TinyPlan<OwnPrice>>(platform: "iOS", storeFront: model, cache: InMemoryPurchaseCache(), clock: model)
        await store.refresh()
        #expect(!store.isCheckingOriginalPurchase)
        model.isOnline = false
        let reads = model.calls.filter { $0 == .appTransaction }.count
        model.advance(by: 3_600)
        await Self.settle()
        #expect(model.calls.filter { $0 == .appTransaction }.count == reads, "asked again once verified")
        #expect(store.state.proof == .verified, "verified in this process: still the App Store's answer")
    }

    @Test("The facts cached for one Apple Account never decide for another")
    func cacheOfAnotherAccount() async {
        let cache = InMemoryPurchaseCache()
        let first = Self.store(TinyPlan<OwnPrice>.self, Self.model(Self.legacyBuyer), cache: cache)
        await first.refresh()
        let other = Self.model(Self.newCustomer)
        other.appTransactionFailsVerification = true
        let second = Self.store(TinyPlan<OwnPrice>.self, other, cache: cache)
        await second.refresh()
        #expect(!second.decision.isLegacy)
        #expect(second.state.purchase.verification == .failed(lastVerifiedDaysAgo: nil))
    }

    @Test("Restore: cancelled shows nothing; synced but still unknown is a failure, never 'nothing to restore'")
    func restoreOutcomes() async {
        let model = Self.model(nil)
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        model.cancelsPrompts = true
        #expect(await store.restore() == nil)
        model.cancelsPrompts = false
        #expect(await store.restore() == .failed)
        #expect(model.calls.contains(.refreshAppTransaction))
        let legacy = Self.store(TinyPlan<OwnPrice>.self, Self.model(Self.legacyBuyer))
        #expect(await legacy.restore() == .restored)
        #expect(await Self.store(TinyPlan<OwnPrice>.self, Self.model()).restore() == .nothingRestored)
    }

    @Test("A consumable is finished only once delivered, with its transaction id; one bought before the hook is delivered")
    func consumables() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(await store.purchase(.coins) == .awaitingDelivery(.coins))
        #expect(model.records.first?.isFinished == false)
        var delivered: [UInt64] = []
        store.deliverConsumable = { delivery in
            delivered.append(delivery.transactionID)
            return true
        }
        await Self.settle()
        let id = model.records.first?.id
        #expect(delivered == [id].compactMap { $0 })
        #expect(model.records.first?.isFinished == true)
        await store.refresh()
        #expect(delivered.count == 1, "a finished consumable isn't delivered again")
    }

    @Test("A naive delivery hook credits a consumable once: a refresh overlapping its delivery, then a relaunch, hand it over again")
    func consumableCreditedOnce() async throws {
        let model = Self.model()
        let cache = InMemoryPurchaseCache()
        let store = Self.store(TinyPlan<OwnPrice>.self, model, cache: cache)
        await store.refresh()
        let credits = Box(0)
        let released = Box(false)
        store.deliverConsumable = { _ in
            credits.set(credits.value + 1)  // naive: no dedupe of its own
            for _ in 0..<1_000 where !released.value { await Task.yield() }  // a slow write
            return true
        }
        let bought = try #require(model.purchaseElsewhere("coins"))  // arrives through Transaction.updates
        await Self.settle()
        #expect(credits.value == 1)
        let refreshing = Task { await store.refresh() }  // the app comes to the foreground meanwhile
        await Self.settle()
        released.set(true)
        await refreshing.value
        await Self.settle()
        #expect(credits.value == 1, "credited again by the overlapping refresh")
        #expect(model.records.first?.isFinished == true)
        // The app crashed before the App Store recorded the finish: it sends the transaction again at the next launch.
        let unfinished = StoreTransaction(productID: "coins", id: bought.id, purchaseDate: Self.start)
        for launch in [cache, InMemoryPurchaseCache()] {
            let relaunched = Self.store(TinyPlan<OwnPrice>.self, model, cache: launch)
            await relaunched.refresh()
            relaunched.deliverConsumable = { _ in
                credits.set(credits.value + 1)
                return true
            }
            #expect(await relaunched.complete(.success(unfinished), for: .coins) == .purchased(.coins))
        }
        // Only the launch without the cache (a new device's empty Keychain) credits it again.
        #expect(credits.value == 2, "the cache kept the delivered id across the relaunch")
    }

    @Test("Ask to Buy: pending, then approved through Transaction.updates, unlocked and finished")
    func askToBuy() async throws {
        let model = Self.model()
        model.asksToBuy = true
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(await store.purchase(.pro) == .pending)
        #expect(store.entitlements.products.isEmpty)
        _ = model.approve("pro")
        try await model.settle()
        #expect(store.entitlements.products == ["pro"])
        #expect(model.records.first?.isFinished == true)
    }

    @Test("A product this build doesn't know is never finished: it may be a consumable nobody delivered")
    func unknownProductNotFinished() async throws {
        let model = AppStoreModel(products: [.init(id: "future", kind: .consumable)], appTransaction: Self.newCustomer, now: Self.start)
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        _ = model.purchaseElsewhere("future")
        try await model.settle()
        #expect(model.records.first?.isFinished == false)
    }

    @Test("An unverified purchase is neither unlocked nor finished")
    func unverifiedPurchase() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        let transaction = StoreTransaction(productID: "pro", id: 9, isVerified: false, purchaseDate: Self.start)
        #expect(await store.complete(.success(transaction), for: .pro) == .unverified)
        #expect(store.entitlements.products.isEmpty)
    }

    @Test("A refunded paid download is a proven new customer, who may buy")
    func refundedDownloadBuys() async {
        let model = Self.model(Self.legacyBuyer)
        model.refundApp()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(store.state.proof == .verified && !store.decision.isLegacy)
        #expect(await store.purchase(.pro) == .purchased(.pro))
    }

    @Test("An unverified transaction for a product never verified grants nothing")
    func unverifiedTransactionGrantsNothing() async {
        let front = ScriptedStoreFront(
            appTransactions: [(.verified(Self.newCustomer), 0)], entitlements: [StoreTransaction(productID: "pro", isVerified: false)])
        let store = Self.store(TinyPlan<OwnPrice>.self, front)
        await store.refresh()
        #expect(store.entitlements.products.isEmpty)
    }

    @Test("A billing grace period keeps the subscriber: membership in currentEntitlements decides, not the device clock")
    func gracePeriodKeeps() async {
        let model = Self.model()
        let later = Self.start.addingTimeInterval(400 * 86_400)
        let store = Self.store(TinyPlan<OwnPrice>.self, model, now: later.addingTimeInterval(86_400))
        await store.refresh()
        #expect(await store.purchase(.yearly) == .purchased(.yearly))
        model.billingGracePeriod = 16 * 86_400
        model.paymentFails = true
        model.now = Self.start.addingTimeInterval(366 * 86_400)  // the renewal failed a day ago
        await store.refresh()
        #expect(store.entitlements.products == ["yearly"])
    }

    @Test("A purchase handed over is unlocked before it is finished")
    func unlockedBeforeFinished() async {
        let store = Self.store(TinyPlan<OwnPrice>.self, Self.model())
        await store.refresh()
        let seen = Box<Set<String>?>(nil)
        let transaction = StoreTransaction(productID: "pro", id: 77) {
            let unlocked = await MainActor.run { store.entitlements.products }
            if seen.value == nil { seen.set(unlocked) }  // what the first finish saw
        }
        #expect(await store.complete(.success(transaction), for: .pro) == .purchased(.pro))
        #expect(seen.value == ["pro"])
    }

    @Test("Buying reads what the customer owns first, not what an earlier refresh said")
    func buyingReadsOwnershipFirst() async throws {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        let before = model.calls.count
        #expect(await store.purchase(.pro) == .purchased(.pro))
        let calls = Array(model.calls[before...])
        let read = try #require(calls.firstIndex(of: .currentEntitlements))
        let bought = try #require(calls.firstIndex(of: .purchase("pro")))
        #expect(read < bought)
    }

    @Test("Overlapping refreshes: an older answer never lands after a newer one")
    func olderAnswerNeverLands() async {
        // The first read is slow and says legacy buyer; the second, started later, is fast and says new customer.
        let front = ScriptedStoreFront(appTransactions: [(.verified(Self.legacyBuyer), 50_000_000), (.verified(Self.newCustomer), 0)])
        let store = Self.store(TinyPlan<OwnPrice>.self, front)
        let first = Task { await store.refresh() }
        while front.appTransactionCalls < 1 { await Task.yield() }
        let second = Task { await store.refresh() }
        await second.value
        await first.value
        #expect(!store.decision.isLegacy)
        #expect(store.state.purchase.facts?.appTransactionID == Self.newCustomer.appTransactionID)
    }

    @Test("The listener starts with the store and stops when the store goes away")
    func listenerStops() async {
        let front = ScriptedStoreFront(appTransactions: [(.unavailable, 0)])
        do {
            let store = Self.store(TinyPlan<OwnPrice>.self, front)
            await store.refresh()
            #expect(front.listening == 1)
        }
        // Cancelling ends the stream on the listener's next turn: wait for it, up to five seconds.
        for _ in 0..<5_000 where front.listening > 0 { try? await Task.sleep(nanoseconds: 1_000_000) }
        #expect(front.listening == 0)
    }

    @Test("A change of duration waits for the renewal: scheduled, never sold again, shown with its date, then held")
    func pendingChangeIsSeen() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        model.purchaseElsewhere("monthly")
        await store.refresh()
        let renewal = Self.start.addingTimeInterval(30 * 86_400)
        // The App Store charges nothing now and answers with the monthly transaction.
        #expect(await store.purchase(.yearly) == .scheduled(.yearly, from: renewal))
        #expect(model.charges.map(\.productID) == ["monthly"])
        await store.refresh()
        let change = TinyPlan<OwnPrice>.Store.PendingChange(product: .yearly, date: renewal)
        #expect(store.state.pendingChanges == [.monthly: change])
        #expect(store.pendingChange(to: .yearly) == change)
        #expect(!store.upsell.offers.contains(.yearly))
        #expect(!store.mayBuy(.yearly))
        #expect(await store.purchase(.yearly) == .refused(.alreadySwitched(change)))
        #expect(model.calls.filter { $0 == .purchase("yearly") }.count == 1, "the refusal reached the App Store")
        model.now = renewal.addingTimeInterval(1)
        await store.refresh()
        #expect(store.entitlements.products == ["yearly"])
        #expect(store.state.pendingChanges.isEmpty)
        #expect(model.charges.map(\.productID) == ["monthly", "yearly"])
    }

    @Test("A subscription status that can't be read is nothing pending: offered and bought as before, never blocked")
    func unreadableStatusFailsSafe() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, StatusUnreadable(model: model))
        model.purchaseElsewhere("monthly")
        await store.refresh()
        #expect(store.state.isLoaded && store.state.proof == .verified)
        #expect(store.state.pendingChanges.isEmpty)
        #expect(store.upsell.offers == [.pro, .yearly])
        // The App Store still says what it did: the current plan's transaction, so not bought now.
        let renewal = Self.start.addingTimeInterval(30 * 86_400)
        #expect(await store.purchase(.yearly) == .scheduled(.yearly, from: renewal))
        #expect(await store.purchase(.pro) == .purchased(.pro))
    }

    @Test("Trials are judged at the later of the clock and the newest moment the App Store signed")
    func signedMomentBeatsClock() async {
        let model = Self.model()
        let signed = Self.start.addingTimeInterval(10 * 86_400)
        model.now = signed
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        #expect(await store.purchase(.pro) == .purchased(.pro))
        #expect(store.entitlements.now == signed)
    }

    @Test("An offer code redeemed in the App Store unlocks through the updates, says so, isn't sold again; refunded, it's gone")
    func offerCodeFromTheAppStore() async throws {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        guard case .success(let redeemed) = model.redeem(code: "ONCE-1", for: "pro", referenceName: "welcome-back") else {
            Issue.record("the code was refused")
            return
        }
        try await model.settle()
        #expect(store.entitlements.products.contains("pro"))
        #expect(store.state.redeemedCodes == [.pro: .init(referenceName: "welcome-back", transactionID: redeemed.id)])
        #expect(await store.purchase(.pro) == .refused(.withheld(.owned)))
        // A purchase is no redemption.
        #expect(await store.purchase(.yearly) == .purchased(.yearly))
        #expect(store.state.redeemedCodes.keys.sorted { $0.rawValue < $1.rawValue } == [.pro])
        #expect(model.charges.map(\.productID) == ["yearly"])
        model.refund("pro")
        try await model.settle()
        #expect(!store.entitlements.products.contains("pro"))
        #expect(store.state.redeemedCodes[.pro] == nil)
    }

    @Test("The redemption sheet: what the customer redeems there is unlocked when it closes; closed empty, nothing; no sheet, said")
    func offerCodeSheet() async {
        let model = Self.model()
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        model.codeInSheet = .init(code: "ONCE-2", productID: "pro")
        #expect(await store.redeemOfferCode() == .redeemed([.pro]))
        #expect(store.entitlements.products.contains("pro"))
        #expect(await store.redeemOfferCode() == .nothingRedeemed)
        #expect(model.calls.filter { $0 == .offerCodeSheet }.count == 2)
        let elsewhere = Self.store(TinyPlan<OwnPrice>.self, ScriptedStoreFront(appTransactions: [(.verified(Self.newCustomer), 0)]))
        #expect(await elsewhere.redeemOfferCode() == .unavailable(StoreFrontError.offerCodesUnavailable))
    }

    @Test("Only the customer's own verified, unrefunded redemption is a redeemed code")
    func offerCodeOnlyTheCustomers() async {
        let code = TransactionOffer(.code, id: "welcome")
        let front = ScriptedStoreFront(
            appTransactions: [(.verified(Self.newCustomer), 0)],
            entitlements: [
                StoreTransaction(productID: "pro", id: 1, isVerified: false, offer: code),
                StoreTransaction(productID: "yearly", id: 2, isRevoked: true, offer: code),
                StoreTransaction(productID: "monthly", id: 3, ownership: .familyShared, offer: code),
            ])
        let store = Self.store(TinyPlan<OwnPrice>.self, front)
        await store.refresh()
        #expect(store.state.redeemedCodes.isEmpty)
    }

    @Test("A purchase started on the App Store passes the paywall's gate: what the customer owns is refused, a fitting one is bought")
    func purchaseIntentGate() async throws {
        let model = Self.model(Self.legacyBuyer)
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        model.startPurchaseOnAppStore("pro")
        try await model.settle()
        #expect(store.lastPurchaseIntent == .init(product: .pro, outcome: .refused(.withheld(.owned))))
        #expect(model.charges.isEmpty)
        model.startPurchaseOnAppStore("yearly")
        try await model.settle()
        #expect(store.lastPurchaseIntent == .init(product: .yearly, outcome: .purchased(.yearly)))
        #expect(model.charges.map(\.productID) == ["yearly"])
        model.startPurchaseOnAppStore("gift")
        try await model.settle()
        #expect(store.lastPurchaseIntent == .init(product: nil, outcome: .refused(.notOffered)))
    }

    @Test("A win-back price only where the App Store lists it for this customer: not before subscribing, shown and charged once lapsed")
    func winBackOnlyWhenListed() async throws {
        let model = AppStoreModel(
            products: [
                .init(
                    id: "yearly", kind: .autoRenewable(group: "plus", level: 1, period: 365 * 86_400), displayPrice: "$49.99",
                    winBackOffers: [.init(id: "back", displayPrice: "$9.99")])
            ],
            appTransaction: Self.newCustomer, now: Self.start)
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        let before = try #require(try await store.offeredProducts().first { $0.id == "yearly" })
        #expect(before.winBackPrices == ["back": "$9.99"] && before.winBackPrice == nil)
        #expect(await store.prepareToBuy(.yearly) == .ready(offer: nil))
        #expect(await store.purchase(.yearly) == .purchased(.yearly))
        model.cancel("yearly")
        model.advance(by: 400 * 86_400)
        await store.refresh()
        #expect(try await store.offeredProducts().first { $0.id == "yearly" }?.winBackPrice == "$9.99")
        #expect(await store.prepareToBuy(.yearly) == .ready(offer: .winBack("back")))
        #expect(await store.purchase(.yearly) == .purchased(.yearly))
        #expect(model.charges.map(\.winBackOfferID) == [nil, "back"])
    }

    @Test("A win-back offer picked on the App Store (a purchase intent's) is charged if listed for this customer, else nothing is")
    func winBackPickedOnTheAppStore() async throws {
        let model = AppStoreModel(
            products: [
                .init(
                    id: "yearly", kind: .autoRenewable(group: "plus", level: 1, period: 365 * 86_400),
                    winBackOffers: [.init(id: "best", displayPrice: "$9.99"), .init(id: "picked", displayPrice: "$19.99")])
            ],
            appTransaction: Self.newCustomer, now: Self.start)
        let store = Self.store(TinyPlan<OwnPrice>.self, model)
        await store.refresh()
        model.startPurchaseOnAppStore("yearly", winBackOffer: "best")
        try await model.settle()
        #expect(store.lastPurchaseIntent == .init(product: .yearly, outcome: .refused(.offerRejected)), "never subscribed: not listed")
        #expect(model.charges.isEmpty)
        #expect(await store.purchase(.yearly) == .purchased(.yearly))
        model.cancel("yearly")
        model.advance(by: 400 * 86_400)
        await store.refresh()
        model.startPurchaseOnAppStore("yearly", winBackOffer: "picked")
        try await model.settle()
        #expect(store.lastPurchaseIntent?.outcome == .purchased(.yearly))
        #expect(model.charges.map(\.winBackOfferID) == [nil, "picked"], "the offer picked, not the best one")
    }
}

extension TinyPlan {
    typealias Store = PlanStore<TinyPlan>
}

/// The App Store model whose `Product.SubscriptionInfo.status` always throws.
struct StatusUnreadable: StoreFront {
    let model: AppStoreModel

    func appTransaction() async -> AppTransactionRead { await model.appTransaction() }
    func refreshAppTransaction() async -> AppTransactionRead { await model.refreshAppTransaction() }
    func currentEntitlements() async -> [StoreTransaction] { await model.currentEntitlements() }
    func transactionUpdates() -> AsyncStream<StoreTransaction> { model.transactionUpdates() }
    func unfinishedTransactions() async -> [StoreTransaction] { await model.unfinishedTransactions() }
    func sync() async throws { try await model.sync() }
    func products(for identifiers: [String]) async throws -> [StoreProduct] { try await model.products(for: identifiers) }

    func purchase(productID: String, offer: SignedOffer?) async throws -> PurchaseAttempt {
        try await model.purchase(productID: productID, offer: offer)
    }

    func subscriptionStatuses(for productID: String) async throws -> [SubscriptionStatus] {
        throw StoreFrontError(message: "status unavailable")
    }
}

/// A value tests share with a `@Sendable` closure.
/// The first of two racing answers, given once.
final class FirstAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func give(_ answer: Bool) {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: answer)
    }
}

final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// A `StoreFront` whose answers a test sets, for what the App Store model doesn't produce: an unverified
/// transaction, an answer that arrives late, a listener whose end can be seen.
final class ScriptedStoreFront: StoreFront, @unchecked Sendable {
    private let lock = NSLock()
    private let appTransactions: [(read: AppTransactionRead, delay: UInt64)]
    private let entitlements: [StoreTransaction]
    private let purchaseAttempt: PurchaseAttempt?
    private var calls = 0
    private var listeners = 0

    /// - Parameter purchase: what every purchase answers; nil throws, as a product not sold here.
    init(
        appTransactions: [(read: AppTransactionRead, delay: UInt64)], entitlements: [StoreTransaction] = [], purchase: PurchaseAttempt? = nil
    ) {
        self.appTransactions = appTransactions
        self.entitlements = entitlements
        self.purchaseAttempt = purchase
    }

    /// How many times `appTransaction()` was asked.
    var appTransactionCalls: Int { lock.withLock { calls } }
    /// How many `Transaction.updates` streams are listened to now.
    var listening: Int { lock.withLock { listeners } }

    func appTransaction() async -> AppTransactionRead {
        // Each call takes the next answer; the last one repeats.
        let answer = lock.withLock {
            defer { calls += 1 }
            return appTransactions[min(calls, appTransactions.count - 1)]
        }
        if answer.delay > 0 { try? await Task.sleep(nanoseconds: answer.delay) }
        return answer.read
    }

    func refreshAppTransaction() async -> AppTransactionRead { await appTransaction() }
    func currentEntitlements() async -> [StoreTransaction] { entitlements }
    func unfinishedTransactions() async -> [StoreTransaction] { [] }
    func sync() async throws {}
    func products(for identifiers: [String]) async throws -> [StoreProduct] { [] }

    func purchase(productID: String, offer: SignedOffer?) async throws -> PurchaseAttempt {
        guard let purchaseAttempt else { throw StoreFrontError(message: "not sold here") }
        return purchaseAttempt
    }

    func subscriptionStatuses(for productID: String) async throws -> [SubscriptionStatus] { [] }

    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
        lock.withLock { listeners += 1 }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self.listeners -= 1 }
        }
        return stream
    }
}
