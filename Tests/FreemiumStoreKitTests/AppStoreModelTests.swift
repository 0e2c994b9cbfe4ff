import Foundation
import Testing

@testable import FreemiumStoreKit
@testable import FreemiumStoreKitTesting

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
                .init(id: "coins", kind: .consumable, isFamilyShareable: true),
                .init(id: "pass", kind: .nonRenewing, isFamilyShareable: true),
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
        let offer = SignedOffer(
            .promotional(offerID: "legacy.yearly"), compactJWS: model.sign(.init(kind: .promotional(offerID: "legacy.yearly"), productID: "yearly")))
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Self.buy(model, "yearly", offer: offer)
        }
        #expect(model.charges.isEmpty)
        _ = try await Self.buy(model, "monthly")
        model.cancel("monthly")
        model.advance(by: Self.month * 2)  // lapsed: a former subscriber
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
        model.cancel("monthly")
        model.advance(by: Self.month * 3)
        _ = try await Self.buy(model, "monthly")
        #expect(model.charges.last == .init(productID: "monthly", offerID: nil, isIntroductory: false))
    }

    @Test(
        "Introductory offers: a signed eligibility decides both ways, whatever the history",
        arguments: [(true, false), (true, true), (false, false), (false, true)])
    func introductoryOfferEligibilitySigned(allowed: Bool, subscribedBefore: Bool) async throws {
        let model = Self.model()
        if subscribedBefore {
            _ = try await Self.buy(model, "basic")
            model.cancel("basic")
            model.advance(by: Self.month * 2)
        }
        let charged = model.charges.count
        let signer = model.offerSigner { _ in allowed }
        let request = OfferRequest(kind: .introductory, productID: "monthly", appTransactionJWS: nil)
        let jws = try await signer.compactJWS(for: request)
        _ = try await Self.buy(model, "monthly", offer: SignedOffer(.introductory, compactJWS: jws))
        #expect(model.charges.last == .init(productID: "monthly", offerID: nil, isIntroductory: allowed))
        #expect(model.charges.count == charged + 1)
    }

    @Test("Introductory offers: an eligibility unsigned, signed for another product, or for a product without the offer charges nothing")
    func introductoryOfferEligibilityRefused() async throws {
        let model = Self.model()
        let forMonthly = model.sign(.init(kind: .introductory, productID: "monthly"))
        let cases = [
            ("monthly", SignedOffer(.introductory, compactJWS: "")), ("monthly", .init(.introductory, compactJWS: "forged")),
            ("yearly", .init(.introductory, compactJWS: forMonthly)), ("premium", .init(.introductory, compactJWS: forMonthly)),
            ("lifetime", .init(.introductory, compactJWS: forMonthly)),
        ]
        for (product, offer) in cases {
            await #expect(throws: StoreFrontError.self, "\(product) \(offer.compactJWS)") { try await Self.buy(model, product, offer: offer) }
        }
        #expect(model.charges.isEmpty)
    }

    @Test(
        "Offer signatures: good only for the product, offer and appAccountToken the app's server was asked to sign",
        arguments: ["product", "offer", "token", "forged", "none"])
    func offerSignatures(mismatch: String) async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        model.cancel("monthly")
        model.advance(by: Self.month * 2)
        let token = UUID()
        model.appAccountToken = token
        var claims = AppStoreModel.SignedClaims(kind: .promotional(offerID: "legacy.yearly"), productID: "yearly", appAccountToken: token)
        switch mismatch {
        case "product": claims.productID = "monthly"
        case "offer": claims.kind = .promotional(offerID: "other")
        case "token": claims.appAccountToken = UUID()
        default: break
        }
        let jws = mismatch == "forged" ? "model-signature-1" : model.sign(claims)
        let offer = SignedOffer(.promotional(offerID: "legacy.yearly"), compactJWS: jws)
        if mismatch == "none" {
            #expect(try await Self.buy(model, "yearly", offer: offer)?.productID == "yearly")
        } else {
            await #expect(throws: StoreFrontError(isOfferRejected: true, message: "invalidOfferSignature")) {
                try await Self.buy(model, "yearly", offer: offer)
            }
            #expect(model.charges.count == 1)
        }
    }

    @Test("Offer signatures: the model's signer signs what the layer asks, for the account the purchase carries")
    func modelSigner() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "monthly")
        model.cancel("monthly")
        model.advance(by: Self.month * 2)
        let request = OfferRequest(kind: .promotional(offerID: "legacy.yearly"), productID: "yearly", appTransactionJWS: "app")
        let jws = try await model.offerSigner().compactJWS(for: request)
        #expect(try await Self.buy(model, "yearly", offer: SignedOffer(request.kind, compactJWS: jws))?.productID == "yearly")
    }

    @Test("Subscription groups: an upgrade starts at once, charged, and the old transaction is marked upgraded")
    func upgradeAtOnce() async throws {
        let model = Self.model()
        let monthly = try #require(try await Self.buy(model, "monthly"))
        let premium = try #require(try await Self.buy(model, "premium"))
        #expect(await Self.entitled(model) == ["premium"])
        #expect(model.records.first { $0.id == monthly.id }?.isUpgraded == true)
        #expect(model.charges.map(\.productID) == ["monthly", "premium"])
        let statuses = try await model.subscriptionStatuses(for: "monthly")
        #expect(statuses.map(\.productID) == ["premium"] && statuses.first?.transactionID == premium.id)
        #expect(statuses.first?.originalID == monthly.id)
    }

    @Test(
        "Subscription groups: a downgrade or another duration charges nothing, adds no subscription, starts at renewal (autoRenewPreference)",
        arguments: [("basic", Self.month), ("yearly", Self.year)])
    func deferredPlanChange(to product: String, period: TimeInterval) async throws {
        let model = Self.model()
        let monthly = try #require(try await Self.buy(model, "monthly"))
        let answer = try #require(try await Self.buy(model, product))
        #expect(answer.productID == "monthly", "the purchase returns the plan still in use")
        #expect(model.charges.map(\.productID) == ["monthly"])
        #expect(model.records.count == 1)
        #expect(await Self.entitled(model) == ["monthly"])
        let pending = try #require(try await model.subscriptionStatuses(for: "monthly").first)
        #expect(pending.state == .subscribed && pending.productID == "monthly")
        #expect(pending.renewalInfo.autoRenewPreference == product && pending.renewalInfo.currentProductID == "monthly")
        model.advance(by: Self.month + 60)
        #expect(await Self.entitled(model) == [product])
        let renewed = try #require(model.records.last)
        #expect(renewed.originalID == monthly.id && renewed.productID == product)
        #expect(renewed.expirationDate == Self.start.addingTimeInterval(Self.month + period))
        #expect(model.charges.last == .init(productID: product, offerID: nil, isIntroductory: false, isRenewal: true))
    }

    @Test("Subscription groups: the same level and duration is a crossgrade at once; buying the plan in use again drops a pending change")
    func crossgradeAtOnce() async throws {
        let model = AppStoreModel(
            products: [
                .init(id: "a", kind: .autoRenewable(group: "g", level: 1, period: Self.month)),
                .init(id: "b", kind: .autoRenewable(group: "g", level: 1, period: Self.month)),
                .init(id: "c", kind: .autoRenewable(group: "g", level: 2, period: Self.month)),
            ], appTransaction: Self.buyer, now: Self.start)
        _ = try await Self.buy(model, "a")
        _ = try await Self.buy(model, "b")
        #expect(await Self.entitled(model) == ["b"])
        _ = try await Self.buy(model, "c")
        _ = try await Self.buy(model, "b")
        model.advance(by: Self.month + 1)
        #expect(await Self.entitled(model) == ["b"])
        #expect(model.charges.map(\.productID) == ["a", "b", "b"])
    }

    @Test("Renewals: a year of monthly renewals, each a new transaction of the same subscription, sent through updates, in milliseconds")
    func renewals() async throws {
        let model = Self.model()
        let received = Received(model)
        let first = try #require(try await Self.buy(model, "basic"))
        let elapsed = ContinuousClock().measure { model.advance(by: Self.year) }
        #expect(elapsed < .seconds(1))
        let chain = model.records.filter { $0.productID == "basic" }
        #expect(chain.count == 13)  // 365 days hold 12 whole 30-day periods after the first
        #expect(Set(chain.map(\.originalID)) == [first.id])
        for (index, record) in chain.enumerated() {
            #expect(record.expirationDate == Self.start.addingTimeInterval(Self.month * Double(index + 1)))
        }
        #expect(model.charges.filter(\.isRenewal).count == 12)
        #expect(try await received.all().map(\.id) == chain.dropFirst().map(\.id))
        #expect(await model.currentEntitlements().map(\.id) == [chain[12].id])
    }

    @Test("Cancellation: auto-renew off keeps the subscription to its period's end, then it lapses unrenewed")
    func cancellation() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "basic")
        model.advance(by: 10 * 86_400)
        model.cancel("basic")
        let cancelled = try #require(try await model.subscriptionStatuses(for: "basic").first)
        #expect(cancelled.state == .subscribed && !cancelled.renewalInfo.willAutoRenew)
        model.advance(by: Self.month - 10 * 86_400 - 1)
        #expect(await Self.entitled(model) == ["basic"])
        model.advance(by: 2)
        #expect(await Self.entitled(model).isEmpty)
        let lapsed = try #require(try await model.subscriptionStatuses(for: "basic").first)
        #expect(lapsed.state == .expired && lapsed.renewalInfo.expirationReason == .autoRenewDisabled)
        model.advance(by: Self.year)
        #expect(model.charges.count == 1 && model.records.count == 1)
    }

    struct BillingCase: Sendable, CustomTestStringConvertible {
        var grace: TimeInterval?
        /// Days after the failed renewal when payment recovers; nil: never.
        var recoversAfter: Double?
        var testDescription: String {
            "grace \(grace.map { "\(Int($0 / 86_400))d" } ?? "off"), recovers \(recoversAfter.map { "day \($0)" } ?? "never")"
        }
    }

    @Test(
        "Billing retry: a grace period keeps access until gracePeriodExpirationDate, then retry; recovered it renews, else it lapses",
        arguments: [
            BillingCase(grace: 16 * 86_400, recoversAfter: nil), BillingCase(grace: 16 * 86_400, recoversAfter: 5),
            BillingCase(grace: 16 * 86_400, recoversAfter: 30), BillingCase(grace: nil, recoversAfter: nil),
            BillingCase(grace: nil, recoversAfter: 5),
        ])
    func billingRetry(_ billing: BillingCase) async throws {
        let day: TimeInterval = 86_400
        let model = Self.model()
        model.billingGracePeriod = billing.grace
        _ = try await Self.buy(model, "basic")
        model.paymentFails = true
        model.advance(by: Self.month + day)
        let failedAt = Self.start.addingTimeInterval(Self.month)
        let failed = try #require(try await model.subscriptionStatuses(for: "basic").first)
        #expect(failed.renewalInfo.isInBillingRetry)
        if let grace = billing.grace {
            #expect(failed.state == .inGracePeriod)
            #expect(failed.renewalInfo.gracePeriodExpirationDate == failedAt.addingTimeInterval(grace))
            #expect(await Self.entitled(model) == ["basic"])
        } else {
            #expect(failed.state == .inBillingRetryPeriod && failed.renewalInfo.gracePeriodExpirationDate == nil)
            #expect(await Self.entitled(model).isEmpty)
        }
        #expect(model.charges.count == 1)
        if let recovers = billing.recoversAfter {
            model.advance(by: (recovers - 1) * day)
            model.recoverPayment()
            let inGrace = billing.grace.map { recovers * day < $0 } ?? false
            let start = inGrace ? failedAt : failedAt.addingTimeInterval(recovers * day)
            #expect(model.records.last?.expirationDate == start.addingTimeInterval(Self.month))
            #expect(try await model.subscriptionStatuses(for: "basic").first?.state == .subscribed)
            #expect(await Self.entitled(model) == ["basic"])
            #expect(model.charges.count == 2)
        } else {
            if let grace = billing.grace {
                model.advance(by: grace)
                #expect(try await model.subscriptionStatuses(for: "basic").first?.state == .inBillingRetryPeriod)
                #expect(await Self.entitled(model).isEmpty)
            }
            model.advance(by: AppStoreModel.billingRetryDuration)
            let lapsed = try #require(try await model.subscriptionStatuses(for: "basic").first)
            #expect(lapsed.state == .expired && lapsed.renewalInfo.expirationReason == .billingError)
            #expect(await Self.entitled(model).isEmpty)
            #expect(model.charges.count == 1)
        }
    }

    @Test("Ask to Buy: asking again for a product already waiting is the same request; approval charges once")
    func askToBuyConsolidated() async throws {
        let model = Self.model(asks: true)
        for _ in 0..<3 { #expect(try await model.purchase(productID: "coins", offer: nil) == .pending) }
        #expect(model.pendingApprovals == ["coins"])
        #expect(model.approve("coins") != nil)
        #expect(model.approve("coins") == nil)
        #expect(model.charges.map(\.productID) == ["coins"])
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

    @Test("Current entitlements: never a consumable, a refund, or a lapsed subscription")
    func currentEntitlements() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "coins")
        _ = try await Self.buy(model, "pass")
        _ = try await Self.buy(model, "monthly")
        #expect(await Self.entitled(model) == ["monthly", "pass"])
        model.cancel("monthly")
        model.advance(by: Self.month)
        #expect(await Self.entitled(model) == ["pass"])
        model.refund("pass")
        #expect(await Self.entitled(model).isEmpty)
    }

    @Test("Refunds: a refunded subscription leaves current entitlements, is revoked, and never renews")
    func refundedSubscription() async throws {
        let model = Self.model()
        _ = try await Self.buy(model, "basic")
        model.refund("basic")
        #expect(await Self.entitled(model).isEmpty)
        #expect(try await model.subscriptionStatuses(for: "basic").first?.state == .revoked)
        model.advance(by: Self.year)
        #expect(model.charges.count == 1)
    }

    @Test("Updates: a purchase here comes back only as its result; Ask to Buy, refunds and relaunches arrive through updates")
    func updates() async throws {
        let model = Self.model(asks: true)
        let updates = Received(model)
        #expect(try await model.purchase(productID: "lifetime", offer: nil) == .pending)
        let entitled = await Self.entitled(model)
        #expect(model.charges.isEmpty && entitled.isEmpty)
        model.approve("lifetime")
        #expect(try await updates.all().map(\.productID) == ["lifetime"])
        model.refund("lifetime")
        #expect(try await updates.all().map(\.isRevoked) == [false, true])
        model.asksToBuy = false
        _ = try await Self.buy(model, "coins")
        model.relaunch()  // both still unfinished: sent again
        #expect(try await updates.all().map(\.productID) == ["lifetime", "lifetime", "lifetime", "coins"])
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

    @Test(
        "Family Sharing: only a non-consumable or an auto-renewable subscription marked shareable, as familyShared; revoked when sharing stops",
        arguments: [("lifetime", true), ("basic", true), ("monthly", false), ("coins", false), ("pass", false)])
    func familySharing(product: String, shared: Bool) async throws {
        let model = AppStoreModel(
            products: Self.model().products.values.map { product in
                var product = product
                product.isFamilyShareable = product.id != "monthly"
                return product
            }, appTransaction: Self.buyer, now: Self.start)
        let received = Received(model)
        #expect(model.shareFromFamily(product) == shared)
        guard shared else {
            #expect(model.records.isEmpty)
            return
        }
        #expect(try await received.all().map(\.ownership) == [.familyShared])
        #expect(await model.currentEntitlements().map(\.ownership) == [.familyShared])
        if product == "basic" {
            model.advance(by: Self.month + 1)  // a shared subscription renews with the organizer's, at no charge to the member
            let renewed = try await received.all()
            #expect(renewed.count == 2 && renewed.last?.purchaseDate == Self.start.addingTimeInterval(Self.month))
            #expect(await model.currentEntitlements().map(\.ownership) == [.familyShared])
        }
        #expect(model.charges.isEmpty)
        let sent = try await received.all().count
        model.stopFamilySharing(product)
        // Every shared transaction (a subscription's renewals too), revoked.
        let revoked = try await received.all().dropFirst(sent)
        #expect(revoked.map(\.id) == model.records.filter { $0.productID == product }.map(\.id))
        #expect(!revoked.isEmpty && revoked.allSatisfy(\.isRevoked))
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

/// What the model sends through `Transaction.updates`, collected as it arrives.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private let model: AppStoreModel
    private var items: [StoreTransaction] = []
    private var listener: Task<Void, Never>?

    init(_ model: AppStoreModel) {
        self.model = model
        let updates = model.transactionUpdates()
        listener = Task { [weak self] in
            for await transaction in updates { self?.append(transaction) }
        }
    }

    deinit { listener?.cancel() }

    private func append(_ transaction: StoreTransaction) { lock.withLock { items.append(transaction) } }

    /// Everything the model sent so far, once this listener has collected it (`AppStoreModel.settle(within:)`).
    func all() async throws -> [StoreTransaction] {
        try await model.settle()
        return lock.withLock { items }
    }
}
