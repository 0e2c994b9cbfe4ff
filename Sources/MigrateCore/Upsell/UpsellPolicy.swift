import FreemiumStoreKit
import MigratePlan

/// A product a customer may be shown, at the price they would pay.
///
/// What only some offers have (a legacy tier, a switch, a pass, Family Sharing) is in `Details`, read as the offer's
/// own properties (`offer.switchesFrom`) and kept out of line, so a report of thousands of offers holds one pointer
/// each for it.
@dynamicMemberLookup
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
    private var more: More?

    /// What only some offers have.
    public struct Details: Sendable, Hashable {
        /// The customer's legacy tier whose price or legacy product applies; nil at the usual price.
        public var legacyTier: String?
        /// For a legacy product, the regular product it is bought in place of (`regularPrice` is that product's).
        public var inPlaceOf: String?
        /// Features it grants that the customer already has, in plan order: offered anyway because nothing smaller
        /// sells what it adds.
        public var overlap: [String] = []
        /// The subscription it replaces within its group (an upgrade, downgrade or crossgrade the App Store
        /// makes, charging for one subscription), when the customer has one there.
        public var switchesFrom: String?
        /// The subscription group of the switch.
        public var group: String?
        /// Subscriptions the customer holds that grant some of what this product unlocks for good: the App Store
        /// doesn't end them, so the customer is told to cancel them in Settings.
        public var keepsRenewing: [String] = []
        /// A pass the customer holds now, bought again: its period starts where the running one ends.
        public var extendsPass = false
        /// How long the pass lasts, when it is one.
        public var passDuration: TrialPeriod?
        /// Products the customer uses only through Family Sharing that grant some of it, sorted.
        public var sharedByFamily: [String] = []
        /// What the offer tells a customer who uses some of it through Family Sharing (the layer's
        /// `FamilySharedOffer.message`, the same words the app shows); nil when nothing of it is shared.
        public var familySharing: String?

        public init() {}
    }

    /// `Details` in a box of its own.
    private indirect enum More: Sendable, Hashable {
        case details(Details)
    }

    /// What only some offers have; empty for most.
    public var details: Details {
        get {
            guard case .details(let details)? = more else { return Details() }
            return details
        }
        set { more = newValue == Details() ? nil : .details(newValue) }
    }

    /// A detail read as the offer's own property: `offer.switchesFrom`.
    public subscript<Value>(dynamicMember path: WritableKeyPath<Details, Value>) -> Value {
        get { details[keyPath: path] }
        set { details[keyPath: path] = newValue }
    }

    public init(productID: String, name: String, price: Price, regularPrice: Price? = nil, charge: LegacyCharge? = nil, adds: [String]) {
        self.productID = productID
        self.name = name
        self.price = price
        self.regularPrice = regularPrice
        self.charge = charge
        self.adds = adds
    }
}

extension Offer {
    /// Why it is offered, as `explain` says it: made from the fields above when asked, so a report of thousands of
    /// offers holds no sentences.
    public var reason: String {
        let more = details
        var reason = "adds \(adds.map { "'\($0)'" }.joined(separator: ", "))"
        if let tier = more.legacyTier, let regularPrice {
            switch charge {
            case .legacyProduct?:
                reason += "; legacy product for tier '\(tier)' in place of '\(more.inPlaceOf ?? "")' (regularly \(regularPrice))"
            default:
                reason +=
                    "; legacy price for tier '\(tier)' (regularly \(regularPrice))"
                    + (charge == nil ? ", display-only: nothing makes the App Store charge it" : "")
                    + (charge == .introductoryOffer ? ", its introductory offer: for the first periods only" : "")
            }
        }
        if !more.overlap.isEmpty {
            reason += "; includes \(more.overlap.map { "'\($0)'" }.joined(separator: ", ")) already unlocked, as nothing smaller sells the rest"
        }
        if let current = more.switchesFrom {
            reason +=
                "; a switch from '\(current)' in subscription group '\(more.group ?? "")': the App Store"
                + " replaces that subscription (an upgrade at once, a downgrade or crossgrade at its next renewal), so it charges for one"
        }
        if !more.keepsRenewing.isEmpty {
            reason +=
                "; \(more.keepsRenewing.map { "'\($0)'" }.joined(separator: ", ")) grants some of it only while it renews, and buying"
                + " this doesn't stop it: tell the customer to cancel it in Settings"
        }
        if more.extendsPass {
            reason +=
                "; a pass the customer holds now: bought again, its \(more.passDuration?.spoken ?? "period") starts where the"
                + " running one ends, so no paid day is lost"
        }
        if let familySharing = more.familySharing {
            let shared = more.sharedByFamily.map { "'\($0)'" }.joined(separator: ", ")
            reason += "; the customer has \(shared) through Family Sharing (the organizer's), and the offer says: \"\(familySharing)\""
        }
        return reason
    }

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

/// The three outcomes of a Restore Purchases tap: the layer's (`FreemiumStoreKit.RestoreOutcome`).
public typealias RestoreOutcome = FreemiumStoreKit.RestoreOutcome

/// Chooses offers that never charge twice: the layer's rules (`CatalogRules.upsell`) over the plan's tables,
/// with what they decided put in words and prices.
public struct UpsellPolicy: Sendable {
    public let catalog: PlanCatalog
    public let rules: PlanRules
    /// Every feature someone could have today: free ones, ones any tier grants and ones any product grants.
    public var obtainableFeatures: Set<String> { rules.obtainable }

    public init(catalog: PlanCatalog) {
        self.init(catalog: catalog, rules: catalog.makeRules())
    }

    public init(catalog: PlanCatalog, rules: PlanRules) {
        self.catalog = catalog
        self.rules = rules
    }

    /// Whether a feature the customer has from `source` means buying `product` would charge twice for it
    /// (`CatalogRules.chargesTwice(_:for:)`, the one place that says it).
    public func chargesTwice(_ product: Product, for source: GrantSource) -> Bool {
        rules.chargesTwice(ProductKey(product.id), for: source.grant)
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

    public func offers(for customer: Customer, decision: CohortDecision, entitlements: Entitlements) -> UpsellResult {
        var tier: ResolvedTier?
        if case .legacy(let id) = decision.cohort { tier = catalog.tier(withID: id) }
        let upsell = rules.upsell(
            for: entitlements.planEntitlements(customer, rules: rules), tier: tier?.id, originalPurchaseUnknown: decision.rule == .noProof,
            isVolumePurchase: customer.isVolumePurchase)
        if customer.isVolumePurchase {
            return UpsellResult(offers: [], withheld: [], showsRestore: upsell.showsRestore, remarks: [.volumePurchase])
        }
        let withheld = upsell.withheld.map { id, why in WithheldOffer(productID: id.rawValue, why: withholdReason(why, product: id)) }
            .sorted { $0.productID < $1.productID }
        // Reserved, not grown: with thousands of products a grown list of offers is up to half again as large.
        var offers: [Offer] = []
        offers.reserveCapacity(upsell.offers.count)
        for planOffer in upsell.offers { if let offer = offer(from: planOffer, tier: tier) { offers.append(offer) } }
        var remarks: [UpsellNote] = []
        if !upsell.showsRestore { remarks.append(offers.isEmpty ? .everythingUnlocked : .everythingUnlockedUpgradesRemain) }
        return UpsellResult(offers: offers, withheld: withheld, showsRestore: upsell.showsRestore, remarks: remarks)
    }

    /// The engine's reason, with the plan's order and what `explain` says about a switch.
    private func withholdReason(_ why: PlanRules.Withheld, product: ProductKey) -> WithholdReason {
        switch why {
        case .addsNothing: return .addsNothing
        case .requires(let lacking): return .requires(catalog.ordered(lacking))
        case .wouldChargeTwice(let overlap, let alternatives):
            return .wouldChargeTwice(overlap: catalog.ordered(overlap), soldAloneAs: alternatives.map(\.rawValue).sorted())
        case .trialTaken: return .trialTaken
        case .originalPurchaseUnknown(let ownable): return .originalPurchaseUnknown(tierMayOwn: catalog.ordered(ownable))
        case .switchAddsNothing(let current):
            let group = rules.subscriptionGroups[current] ?? ""
            let changes = catalog.product(withID: product.rawValue).map { switchChanges(from: current.rawValue, to: $0) } ?? []
            return .switchAddsNothing(from: current.rawValue, group: group, changes: changes)
        }
    }

    /// The engine's offer, priced and named.
    private func offer(from offer: PlanRules.Offer, tier: ResolvedTier?) -> Offer? {
        let id = offer.product.rawValue
        // Read through the index, field by field: a copy of the whole product for each of thousands of offers costs.
        guard let index = catalog.index(ofProduct: id) else { return nil }
        let products = catalog.plan.products
        var result = Offer(productID: id, name: products[index].name, price: products[index].price, adds: catalog.ordered(offer.adds))
        if let tier, offer.legacyPrice != nil {
            if case .legacyProduct? = offer.legacyCharge, let regular = offer.inPlaceOf.flatMap({ catalog.index(ofProduct: $0.rawValue) }) {
                // The legacy product itself is bought, at its own price.
                result.legacyTier = tier.id
                result.inPlaceOf = products[regular].id
                result.regularPrice = products[regular].price
                result.charge = .legacyProduct(id)
            } else if rules.legacyPrices[tier.id]?[offer.product] != nil, let discount = tier.discounts.first(where: { $0.product == id }) {
                result.legacyTier = tier.id
                result.regularPrice = result.price
                result.price = discount.price
                result.charge = discount.charge
            }
        }
        if !offer.overlap.isEmpty { result.overlap = catalog.ordered(offer.overlap) }
        if let current = offer.switchesFrom {
            result.switchesFrom = current.rawValue
            result.group = rules.subscriptionGroups[offer.product] ?? ""
        }
        if !offer.keepsRenewing.isEmpty { result.keepsRenewing = offer.keepsRenewing.map(\.rawValue).sorted() }
        if offer.extendsPass {
            result.extendsPass = true
            result.passDuration = products[index].duration
        }
        if let family = offer.familySharing {
            result.sharedByFamily = offer.sharedByFamily.map(\.rawValue).sorted()
            result.familySharing = family.message
        }
        return result
    }
}

extension GrantSource {
    /// The grant as the layer's rules read it.
    var grant: PlanGrant<ProductKey, String> {
        switch self {
        case .free: .free
        case .tier(let id): .tier(id)
        case .product(let id): .product(ProductKey(id))
        case .bundle(let id, let via): .bundle(ProductKey(id), via: ProductKey(via))
        }
    }
}

extension Entitlements {
    /// What the customer has, as the layer's rules read it; the trials they started (any not refunded, running or
    /// ended) are read from `customer`.
    func planEntitlements(_ customer: Customer, rules: PlanRules) -> PlanRules.Entitlements {
        var features: [String: [PlanGrant<ProductKey, String>]] = [:]
        for grant in self.features { features[grant.featureID] = grant.sources.map(\.grant) }
        return PlanEntitlements(
            features: features, activeProducts: Set(activeProducts.map { ProductKey($0) }),
            takenTrials: Set(customer.purchases.filter { !$0.isRevoked }.map { ProductKey($0.productID) }.filter { rules.trials[$0] != nil }),
            familySharedOnly: Set(familySharedOnly.map { ProductKey($0) }))
    }
}
