import Foundation

/// The entitlement and upsell rules, the same for every plan, over a plan's catalog tables: what a
/// customer may use, and what they may be offered without being charged twice.
///
/// `migrate generate` writes only the tables (features, products, tiers, groups, prices, legacy
/// prices); `migrate` itself runs these same rules over the same tables for `check`, `explain`
/// and `simulate`, so what the app decides is what the tool explains.
public struct CatalogRules<Product, Feature, Tier, Platform>: Sendable
where
  Product: RawRepresentable & Hashable & Sendable, Product.RawValue == String,
  Feature: Hashable & Sendable, Tier: Hashable & Sendable, Platform: Hashable & Sendable
{
  public typealias Grant = PlanGrant<Product, Tier>
  public typealias Entitlements = PlanEntitlements<Product, Feature, Tier>
  public typealias Offer = PlanOffer<Product, Feature>
  public typealias Withheld = PlanWithholdReason<Product, Feature>
  public typealias Upsell = PlanUpsell<Product, Feature>

  /// A tier's price for a product, below its regular price, and how the App Store charges it.
  public struct LegacyPrice: Hashable, Sendable {
    /// How the App Store is made to charge the legacy price.
    public enum Charge: Hashable, Sendable {
      /// Shown only: nothing makes the App Store charge it, so the regular price is charged.
      case displayOnly
      /// A promotional offer on the product, which the app's server signs.
      case promotionalOffer(id: String)
      /// The product's introductory offer, its eligibility signed by the app's server.
      case introductoryOffer
      /// A separate product, sold only to the tier in place of this one, at its own price.
      case legacyProduct(Product)
    }

    /// The price for display, in the main storefront's currency.
    public var display: String
    /// The price in ten-thousandths of that currency, for ordering offers.
    public var units: Int
    public var charge: Charge

    @_spi(Generated) public init(_ display: String, _ units: Int, _ charge: Charge) {
      self.display = display
      self.units = units
      self.charge = charge
    }
  }

  // The tables are constants: what `init` works out from them (each product's features, what may be
  // offered, the ids' order) could not follow a change made afterwards.

  /// What each tier keeps.
  public let tierFeatures: [Tier: Set<Feature>]
  /// What each product grants by itself: every product the plan knows has an entry, so a
  /// transaction for any other id is not the plan's.
  public let productGrants: [Product: [Feature]]
  /// What each product contains, through bundles of bundles.
  public let productContents: [Product: [Product]]
  /// What the newest release on each platform makes free to everyone.
  public let freeFeatures: [Platform: Set<Feature>]
  /// Products used up once delivered: they never entitle.
  public let consumables: Set<Product>
  /// Auto-renewable subscriptions and their groups: what they grant is held only while they renew.
  public let subscriptionGroups: [Product: String]
  /// Each subscription's level of service in its group, 1 the highest: which plan change is an
  /// upgrade, a downgrade or a crossgrade ("Auto-renewable subscriptions", ranking). One without a
  /// level is at level 1.
  public let subscriptionLevels: [Product: Int]
  /// Each subscription's renewal period (`subscriptionPeriods`' keys, such as `P1M`): a crossgrade
  /// to another period waits for the next renewal.
  public let subscriptionPeriods: [Product: String]
  /// Non-renewing subscriptions (passes): held for a period too.
  public let nonRenewing: Set<Product>
  /// Free trials: each grants for this long after its verified purchase date, then no more.
  public let trials: [Product: DateComponents]
  /// Passes: each grants for this long after its purchase date. StoreKit keeps them in
  /// `currentEntitlements` after that; only these dates end them.
  public let passes: [Product: DateComponents]
  /// Products the plan marks family shareable.
  public let familyShareable: Set<Product>
  /// `policies.familySharing`: whether a family-shared transaction entitles.
  public let familySharingEntitles: Bool
  /// Products on sale now, in the plan's order.
  public let forSale: [Product]
  /// Regular prices in ten-thousandths of the main storefront's currency, for ordering offers.
  public let prices: [Product: Int]
  /// Add-ons, offered only to customers who already have these features.
  public let requirements: [Product: Set<Feature>]
  /// Each tier's legacy prices, by the regular product they apply to.
  public let legacyPrices: [Tier: [Product: LegacyPrice]]
  /// Products sold only to a tier in place of a regular product: no other cohort is offered them,
  /// even when the tier's price for them doesn't apply.
  public let legacyOnly: Set<Product>

  /// Each product's features, including those of what it contains.
  public let productFeatures: [Product: Set<Feature>]
  /// Every feature some legacy tier grants: not sold while the original purchase is unknown.
  public let tierOwnable: Set<Feature>
  /// Every feature someone could have today.
  public let obtainable: Set<Feature>
  /// The products on sale that may be offered (not a consumable, not sold only to a tier), in
  /// `forSale`'s order, with what the upsell reads of each.
  @usableFromInline var offerable: [OfferableFacts<Product, Feature>] = []
  /// Each product's place among the plan's products ordered by id, for ordering offers.
  @usableFromInline var nameRanks: [Product: Int] = [:]

  /// The tables `migrate generate` writes for a plan. Generated code makes the rules; an app
  /// reads them through its plan (`@_spi(Generated)`: not the app's API).
  @_spi(Generated) public init(
    tierFeatures: [Tier: Set<Feature>],
    productGrants: [Product: [Feature]],
    productContents: [Product: [Product]],
    freeFeatures: [Platform: Set<Feature>],
    consumables: Set<Product>,
    subscriptionGroups: [Product: String],
    subscriptionLevels: [Product: Int] = [:],
    subscriptionPeriods: [Product: String] = [:],
    nonRenewing: Set<Product>,
    trials: [Product: DateComponents],
    passes: [Product: DateComponents],
    familyShareable: Set<Product>,
    familySharingEntitles: Bool,
    forSale: [Product],
    prices: [Product: Int],
    requirements: [Product: Set<Feature>],
    legacyPrices: [Tier: [Product: LegacyPrice]],
    legacyOnly: Set<Product>
  ) {
    self.tierFeatures = tierFeatures
    self.productGrants = productGrants
    self.productContents = productContents
    self.freeFeatures = freeFeatures
    self.consumables = consumables
    self.subscriptionGroups = subscriptionGroups
    self.subscriptionLevels = subscriptionLevels
    self.subscriptionPeriods = subscriptionPeriods
    self.nonRenewing = nonRenewing
    self.trials = trials
    self.passes = passes
    self.familyShareable = familyShareable
    self.familySharingEntitles = familySharingEntitles
    self.forSale = forSale
    self.prices = prices
    self.requirements = requirements
    self.legacyPrices = legacyPrices
    var features: [Product: Set<Feature>] = [:]
    for (product, grants) in productGrants {
      var all = Set(grants)
      for inner in productContents[product] ?? [] { all.formUnion(productGrants[inner] ?? []) }
      features[product] = all
    }
    productFeatures = features
    var legacy = legacyOnly
    for prices in legacyPrices.values {
      for price in prices.values {
        if case .legacyProduct(let twin) = price.charge { legacy.insert(twin) }
      }
    }
    self.legacyOnly = legacy
    tierOwnable = Set(tierFeatures.values.flatMap { $0 })
    var obtainable = tierOwnable
    for features in features.values { obtainable.formUnion(features) }
    for features in freeFeatures.values { obtainable.formUnion(features) }
    self.obtainable = obtainable
    for (rank, product) in productGrants.keys.sorted(by: { $0.rawValue < $1.rawValue }).enumerated()
    {
      nameRanks[product] = rank
    }
    offerable = forSale.filter { !consumables.contains($0) && !legacy.contains($0) }.map(
      offerableFacts)
  }

  /// When a period that began at `start` ends, on the Gregorian calendar in UTC; nil when the
  /// calendar can't tell.
  public static func end(of period: DateComponents, from start: Date) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(byAdding: period, to: start)
  }

  /// Whether `grant` is lent by a running free trial rather than owned: the customer may still buy
  /// it for good.
  public func isLent(_ grant: Grant) -> Bool {
    switch grant {
    case .product(let product), .bundle(let product, _): return trials[product] != nil
    case .free, .tier: return false
    }
  }

  /// Whether buying `product` would charge again for what `grant` gives, the one place that says it
  /// for each pair of kinds:
  /// - held for good (a tier, free, a non-consumable) counts against everything;
  /// - held for a period (a subscription, a pass) doesn't count against a product held for good: a
  ///   subscriber may buy Lifetime, and is told to cancel the subscription;
  /// - a subscription doesn't count against another of its own group: that is a switch, which the
  ///   App Store makes charging for one ("Offering auto-renewable subscriptions");
  /// - otherwise (another group, a pass) it counts: two subscriptions for the same features.
  public func chargesTwice(_ product: Product, for grant: Grant) -> Bool {
    let holder: Product
    switch grant {
    case .free, .tier: return true
    case .product(let id), .bundle(let id, _): holder = id
    }
    let holderGroup = subscriptionGroups[holder]
    guard holderGroup != nil || nonRenewing.contains(holder) else { return true }
    if let group = subscriptionGroups[product] { return holderGroup != group }
    return nonRenewing.contains(product)
  }
}

/// The renewal periods App Store Connect offers an auto-renewable subscription, as ISO 8601
/// durations (what a `.storekit` file writes): each as the calendar adds it, and in whole days as
/// the App Store model renews it ("Auto-renewable subscriptions", subscription duration). The one
/// home of these lengths: the plan's validation, the catalog rules, the App Store model and
/// `migrate simulate` read them here.
public enum SubscriptionPeriods {
  public static var lengths: [String: (calendar: DateComponents, days: Int)] {
    [
      "P1W": (DateComponents(day: 7), 7),
      "P1M": (DateComponents(month: 1), 30),
      "P2M": (DateComponents(month: 2), 60),
      "P3M": (DateComponents(month: 3), 91),
      "P6M": (DateComponents(month: 6), 182),
      "P1Y": (DateComponents(year: 1), 365),
    ]
  }

  /// Every period's id, shortest first: what a plan may write.
  public static var ids: [String] {
    lengths.sorted { $0.value.days < $1.value.days }.map(\.key)
  }
}
