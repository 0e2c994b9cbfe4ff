import MigratePlan

/// A product a customer may be shown, at the price they would pay.
public struct Offer: Sendable, Hashable {
    public var productID: String
    public var name: String
    public var price: Price
    /// The usual price when a legacy discount applies.
    public var regularPrice: Price?
    /// How the App Store charges the legacy price: a promotional offer on this product, or a legacy
    /// product (then `productID` is the legacy product itself, what is bought). Nil at the usual price.
    public var charge: LegacyCharge?
    /// The features it would add, in plan order.
    public var adds: [String]
    public var reason: String
}

extension Offer {
    /// The price as reports show it: `9.99 (was 19.99) via promotional offer tally.legacy.yearly`,
    /// or the plain price when no legacy price applies.
    public var priceText: String {
        guard let regularPrice else { return price.description }
        return "\(price) (was \(regularPrice))" + (charge.map { " via \($0)" } ?? "")
    }
}

/// A product that is deliberately not offered, and why.
public struct WithheldOffer: Sendable, Hashable {
    public var productID: String
    public var reason: String
}

/// What the upsell screen shows.
public struct UpsellResult: Sendable, Hashable {
    /// Cheapest useful first.
    public var offers: [Offer]
    public var withheld: [WithheldOffer]
    /// False when the customer already has everything that can be had, so Restore can be hidden.
    public var showsRestore: Bool
    public var notes: [String]
}

/// The three outcomes of a Restore Purchases tap, each with its own message (App Review checks them).
public enum RestoreOutcome: String, Sendable, Hashable, CaseIterable {
    case failed
    case nothingRestored
    case restored

    public var message: String {
        switch self {
        case .failed: "Restore failed. Check your connection and try again."
        case .nothingRestored: "No previous purchases could be restored."
        case .restored: "Your purchases were restored."
        }
    }
}

/// Chooses offers that never charge twice.
public struct UpsellPolicy: Sendable {
    public let catalog: PlanCatalog
    /// Every feature someone could have today: free ones, ones any tier grants and ones any product grants.
    public let obtainableFeatures: Set<String>
    /// Legacy products (a discount's `legacyProduct`) and the tiers that may buy them; no one else is offered them.
    public let legacyProductTiers: [String: Set<String>]

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
        var legacy: [String: Set<String>] = [:]
        for tier in catalog.tiers {
            for discount in tier.discounts {
                if case .legacyProduct(let id) = discount.charge, id != discount.product { legacy[id, default: []].insert(tier.id) }
            }
        }
        legacyProductTiers = legacy
        var result = Set(catalog.tiers.flatMap(\.grants))
        for features in catalog.productFeatures.values { result.formUnion(features) }
        for platform in catalog.plan.app.platforms { result.formUnion(catalog.freeFeatures(on: platform)) }
        obtainableFeatures = result
    }

    /// The legacy product `tier` buys instead of `regular`, when its discount names one that exists and is cheaper.
    public func legacyTwin(of regular: Product, in tier: ResolvedTier) -> Product? {
        guard let discount = tier.discounts.first(where: { $0.product == regular.id }), discount.price < regular.price,
            case .legacyProduct(let id) = discount.charge, id != regular.id, let twin = catalog.plan.product(withID: id)
        else { return nil }
        return twin
    }

    public func offers(for customer: Customer, decision: CohortDecision, entitlements: Entitlements) -> UpsellResult {
        let plan = catalog.plan
        // What a running trial lends is not owned: the customer may buy it for good during the trial.
        let trials = Set(plan.products.filter { $0.trial != nil }.map(\.id))
        let owned = Set(entitlements.features.filter { grant in !grant.sources.allSatisfy { $0.isLent(byTrials: trials) } }.map(\.featureID))
        let ownedProducts = Set(entitlements.activeProducts).union(entitlements.activeProducts.flatMap { catalog.productContents[$0] ?? [] })
        let missingAnything = !obtainableFeatures.subtracting(owned).isEmpty

        if customer.isVolumePurchase {
            return UpsellResult(
                offers: [], withheld: [], showsRestore: missingAnything,
                notes: ["a Volume Purchase Program install cannot make in-app purchases, so nothing is offered"])
        }
        var tier: ResolvedTier?
        if case .legacy(let id) = decision.cohort { tier = catalog.tier(withID: id) }

        // Candidates: sold, not consumable, not owned, adds something, and the customer has what it requires.
        var candidates: [(product: Product, adds: Set<String>)] = []
        var withheld: [WithheldOffer] = []
        for regular in plan.products where regular.forSale && regular.kind != .consumable {
            // A legacy product is never a candidate of its own: it is sold only in place of its regular
            // product, to its tier, so other cohorts never see it.
            if legacyProductTiers[regular.id] != nil { continue }
            // For that tier the legacy twin replaces the regular product: never the full price beside it.
            let product = tier.flatMap { legacyTwin(of: regular, in: $0) } ?? regular
            if ownedProducts.contains(product.id) { continue }
            if product.trial != nil, customer.purchases.contains(where: { $0.productID == product.id && !$0.isRevoked }) {
                withheld.append(WithheldOffer(productID: product.id, reason: "a free trial the customer has already started"))
                continue
            }
            let features = catalog.productFeatures[product.id] ?? []
            if features.isSubset(of: owned) {
                if !features.isEmpty {
                    withheld.append(WithheldOffer(productID: product.id, reason: "adds nothing: every feature it grants is already unlocked"))
                }
                continue
            }
            let adds = features.subtracting(owned)
            if adds.isEmpty {
                if !features.isEmpty {
                    withheld.append(WithheldOffer(productID: product.id, reason: "adds nothing: every feature it grants is already unlocked"))
                }
                continue
            }
            let lacking = product.requires.filter { !owned.contains($0) }
            if !lacking.isEmpty {
                withheld.append(
                    WithheldOffer(productID: product.id, reason: "an add-on that requires \(lacking.map { "'\($0)'" }.joined(separator: ", ")), which the customer lacks"))
                continue
            }
            candidates.append((product, adds))
        }

        // A bundle that overlaps what the customer owns is withheld when its missing part is sold without the overlap
        // (Tilt to Live HD, "Adding an Upgrade Path to In App Purchases", Parade of Rain, 2011: someone with the old full
        // version must be offered the new mode alone, never the bundle).
        func overlaps(_ product: Product) -> Bool {
            let features = catalog.productFeatures[product.id] ?? []
            return !features.isDisjoint(with: owned) || !(catalog.productContents[product.id] ?? []).isDisjoint(with: ownedProducts)
        }
        // Which features the non-overlapping candidates sell, and by whom: a bundle is withheld when
        // every feature it adds is sold by one of them. Indexed by feature, so this stays linear.
        var sellers: [String: [String]] = [:]
        for candidate in candidates where !overlaps(candidate.product) {
            for feature in candidate.adds { sellers[feature, default: []].append(candidate.product.id) }
        }
        var offered: [(product: Product, adds: Set<String>)] = []
        for candidate in candidates {
            if overlaps(candidate.product), candidate.adds.allSatisfy({ sellers[$0] != nil }) {
                let overlap = catalog.ordered((catalog.productFeatures[candidate.product.id] ?? []).intersection(owned))
                let alternatives = Set(candidate.adds.flatMap { sellers[$0] ?? [] })
                let names = alternatives.sorted().map { "'\($0)'" }.joined(separator: ", ")
                withheld.append(
                    WithheldOffer(
                        productID: candidate.product.id,
                        reason: "would charge again for \(overlap.map { "'\($0)'" }.joined(separator: ", ")), which the customer has; what it adds is sold alone as \(names)"
                    ))
                continue
            }
            offered.append(candidate)
        }

        var offers: [Offer] = offered.map { candidate in
            let product = candidate.product
            var price = product.price
            var regular: Price?
            var charge: LegacyCharge?
            var reason = "adds \(catalog.ordered(candidate.adds).map { "'\($0)'" }.joined(separator: ", "))"
            if let tier, let twinOf = legacyProductTiers[product.id] != nil ? plan.products.first(where: { legacyTwin(of: $0, in: tier)?.id == product.id }) : nil {
                // The legacy product itself is bought, at its own price.
                regular = twinOf.price
                charge = .legacyProduct(product.id)
                reason += "; legacy product for tier '\(tier.id)' in place of '\(twinOf.id)' (regularly \(twinOf.price))"
            } else if let tier, let discount = tier.discounts.first(where: { $0.product == product.id }), discount.price < price {
                switch discount.charge {
                case .promotionalOffer, nil:
                    regular = price
                    price = discount.price
                    charge = discount.charge
                    reason += "; legacy price for tier '\(tier.id)' (regularly \(product.price))"
                        + (discount.charge == nil ? ", display-only: nothing makes the App Store charge it" : "")
                case .legacyProduct:
                    break  // its twin is missing or is the product itself; `migrate check` reports it
                }
            }
            if overlaps(product) {
                let overlap = catalog.ordered((catalog.productFeatures[product.id] ?? []).intersection(owned))
                reason += "; includes \(overlap.map { "'\($0)'" }.joined(separator: ", ")) already unlocked, as nothing smaller sells the rest"
            }
            return Offer(
                productID: product.id, name: product.name, price: price, regularPrice: regular, charge: charge, adds: catalog.ordered(candidate.adds),
                reason: reason)
        }
        offers.sort { lhs, rhs in
            if lhs.price != rhs.price { return lhs.price < rhs.price }
            if lhs.adds.count != rhs.adds.count { return lhs.adds.count > rhs.adds.count }
            return lhs.productID < rhs.productID
        }
        withheld.sort { $0.productID < $1.productID }
        var notes: [String] = []
        if !missingAnything {
            notes.append("everything is unlocked: show no paywall, and the Restore control can be hidden")
        }
        return UpsellResult(offers: offers, withheld: withheld, showsRestore: missingAnything, notes: notes)
    }
}
