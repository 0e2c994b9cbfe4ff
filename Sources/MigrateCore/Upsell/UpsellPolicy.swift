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
    /// The subscription it replaces within its group (an upgrade, downgrade or crossgrade the App Store
    /// makes, charging for one subscription), when the customer has one there.
    public var switchesFrom: String? = nil
    /// Subscriptions the customer holds that grant some of what this product unlocks for good: the App Store
    /// doesn't end them, so the customer is told to cancel them in Settings.
    public var keepsRenewing: [String] = []
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
    /// Why, typed: what is shown is made from it.
    public var why: WithholdReason
    /// The sentence `explain` shows.
    public var reason: String { why.description }
    /// The subscription of the same group the customer has, when the product is a switch from it that adds
    /// nothing they lack: for an account screen, not the paywall.
    public var switchesFrom: String? {
        if case .switchAddsNothing(let current, _, _) = why { return current }
        return nil
    }

    public init(productID: String, why: WithholdReason) {
        self.productID = productID
        self.why = why
    }
}

/// What the upsell screen shows.
public struct UpsellResult: Sendable, Hashable {
    /// Cheapest useful first.
    public var offers: [Offer]
    public var withheld: [WithheldOffer]
    /// False when the customer already has everything that can be had, so Restore can be hidden.
    public var showsRestore: Bool
    /// What to tell the upsell screen, typed.
    public var remarks: [UpsellNote]
    /// The sentences `explain` shows.
    public var notes: [String] { remarks.map(\.description) }
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
    /// Products that are free trials: what a running one lends is not owned.
    private let trials: Set<String>
    /// Auto-renewable subscriptions by id, with their group: what they grant is held only while they renew.
    private let groups: [String: String]
    /// Non-renewing subscriptions: held for a period too.
    private let nonRenewing: Set<String>
    /// Every feature some legacy tier grants: while the original purchase is unknown, a product selling one of
    /// them could charge a legacy buyer for what they own.
    private let tierFeatures: Set<String>
    /// Indices into `plan.products` of what may be offered at all: for sale, lasting, and not a legacy
    /// product (those are sold only in place of their regular product, to their tier).
    private let sellable: [Int]
    /// Each product's features and contents (its bundle's, transitively), and its features in plan order,
    /// by index into `plan.products`: looked up once here, not once per customer and product.
    private let featuresAt: [Set<String>]
    private let contentsAt: [Set<String>]
    private let orderedFeaturesAt: [[String]]

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
        let products = catalog.plan.products
        var legacy: [String: Set<String>] = [:]
        for tier in catalog.tiers {
            for discount in tier.discounts {
                if case .legacyProduct(let id) = discount.charge, id != discount.product { legacy[id, default: []].insert(tier.id) }
            }
        }
        legacyProductTiers = legacy
        trials = Set(products.filter { $0.trial != nil }.map(\.id))
        var groups: [String: String] = [:]
        for product in products where product.kind == .autoRenewable { groups[product.id] = product.subscription?.group ?? "" }
        self.groups = groups
        nonRenewing = Set(products.filter { $0.kind == .nonRenewing }.map(\.id))
        tierFeatures = Set(catalog.tiers.flatMap(\.grants))
        sellable = products.indices.filter { products[$0].forSale && products[$0].kind != .consumable && legacy[products[$0].id] == nil }
        featuresAt = products.map { catalog.productFeatures[$0.id] ?? [] }
        contentsAt = products.map { catalog.productContents[$0.id] ?? [] }
        orderedFeaturesAt = featuresAt.map { catalog.ordered($0) }
        var result = Set(catalog.tiers.flatMap(\.grants))
        for features in catalog.productFeatures.values { result.formUnion(features) }
        for platform in catalog.plan.app.platforms { result.formUnion(catalog.freeFeatures(on: platform)) }
        obtainableFeatures = result
    }

    /// The legacy product `tier` buys instead of `regular`, when its discount names one that exists and is cheaper.
    public func legacyTwin(of regular: Product, in tier: ResolvedTier) -> Product? {
        guard let discount = tier.discounts.first(where: { $0.product == regular.id }), discount.price < regular.price,
            case .legacyProduct(let id) = discount.charge, id != regular.id, let twin = catalog.product(withID: id)
        else { return nil }
        return twin
    }

    /// Whether a feature the customer has from `source` means buying `product` would charge twice for it: the one
    /// place that says what "charging twice" means for each pair of kinds.
    /// - Held for good (a tier, free, a non-consumable) counts against everything.
    /// - Held for a period (a subscription) doesn't count against a product held for good: a subscriber may buy
    ///   Lifetime, and is told to cancel the subscription.
    /// - A subscription doesn't count against another in its own group: that is a switch, which the App Store
    ///   makes without charging for two ("Offering auto-renewable subscriptions", subscription groups).
    /// - Otherwise (another group, a non-renewing pass) it counts: two subscriptions for the same features.
    public func chargesTwice(_ product: Product, for source: GrantSource) -> Bool {
        let holder: String
        switch source {
        case .tier, .free: return true
        case .product(let id), .bundle(let id, _): holder = id
        }
        let holderGroup = groups[holder]
        guard holderGroup != nil || nonRenewing.contains(holder) else { return true }
        switch product.kind {
        case .nonConsumable, .consumable: return false
        case .autoRenewable: return holderGroup == nil || holderGroup != groups[product.id]
        case .nonRenewing: return true
        }
    }

    /// What a switch between two plans of a group changes, for its message: ` (yearly instead of monthly, …)`.
    private func switchChanges(from current: String, to product: Product) -> [String] {
        guard let from = catalog.product(withID: current) else { return [] }
        var changes: [String] = []
        if let old = from.subscription, let new = product.subscription {
            if old.period != new.period { changes.append("\(new.period) instead of \(old.period)") }
            if old.level != new.level { changes.append("level \(new.level) instead of \(old.level)") }
        }
        if from.familyShareable != product.familyShareable {
            changes.append(product.familyShareable ? "shared with the family" : "not shared with the family")
        }
        if from.price != product.price { changes.append("\(product.price) instead of \(from.price)") }
        return changes
    }

    /// One product the customer may be offered: its index in `plan.products`, what it would add, and whether it
    /// overlaps what the customer has (a feature or a product they own).
    private struct Candidate {
        var index: Int
        var adds: Set<String>
        var overlaps: Bool
        /// What the customer has that buying it would charge again for.
        var owned: Set<String>
    }

    public func offers(for customer: Customer, decision: CohortDecision, entitlements: Entitlements) -> UpsellResult {
        let plan = catalog.plan
        let products = plan.products
        // What a running trial lends is not owned: the customer may buy it for good during the trial.
        let owned = Set(entitlements.features.filter { grant in !grant.sources.allSatisfy { $0.isLent(byTrials: trials) } }.map(\.featureID))
        let ownedProducts = Set(entitlements.activeProducts).union(entitlements.activeProducts.flatMap { catalog.productContents[$0] ?? [] })
        let missingAnything = obtainableFeatures.count > owned.count || !obtainableFeatures.isSubset(of: owned)

        if customer.isVolumePurchase {
            return UpsellResult(offers: [], withheld: [], showsRestore: missingAnything, remarks: [.volumePurchase])
        }
        var tier: ResolvedTier?
        if case .legacy(let id) = decision.cohort { tier = catalog.tier(withID: id) }
        let discounted = tier.map { !$0.discounts.isEmpty } ?? false

        // A bundle that overlaps what the customer owns is withheld when its missing part is sold without the overlap
        // (Tilt to Live HD, "Adding an Upgrade Path to In App Purchases", Parade of Rain, 2011: someone with the old full
        // version must be offered the new mode alone, never the bundle).

        // What counts as owned against each product: a feature counts when one of its grants would be charged
        // again (`chargesTwice`); what a running trial lends never counts.
        let held = entitlements.features.map { grant in (grant.featureID, grant.sources.filter { !$0.isLent(byTrials: trials) }) }
        // A plan of the group of a subscription only shared with the customer is no switch: it would be a subscription of
        // their own, charged beside the organizer's ("Supporting Family Sharing in your app").
        let sharedOnly = Set(entitlements.familySharedOnly)
        func countsAgainst(_ product: Product, _ source: GrantSource) -> Bool {
            if chargesTwice(product, for: source) { return true }
            guard case .product(let holder) = source, sharedOnly.contains(holder) else { return false }
            return product.kind == .autoRenewable && groups[holder] == groups[product.id]
        }
        // `chargesTwice` depends on the product's kind and group alone: each is worked out once per run.
        var ownedByKind: [String: Set<String>] = [:]
        func ownedAgainst(_ product: Product) -> Set<String> {
            let key = product.kind == .autoRenewable ? "group " + (groups[product.id] ?? "") : product.kind.rawValue
            if let known = ownedByKind[key] { return known }
            let result = Set(held.filter { _, sources in sources.contains { countsAgainst(product, $0) } }.map(\.0))
            ownedByKind[key] = result
            return result
        }
        func overlaps(_ index: Int, owning owned: Set<String>) -> Bool {
            !featuresAt[index].isDisjoint(with: owned) || !contentsAt[index].isDisjoint(with: ownedProducts)
        }
        // Only the customer's own subscriptions are switched or left renewing: a family member's shared one is the
        // organizer's, and buying a plan of its group is a purchase of their own ("Supporting Family Sharing in your app").
        let activeSubscriptions = entitlements.activeProducts.filter { groups[$0] != nil && !entitlements.familySharedOnly.contains($0) }

        // Candidates: sold, not consumable, not owned, adds something, and the customer has what it requires.
        var candidates: [Candidate] = []
        var withheld: [WithheldOffer] = []
        for regular in sellable {
            // For a tier with a legacy twin the twin replaces the regular product: never the full price beside it.
            var index = regular
            if discounted, let tier, let twin = legacyTwin(of: products[regular], in: tier), let twinIndex = catalog.index(ofProduct: twin.id) {
                index = twinIndex
            }
            let id = products[index].id
            if ownedProducts.contains(id) { continue }
            if products[index].trial != nil, customer.purchases.contains(where: { $0.productID == id && !$0.isRevoked }) {
                withheld.append(WithheldOffer(productID: id, why: .trialTaken))
                continue
            }
            let features = featuresAt[index]
            let against = ownedAgainst(products[index])
            if features.isSubset(of: against) {
                if !features.isEmpty {
                    withheld.append(WithheldOffer(productID: id, why: .addsNothing))
                }
                continue
            }
            // Unknown is not new: withhold only what a legacy tier could already own, and sell the rest.
            if decision.rule == .noProof, !features.isDisjoint(with: tierFeatures) {
                let ownable = catalog.ordered(features.intersection(tierFeatures))
                withheld.append(WithheldOffer(productID: id, why: .originalPurchaseUnknown(tierMayOwn: ownable)))
                continue
            }
            var adds = features.isDisjoint(with: against) ? features : features.subtracting(against)
            // Another plan of the group the customer subscribes to is a switch, not an upgrade: it adds only what the
            // subscriber lacks, and one that adds nothing (another period, family sharing or price at the same
            // features) is for an account screen, never the paywall, or a new customer would be sold one plan after
            // another ("Offering auto-renewable subscriptions", ranking subscriptions within a group).
            if let group = groups[id], let current = activeSubscriptions.first(where: { groups[$0] == group }) {
                let lacking = features.subtracting(owned)
                if lacking.isEmpty {
                    withheld.append(
                        WithheldOffer(
                            productID: id,
                            why: .switchAddsNothing(from: current, group: group, changes: switchChanges(from: current, to: products[index]))))
                    continue
                }
                adds = lacking
            }
            let requires = products[index].requires
            if !requires.isEmpty {
                let lacking = requires.filter { !owned.contains($0) }
                if !lacking.isEmpty {
                    withheld.append(WithheldOffer(productID: id, why: .requires(lacking)))
                    continue
                }
            }
            candidates.append(Candidate(index: index, adds: adds, overlaps: overlaps(index, owning: against), owned: against))
        }

        // Which features the non-overlapping candidates sell, and by whom: a bundle is withheld when
        // every feature it adds is sold by one of them. Indexed by feature, so this stays linear.
        var sellers: [String: [String]] = [:]
        for candidate in candidates where !candidate.overlaps {
            for feature in candidate.adds { sellers[feature, default: []].append(products[candidate.index].id) }
        }
        var offered: [Candidate] = []
        for candidate in candidates {
            if candidate.overlaps, candidate.adds.allSatisfy({ sellers[$0] != nil }) {
                let overlap = catalog.ordered(featuresAt[candidate.index].intersection(candidate.owned))
                let alternatives = Set(candidate.adds.flatMap { sellers[$0] ?? [] })
                withheld.append(
                    WithheldOffer(
                        productID: products[candidate.index].id, why: .wouldChargeTwice(overlap: overlap, soldAloneAs: alternatives.sorted())))
                continue
            }
            offered.append(candidate)
        }

        var offers: [Offer] = offered.map { candidate in
            let index = candidate.index
            let id = products[index].id
            let listed = products[index].price
            var price = listed
            var regular: Price?
            var charge: LegacyCharge?
            // Everything it grants is new to the customer, most often: its features in plan order are known already.
            let adds = candidate.adds.count == featuresAt[index].count ? orderedFeaturesAt[index] : catalog.ordered(candidate.adds)
            var reason = "adds \(adds.map { "'\($0)'" }.joined(separator: ", "))"
            if let tier, let twinOf = legacyProductTiers[id] != nil ? products.first(where: { legacyTwin(of: $0, in: tier)?.id == id }) : nil {
                // The legacy product itself is bought, at its own price.
                regular = twinOf.price
                charge = .legacyProduct(id)
                reason += "; legacy product for tier '\(tier.id)' in place of '\(twinOf.id)' (regularly \(twinOf.price))"
            } else if discounted, let tier, let discount = tier.discounts.first(where: { $0.product == id }), discount.price < price {
                switch discount.charge {
                case .promotionalOffer, .introductoryOffer, nil:
                    regular = price
                    price = discount.price
                    charge = discount.charge
                    reason +=
                        "; legacy price for tier '\(tier.id)' (regularly \(listed))"
                        + (discount.charge == nil ? ", display-only: nothing makes the App Store charge it" : "")
                        + (discount.charge == .introductoryOffer ? ", its introductory offer: for the first periods only" : "")
                case .legacyProduct:
                    break  // its twin is missing or is the product itself; `migrate check` reports it
                }
            }
            if candidate.overlaps {
                let overlap = catalog.ordered(featuresAt[index].intersection(candidate.owned))
                reason += "; includes \(overlap.map { "'\($0)'" }.joined(separator: ", ")) already unlocked, as nothing smaller sells the rest"
            }
            var switchesFrom: String?
            var keepsRenewing: [String] = []
            if let group = groups[id] {
                switchesFrom = activeSubscriptions.first { groups[$0] == group }
                if let current = switchesFrom {
                    reason +=
                        "; a switch from '\(current)' in subscription group '\(group)': the App Store replaces that subscription"
                        + " (an upgrade at once, a downgrade or crossgrade at its next renewal), so it charges for one"
                }
            } else if products[index].kind == .nonConsumable {
                keepsRenewing = activeSubscriptions.filter { !(catalog.productFeatures[$0] ?? []).isDisjoint(with: featuresAt[index]) }
                if !keepsRenewing.isEmpty {
                    reason +=
                        "; \(keepsRenewing.map { "'\($0)'" }.joined(separator: ", ")) grants some of it only while it renews, and buying"
                        + " this doesn't stop it: tell the customer to cancel it in Settings"
                }
            }
            return Offer(
                productID: id, name: products[index].name, price: price, regularPrice: regular, charge: charge, adds: adds, reason: reason,
                switchesFrom: switchesFrom, keepsRenewing: keepsRenewing)
        }
        offers.sort { lhs, rhs in
            if lhs.price != rhs.price { return lhs.price < rhs.price }
            if lhs.adds.count != rhs.adds.count { return lhs.adds.count > rhs.adds.count }
            return lhs.productID < rhs.productID
        }
        withheld.sort { $0.productID < $1.productID }
        var remarks: [UpsellNote] = []
        if !missingAnything { remarks.append(offers.isEmpty ? .everythingUnlocked : .everythingUnlockedUpgradesRemain) }
        return UpsellResult(offers: offers, withheld: withheld, showsRestore: missingAnything, remarks: remarks)
    }
}
