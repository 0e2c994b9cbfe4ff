import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

// The Products.storekit configuration file.
extension GenerationContext {
    var storeKitValue: TemplateValue {
        func json(_ text: String) -> TemplateValue { .string(JSONWriter.quoted(text)) }
        func internalID(_ seed: String) -> TemplateValue { json(String(Checksum.of(seed).prefix(8)).uppercased()) }
        func withCommas(_ items: [TemplateValue]) -> TemplateValue {
            .list(
                items.enumerated().map { offset, item in
                    guard case .object(var members) = item else { return item }
                    members["comma"] = .string(offset == items.count - 1 ? "" : ",")
                    return .object(members)
                })
        }
        let sorted = plan.products.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        func item(_ product: Product) -> TemplateValue {
            [
                "productID": json(product.id), "name": json(product.name), "price": json(product.price.description),
                "familyShareable": .string(product.familyShareable ? "true" : "false"), "internalID": internalID("product " + product.id),
                "type": json(product.kind == .consumable ? "Consumable" : "NonConsumable"),
            ]
        }
        let products = sorted.filter { $0.kind == .nonConsumable || $0.kind == .consumable }.map(item)
        let nonRenewing = sorted.filter { $0.kind == .nonRenewing }.map(item)
        let subscriptions = sorted.filter { $0.kind == .autoRenewable && $0.subscription != nil }
        let groupNames = Set(subscriptions.map { $0.subscription!.group }).sorted()
        let groups = groupNames.map { group -> TemplateValue in
            let groupID = internalID("group " + group)
            let members = subscriptions.filter { $0.subscription!.group == group }.map { product -> TemplateValue in
                guard case .object(var members) = item(product) else { return .null }
                // Promotional offers that charge a tier's legacy price, one period paid up front, so they can be tried in Xcode.
                var seen = Set<String>()
                var offers: [TemplateValue] = []
                for tier in catalog.tiers {
                    for discount in tier.discounts where discount.product == product.id {
                        guard case .promotionalOffer(let id) = discount.charge, seen.insert(id).inserted else { continue }
                        offers.append([
                            "price": json(discount.price.description), "internalID": internalID("offer \(product.id) \(id)"), "offerID": json(id),
                            "name": json("\(tier.name): \(discount.price)"), "period": json(product.subscription!.period),
                        ])
                    }
                }
                members["promotionalOffers"] = withCommas(offers)
                // The introductory offer that charges a tier's legacy price: one period paid up front, as in App Store Connect.
                // Otherwise the subscription's own (a free trial, or paid up front or as you go), so Xcode offers it too.
                let introductory = catalog.tiers.flatMap(\.discounts).first { $0.product == product.id && $0.charge == .introductoryOffer }
                if let discount = introductory {
                    members["introductoryOffer"] = [
                        "price": json(discount.price.description), "internalID": internalID("introductory \(product.id)"),
                        "period": json(product.subscription!.period), "priced": .bool(true), "counted": .bool(false),
                        "paymentMode": json("payUpFront"),
                    ]
                } else if let offer = product.subscription?.introductoryOffer {
                    members["introductoryOffer"] = [
                        "price": json(offer.price?.description ?? "0"), "internalID": internalID("introductory \(product.id)"),
                        "period": json(offer.period), "priced": .bool(offer.paymentMode != .freeTrial),
                        // Xcode counts periods only for pay as you go; a free trial or a payment up front lasts its period.
                        "counted": .bool(offer.paymentMode == .payAsYouGo), "numberOfPeriods": .string(String(offer.periods)),
                        "paymentMode": json(offer.paymentMode == .freeTrial ? "free" : offer.paymentMode.rawValue),
                    ]
                } else {
                    members["introductoryOffer"] = false
                }
                members["level"] = .string(String(product.subscription!.level))
                members["period"] = json(product.subscription!.period)
                members["groupID"] = groupID
                return .object(members)
            }
            return ["id": groupID, "name": json(group), "subscriptions": withCommas(members)]
        }
        return [
            "identifier": internalID("configuration " + plan.app.bundleID),
            "products": withCommas(products),
            "nonRenewing": withCommas(nonRenewing),
            "groups": withCommas(groups),
        ]
    }
}
