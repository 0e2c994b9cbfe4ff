import Foundation

/// An app transaction as Apple's App Store Server Library decodes it (its `AppTransaction`, the App
/// Store Server API's `JWSAppTransactionDecodedPayload`), by the library's property names, so the
/// library's type conforms in one line: `extension AppTransaction: ServerAppTransaction {}`.
///
/// The payload has no revocation date: a refund of the paid download itself reaches no server.
/// Only the device sees it (StoreKit's `AppTransaction.revocationDate`), so the server keeps
/// grandfathering a refunded buyer (see `ServerDecisions.decide`).
public protocol ServerAppTransaction {
  /// `originalApplicationVersion`: a build number on iOS, a marketing version on macOS.
  var originalApplicationVersion: String? { get }
  /// `originalPurchaseDate`.
  var originalPurchaseDate: Date? { get }
  /// `originalPlatform` as Apple spells it (`iOS`, `macOS`, `tvOS`, `visionOS`), also one this
  /// library version has no case for.
  var rawOriginalPlatform: String? { get }
  /// `appTransactionId`: the same for one Apple Account and app, across devices.
  var appTransactionId: String? { get }
  /// `bundleId`.
  var bundleId: String? { get }
}

/// An in-app transaction as Apple's App Store Server Library decodes it (its
/// `JWSTransactionDecodedPayload`), by the library's property names:
/// `extension JWSTransactionDecodedPayload: ServerTransaction {}`.
public protocol ServerTransaction {
  /// `productId`.
  var productId: String? { get }
  /// `inAppOwnershipType` as Apple spells it: `PURCHASED` or `FAMILY_SHARED`.
  var rawInAppOwnershipType: String? { get }
  /// `purchaseDate`: when a free trial's time began.
  var purchaseDate: Date? { get }
  /// `expiresDate`: a subscription's end.
  var expiresDate: Date? { get }
  /// `revocationDate`: refunded, or revoked from Family Sharing.
  var revocationDate: Date? { get }
  /// `transactionId`.
  var transactionId: String? { get }
  /// `originalTransactionId`: a subscription's, the same for every renewal and plan change.
  var originalTransactionId: String? { get }
}

extension ServerTransaction {
  /// None: a type without transaction ids (the library's payload has them).
  public var transactionId: String? { nil }
  public var originalTransactionId: String? { nil }
}

/// The facts of an app transaction that decide a customer, as the App Store Server API's
/// `JWSAppTransactionDecodedPayload` names them.
///
/// Make one only from a payload whose signature your server verified: Apple's App Store Server
/// Library does it (`SignedDataVerifier.verifyAndDecodeAppTransaction(signedAppTransaction:)`),
/// for `AppTransaction.jwsRepresentation` sent by the app or the response of "Get App Transaction
/// Info" (`GET /v1/transactions/appTransactions/{transactionId}`). Decoding JSON you haven't
/// verified lets anyone claim to be a legacy buyer.
///
/// There is no revocation date: Apple's server sends none for the paid download (refund
/// notifications and "Get Refund History" cover in-app purchases only).
public struct VerifiedAppTransaction: Hashable, Sendable {
  /// `originalApplicationVersion`: a build number on iOS, a marketing version on macOS.
  public var originalApplicationVersion: String?
  /// `originalPurchaseDate`.
  public var originalPurchaseDate: Date?
  /// `originalPlatform` (`iOS`, `macOS`, `tvOS`, `visionOS`); absent for purchases Apple can't place.
  public var originalPlatform: String?
  /// `appTransactionId`: the same for one Apple Account and app, across devices.
  public var appTransactionId: String?
  /// `bundleId`.
  public var bundleId: String?

  public init(
    originalApplicationVersion: String?,
    originalPurchaseDate: Date?,
    originalPlatform: String? = nil,
    appTransactionId: String? = nil,
    bundleId: String? = nil
  ) {
    self.originalApplicationVersion = originalApplicationVersion
    self.originalPurchaseDate = originalPurchaseDate
    self.originalPlatform = originalPlatform
    self.appTransactionId = appTransactionId
    self.bundleId = bundleId
  }

  /// The facts of a verified payload decoded by Apple's App Store Server Library.
  public init(_ payload: some ServerAppTransaction) {
    self.init(
      originalApplicationVersion: payload.originalApplicationVersion,
      originalPurchaseDate: payload.originalPurchaseDate,
      originalPlatform: payload.rawOriginalPlatform,
      appTransactionId: payload.appTransactionId,
      bundleId: payload.bundleId)
  }
}

/// The facts of an in-app transaction that decide what a customer owns, as the App Store Server
/// API's `JWSTransactionDecodedPayload` names them. Make one only from a verified payload
/// (`SignedDataVerifier.verifyAndDecodeTransaction(signedTransaction:)`).
public struct VerifiedTransaction: Hashable, Sendable, Codable {
  /// `productId`.
  public var productId: String
  /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
  public var inAppOwnershipType: String?
  /// `purchaseDate`: when a free trial's time began.
  public var purchaseDate: Date?
  /// `expiresDate`: a subscription's end.
  public var expiresDate: Date?
  /// `revocationDate`: refunded, or revoked from Family Sharing.
  public var revocationDate: Date?
  /// `transactionId`.
  public var transactionId: String?
  /// `originalTransactionId`: a subscription's, the same for every renewal and plan change.
  public var originalTransactionId: String?

  public init(
    productId: String,
    inAppOwnershipType: String? = "PURCHASED",
    purchaseDate: Date? = nil,
    expiresDate: Date? = nil,
    revocationDate: Date? = nil,
    transactionId: String? = nil,
    originalTransactionId: String? = nil
  ) {
    self.productId = productId
    self.inAppOwnershipType = inAppOwnershipType
    self.purchaseDate = purchaseDate
    self.expiresDate = expiresDate
    self.revocationDate = revocationDate
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
  }

  /// The facts of a verified payload decoded by Apple's App Store Server Library; nil without a
  /// product id, which proves nothing either way.
  public init?(_ payload: some ServerTransaction) {
    guard let productId = payload.productId else { return nil }
    self.init(
      productId: productId,
      inAppOwnershipType: payload.rawInAppOwnershipType,
      purchaseDate: payload.purchaseDate,
      expiresDate: payload.expiresDate,
      revocationDate: payload.revocationDate,
      transactionId: payload.transactionId,
      originalTransactionId: payload.originalTransactionId)
  }
}

/// One customer decided on a server: the same cohort, features and offers as the app decides.
/// `Codable`, so a handler (Vapor's `Content`, Hummingbird's `ResponseCodable`) returns it as it is.
public struct PlanServerDecision<Plan: CatalogPlan>: Hashable, Sendable {
  /// The original purchase, as the app's own code reads it.
  public var purchase: Plan.Purchase
  public var decision: Plan.Decision
  public var entitlements: Plan.Entitlements
  public var upsell: Plan.Upsell

  public init(
    purchase: Plan.Purchase, decision: Plan.Decision, entitlements: Plan.Entitlements,
    upsell: Plan.Upsell
  ) {
    self.purchase = purchase
    self.decision = decision
    self.entitlements = entitlements
    self.upsell = upsell
  }

  /// Whether the customer has a feature.
  public func has(_ feature: Plan.PlanFeature) -> Bool { entitlements.contains(feature) }

  /// How the customer's legacy price for `product` is charged, or nil when they get none: a
  /// legacy-price signer signs only what this says.
  public func legacyCharge(for product: Plan.Product) -> PlanLegacyCharge<Plan.Product>? {
    upsell.offers.first { $0.product == product }?.legacyCharge
  }

  /// Whether the server may sign the promotional offer `offerID` on `product` for this customer:
  /// only the offer their tier's legacy price is charged as, and only while it is offered.
  public func maySignPromotionalOffer(_ offerID: String, for product: Plan.Product) -> Bool {
    legacyCharge(for: product) == .promotionalOffer(id: offerID)
  }

  /// Whether the server may sign introductory-offer eligibility on `product` for this customer
  /// (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`).
  public func maySignIntroductoryOfferEligibility(for product: Plan.Product) -> Bool {
    legacyCharge(for: product) == .introductoryOffer
  }
}

extension PlanServerDecision: Codable
where
  Plan.Platform: Codable, Plan.PlanTier: Codable, Plan.Product: Codable, Plan.PlanFeature: Codable
{}

extension StoreEnvironment {
  /// The environment a payload's `receiptType` or `environment` names. A value Apple adds later is
  /// read as production, where the original version is real, rather than as a tester's.
  public init(serverName name: String?) {
    self = name.flatMap(StoreEnvironment.init(appleName:)) ?? .production
  }
}

extension CatalogPlan {
  /// The environment a payload's `receiptType` or `environment` names, for a verifier of your own.
  /// A value Apple adds later is read as production, where the original version is real, rather
  /// than as a tester's.
  public static func serverEnvironment(_ name: String?) -> StoreEnvironment {
    StoreEnvironment(serverName: name)
  }

  /// Decides a customer on a server from their verified app transaction and verified transactions.
  ///
  /// A refund of the paid download itself can't be seen here: Apple's server sends no revocation
  /// date for it. The server keeps the customer's legacy tier, the safe side for someone who paid;
  /// an app built with an SDK that declares `AppTransaction.revocationDate` sees the refund on the
  /// device and decides the customer new there.
  /// - Parameters:
  ///   - environment: the environment of the verifier that accepted the payloads, so the plan's
  ///     policy for testers decides sandbox, TestFlight, App Review and Xcode customers.
  ///   - platform: the platform the request comes from; nil means the original platform when the
  ///     app transaction has it, else the plan's first. It chooses which platform's free features
  ///     apply; under universal purchase the original platform or the purchase date decides the
  ///     cohort, never this claim.
  ///   - now: the server's clock, which judges subscriptions' and free trials' ends.
  public static func decideOnServer(
    app: VerifiedAppTransaction, transactions: [VerifiedTransaction], environment: StoreEnvironment,
    platform: Platform?, now: Date
  ) -> PlanServerDecision<Self> {
    let original = app.originalPlatform.flatMap(StorePlatform.init(rawValue:)).flatMap(
      Self.platform(for:))
    let running = platform ?? original ?? cohortRules.platforms[0]
    let purchase = Purchase(
      originalAppVersion: app.originalApplicationVersion,
      originalPurchaseDate: app.originalPurchaseDate,
      platform: running,
      originalPlatform: original,
      environment: environment,
      verification: .verified,
      isRevoked: false)
    let owned = transactions.map { transaction in
      OwnedProduct(
        productID: transaction.productId,
        ownership: transaction.inAppOwnershipType == "FAMILY_SHARED" ? .familyShared : .purchased,
        isRevoked: transaction.revocationDate != nil,
        isExpired: transaction.expiresDate.map { $0 <= now } ?? false,
        isVerified: true,
        purchaseDate: transaction.purchaseDate)
    }
    let decision = decide(purchase)
    let entitlements = resolve(purchase, decision: decision, purchases: owned, now: now)
    return PlanServerDecision(
      purchase: purchase, decision: decision, entitlements: entitlements,
      upsell: upsell(for: entitlements, decision: decision))
  }

  /// Decides a customer on a server from their verified app transaction and what the App Store
  /// Server Notifications they received say now (`NotificationLedger`): renewals, plan changes,
  /// billing retry and grace, expiries, refunds and Family Sharing revokes, as of `now`.
  public static func decideOnServer(
    app: VerifiedAppTransaction, ledger: NotificationLedger, environment: StoreEnvironment,
    platform: Platform?, now: Date
  ) -> PlanServerDecision<Self> {
    decideOnServer(
      app: app, transactions: ledger.transactions(in: environment, at: now),
      environment: environment, platform: platform, now: now)
  }
}
