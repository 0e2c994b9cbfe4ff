import Foundation
import FreemiumStoreKit
import MigrateCore
import MigratePlan

// The pieces of the Swift sources: platforms, products, tiers, tracks and policies as template values.
extension GenerationContext {
    static func platforms(of catalog: PlanCatalog) -> [Platform] {
        catalog.rulePlatforms
    }

    /// The plan's platforms that StoreKit names (`AppStore.Platform`, the layer's `StorePlatform`):
    /// no iPadOS (an iPad buys the iOS app) and no watchOS.
    static let storeKitPlatforms: [Platform: String] = [.iOS: "iOS", .macOS: "macOS", .tvOS: "tvOS", .visionOS: "visionOS"]

    func platformValue(_ platform: Platform) -> TemplateValue {
        [
            "case": .string(platform.rawValue),
            "storeKitPlatform": Self.storeKitPlatforms[platform].map { .string($0) } ?? .bool(false),
        ]
    }

    /// `.a`, `.b`: the features as Swift enum cases.
    func featureExpressions(_ ids: [String]) -> [String] {
        ids.map { "." + (featureCases[$0] ?? SwiftIdentifier.make($0)) }
    }

    /// `.a`, `.b`: the products as Swift enum cases.
    func productExpressions(_ ids: [String]) -> [String] {
        ids.map { "." + (productCases[$0] ?? SwiftIdentifier.make($0)) }
    }

    /// `.a, .b` for a one-line Swift collection literal (swift-format wants no trailing comma there).
    func featureList(_ ids: [String]) -> TemplateValue {
        .string(featureExpressions(ids).joined(separator: ", "))
    }

    func productList(_ ids: [String]) -> TemplateValue {
        .string(productExpressions(ids).joined(separator: ", "))
    }

    func featureReference(_ id: String) -> TemplateValue {
        featureReferences[id] ?? Self.reference(id: id, case: featureCases[id])
    }

    func productReference(_ id: String) -> TemplateValue {
        productReferences[id] ?? Self.reference(id: id, case: productCases[id])
    }

    /// `case` and `id` of a feature or product: its case where it has one, else the identifier made from its id.
    static func reference(id: String, case name: String?) -> TemplateValue {
        ["case": .string(name ?? SwiftIdentifier.make(id)), "id": .string(id)]
    }

    func productValue(_ product: Product) -> TemplateValue {
        let features = catalog.ordered(catalog.productFeatures[product.id] ?? [])
        let tables = productTableValues(product.id)
        let key = ProductKey(product.id)
        let value: TemplateValue = [
            "id": .string(product.id),
            "case": .string(productCases[product.id]!),
            "literal": .string(SwiftIdentifier.stringLiteral(product.id)),
            "name": .string(Self.oneLine(product.name)),
            "type": .string(product.kind.rawValue),
            "isConsumable": .bool(product.kind == .consumable),
            "forSale": .bool(product.forSale),
            "familyShareable": .bool(product.familyShareable),
            "price": .string(product.price.description),
            "grants": .list((catalogRules.productGrants[key] ?? []).map(featureReference)),
            "contents": .list(planOrdered(catalogRules.productContents[key] ?? []).map(productReference)),
            "requires": .list(catalog.ordered(catalogRules.requirements[key] ?? []).map(featureReference)),
            "effectiveFeatures": .list(features.map(featureReference)),
            "effectiveFeaturesList": featureList(features),
        ]
        guard case .object(var members) = value else { return value }
        members.merge(tables) { _, table in table }
        return .object(members)
    }

    func tierValue(_ tier: ResolvedTier) -> TemplateValue {
        [
            "id": .string(tier.id),
            "case": .string(tierCases[tier.id]!),
            "literal": .string(SwiftIdentifier.stringLiteral(tier.id)),
            "name": .string(Self.oneLine(tier.name)),
            "grants": .list(catalog.ordered(catalogRules.tierFeatures[tier.id] ?? []).map(featureReference)),
            "grantsList": tierFeatureList(tier.id),
            "hasDiscounts": .bool(!tier.discounts.isEmpty),
            "legacyPrices": Self.swiftList(
                legacyPrices(of: tier).map { product, price in
                    [
                        "product": .string(productCases[product] ?? SwiftIdentifier.make(product)),
                        "priceLiteral": .string(SwiftIdentifier.stringLiteral(price.display)),
                        "priceUnits": .string(Self.grouped(Int64(price.units))),
                        "charge": .string(chargeExpression(price.charge)),
                    ]
                }),
            "discounts": .list(
                tier.discounts.sorted { $0.product < $1.product }.map { discount in
                    [
                        "product": .string(productCases[discount.product] ?? SwiftIdentifier.make(discount.product)),
                        "price": .string(discount.price.description),
                        "priceLiteral": .string(SwiftIdentifier.stringLiteral(discount.price.description)),
                        "priceUnits": .string(Self.grouped(discount.price.tenThousandths)),
                    ]
                }),
        ]
    }

    /// A track's tables as Swift literals, printed from the rules the engine runs (`PlanCatalog.makeCohortRules()`),
    /// never worked out again here: the generated app decides over the very values `explain` decides over.
    func trackValue(_ platform: Platform) -> TemplateValue {
        // Every release, with or without the version receipts carry: one without still decides by its date.
        let releases = (cohortRules.releases[platform] ?? []).map { release -> TemplateValue in
            [
                "version": .string(
                    release.version.map { version in
                        let components = version.components.map { Self.grouped(Int64(clamping: $0)) }.joined(separator: ", ")
                        return "BundleVersion(components: [\(components)], description: \(SwiftIdentifier.stringLiteral(version.description)))"
                    } ?? "nil"),
                "timestamp": .string(Self.grouped(Int64(release.released.timeIntervalSince1970.rounded(.down)))),
                "iso": .string(Timestamp.format(release.released)),
                "tier": .string(release.tier.map { ".\(tierCases[$0]!)" } ?? "nil"),
                "paid": .bool(release.paid),
                "displayName": .string(release.id.map { plan.releases[$0].displayName } ?? ""),
            ]
        }
        func date(_ value: Date?) -> String {
            value.map(Self.dateExpression) ?? "nil"
        }
        let windows = (cohortRules.windows[platform] ?? []).map { window -> TemplateValue in
            [
                "tier": .string(".\(tierCases[window.tier]!)"),
                "from": .string(date(window.from)),
                "until": .string(date(window.until)),
            ]
        }
        return [
            "windows": Self.swiftList(windows),
            "hasWindows": .bool(!windows.isEmpty),
            "platform": .string(platform.rawValue),
            "versionRuleIsSound": .bool(cohortRules.versionRuleIsSound[platform] ?? false),
            "releases": Self.swiftList(releases),
        ]
    }

    /// `.iOS, .tvOS`: the platforms whose receipts carry the build number, as the cutoff rules the engine runs hold them.
    var buildNumberPlatformsList: TemplateValue {
        .string(Self.platforms(of: catalog).filter(cohortRules.buildNumberPlatforms.contains).map { ".\($0.rawValue)" }.joined(separator: ", "))
    }

    var policiesValue: TemplateValue {
        let policies = plan.policies
        var nonProduction = ".newCustomer"
        if case .tier(let id) = policies.nonProduction, let tier = tierCases[id] { nonProduction = ".legacy(.\(tier))" }
        var keep = "nil"
        var failureText = "deny"
        if case .keepLastVerified(let days) = policies.verificationFailure {
            keep = String(days)
            failureText = "keep the last verified result for \(days) days"
        }
        var provisionalGrant: TemplateValue = .bool(false)
        if let grant = policies.provisionalGrant, let tier = tierCases[grant.tier] {
            provisionalGrant = ["tier": .string(".\(tier)"), "days": .string(String(grant.days))]
        }
        return [
            "provisionalGrant": provisionalGrant,
            "nonProductionCohort": .string(nonProduction),
            "keepLastVerifiedDays": .string(keep),
            "keepWhileUnreachableDays": .string(String(policies.daysKeptWhileStoreUnreachable)),
            "verificationFailureText": .string(failureText),
            "familySharingEntitles": .bool(catalogRules.familySharingEntitles),
            "cutoffRuleCase": .string(policies.cutoffRule.rawValue),
        ]
    }
}
