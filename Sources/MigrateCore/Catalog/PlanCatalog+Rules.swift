import Foundation
// Builds the layer's tables, as generated code does: `@_spi(Generated)`.
@_spi(Generated) import FreemiumStoreKit
import MigratePlan

/// A product id as the layer's rules key it: the plan's id, typed.
public struct ProductKey: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ id: String) { rawValue = id }

    public static func < (lhs: ProductKey, rhs: ProductKey) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// The layer's entitlement and upsell rules over a plan's tables, keyed by the plan's ids: the rules the
/// generated app runs, here run by `check`, `explain`, `simulate` and the matrix.
public typealias PlanRules = CatalogRules<ProductKey, String, String, Platform>

extension TrialPeriod {
    /// The period as the calendar adds it: weeks counted as seven days.
    public var dateComponents: DateComponents { DateComponents(year: years, month: months, day: weeks * 7 + days) }
}

extension Product {
    /// The product's type as StoreKit names it (`Product.ProductType`).
    public var storeType: InAppPurchaseType {
        switch kind {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewing: .nonRenewable
        case .autoRenewable: .autoRenewable
        }
    }

    /// Whether Family Sharing shares a purchase of it: marked shareable in App Store Connect, and of a type Family
    /// Sharing shares (the layer's `InAppPurchaseType.isSharedByFamily`: non-consumables and auto-renewable
    /// subscriptions). A consumable or a non-renewing subscription marked shareable is never shared.
    public var isSharedByFamily: Bool { familyShareable && storeType.isSharedByFamily }
}

extension PlanCatalog {
    /// The plan's tables, built once per use: each product by its first listing, each tier's legacy prices below
    /// the regular price only, and a legacy product only where it exists and is another product.
    public func makeRules() -> PlanRules {
        let products = plan.products.enumerated().filter { index(ofProduct: $0.element.id) == $0.offset }.map(\.element)
        func keys(_ products: [Product]) -> Set<ProductKey> { Set(products.map { ProductKey($0.id) }) }
        var grants: [ProductKey: [String]] = [:]
        var contents: [ProductKey: [ProductKey]] = [:]
        var groups: [ProductKey: String] = [:]
        var levels: [ProductKey: Int] = [:]
        var periods: [ProductKey: String] = [:]
        var trials: [ProductKey: DateComponents] = [:]
        var passes: [ProductKey: DateComponents] = [:]
        var prices: [ProductKey: Int] = [:]
        var requirements: [ProductKey: Set<String>] = [:]
        for product in products {
            let key = ProductKey(product.id)
            grants[key] = ordered(Set(product.grants))
            contents[key] = (productContents[product.id] ?? []).sorted().map { ProductKey($0) }
            if product.kind == .autoRenewable {
                groups[key] = product.subscription?.group ?? ""
                levels[key] = product.subscription?.level
                periods[key] = product.subscription?.period
            }
            if let trial = product.trial { trials[key] = trial.dateComponents }
            if let duration = product.duration { passes[key] = duration.dateComponents }
            prices[key] = Int(clamping: product.price.tenThousandths)
            if !product.requires.isEmpty { requirements[key] = Set(product.requires) }
        }
        var free: [Platform: Set<String>] = [:]
        for platform in tracks.keys { free[platform] = Set(freeFeatures(on: platform)) }
        var legacyPrices: [String: [ProductKey: PlanRules.LegacyPrice]] = [:]
        // Named as a legacy product by any tier: sold to no one else, even where its price doesn't apply.
        var legacyOnly: Set<ProductKey> = []
        for tier in tiers {
            var table: [ProductKey: PlanRules.LegacyPrice] = [:]
            // A product's first discount is the tier's price for it; `check` reports any other.
            var priced: Set<String> = []
            for discount in tier.discounts where priced.insert(discount.product).inserted {
                guard let regular = product(withID: discount.product), discount.price < regular.price else { continue }
                let charge: PlanRules.LegacyPrice.Charge
                switch discount.charge {
                case nil: charge = .displayOnly
                case .promotionalOffer(let id): charge = .promotionalOffer(id: id)
                case .introductoryOffer: charge = .introductoryOffer
                case .legacyProduct(let id):
                    // A legacy product that is missing or the product itself charges nothing: `check` reports it.
                    guard id != regular.id, product(withID: id) != nil else { continue }
                    charge = .legacyProduct(ProductKey(id))
                }
                table[ProductKey(discount.product)] = PlanRules.LegacyPrice(
                    discount.price.description, Int(clamping: discount.price.tenThousandths), charge)
            }
            if !table.isEmpty { legacyPrices[tier.id] = table }
            for discount in tier.discounts {
                if case .legacyProduct(let id) = discount.charge, id != discount.product { legacyOnly.insert(ProductKey(id)) }
            }
        }
        return PlanRules(
            tierFeatures: Dictionary(tiers.map { ($0.id, Set($0.grants)) }, uniquingKeysWith: { first, _ in first }),
            productGrants: grants, productContents: contents, freeFeatures: free,
            consumables: keys(products.filter { $0.kind == .consumable }), subscriptionGroups: groups, subscriptionLevels: levels,
            subscriptionPeriods: periods,
            nonRenewing: keys(products.filter { $0.kind == .nonRenewing }), trials: trials, passes: passes,
            familyShareable: keys(products.filter(\.isSharedByFamily)), familySharingEntitles: plan.policies.familySharing != .ignored,
            forSale: products.filter(\.forSale).map { ProductKey($0.id) }, prices: prices, requirements: requirements,
            legacyPrices: legacyPrices, legacyOnly: legacyOnly)
    }
}

/// The layer's cutoff rules over a plan's release tables, keyed by tier id: the rules the generated app runs.
public typealias PlanCohortRules = CohortRules<String, Platform>

extension PlanCatalog {
    /// The plan's platforms in migrate's order: the order that breaks ties between platforms, in the app as here.
    public var rulePlatforms: [Platform] { Set(plan.app.platforms).union(tracks.keys).sorted() }

    /// The plan's release tables as the cutoff rules read them: every release of each track with the version its
    /// receipts carry (or none), its tier and its index in the plan (`Release.id`); the written tiers' windows; the
    /// policies.
    public func makeCohortRules() -> PlanCohortRules {
        var releases: [Platform: [PlanCohortRules.Release]] = [:]
        var windows: [Platform: [PlanCohortRules.Window]] = [:]
        var sound: [Platform: Bool] = [:]
        for (platform, indices) in tracks {
            let meaning = platform.originalVersionMeaning
            releases[platform] = indices.map { index in
                let release = plan.releases[index]
                let version = release.receiptVersion(meaning)?.bundleVersion
                return PlanCohortRules.Release(
                    version: version, released: release.released, tier: tier(ofRelease: index)?.id, paid: release.model.isPaid, id: index)
            }
            windows[platform] = self.windows(on: platform).map { PlanCohortRules.Window(tier: tiers[$0.tier].id, from: $0.from, until: $0.until) }
            sound[platform] = cutoffs[platform]?.isVersionRuleSound ?? false
        }
        var fallbacks: [Platform: Platform] = [:]
        for platform in rulePlatforms where tracks[platform] == nil {
            if let fallback = trackPlatform(for: platform) { fallbacks[platform] = fallback }
        }
        var nonProduction = PlanCohort<String>.newCustomer
        if case .tier(let id) = plan.policies.nonProduction, tier(withID: id) != nil { nonProduction = .legacy(id) }
        var keepDays: Int?
        if case .keepLastVerified(let days) = plan.policies.verificationFailure { keepDays = days }
        let cutoffRule: CutoffRule
        switch plan.policies.cutoffRule {
        case .automatic: cutoffRule = .automatic
        case .version: cutoffRule = .version
        case .date: cutoffRule = .date
        }
        return PlanCohortRules(
            platforms: rulePlatforms, buildNumberPlatforms: Set(rulePlatforms.filter { $0.originalVersionMeaning == .buildNumber }),
            releases: releases, windows: windows, versionRuleIsSound: sound, fallbacks: fallbacks,
            isUniversalPurchase: plan.app.universalPurchase, cutoffRule: cutoffRule, nonProductionCohort: nonProduction,
            keepLastVerifiedDays: keepDays, keepWhileUnreachableDays: plan.policies.daysKeptWhileStoreUnreachable,
            tierFeatureCounts: Dictionary(tiers.map { ($0.id, $0.grants.count) }, uniquingKeysWith: { first, _ in first }))
    }
}
