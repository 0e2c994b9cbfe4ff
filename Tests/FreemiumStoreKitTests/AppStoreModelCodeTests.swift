import Foundation
import FreemiumStoreKitTesting
import Testing

@testable import FreemiumStoreKit

/// The App Store model's offer codes and purchase intents: purchases that start outside the paywall.
@Suite("App Store model: offer codes and purchase intents", .timeLimit(.minutes(20)))
struct AppStoreModelCodeTests {
    typealias Model = AppStoreModelTests

    @Test("Offer codes: a one-time code redeems once, free, as an offer code with its reference name, through the updates")
    func oneTimeCode() async throws {
        let model = Model.model()
        let received = Received(model)
        let redeemed = try model.redeem(code: "ONCE", for: "lifetime", referenceName: "spring").get()
        let sent = try await received.all()
        #expect(sent.map(\.id) == [redeemed.id])
        #expect(sent.first?.offer == TransactionOffer(.code, id: "spring"))
        #expect(await Model.entitled(model) == ["lifetime"])
        #expect(model.charges.isEmpty)
        #expect(model.redeem(code: "ONCE", for: "coins") == .failure(.alreadyRedeemed))
        #expect(model.records.count == 1)
    }

    @Test(
        "Offer codes: for a consumable, a non-consumable, a non-renewing and an auto-renewable subscription",
        arguments: [("coins", false), ("lifetime", true), ("pass", true), ("monthly", true)])
    func everyType(product: String, entitles: Bool) async throws {
        let model = Model.model()
        let redeemed = try model.redeem(code: "CODE", for: product).get()
        #expect(redeemed.productID == product)
        #expect(await Model.entitled(model).contains(product) == entitles)
        #expect(model.charges.isEmpty)
    }

    @Test("Offer codes: a non-consumable owned, a group subscribed to now or an unknown product are refused, the code kept")
    func refusedCodesAreKept() async throws {
        let model = Model.model()
        _ = try await Model.buy(model, "lifetime")
        _ = try await Model.buy(model, "monthly")
        #expect(model.redeem(code: "KEEP", for: "lifetime") == .failure(.alreadyOwned))
        #expect(model.redeem(code: "KEEP", for: "yearly") == .failure(.alreadySubscribed))
        #expect(model.redeem(code: "KEEP", for: "nothing") == .failure(.unknownProduct))
        #expect(model.records.count == 2)
        // Lapsed, the subscriber may redeem it.
        model.cancel("monthly")
        model.advance(by: Model.month * 2)
        #expect(try model.redeem(code: "KEEP", for: "yearly").get().offerCode == "offer-code")
    }

    @Test("Offer codes: a redeemed product is shared with the family only when it is family-shareable")
    func sharedOnlyWhenShareable() async throws {
        let model = AppStoreModel(
            products: [.init(id: "lifetime", kind: .nonConsumable, isFamilyShareable: true), .init(id: "solo", kind: .nonConsumable)],
            appTransaction: Model.buyer, now: Model.start)
        #expect(model.shareFromFamily("lifetime"))
        #expect(!model.shareFromFamily("solo"))
        #expect(await Model.entitled(model) == ["lifetime"])
    }

    @Test("Offer codes: the redemption sheet redeems what the customer types; closed empty, nothing")
    func redemptionSheet() async throws {
        let model = Model.model()
        model.codeInSheet = .init(code: "SHEET", productID: "lifetime", referenceName: "launch")
        try await model.presentOfferCodeRedemption()
        #expect(model.records.map(\.offerCode) == ["launch"])
        try await model.presentOfferCodeRedemption()
        #expect(model.records.count == 1)
        #expect(model.calls == [.offerCodeSheet, .offerCodeSheet])
        model.isOnline = false
        await #expect(throws: StoreFrontError.self) { try await model.presentOfferCodeRedemption() }
    }

    @Test("Purchase intents: started on the App Store, sent to the app, charged only when the app buys")
    func purchaseIntents() async throws {
        let model = Model.model()
        let intents = model.purchaseIntents()
        model.startPurchaseOnAppStore("lifetime")
        var iterator = intents.makeAsyncIterator()
        #expect(await iterator.next() == StorePurchaseIntent(productID: "lifetime"))
        #expect(model.charges.isEmpty)
    }
}
