import Foundation

/// A `StorePlan` that is only tables: its cohort rules and catalog rules are the layer's, the same
/// for every plan, so `migrate generate` writes the tables and this conformance's few names.
public protocol CatalogPlan: StorePlan
where
  Purchase == OriginalPurchaseFacts<Platform>, Decision == PlanCohortDecision<PlanTier, Platform>,
  Entitlements == PlanEntitlements<Product, PlanFeature, PlanTier>,
  Upsell == PlanUpsell<Product, PlanFeature>, Withheld == PlanWithholdReason<Product, PlanFeature>
{
  /// Everything a customer can be entitled to.
  associatedtype PlanFeature: Hashable & Sendable
  /// The legacy tiers: what buyers of each era keep.
  associatedtype PlanTier: Hashable & Sendable

  /// The plan's cutoff: its release tables under the layer's rules.
  static var cohortRules: CohortRules<PlanTier, Platform> { get }
  /// The plan's catalog: its product tables under the layer's rules.
  static var catalogRules: CatalogRules<Product, PlanFeature, PlanTier, Platform> { get }
  /// The plan's platform for the one the App Store names, or nil when the plan has none for it.
  static func platform(for storePlatform: StorePlatform) -> Platform?
  /// `policies.provisionalGrant`: the tier granted while the App Store can't be reached at a first
  /// launch and the app's own evidence says it was paid for, and for how long; nil (the default)
  /// grants nothing.
  static var provisionalGrant: ProvisionalGrantPolicy<PlanTier>? { get }
}

/// `policies.provisionalGrant`: a legacy tier granted on the app's own local evidence while the App
/// Store can't answer, for a few days at most.
public struct ProvisionalGrantPolicy<Tier: Hashable & Sendable>: Hashable, Sendable {
  /// The days a window may last: the plan format's bounds.
  public static var allowedDays: ClosedRange<Int> { 1...7 }

  public var tier: Tier
  /// Days the grant lasts, within `allowedDays`.
  public var days: Int

  /// - Parameter days: clamped to `allowedDays`, so an edited copy can't grant for longer.
  public init(tier: Tier, days: Int) {
    self.tier = tier
    self.days = min(max(days, Self.allowedDays.lowerBound), Self.allowedDays.upperBound)
  }
}

extension CatalogPlan {
  public static var provisionalGrant: ProvisionalGrantPolicy<PlanTier>? { nil }

  public static var provisionalGrantDays: Int? { provisionalGrant?.days }

  public static func provisionalEntitlements(
    _ purchase: Purchase, owned: [OwnedProduct], now: Date
  ) -> Entitlements {
    catalogRules.resolve(
      tier: provisionalGrant?.tier, freeOn: cohortRules.track(for: purchase.platform),
      purchases: owned, kept: cohortRules.daysKept(for: purchase.verification), now: now
    ).entitlements
  }

  public static var consumables: Set<Product> { catalogRules.consumables }

  public static var passes: Set<Product> { Set(catalogRules.passes.keys) }

  public static func sells(_ consumable: Product) -> Bool {
    catalogRules.forSale.contains(consumable)
  }

  public static func purchase(
    from facts: AppTransactionFacts?, on platform: Platform, verification: Verification
  ) -> Purchase {
    guard let facts else { return Purchase(platform: platform, verification: verification) }
    return Purchase(
      originalAppVersion: facts.originalAppVersion,
      originalPurchaseDate: facts.originalPurchaseDate,
      platform: platform,
      originalPlatform: facts.originalPlatform.flatMap(platform(for:)),
      environment: facts.environment,
      verification: verification,
      isRevoked: facts.isRevoked)
  }

  public static func decide(_ purchase: Purchase) -> Decision {
    cohortRules.decide(purchase)
  }

  public static func resolve(
    _ purchase: Purchase, decision: Decision, owned: [OwnedProduct], now: Date
  ) -> Entitlements {
    resolve(purchase, decision: decision, purchases: owned, now: now)
  }

  /// What the customer may use; `now` nil ends every trial.
  public static func resolve(
    _ purchase: Purchase, decision: Decision, purchases: [OwnedProduct], now: Date?
  ) -> Entitlements {
    catalogRules.resolve(
      tier: decision.tier, freeOn: cohortRules.track(for: purchase.platform), purchases: purchases,
      kept: cohortRules.daysKept(for: purchase.verification), now: now
    ).entitlements
  }

  public static func unread(on platform: Platform) -> (
    purchase: Purchase, decision: Decision, entitlements: Entitlements
  ) {
    (
      Purchase(platform: platform, verification: .unreachable(lastVerifiedDaysAgo: nil)),
      Decision(cohort: .newCustomer, rule: .undetermined, platform: nil),
      Entitlements(features: [:], activeProducts: [])
    )
  }

  public static var noOffers: Upsell {
    Upsell(offers: [], withheld: [:], showsRestore: true)
  }

  public static func upsell(for entitlements: Entitlements, decision: Decision) -> Upsell {
    upsell(for: entitlements, decision: decision, isVolumePurchase: false)
  }

  /// The offers; a Volume Purchase Program install can't make in-app purchases, so it has none.
  public static func upsell(
    for entitlements: Entitlements, decision: Decision, isVolumePurchase: Bool
  ) -> Upsell {
    catalogRules.upsell(
      for: entitlements, tier: decision.tier, originalPurchaseUnknown: decision.rule == .noProof,
      isVolumePurchase: isVolumePurchase)
  }

  public static func mayBuy(_ product: Product, entitlements: Entitlements, decision: Decision)
    -> Bool
  {
    upsell(for: entitlements, decision: decision).offers.contains { $0.product == product }
  }

  public static func upsell(_ upsell: Upsell, without products: Set<Product>) -> Upsell {
    Upsell(
      offers: upsell.offers.filter { !products.contains($0.product) },
      withheld: upsell.withheld.filter { !products.contains($0.key) },
      showsRestore: upsell.showsRestore)
  }

  public static func offeredProducts(in upsell: Upsell) -> [Product] {
    upsell.offers.map(\.product)
  }

  public static func terms(of product: Product, in upsell: Upsell) -> OfferTerms<Withheld> {
    guard let offer = upsell.offers.first(where: { $0.product == product }) else {
      return upsell.withheld[product].map(OfferTerms.withheld) ?? .notOffered
    }
    switch offer.legacyCharge {
    case .promotionalOffer(let offerID)?: return .offered(signing: .promotional(offerID: offerID))
    case .introductoryOffer?: return .offered(signing: .introductory)
    case .legacyProduct?, nil: return .offered(signing: nil)
    }
  }

  public static func hasRestorable(_ decision: Decision, _ entitlements: Entitlements) -> Bool {
    if let tier = decision.tier, !(catalogRules.tierFeatures[tier] ?? []).isEmpty { return true }
    return !entitlements.activeProducts.isEmpty
  }
}

extension PlanCohortDecision {
  /// The legacy tier, or nil for a new customer.
  public var tier: Tier? {
    if case .legacy(let tier) = cohort { return tier }
    return nil
  }
}
