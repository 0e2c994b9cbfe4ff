import Foundation
import Testing

@testable import FreemiumStoreKit
@testable import FreemiumStoreKitTesting

/// The App Store model's win-back offers: only a lapsed subscriber may redeem one ("Supporting win-back offers in your
/// app"; `RenewalInfo.eligibleWinBackOfferIDs`).
@Suite("App Store model: win-back offers", .timeLimit(.minutes(20)))
struct AppStoreModelWinBackTests {
    typealias Model = AppStoreModelTests

    static let month = Model.month

    /// A monthly subscription with two win-back offers, best first; the first prices two periods.
    static func model() -> AppStoreModel {
        AppStoreModel(
            products: [
                .init(
                    id: "monthly", kind: .autoRenewable(group: "pro", level: 2, period: month), displayPrice: "$4.99",
                    winBackOffers: [.init(id: "back.half", displayPrice: "$2.49", periods: 2), .init(id: "back.once", displayPrice: "$3.99")]),
                .init(
                    id: "yearly", kind: .autoRenewable(group: "pro", level: 2, period: Model.year),
                    winBackOffers: [.init(id: "back.yearly", displayPrice: "$29.99")]),
                .init(id: "lifetime", kind: .nonConsumable),
            ],
            appTransaction: Model.buyer, now: Model.start)
    }

    /// Subscribed to monthly, then let it lapse.
    static func lapsed() async throws -> AppStoreModel {
        let model = model()
        _ = try await Model.buy(model, "monthly")
        model.cancel("monthly")
        model.advance(by: month * 2)
        return model
    }

    static func eligible(_ model: AppStoreModel, _ product: String = "monthly") async throws -> [String] {
        try await model.subscriptionStatuses(for: product).filter { $0.ownership == .purchased }
            .flatMap(\.renewalInfo.eligibleWinBackOfferIDs)
    }

    @Test("The product lists every win-back offer to anyone; the renewal info lists them only once the subscription lapsed")
    func listedOnlyWhenLapsed() async throws {
        let model = Self.model()
        #expect(try await model.products(for: ["monthly"]).first?.winBackPrices == ["back.half": "$2.49", "back.once": "$3.99"])
        #expect(try await Self.eligible(model).isEmpty, "never subscribed")
        _ = try await Model.buy(model, "monthly")
        #expect(try await Self.eligible(model).isEmpty, "active")
        model.cancel("monthly")
        model.advance(by: Self.month * 2)
        #expect(try await Self.eligible(model) == ["back.half", "back.once"], "lapsed: best first")
    }

    @Test("A customer who never subscribed, or who subscribes now, is refused a win-back offer and charged nothing")
    func refusedUnlessLapsed() async throws {
        let model = Self.model()
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Model.buy(model, "monthly", offer: .winBack("back.half"))
        }
        #expect(model.charges.isEmpty)
        _ = try await Model.buy(model, "monthly")
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Model.buy(model, "monthly", offer: .winBack("back.half"))
        }
        #expect(model.charges.count == 1)
    }

    @Test("Billing retry and a billing grace period aren't a lapse: no win-back offer until the subscription expires")
    func notInBillingRetry() async throws {
        let model = Self.model()
        model.billingGracePeriod = 16 * 86_400
        _ = try await Model.buy(model, "monthly")
        model.paymentFails = true
        model.advance(by: Self.month + 86_400)  // in the grace period
        #expect(try await Self.eligible(model).isEmpty)
        model.advance(by: 30 * 86_400)  // in billing retry, past the grace period
        #expect(try await Self.eligible(model).isEmpty)
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Model.buy(model, "monthly", offer: .winBack("back.once"))
        }
        model.advance(by: AppStoreModel.billingRetryDuration)  // retry ended unpaid: lapsed
        #expect(try await Self.eligible(model) == ["back.half", "back.once"])
    }

    @Test("A lapsed subscriber is charged the offer's price for its periods, then the regular price; the transaction says win-back")
    func lapsedSubscriberCharged() async throws {
        let model = try await Self.lapsed()
        let bought = try #require(try await Model.buy(model, "monthly", offer: .winBack("back.half")))
        #expect(bought.offer == TransactionOffer(.winBack, id: "back.half"))
        model.advance(by: Self.month * 2)
        #expect(model.charges.map(\.winBackOfferID) == [nil, "back.half", "back.half", nil])
        #expect(model.charges.map(\.isRenewal) == [false, false, true, true])
    }

    @Test("An offer of another product, or one the product doesn't declare, is refused; each offer redeems once")
    func onlyTheLapsedProductsOffersOnce() async throws {
        let model = try await Self.lapsed()
        #expect(try await Self.eligible(model, "yearly") == ["back.half", "back.once"], "the lapsed subscription's offers")
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")) {
            try await Model.buy(model, "yearly", offer: .winBack("back.yearly"))
        }
        await #expect(throws: StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")) {
            try await Model.buy(model, "monthly", offer: .winBack("back.yearly"))
        }
        #expect(model.charges.count == 1)
        _ = try await Model.buy(model, "monthly", offer: .winBack("back.once"))
        model.cancel("monthly")
        model.advance(by: Self.month * 2)
        #expect(try await Self.eligible(model) == ["back.half"], "back.once was redeemed")
    }
}
