import Foundation

/// What an app's plan decides for `PlanStore`: its products, and how the App Store's verified
/// facts become a cohort, what the customer may use, and what they may buy.
///
/// `migrate generate` writes the app's conformance (`FreemiumPlan`) from its migration plan: tables
/// and policies only. How the store reads the App Store, verifies, caches, buys, unlocks and
/// finishes is `PlanStore`'s, the same for every plan, and tested here.
public protocol StorePlan {
  /// The plan's product identifiers, sold now or in the past.
  associatedtype Product: RawRepresentable & Hashable & Sendable where Product.RawValue == String
  /// The platforms the plan's releases came out on.
  associatedtype Platform: Hashable & Sendable
  /// The original purchase as the plan's cutoff reads it.
  associatedtype Purchase: Hashable & Sendable
  /// The customer's cohort and the rule that decided it.
  associatedtype Decision: Hashable & Sendable
  /// What the customer may use.
  associatedtype Entitlements: Hashable & Sendable
  /// The offers to show, and what is withheld.
  associatedtype Upsell: Hashable & Sendable
  /// Why a product is deliberately not offered.
  associatedtype Withheld: Hashable & Sendable

  /// Products used up once delivered: the app delivers them, and only then are they finished.
  static var consumables: Set<Product> { get }
  /// Non-renewing subscriptions with a duration: each purchase's period starts where the one running
  /// ends, so the store reads their whole history (`StoreFront.transactionHistory(for:)`).
  static var passes: Set<Product> { get }
  /// Whether a consumable is on sale now.
  static func sells(_ consumable: Product) -> Bool
  /// The original purchase `facts` describe, on `platform`; with no facts, one nothing is known of.
  static func purchase(
    from facts: AppTransactionFacts?, on platform: Platform, verification: Verification
  ) -> Purchase
  /// The customer's cohort.
  static func decide(_ purchase: Purchase) -> Decision
  /// What the customer may use, from the transactions the store counts, judged at `now`.
  static func resolve(
    _ purchase: Purchase, decision: Decision, owned: [OwnedProduct], now: Date
  ) -> Entitlements
  /// Before anything was read: a new customer with nothing, decided by no rule.
  static func unread(on platform: Platform) -> (
    purchase: Purchase, decision: Decision, entitlements: Entitlements
  )
  /// What to show while what the customer owns is unknown: no offer, and Restore.
  static var noOffers: Upsell { get }
  /// The offers that never charge twice.
  static func upsell(for entitlements: Entitlements, decision: Decision) -> Upsell
  /// Whether buying a product that is not a consumable is right for this customer.
  static func mayBuy(_ product: Product, entitlements: Entitlements, decision: Decision) -> Bool
  /// `upsell` without `products`, neither offered nor withheld: the plans the customer already
  /// switched to, which the next renewal starts.
  static func upsell(_ upsell: Upsell, without products: Set<Product>) -> Upsell
  /// The products offered, in offer order.
  static func offeredProducts(in upsell: Upsell) -> [Product]
  /// How `product` is sold in `upsell`, or why it isn't.
  static func terms(of product: Product, in upsell: Upsell) -> OfferTerms<Withheld>
  /// Whether the customer has something a restore could have brought back: a legacy tier that
  /// keeps features, or an active product.
  static func hasRestorable(_ decision: Decision, _ entitlements: Entitlements) -> Bool
  /// `policies.provisionalGrant`: the days a provisional grant lasts, or nil (the default) when the
  /// plan grants nothing before the App Store answers.
  static var provisionalGrantDays: Int? { get }
  /// What the customer may use during a provisional grant: the plan's provisional tier, with what
  /// the store counts of `owned`, judged at `now`.
  static func provisionalEntitlements(_ purchase: Purchase, owned: [OwnedProduct], now: Date)
    -> Entitlements
}

extension StorePlan {
  public static var provisionalGrantDays: Int? { nil }

  public static var passes: Set<Product> { [] }

  public static func provisionalEntitlements(
    _ purchase: Purchase, owned: [OwnedProduct], now: Date
  ) -> Entitlements {
    resolve(purchase, decision: decide(purchase), owned: owned, now: now)
  }
}

/// How a product is sold to this customer, or why it isn't.
public enum OfferTerms<Withheld: Hashable & Sendable>: Hashable, Sendable {
  /// On offer; its legacy price needs a discount of this kind, signed by the app's server, or nil
  /// when it is bought at its own price.
  case offered(signing: SignedOffer.Kind?)
  /// Deliberately withheld from this customer, for this reason.
  case withheld(Withheld)
  /// Not on sale to this customer.
  case notOffered
}

/// Whether `AppTransaction` verified, and if not, how old the last verified result is.
public enum Verification: Codable, Hashable, Sendable {
  case verified
  /// The signature did not verify: `policies.verificationFailure` decides.
  case failed(lastVerifiedDaysAgo: Int?)
  /// The App Store couldn't be reached or nobody is signed in: unknown, not unverified, so the
  /// last verified facts decide for the plan's `keepWhileUnreachableDays`.
  case unreachable(lastVerifiedDaysAgo: Int?)
}

/// One transaction, as `Transaction.currentEntitlements` or a test describes it.
public struct OwnedProduct: Hashable, Sendable {
  public typealias Ownership = TransactionOwnership

  /// The raw product id, which may be one this app version doesn't know.
  public var productID: String
  public var ownership: Ownership
  /// Refunded or revoked: `Transaction.revocationDate` is set.
  public var isRevoked: Bool
  /// An expired subscription.
  public var isExpired: Bool
  /// False when the transaction's signature did not verify.
  public var isVerified: Bool
  /// `Transaction.purchaseDate`, from a verified transaction: when a trial's time began.
  public var purchaseDate: Date?

  public init(
    productID: String,
    ownership: Ownership = .purchased,
    isRevoked: Bool = false,
    isExpired: Bool = false,
    isVerified: Bool = true,
    purchaseDate: Date? = nil
  ) {
    self.productID = productID
    self.ownership = ownership
    self.isRevoked = isRevoked
    self.isExpired = isExpired
    self.isVerified = isVerified
    self.purchaseDate = purchaseDate
  }
}
