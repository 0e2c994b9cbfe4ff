import Foundation
import FreemiumStoreKit
import MigrateCore
import MigratePlan

// The generated `Catalog`'s tables, printed from the entitlement and upsell rules the engine runs
// (`PlanCatalog.makeRules()`), never worked out again here: the generated app decides over the very values
// `explain`, `simulate` and the report decide over. Only the order things are listed in is the generator's (the
// plan's), so the literals read as the plan does.
extension GenerationContext {
    /// The rules' tables the engine runs.
    var catalogRules: PlanRules { upsell.rules }

    /// The products among `keys`, in the plan's order.
    func planOrdered(_ keys: some Sequence<ProductKey>) -> [String] {
        productOrdered(Set(keys.map(\.rawValue)))
    }

    /// What the rules hold for one product: its grants, contents, requirements and price, as Swift literals.
    func productTableValues(_ id: String) -> [String: TemplateValue] {
        let key = ProductKey(id)
        let requires = catalog.ordered(catalogRules.requirements[key] ?? [])
        return [
            "grantsList": featureList(catalogRules.productGrants[key] ?? []),
            "contentsList": productList(planOrdered(catalogRules.productContents[key] ?? [])),
            "requiresList": featureList(requires),
            "hasRequires": .bool(!requires.isEmpty),
            "priceUnits": .string(Self.grouped(Int64(catalogRules.prices[key] ?? 0))),
        ]
    }

    /// A tier's features as the rules hold them.
    func tierFeatureList(_ tier: String) -> TemplateValue {
        featureList(catalog.ordered(catalogRules.tierFeatures[tier] ?? []))
    }

    /// The product-wide tables: kinds, subscriptions, trials, passes, Family Sharing, what is on sale.
    var catalogTableValues: [String: TemplateValue] {
        let rules = catalogRules
        let subscriptions = planOrdered(rules.subscriptionGroups.keys).map { id -> TemplateValue in
            let key = ProductKey(id)
            return [
                "case": .string(productCases[id]!),
                "groupLiteral": .string(SwiftIdentifier.stringLiteral(rules.subscriptionGroups[key] ?? "")),
                "level": .string(String(rules.subscriptionLevels[key] ?? 1)),
                "periodLiteral": .string(SwiftIdentifier.stringLiteral(rules.subscriptionPeriods[key] ?? "")),
            ]
        }
        /// A trial or a pass as the rules add it to a purchase date, with the plan's words for it.
        func periods(_ table: [ProductKey: DateComponents], spoken: (Product) -> String?) -> [TemplateValue] {
            planOrdered(table.keys).map { id in
                let components = table[ProductKey(id)]!
                return [
                    "case": .string(productCases[id]!),
                    "spoken": .string(catalog.product(withID: id).flatMap(spoken) ?? ""),
                    "years": .string(String(components.year ?? 0)), "months": .string(String(components.month ?? 0)),
                    "days": .string(String(components.day ?? 0)),
                ]
            }
        }
        let trials = periods(rules.trials) { $0.trial?.spoken }
        let passes = periods(rules.passes) { $0.duration?.spoken }
        return [
            "consumablesList": productList(planOrdered(rules.consumables)),
            "subscriptions": Self.swiftList(subscriptions),
            "anySubscriptions": .bool(!subscriptions.isEmpty),
            "nonRenewingList": productList(planOrdered(rules.nonRenewing)),
            "trials": Self.swiftList(trials),
            "hasTrials": .bool(!trials.isEmpty),
            "passes": Self.swiftList(passes),
            "hasPasses": .bool(!passes.isEmpty),
            "familyShareableList": productList(planOrdered(rules.familyShareable)),
            "forSaleList": productList(rules.forSale.map(\.rawValue)),
            "anyRequires": .bool(!rules.requirements.isEmpty),
            "anyLegacyPrices": .bool(!rules.legacyPrices.isEmpty),
            "legacyOnlyList": productList(planOrdered(rules.legacyOnly)),
            "freeFeatures": Self.swiftList(
                catalog.tracks.keys.sorted().map { platform -> TemplateValue in
                    let ordered = catalog.ordered(rules.freeFeatures[platform] ?? [])
                    return [
                        "platform": .string(platform.rawValue), "features": .list(ordered.map(featureReference)),
                        "featuresList": featureList(ordered),
                    ]
                }),
        ]
    }
}
