import Foundation
import Testing

@testable import FreemiumStoreKit

/// Each rule of the App Store model (its header's table), tested on the model itself.
@Suite("App Store model", .timeLimit(.minutes(20)))
struct AppStoreModelTests {
    static let month: TimeInterval = 30 * 86_400
    static let year: TimeInterval = 365 * 86_400
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let buyer = AppTransactionFacts(
        appTransactionID: "1", originalAppVersion: "10", originalPurchaseDate: Date(timeIntervalSince1970: 1_500_000_000))

    static func model(asks: Bool = false) -> AppStoreModel {
        let model = AppStoreModel(
            products: [
                .init(id: "monthly", kind: .autoRenewable(group: "pro", level: 2, period: month), hasIntroductoryOffer: true),
                .init(id: "yearly", kind: .autoRenewable(group: "pro", level: 2, period: year), promotionalOffers: ["legacy.yearly"]),
                .init(id: "premium", kind: .autoRenewable(group: "pro", level: 1, period: month)),
                .init(id: "basic", kind: .autoRenewable(group: "pro", level: 3, period: month)),
                .init(id: "lifetime", kind: .nonConsumable, isFamilyShareable: true),
                .init(id: "coins", kind: .consumable),
                .init(id: "pass", kind: .nonRenewing),
            ],
            appTransaction: buyer, now: start)
        model.asksToBuy = asks
        return model
    }

    static func buy(_ model: AppStoreModel, _ id: String, offer: SignedOffer? = nil) async throws -> StoreTransaction? {
        if case .success(let transaction) = try await model.purchase(productID: id, offer: offer) { return transaction }
        return nil
    }

    static func entitled(_ model: AppStoreModel) async -> [String] {
        await model.currentEntitlements().map(\.productID).sorted()
    }

    @Test("Promotional offers: refused without a subscription history in the group, sold to a former subscriber")
    func promotionalOfferEligibility() async throws {
        let model = Self.model()
        let offer = SignedOffer(.promotional(offerID: "legacy.yearly"), compactJWS: "signed")
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Self.buy(model, "yearly", offer: offer)
        }
        #expect(model.charges.isEmpty)
        _ = try await Self.buy(model, "monthly")
        model.now = Self.start.addingTimeInterval(Self.month * 2)  // lapsed: a former subscriber
        #expect(model.hasSubscriptionHistory(in: "pro"))
        #expect(try await Self.buy(model, "yearly", offer: offer)?.productID == "yearly")
        #expect(model.charges.last == .init(productID: "yearly", offerID: "legacy.yearly", isIntroductory: false))
    }

    @Test("Promotional offers: an undeclared id or a missing signature is refused and charges nothing")
    func promotionalOfferDeclaredAndSigned() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        for offer in [
            SignedOffer(.promotional(offerID: "other"), compactJWS: "signed"), .init(.promotional(offerID: "legacy.yearly"), compactJWS: ""),
        ] {
            await #expect(throws: StoreFrontError.self) { try await Self.buy(model, "yearly", offer: offer) }
        }
        await #expect(throws: StoreFrontError.self) {
            try await Self.buy(model, "lifetime", offer: .init(.promotional(offerID: "legacy.yearly"), compactJWS: "signed"))
        }
        #expect(model.charges.map(\.productID) == ["monthly"])
    }

    @Test("Introductory offers: once per subscription group")
    func introductoryOfferOncePerGroup() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        #expect(model.charges.last?.isIntroductory == true)
        model.now = Self.start.addingTimeInterval(Self.month * 3)
        _ = try await Self.buy(model, "monthly")
        #expect(model.charges.last?.isIntroductory == false)
    }

    @Test("Introductory offers: a signed eligibility grants it whatever the history; unsigned or without an offer, nothing is charged")
    func introductoryOfferEligibilitySigned() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        model.now = Self.start.addingTimeInterval(Self.month * 3)  // a former subscriber: no longer eligible by history
        let granted = SignedOffer(.introductory, compactJWS: "signed")
        _ = try await Self.buy(model, "monthly", offer: granted)
        #expect(model.charges.last == .init(productID: "monthly", offerID: nil, isIntroductory: true))
        for (product, offer) in [("monthly", SignedOffer(.introductory, compactJWS: "")), ("premium", granted), ("lifetime", granted)] {
            await #expect(throws: StoreFrontError.self, "\(product)") { try await Self.buy(model, product, offer: offer) }
        }
        #expect(model.charges.count == 2)
    }

    @Test("Subscription groups: an upgrade at once, a downgrade and a crossgrade to another duration at the next renewal")
    func oneSubscriptionPerGroup() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        _ = try await Self.buy(model, "premium")  // a higher level: at once
        #expect(await Self.entitled(model) == ["premium"])
        _ = try await Self.buy(model, "basic")  // a lower level: at the next renewal
        #expect(await Self.entitled(model) == ["premium"])
        model.now = Self.start.addingTimeInterval(Self.month + 60)
        #expect(await Self.entitled(model) == ["basic"])
        let switched = Self.model()
        _ = try await Self.buy(switched, "monthly")
        _ = try await Self.buy(switched, "yearly")  // the same level, another duration: at the next renewal
        #expect(await Self.entitled(switched) == ["monthly"])
    }

    @Test("Buying again: an owned non-consumable or an active subscription isn't charged; the transaction comes back")
    func buyingAgainIsFree() async throws {
        let model = Self.model()
        let first = try #require(try await Self.buy(model, "lifetime"))
        let again = try #require(try await Self.buy(model, "lifetime"))
        #expect(first.id == again.id)
        _ = try await Self.buy(model, "monthly")
        _ = try await Self.buy(model, "monthly")
        #expect(model.charges.map(\.productID) == ["lifetime", "monthly"])
        // Consumables and passes are bought each time.
        _ = try await Self.buy(model, "coins")
        _ = try await Self.buy(model, "coins")
        #expect(model.charges.filter { $0.productID == "coins" }.count == 2)
    }

    @Test("Buying Lifetime doesn't end a subscription")
    func lifetimeKeepsTheSubscription() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        _ = try await Self.buy(model, "lifetime")
        #expect(await Self.entitled(model) == ["lifetime", "monthly"])
    }

    @Test("Current entitlements: never a consumable, a refund, or a lapsed subscription; a grace period keeps it, billing retry doesn't")
    func currentEntitlements() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "coins")
        _ = try await Self.buy(model, "pass")
        _ = try await Self.buy(model, "monthly")
        #expect(await Self.entitled(model) == ["monthly", "pass"])
        model.failRenewal("monthly", gracePeriod: true)
        #expect(await Self.entitled(model) == ["monthly", "pass"])
        model.failRenewal("monthly", gracePeriod: false)
        #expect(await Self.entitled(model) == ["pass"])
        model.refund("pass")
        #expect(await Self.entitled(model).isEmpty)
    }

    @Test("Updates: a purchase here comes back only as its result; Ask to Buy, refunds and relaunches arrive through updates")
    func updates() async throws {
        let model = Self.model(asks: true)
        var updates = model.transactionUpdates().makeAsyncIterator()
        #expect(try await model.purchase(productID: "lifetime", offer: nil) == .pending)
        let entitled = await Self.entitled(model)
        #expect(model.charges.isEmpty && entitled.isEmpty)
        model.approve("lifetime")
        #expect(await updates.next()?.productID == "lifetime")
        model.refund("lifetime")
        #expect(await updates.next()?.isRevoked == true)
        model.asksToBuy = false
        _ = try await Self.buy(model, "coins")
        model.relaunch()  // both still unfinished: sent again
        #expect(await updates.next()?.productID == "lifetime")
        #expect(await updates.next()?.productID == "coins")
    }

    @Test("Ask to Buy declined: nothing is charged or sent")
    func askToBuyDeclined() async throws {
        let model = Self.model(asks: true)
        #expect(try await model.purchase(productID: "lifetime", offer: nil) == .pending)
        model.decline("lifetime")
        #expect(model.approve("lifetime") == nil)
        #expect(model.charges.isEmpty)
    }

    @Test("Unfinished: a transaction stays until it is finished")
    func unfinished() async throws {
        let model = Self.model()
        let coins = try #require(try await Self.buy(model, "coins"))
        #expect(await model.unfinishedTransactions().map(\.id) == [coins.id])
        await coins.finish()
        #expect(await model.unfinishedTransactions().isEmpty)
    }

    @Test("Family Sharing: only a shareable product, as familyShared; revoked and sent when sharing stops")
    func familySharing() async throws {
        let model = Self.model()
        var updates = model.transactionUpdates().makeAsyncIterator()
        #expect(!model.shareFromFamily("monthly"))
        #expect(model.shareFromFamily("lifetime"))
        #expect(await updates.next()?.ownership == .familyShared)
        #expect(await model.currentEntitlements().map(\.ownership) == [.familyShared])
        #expect(model.charges.isEmpty)
        model.stopFamilySharing("lifetime")
        #expect(await updates.next()?.isRevoked == true)
        #expect(await Self.entitled(model).isEmpty)
    }

    @Test("A refunded paid download: the app transaction says so")
    func refundedApp() async {
        let model = Self.model()
        model.refundApp()
        guard case .verified(let facts) = await model.appTransaction() else {
            Issue.record("not verified")
            return
        }
        #expect(facts.isRevoked)
    }

    @Test("Sync prompts, and the customer may cancel; refreshing the app transaction prompts too, reading it never")
    func prompts() async {
        let model = Self.model()
        _ = await model.appTransaction()
        #expect(model.prompts == 0)
        _ = await model.refreshAppTransaction()
        try? await model.sync()
        #expect(model.prompts == 2)
        model.cancelsPrompts = true
        await #expect(throws: StoreFrontError(isUserCancellation: true, message: "The customer cancelled.")) { try await model.sync() }
    }

    @Test("Offline: the app transaction is unavailable, buying fails, what the device holds still entitles")
    func offline() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "lifetime")
        model.isOnline = false
        #expect(await model.appTransaction() == .unavailable)
        await #expect(throws: StoreFrontError.self) { try await Self.buy(model, "monthly") }
        await #expect(throws: StoreFrontError.self) { try await model.products(for: ["monthly"]) }
        #expect(await Self.entitled(model) == ["lifetime"])
    }

    @Test("A failed signature is claimed, never verified; nobody signed in is unavailable")
    func verification() async {
        let model = Self.model()
        model.appTransactionFailsVerification = true
        #expect(await model.appTransaction() == .unverified(claimed: Self.buyer))
        let signedOut = AppStoreModel(products: [], appTransaction: nil)
        #expect(await signedOut.appTransaction() == .unavailable)
    }
}

extension PurchaseAttempt {
    static func == (lhs: PurchaseAttempt, rhs: PurchaseAttempt) -> Bool {
        switch (lhs, rhs) {
        case (.pending, .pending), (.userCancelled, .userCancelled): true
        case (.success(let left), .success(let right)): left.id == right.id
        default: false
        }
    }
}
