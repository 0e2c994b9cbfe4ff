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
    var ownedByKind: [String: Set<Feature>] = [:]
    func ownedAgainst(_ product: Product) -> Set<Feature> {
      let key =
        subscriptionGroups[product].map { "group " + $0 }
        ?? (nonRenewing.contains(product) ? "nonRenewing" : "forGood")
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
    for regular in forSale where !consumables.contains(regular) && !legacyOnly.contains(regular) {
      // A tier with a legacy product buys it instead: never the regular product at full price.
      var product = regular
      if case .legacyProduct(let twin)? = legacy[regular]?.charge { product = twin }
      // A running pass may be bought again: its period starts where the running one ends
      // ("Non-renewing subscriptions": the app computes the expiration). One without a duration
      // never ends here, so buying it again would add nothing.
      let extendsPass =
        passes[product] != nil && entitlements.activeProducts.contains(product)
        && !entitlements.familySharedOnly.contains(product)
      if ownedProducts.contains(product) && !extendsPass { continue }
      if entitlements.takenTrials.contains(product) {
        withheld[product] = .trialTaken
        continue
      }
      let features = productFeatures[product] ?? []
      // What the running pass itself grants doesn't count against buying more of its time.
      let against =
        extendsPass
        ? Set(
          held.filter { feature, grants in
            grants.contains { !isGrant($0, from: product) && countsAgainst(product, $0) }
          }.keys) : ownedAgainst(product)
      var adds = features.subtracting(against)
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
      if let group = subscriptionGroups[product], let current = subscription(in: group) {
        adds = features.subtracting(owned)
        if adds.isEmpty {
          withheld[product] = .switchAddsNothing(from: current)
          continue
        }
      }
      let lacking = (requirements[product] ?? []).subtracting(owned)
      if !lacking.isEmpty {
        withheld[product] = .requires(lacking)
        continue
      }
      candidates.append(
        Candidate(
          product: product, regular: regular, adds: adds, owned: against, extendsPass: extendsPass))
    }

    func overlaps(_ candidate: Candidate) -> Bool {
      !(productFeatures[candidate.product] ?? []).isDisjoint(with: candidate.owned)
        || !Set(productContents[candidate.product] ?? []).isDisjoint(with: ownedProducts)
    }
    // A bundle that overlaps what the customer owns is withheld when every feature it adds is sold
    // without the overlap (Tilt to Live HD, "Adding an Upgrade Path to In App Purchases", Parade
    // of Rain, 2011). Indexed by feature, so this stays linear.
    var sellers: [Feature: Set<Product>] = [:]
    for candidate in candidates where !overlaps(candidate) {
      for feature in candidate.adds { sellers[feature, default: []].insert(candidate.product) }
    }
    var offers: [(offer: Offer, units: Int)] = []
    for candidate in candidates {
      let features = productFeatures[candidate.product] ?? []
      let overlap = overlaps(candidate) ? features.intersection(candidate.owned) : []
      if overlaps(candidate), candidate.adds.allSatisfy({ sellers[$0] != nil }) {
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
      if let group = subscriptionGroups[candidate.product] {
        offer.switchesFrom = subscription(in: group)
      } else if !nonRenewing.contains(candidate.product) {
        offer.keepsRenewing = Set(
          subscriptions.filter { !(productFeatures[$0] ?? []).isDisjoint(with: features) })
      }
      offer.extendsPass = candidate.extendsPass
      // What the customer already uses through Family Sharing: the offer says so, and what buying
      // adds, their own access ("Supporting Family Sharing in your app").
      let shared = entitlements.familySharedOnly.filter {
        !(productFeatures[$0] ?? []).isDisjoint(with: features)
      }
      if !shared.isEmpty {
        let sharedFeatures = shared.reduce(into: Set<Feature>()) {
          $0.formUnion(productFeatures[$1] ?? [])
        }
        offer.sharedByFamily = shared
        offer.familySharing = FamilySharedOffer(
          coversEverything: features.isSubset(of: sharedFeatures),
          ownership: subscriptionGroups[candidate.product] != nil
            ? .subscription : nonRenewing.contains(candidate.product) ? .period : .forGood)
      }
      offers.append((offer, units))
    }
    offers.sort { lhs, rhs in
      if lhs.units != rhs.units { return lhs.units < rhs.units }
      if lhs.offer.adds.count != rhs.offer.adds.count {
        return lhs.offer.adds.count > rhs.offer.adds.count
      }
      return lhs.offer.product.rawValue < rhs.offer.product.rawValue
    }
    return Upsell(offers: offers.map(\.offer), withheld: withheld, showsRestore: showsRestore)
  }

  /// A product that may be offered: what is bought, the regular product it stands for, what it
  /// adds, and what the customer has that buying it would charge again for.
  private struct Candidate {
    var product: Product
    var regular: Product
    var adds: Set<Feature>
    var owned: Set<Feature>
    var extendsPass = false
  }

  /// Whether `grant` comes from `product` itself, or from a bundle that is `product`.
  private func isGrant(_ grant: Grant, from product: Product) -> Bool {
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
