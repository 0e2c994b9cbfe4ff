import Foundation
import Testing

@testable import FreemiumStoreKit

/// The price a paywall shows for an offer: the App Store's localized price of whatever the legacy price is charged as.
@Suite("Offer prices", .timeLimit(.minutes(20)))
struct OfferPriceTests {
    typealias Offer = PlanOffer<String, String>

    static let product = StoreProduct(
        id: "yearly", displayName: "Yearly", displayPrice: "€39,99", offerPrices: ["legacy": "€29,99"], introductoryPrice: "€19,99")

    @Test(
        "A legacy price shows the localized price of the offer it is charged as; without one, the chosen win-back price or the product's",
        arguments: [
            (PlanLegacyCharge<String>?.some(.promotionalOffer(id: "legacy")), "0.01", StoreProduct?.none, "€29,99"),
            (.promotionalOffer(id: "legacy"), "0.01", StoreProduct(id: "yearly", displayName: "Yearly", displayPrice: "€39,99"), "0.01"),
            (.introductoryOffer, "0.01", nil, "€19,99"),
            (.legacyProduct("yearly.legacy"), "0.01", nil, "€39,99"),
            (nil, nil, nil, "€39,99"),
            (nil, nil, StoreProduct(id: "yearly", displayName: "Yearly", displayPrice: "€39,99", winBackPrices: ["back": "€9,99"]), "€39,99"),
            (
                nil, nil,
                StoreProduct(id: "yearly", displayName: "Yearly", displayPrice: "€39,99", winBackPrices: ["back": "€9,99"], winBackOfferID: "back"),
                "€9,99"
            ),
            (
                .promotionalOffer(id: "legacy"), "0.01",
                StoreProduct(
                    id: "yearly", displayName: "Yearly", displayPrice: "€39,99", offerPrices: ["legacy": "€29,99"], winBackPrices: ["back": "€9,99"],
                    winBackOfferID: "back"),
                "€29,99"
            ),
        ])
    func displayPrice(charge: PlanLegacyCharge<String>?, legacyPrice: String?, product: StoreProduct?, shown: String) {
        let offer = Offer(product: "yearly", adds: [], legacyPrice: legacyPrice, legacyCharge: charge)
        #expect(offer.displayPrice(in: product ?? Self.product) == shown)
    }
}
