import Foundation

extension CatalogRules {
  /// The offers for a customer: never a product whose features they have, never a bundle that
  /// overlaps what they own when the missing part is sold alone, nothing when everything is
  /// unlocked.
  ///
  /// - Parameters:
  ///   - tier: the customer's legacy tier, whose legacy prices and legacy products apply.
  ///   - originalPurchaseUnknown: the original purchase can't be verified now (`CohortRule.noProof`):
  ///     what a legacy tier could own isn't sold, and the rest is.
  ///   - isVolumePurchase: a Volume Purchase Program install, which can't make in-app purchases.
  ///
  /// Inlinable so that it is specialized for the app's own types in another module (and for
  /// `migrate`'s): run generically it takes several times as long.
  @inlinable
  public func upsell(
    for entitlements: Entitlements, tier: Tier?, originalPurchaseUnknown: Bool,
    isVolumePurchase: Bool = false
  ) -> Upsell {
    // What a running trial lends is not owned: the customer may buy it for good during the trial.
    let held = entitlements.features.mapValues { $0.filter { !isLent($0) } }.filter {
      !$0.value.isEmpty
    }
    let owned = Set(held.keys)
    var ownedProducts = entitlements.activeProducts
    for product in entitlements.activeProducts {
      ownedProducts.formUnion(productContents[product] ?? [])
    }
    let showsRestore = !obtainable.isSubset(of: owned)
    if isVolumePurchase { return Upsell(offers: [], withheld: [:], showsRestore: showsRestore) }

    // A plan of the group of a subscription only shared with the customer is no switch: it would
    // be a subscription of their own, charged beside the organizer's.
    func countsAgainst(_ product: Product, _ grant: Grant) -> Bool {
      if chargesTwice(product, for: grant) { return true }
      guard case .product(let holder) = grant, entitlements.familySharedOnly.contains(holder)
      else { return false }
      let group = subscriptionGroups[holder]
      return group != nil && group == subscriptionGroups[product]
    }
    // What counts against a product depends on its kind and group alone: worked out once each.
    var ownedByKind: [OfferableHolding: Set<Feature>] = [:]
    func ownedAgainst(_ product: Product, holding key: OfferableHolding) -> Set<Feature> {
      if let known = ownedByKind[key] { return known }
      let result = Set(held.filter { $0.value.contains { countsAgainst(product, $0) } }.keys)
      ownedByKind[key] = result
      return result
    }
    // Only the customer's own subscriptions are switched or left renewing: a family member's
    // shared one is the organizer's ("Supporting Family Sharing in your app").
    let subscriptions = entitlements.activeProducts.subtracting(entitlements.familySharedOnly)
      .filter { subscriptionGroups[$0] != nil }.sorted { $0.rawValue < $1.rawValue }
    func subscription(in group: String) -> Product? {
      subscriptions.first { subscriptionGroups[$0] == group }
    }
    let legacy = tier.flatMap { legacyPrices[$0] } ?? [:]

    var withheld: [Product: Withheld] = [:]
    var candidates: [Candidate] = []
    for entry in offerable {
      // A tier with a legacy product buys it instead: never the regular product at full price.
      let regular = entry.product
      var product = regular
      var facts = entry
      if case .legacyProduct(let twin)? = legacy[regular]?.charge {
        product = twin
        facts = offerableFacts(twin)
      }
      // A running pass may be bought again: its period starts where the running one ends
      // ("Non-renewing subscriptions": the app computes the expiration). One without a duration
      // never ends here, so buying it again would add nothing.
      let extendsPass =
        facts.isPass && entitlements.activeProducts.contains(product)
        && !entitlements.familySharedOnly.contains(product)
      if ownedProducts.contains(product) && !extendsPass { continue }
      if entitlements.takenTrials.contains(product) {
        withheld[product] = .trialTaken
        continue
      }
      let features = facts.features
      let group = facts.group
      // What the running pass itself grants doesn't count against buying more of its time.
      let against =
        extendsPass
        ? Set(
          held.filter { feature, grants in
            grants.contains { !isGrant($0, from: product) && countsAgainst(product, $0) }
          }.keys) : ownedAgainst(product, holding: facts.holding)
      var adds = against.isEmpty ? features : features.subtracting(against)
      if adds.isEmpty {
        if !features.isEmpty { withheld[product] = .addsNothing }
        continue
      }
      // Unknown is not new: withhold only what a legacy tier could already own, sell the rest.
      if originalPurchaseUnknown, !features.isDisjoint(with: tierOwnable) {
        withheld[product] = .originalPurchaseUnknown(tierMayOwn: features.intersection(tierOwnable))
        continue
      }
      // Another plan of the group the customer subscribes to is a switch, not an upgrade: it adds
      // only what the subscriber lacks, and one that adds nothing (another period, family sharing
      // or price) is for an account screen, never the paywall ("Offering auto-renewable
      // subscriptions", ranking subscriptions within a group).
      if let group, let current = subscription(in: group) {
        adds = features.subtracting(owned)
        if adds.isEmpty {
          withheld[product] = .switchAddsNothing(from: current)
          continue
        }
      }
      let lacking = facts.requirements.subtracting(owned)
      if !lacking.isEmpty {
        withheld[product] = .requires(lacking)
        continue
      }
      let overlaps =
        !features.isDisjoint(with: against)
        || facts.contents.contains { ownedProducts.contains($0) }
      candidates.append(
        Candidate(
          facts: facts, regular: regular, adds: adds, owned: against, overlaps: overlaps,
          extendsPass: extendsPass))
    }

    // A bundle that overlaps what the customer owns is withheld when every feature it adds is sold
    // without the overlap (Tilt to Live HD, "Adding an Upgrade Path to In App Purchases", Parade
    // of Rain, 2011). Indexed by feature, so this stays linear.
    var sellers: [Feature: Set<Product>] = [:]
    // A closure, not a key path: a key path to an internal property keeps the whole function from
    // being specialized for the app's own types in another module.
    if candidates.contains(where: { $0.overlaps }) {
      for candidate in candidates where !candidate.overlaps {
        for feature in candidate.adds { sellers[feature, default: []].insert(candidate.product) }
      }
    }
    // Read through locals: a closure that reads a table through `self` copies every table.
    let productFeatures = self.productFeatures
    let familySharedOnly = entitlements.familySharedOnly
    var offers: [Offer] = []
    offers.reserveCapacity(candidates.count)
    // Cheapest first, then the one that adds most, then by id: ordered by numbers, the ids' order
    // read from `nameRanks`, as sorting the offers themselves moves thousands of large values.
    var order: [(units: Int, adds: Int, rank: Int, index: Int)] = []
    order.reserveCapacity(candidates.count)
    for candidate in candidates {
      let features = candidate.facts.features
      let overlap = candidate.overlaps ? features.intersection(candidate.owned) : []
      if candidate.overlaps, candidate.adds.allSatisfy({ sellers[$0] != nil }) {
        withheld[candidate.product] = .wouldChargeTwice(
          overlap: overlap, soldAloneAs: Set(candidate.adds.flatMap { sellers[$0] ?? [] }))
        continue
      }
      var offer = Offer(product: candidate.product, adds: candidate.adds, overlap: overlap)
      var units = prices[candidate.product] ?? 0
      if let price = legacy[candidate.regular] {
        offer.legacyPrice = price.display
        switch price.charge {
        case .legacyProduct:
          // The legacy product is bought at its own price, which orders it.
          offer.legacyCharge = .legacyProduct(candidate.product)
          offer.inPlaceOf = candidate.regular
        case .promotionalOffer(let id):
          offer.legacyCharge = .promotionalOffer(id: id)
          units = price.units
        case .introductoryOffer:
          offer.legacyCharge = .introductoryOffer
          units = price.units
        case .displayOnly:
          units = price.units
        }
      }
      if let group = candidate.facts.group {
        offer.switchesFrom = subscription(in: group)
      } else if !nonRenewing.contains(candidate.product) {
        offer.keepsRenewing = Set(
          subscriptions.filter { !(productFeatures[$0] ?? []).isDisjoint(with: features) })
      }
      offer.extendsPass = candidate.extendsPass
      // What the customer already uses through Family Sharing: the offer says so, and what buying
      // adds, their own access ("Supporting Family Sharing in your app").
      let shared = familySharedOnly.filter {
        !(productFeatures[$0] ?? []).isDisjoint(with: features)
      }
      if !shared.isEmpty {
        let sharedFeatures = shared.reduce(into: Set<Feature>()) {
          $0.formUnion(productFeatures[$1] ?? [])
        }
        offer.sharedByFamily = shared
        offer.familySharing = FamilySharedOffer(
          coversEverything: features.isSubset(of: sharedFeatures),
          ownership: candidate.facts.group != nil
            ? .subscription : nonRenewing.contains(candidate.product) ? .period : .forGood)
      }
      order.append((units, -offer.adds.count, candidate.facts.rank, offers.count))
      offers.append(offer)
    }
    order.sort { lhs, rhs in
      if (lhs.units, lhs.adds, lhs.rank) != (rhs.units, rhs.adds, rhs.rank) {
        return (lhs.units, lhs.adds, lhs.rank) < (rhs.units, rhs.adds, rhs.rank)
      }
      return offers[lhs.index].product.rawValue < offers[rhs.index].product.rawValue
    }
    return Upsell(
      offers: order.map { offers[$0.index] }, withheld: withheld, showsRestore: showsRestore)
  }

  // The upsell's working types are usable from inline (`upsell` is inlinable), nothing more.

  /// A product that may be offered: what is bought (`facts.product`), the regular product it
  /// stands for, what it adds, and what the customer has that buying it would charge again for.
  @usableFromInline struct Candidate {
    @usableFromInline var facts: OfferableFacts<Product, Feature>
    @usableFromInline var regular: Product
    @usableFromInline var adds: Set<Feature>
    @usableFromInline var owned: Set<Feature>
    /// Whether it grants or contains something the customer has.
    @usableFromInline var overlaps: Bool
    @usableFromInline var extendsPass: Bool
    /// What is bought.
    @usableFromInline var product: Product { facts.product }

    @usableFromInline init(
      facts: OfferableFacts<Product, Feature>, regular: Product, adds: Set<Feature>,
      owned: Set<Feature>,
      overlaps: Bool, extendsPass: Bool
    ) {
      self.facts = facts
      self.regular = regular
      self.adds = adds
      self.owned = owned
      self.overlaps = overlaps
      self.extendsPass = extendsPass
    }
  }

  /// `product`'s facts from the tables.
  @usableFromInline func offerableFacts(_ product: Product) -> OfferableFacts<Product, Feature> {
    let group = subscriptionGroups[product]
    return OfferableFacts(
      product: product, features: productFeatures[product] ?? [], group: group,
      holding: group.map(OfferableHolding.group)
        ?? (nonRenewing.contains(product) ? .pass : .forGood),
      isPass: passes[product] != nil, requirements: requirements[product] ?? [],
      contents: productContents[product] ?? [], rank: nameRanks[product] ?? Int.max)
  }

  /// Whether `grant` comes from `product` itself, or from a bundle that is `product`.
  @usableFromInline func isGrant(_ grant: Grant, from product: Product) -> Bool {
    switch grant {
    case .product(let holder), .bundle(let holder, _): return holder == product
    case .free, .tier: return false
    }
  }

  /// Whether buying `product` now would be right: false when it is not offered, so a bundle is
  /// never bought by someone who owns part of it.
  public func mayBuy(
    _ product: Product, entitlements: Entitlements, tier: Tier?, originalPurchaseUnknown: Bool
  ) -> Bool {
    upsell(for: entitlements, tier: tier, originalPurchaseUnknown: originalPurchaseUnknown)
      .offers.contains { $0.product == product }
  }
}

/// How a product is held, which decides what counts against buying it: in a subscription
/// group, as a pass, or for good.
@usableFromInline enum OfferableHolding: Hashable, Sendable {
  case group(String)
  case pass
  case forGood
}

/// What the upsell reads of a product, read from the tables once rather than for every customer.
@usableFromInline
struct OfferableFacts<Product: Hashable & Sendable, Feature: Hashable & Sendable>: Sendable {
  @usableFromInline var product: Product
  @usableFromInline var features: Set<Feature>
  @usableFromInline var group: String?
  @usableFromInline var holding: OfferableHolding
  @usableFromInline var isPass: Bool
  @usableFromInline var requirements: Set<Feature>
  @usableFromInline var contents: [Product]
  /// Its place among all the plan's products ordered by id (`nameRanks`).
  @usableFromInline var rank: Int
}
