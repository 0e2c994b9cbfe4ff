import Foundation

/// Why a customer has a feature.
public enum PlanGrant<Product: Hashable & Sendable, Tier: Hashable & Sendable>: Hashable, Sendable {
  /// Free to everyone in the newest release.
  case free
  /// A legacy tier of paid buyers.
  case tier(Tier)
  /// A product the customer holds.
  case product(Product)
  /// A bundle the customer holds that contains the product granting it.
  case bundle(Product, via: Product)
}

/// What a customer is entitled to, with every reason, and what was read but doesn't count.
public struct PlanEntitlements<
  Product: Hashable & Sendable, Feature: Hashable & Sendable, Tier: Hashable & Sendable
>: Hashable, Sendable {
  /// Each feature, with its reasons in the order they were granted: free, tier, then products.
  public var features: [Feature: [PlanGrant<Product, Tier>]]
  /// Products whose transactions count.
  public var activeProducts: Set<Product>
  /// Free trials the customer has started, running or ended: never offered again.
  public var takenTrials: Set<Product>
  /// Of `activeProducts`, those held only through Family Sharing: the organizer's, which the
  /// customer can neither switch nor cancel ("Supporting Family Sharing in your app").
  public var familySharedOnly: Set<Product>

  public init(
    features: [Feature: [PlanGrant<Product, Tier>]], activeProducts: Set<Product>,
    takenTrials: Set<Product> = [], familySharedOnly: Set<Product> = []
  ) {
    self.features = features
    self.activeProducts = activeProducts
    self.takenTrials = takenTrials
    self.familySharedOnly = familySharedOnly
  }

  public func contains(_ feature: Feature) -> Bool {
    features[feature] != nil
  }
}

/// Why a transaction the customer has doesn't entitle.
public enum IgnoreReason: Hashable, Sendable {
  /// Its product id is not in the plan.
  case unknownProduct
  /// A consumable: consumables never entitle.
  case consumable
  /// Refunded or revoked: `Transaction.revocationDate` is set.
  case revoked
  /// An expired subscription.
  case expired
  /// A free trial whose signature did not verify: its dates can't be trusted.
  case trialUnverified
  /// A free trial whose purchase date is unknown, so whether it runs can't be told.
  case trialStartUnknown
  /// A free trial, and the time now is unknown.
  case trialTimeUnknown
  /// A free trial that ended at this moment.
  case trialEnded(Date)
  /// A pass that ended at this moment.
  case passEnded(Date)
  /// Family-shared, and the plan doesn't let family-shared transactions entitle.
  case familySharingIgnored
  /// Its signature did not verify, and no verified result is kept: `limit` is how many days one is
  /// kept for, or nil when none is.
  case unverified(limit: Int?)
}

/// What the rules noticed about a transaction that does entitle.
public enum EntitlementNote: Hashable, Sendable {
  /// Family-shared, though the plan marks the product not shareable: it entitles anyway.
  case sharedThoughNotShareable
  /// Its signature did not verify; a verified result this many days old keeps it.
  case keptUnverified(age: Int?)
  /// A free trial running from `start` until `end`.
  case trialRunning(start: Date, end: Date)
  /// A pass from `start` until `end` (nil when its purchase date is unknown), kept while they can't
  /// say it ended.
  case pass(start: Date?, end: Date?)
}

/// How the App Store charges a legacy price.
public enum PlanLegacyCharge<Product: Hashable & Sendable>: Hashable, Sendable {
  /// A promotional offer on the subscription; the app's server signs it.
  case promotionalOffer(id: String)
  /// A separate product sold only to this tier.
  case legacyProduct(Product)
  /// The subscription's introductory offer, for the first periods only; the app's server signs the
  /// tier's eligibility (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`).
  case introductoryOffer
}

/// A product the customer may be shown.
public struct PlanOffer<Product: Hashable & Sendable, Feature: Hashable & Sendable>: Hashable,
  Sendable
{
  /// What is bought: for a legacy product, the legacy product itself.
  public var product: Product
  /// The features it would add.
  public var adds: Set<Feature>
  /// The legacy price from the customer's tier, in the app's main storefront, if one applies.
  public var legacyPrice: String?
  /// How the App Store charges `legacyPrice`: buy `product` with
  /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (your server signs the JWS with an
  /// In-App Purchase key, never shipped in the app), or buy the legacy product. Nil at the usual
  /// price, or for a legacy price that is shown only.
  public var legacyCharge: PlanLegacyCharge<Product>?
  /// For a legacy product (`legacyCharge` `.legacyProduct`), the regular product it is bought in
  /// place of; nil otherwise.
  public var inPlaceOf: Product?
  /// The subscription in the same group it replaces: the App Store switches plans and charges for
  /// one (an upgrade at once, a downgrade or crossgrade at the next renewal).
  public var switchesFrom: Product?
  /// Subscriptions the customer has that grant some of what this unlocks for good: buying it
  /// doesn't stop them, so tell the customer to cancel them in Settings.
  public var keepsRenewing: Set<Product>
  /// Features it grants that the customer already has: offered anyway because nothing smaller sells
  /// what it adds.
  public var overlap: Set<Feature>
  /// A pass the customer holds now, bought again: its period starts where the running one ends, so
  /// no paid day is lost.
  public var extendsPass: Bool
  /// Products the customer uses only through Family Sharing (the organizer's) that grant some of
  /// what this unlocks.
  public var sharedByFamily: Set<Product>
  /// What to tell a customer who uses some of this through Family Sharing: that they do, and that
  /// buying gives them their own (`message`). Nil when nothing of it is shared with them.
  public var familySharing: FamilySharedOffer?

  public init(
    product: Product, adds: Set<Feature>, legacyPrice: String? = nil,
    legacyCharge: PlanLegacyCharge<Product>? = nil, inPlaceOf: Product? = nil,
    switchesFrom: Product? = nil,
    keepsRenewing: Set<Product> = [], overlap: Set<Feature> = [], extendsPass: Bool = false,
    sharedByFamily: Set<Product> = [], familySharing: FamilySharedOffer? = nil
  ) {
    self.product = product
    self.adds = adds
    self.legacyPrice = legacyPrice
    self.legacyCharge = legacyCharge
    self.inPlaceOf = inPlaceOf
    self.switchesFrom = switchesFrom
    self.keepsRenewing = keepsRenewing
    self.overlap = overlap
    self.extendsPass = extendsPass
    self.sharedByFamily = sharedByFamily
    self.familySharing = familySharing
  }
}

/// An offer to a customer who already uses some of it through Family Sharing: the organizer's
/// purchase, which the member can neither change nor keep if sharing stops ("Supporting Family
/// Sharing in your app": the organizer's transaction is revoked when sharing stops).
public struct FamilySharedOffer: Hashable, Sendable, Codable {
  /// What buying gives the customer beside the shared purchase.
  public enum Ownership: String, Hashable, Sendable, Codable {
    /// Theirs for good (a non-consumable).
    case forGood
    /// A subscription of their own, charged to them.
    case subscription
    /// Their own access for the product's period (a non-renewing subscription).
    case period
  }

  /// The shared purchase covers everything the offer unlocks.
  public var coversEverything: Bool
  public var ownership: Ownership

  public init(coversEverything: Bool, ownership: Ownership) {
    self.coversEverything = coversEverything
    self.ownership = ownership
  }

  /// What to tell the customer, with the offer: the one home of these words, which the app shows
  /// and `migrate explain` quotes. English; an app that localizes maps it before showing it.
  public var message: String {
    let has =
      coversEverything
      ? "You already have this through Family Sharing."
      : "You already have some of this through Family Sharing."
    switch ownership {
    case .forGood:
      return has + " Buying it makes it yours for good, even if your family stops sharing."
    case .subscription:
      return has + " Buying it starts a subscription of your own, charged to you."
    case .period:
      return has + " Buying it gives you your own access for its period."
    }
  }
}

extension PlanOffer {
  /// The price to show, localized by the App Store: a promotional or introductory offer's own price
  /// when the legacy price is charged as one, else the win-back price `PlanStore.offeredProducts()`
  /// chose for this customer, else the product's (a legacy product is bought at its own price).
  public func displayPrice(in product: StoreProduct) -> String {
    switch legacyCharge {
    case .promotionalOffer(let id)?:
      return product.offerPrices[id] ?? legacyPrice ?? product.displayPrice
    case .introductoryOffer?:
      return product.introductoryPrice ?? legacyPrice ?? product.displayPrice
    case .legacyProduct?, nil:
      return product.winBackPrice ?? product.displayPrice
    }
  }
}

/// Why a product is deliberately not offered.
public enum PlanWithholdReason<Product: Hashable & Sendable, Feature: Hashable & Sendable>:
  Hashable, Sendable
{
  /// Every feature it grants is already unlocked.
  case addsNothing
  /// An add-on for customers who already have these features.
  case requires(Set<Feature>)
  /// It would charge again for features the customer has; what it adds is sold alone.
  case wouldChargeTwice(overlap: Set<Feature>, soldAloneAs: Set<Product>)
  /// A free trial the customer has already started.
  case trialTaken
  /// The original purchase can't be verified now, and a legacy tier may already own these
  /// features: offered once it verifies.
  case originalPurchaseUnknown(tierMayOwn: Set<Feature>)
  /// Another plan of the group the customer subscribes to that adds nothing they lack (another
  /// period, family sharing or price): a switch for an account screen, never an upgrade.
  case switchAddsNothing(from: Product)
}

/// What the upsell screen shows.
public struct PlanUpsell<Product: Hashable & Sendable, Feature: Hashable & Sendable>: Hashable,
  Sendable
{
  /// Cheapest useful first.
  public var offers: [PlanOffer<Product, Feature>]
  public var withheld: [Product: PlanWithholdReason<Product, Feature>]
  /// False when everything that can be had is unlocked, so Restore can be hidden.
  public var showsRestore: Bool

  public init(
    offers: [PlanOffer<Product, Feature>],
    withheld: [Product: PlanWithholdReason<Product, Feature>], showsRestore: Bool
  ) {
    self.offers = offers
    self.withheld = withheld
    self.showsRestore = showsRestore
  }
}

// Codable where the app's own types are, so a server returns its decisions as they are.
extension PlanGrant: Codable where Product: Codable, Tier: Codable {}
extension PlanEntitlements: Codable where Product: Codable, Feature: Codable, Tier: Codable {}
extension PlanLegacyCharge: Codable where Product: Codable {}
extension PlanOffer: Codable where Product: Codable, Feature: Codable {}
extension PlanWithholdReason: Codable where Product: Codable, Feature: Codable {}
extension PlanUpsell: Codable where Product: Codable, Feature: Codable {}
