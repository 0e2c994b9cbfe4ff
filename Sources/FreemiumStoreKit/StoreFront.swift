// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// The version of migrate this layer belongs to: one version for the package, the tool and every
/// copy of the layer. `migrate --version`, the generated manifest and INTEGRATION.md read it from
/// here, and a vendored copy carries it, so `check` and `generate` can say when an app's copy comes
/// from another `migrate`.
public enum StoreLayer {
  public static let version = "0.1.0"
}

/// Where the App Store's signature came from (`AppStore.Environment`). TestFlight is `sandbox`.
public enum StoreEnvironment: String, CaseIterable, Codable, Sendable {
  case production
  case sandbox
  case xcode

  /// Reads the spellings Apple uses in receipts and signed payloads (`Production`, `Sandbox`,
  /// `ProductionSandbox`, `Xcode`, `LocalTesting`, and the Volume Purchase receipts'
  /// `ProductionVPP` and `ProductionVPPSandbox`), in any case; nil for any other name.
  public init?(appleName name: String) {
    switch name.lowercased() {
    case "production", "productionvpp": self = .production
    case "sandbox", "productionsandbox", "productionvppsandbox": self = .sandbox
    case "xcode", "localtesting": self = .xcode
    default: return nil
    }
  }
}

/// The platform the App Store says a purchase was first made on (`AppStore.Platform`). StoreKit
/// names no iPadOS (an iPad buys the iOS app) and no watchOS.
public enum StorePlatform: String, CaseIterable, Sendable {
  case iOS
  case macOS
  case tvOS
  case visionOS
}

/// How the customer holds a transaction (`Transaction.ownershipType`).
public enum TransactionOwnership: String, Hashable, Sendable {
  /// Bought with the customer's own Apple Account.
  case purchased
  /// Shared by a family member through Family Sharing.
  case familyShared
}

/// The four types of In-App Purchase (`Product.ProductType`).
public enum InAppPurchaseType: String, CaseIterable, Hashable, Sendable {
  case consumable
  case nonConsumable
  /// A non-renewing subscription.
  case nonRenewable
  case autoRenewable

  /// Whether Family Sharing shares a purchase of this type when the product is marked shareable:
  /// non-consumables and auto-renewable subscriptions only ("Supporting Family Sharing in your
  /// app"). The one home of this rule: the App Store model and `migrate generate` read it.
  public var isSharedByFamily: Bool {
    self == .nonConsumable || self == .autoRenewable
  }
}

/// What `AppTransaction.shared` answered.
public enum AppTransactionRead: Hashable, Sendable {
  /// The App Store's signature verified.
  case verified(AppTransactionFacts)
  /// The signature did not verify: what the payload claims. The store never reads it, so a
  /// forged payload can't pick a cohort, not even the one for testers. Not proof of cracking
  /// either: `policies.verificationFailure` decides.
  case unverified(claimed: AppTransactionFacts)
  /// The App Store couldn't be reached or nobody is signed in (`AppTransaction.shared` threw).
  /// Unknown, not unverified: the last verified facts keep deciding.
  case unavailable
}

extension AppTransactionRead {
  /// Whether the App Store's signature verified.
  public var isVerified: Bool {
    if case .verified = self { return true }
    return false
  }
}

/// The facts of an app transaction that decide the cohort.
public struct AppTransactionFacts: Hashable, Sendable {
  /// `AppTransaction.appTransactionID`: binds the cache of verified facts to one Apple Account.
  public var appTransactionID: String
  /// `AppTransaction.originalAppVersion`: a build number on iOS, a marketing version on macOS.
  public var originalAppVersion: String
  public var originalPurchaseDate: Date
  public var environment: StoreEnvironment
  /// `AppTransaction.originalPlatform`, or nil when the App Store doesn't say.
  public var originalPlatform: StorePlatform?
  /// The paid download itself was refunded (`AppTransaction.revocationDate` is set).
  public var isRevoked: Bool
  /// The app transaction as the App Store signed it (`VerificationResult.jwsRepresentation`), for the
  /// app's server, which verifies it itself before trusting any of it. Nil when not read from StoreKit.
  public var jwsRepresentation: String?

  public init(
    appTransactionID: String,
    originalAppVersion: String,
    originalPurchaseDate: Date,
    environment: StoreEnvironment = .production,
    originalPlatform: StorePlatform? = nil,
    isRevoked: Bool = false,
    jwsRepresentation: String? = nil
  ) {
    self.appTransactionID = appTransactionID
    self.originalAppVersion = originalAppVersion
    self.originalPurchaseDate = originalPurchaseDate
    self.environment = environment
    self.originalPlatform = originalPlatform
    self.isRevoked = isRevoked
    self.jwsRepresentation = jwsRepresentation
  }
}

/// The offer a transaction was bought or redeemed with (`Transaction.Offer`).
public struct TransactionOffer: Hashable, Sendable {
  /// `Transaction.OfferType`.
  public enum Kind: Hashable, Sendable {
    /// A subscription's introductory offer.
    case introductory
    /// A promotional offer the app's server signed.
    case promotional
    /// An offer code (`Transaction.OfferType.code`), redeemed in the app's redemption sheet, in the
    /// App Store or through a redemption URL: it entitles the customer to the product as a purchase does.
    case code
    /// A win-back offer for a lapsed subscriber.
    case winBack
    /// A type this version of the layer doesn't know.
    case other
  }

  public var kind: Kind
  /// `Transaction.Offer.id`: for an offer code, the reference name set up in App Store Connect; nil
  /// for an introductory offer.
  public var id: String?

  public init(_ kind: Kind, id: String? = nil) {
    self.kind = kind
    self.id = id
  }
}

/// One transaction from `Transaction.currentEntitlements`, `Transaction.updates` or a purchase.
public struct StoreTransaction: Sendable {
  public var productID: String
  /// `Transaction.id`: the same for this purchase on every device and each time the App Store
  /// sends it again, so a consumable can be credited once.
  public var id: UInt64
  public var ownership: TransactionOwnership
  /// Refunded or revoked (`Transaction.revocationDate` is set).
  public var isRevoked: Bool
  /// False when the signature did not verify: such a transaction never creates a grant and is
  /// never finished.
  public var isVerified: Bool
  /// For information only: membership in `Transaction.currentEntitlements` already says a
  /// subscription is active, including during a billing grace period, whatever the device clock.
  public var expirationDate: Date?
  /// `Transaction.purchaseDate`: when a free trial began.
  public var purchaseDate: Date?
  /// When the App Store signed this transaction (`VerificationResult.signedDate`). For a verified
  /// one, a moment that has certainly passed, whatever the device clock says.
  public var signedDate: Date?
  /// `Transaction.offer`: the offer it was bought or redeemed with; nil for none.
  public var offer: TransactionOffer?
  /// `Transaction.finish()`: tells the App Store the purchase was delivered.
  public var finish: @Sendable () async -> Void

  public init(
    productID: String,
    id: UInt64 = 0,
    ownership: TransactionOwnership = .purchased,
    isRevoked: Bool = false,
    isVerified: Bool = true,
    expirationDate: Date? = nil,
    purchaseDate: Date? = nil,
    signedDate: Date? = nil,
    offer: TransactionOffer? = nil,
    finish: @escaping @Sendable () async -> Void = {}
  ) {
    self.productID = productID
    self.id = id
    self.ownership = ownership
    self.isRevoked = isRevoked
    self.isVerified = isVerified
    self.expirationDate = expirationDate
    self.purchaseDate = purchaseDate
    self.signedDate = signedDate
    self.offer = offer
    self.finish = finish
  }
}

/// What `Product.purchase(options:)` answered.
public enum PurchaseAttempt: Sendable {
  case success(StoreTransaction)
  /// Ask to Buy or Strong Customer Authentication: the transaction arrives later through
  /// `Transaction.updates`.
  case pending
  case userCancelled
}

/// Why the App Store couldn't do what was asked.
public struct StoreFrontError: Error, Hashable, Sendable {
  /// The customer cancelled a prompt: show nothing.
  public var isUserCancellation: Bool
  /// The App Store refused the promotional offer before charging anything: the customer isn't
  /// eligible for it, or the offer, its price or its signature doesn't match App Store Connect.
  public var isOfferRejected: Bool
  /// Why, in words a customer can read.
  public var message: String

  public init(isUserCancellation: Bool = false, isOfferRejected: Bool = false, message: String) {
    self.isUserCancellation = isUserCancellation
    self.isOfferRejected = isOfferRejected
    self.message = message
  }

  /// What `AppStoreFront` says when the App Store's answer leaves nothing to buy. English; an app
  /// that localizes maps `message` before showing it.
  public static let notInStorefront = "This product isn't available in your country or region."
  public static let unknownResult =
    "The App Store gave an answer this version of the app doesn't know."
  public static let offersNeedNewerSDK = "This price needs an app built with Xcode 26 or later."
  public static let introductoryOffersNeedNewerSDK =
    "This price needs an app built with Xcode 16.3 or later."
  public static let winBackOfferUnavailable =
    "This win-back price isn't available any more. Nothing was charged."
  public static let offerCodesUnavailable =
    "Offer codes can't be redeemed in this app here. Redeem the code in the App Store."
  public static let visionOSNeedsScene =
    "On visionOS, give AppStoreFront a confirmation scene, or buy with SwiftUI's purchase action."
}

/// A product as the App Store sells it in the customer's storefront.
public struct StoreProduct: Hashable, Sendable {
  public var id: String
  public var displayName: String
  public var displayPrice: String
  /// Each promotional offer's localized price, by offer id (`SubscriptionOffer.displayPrice`).
  public var offerPrices: [String: String]
  /// The introductory offer's localized price (`SubscriptionInfo.introductoryOffer`), if any.
  public var introductoryPrice: String?
  /// Each win-back offer's localized price, by offer id (`SubscriptionInfo.winBackOffers`, iOS 18
  /// and macOS 15; empty before them). Every offer set up in App Store Connect, whoever asks: the
  /// customer may be eligible for none of them.
  public var winBackPrices: [String: String]
  /// The win-back offer this customer is bought with, chosen by `PlanStore.offeredProducts()` from
  /// the offers the App Store says they are eligible for; nil for none.
  public var winBackOfferID: String?

  public init(
    id: String, displayName: String, displayPrice: String, offerPrices: [String: String] = [:],
    introductoryPrice: String? = nil, winBackPrices: [String: String] = [:],
    winBackOfferID: String? = nil
  ) {
    self.id = id
    self.displayName = displayName
    self.displayPrice = displayPrice
    self.offerPrices = offerPrices
    self.introductoryPrice = introductoryPrice
    self.winBackPrices = winBackPrices
    self.winBackOfferID = winBackOfferID
  }

  /// The win-back price this customer is charged (`winBackOfferID`'s), or nil for none.
  public var winBackPrice: String? {
    winBackOfferID.flatMap { winBackPrices[$0] }
  }
}

/// A discounted price the app's server signed for one purchase.
public struct SignedOffer: Hashable, Sendable {
  /// Which discount the signature is for.
  public enum Kind: Hashable, Sendable {
    /// A promotional offer: `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`, signed with the
    /// App Store Server Library's `PromotionalOfferV2SignatureCreator`.
    case promotional(offerID: String)
    /// The subscription's introductory offer, the customer made eligible for this purchase:
    /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`, signed with
    /// `IntroductoryOfferEligibilitySignatureCreator`. It discounts the first periods only.
    case introductory
    /// A win-back offer for a lapsed subscriber: `Product.PurchaseOption.winBackOffer(_:)` (iOS 18,
    /// macOS 15). Nothing is signed (`compactJWS` is empty): the App Store decides who is eligible
    /// (`RenewalInfo.eligibleWinBackOfferIDs`) and the store uses only an offer it listed there.
    case winBack(offerID: String)

    /// The promotional offer's identifier; nil for the introductory offer.
    public var offerID: String? {
      if case .promotional(let id) = self { return id }
      return nil
    }

    /// The win-back offer's identifier; nil for the other kinds.
    public var winBackOfferID: String? {
      if case .winBack(let id) = self { return id }
      return nil
    }
  }

  public var kind: Kind
  /// The compact JWS the app's server signed with its In-App Purchase key.
  public var compactJWS: String

  public init(_ kind: Kind, compactJWS: String) {
    self.kind = kind
    self.compactJWS = compactJWS
  }

  /// A win-back offer: nothing to sign.
  public static func winBack(_ offerID: String) -> SignedOffer {
    SignedOffer(.winBack(offerID: offerID), compactJWS: "")
  }

  /// The promotional offer's identifier; nil for the introductory offer.
  public var offerID: String? { kind.offerID }
}

/// What the app asks its server to sign: a discount, and who is asking.
public struct OfferRequest: Hashable, Sendable {
  public var kind: SignedOffer.Kind
  public var productID: String
  /// The customer's signed app transaction (`AppTransaction`'s `jwsRepresentation`), so the server
  /// can tell a legacy buyer from anyone calling it: it verifies this with the App Store Server
  /// Library's `SignedDataVerifier` and decides the tier from the original purchase before
  /// signing. Nil when the app transaction couldn't be read verified in this process; a server
  /// should then refuse.
  public var appTransactionJWS: String?

  public init(kind: SignedOffer.Kind, productID: String, appTransactionJWS: String?) {
    self.kind = kind
    self.productID = productID
    self.appTransactionJWS = appTransactionJWS
  }

  /// The promotional offer's identifier; nil for the introductory offer.
  public var offerID: String? { kind.offerID }
}

/// Signs legacy prices. The app supplies it: its server holds the In-App Purchase key and signs
/// the discount for this customer. Never put that key in the app.
public protocol OfferSigner: Sendable {
  /// The compact JWS for the request's discount, signed by the app's server with the App Store
  /// Server Library (`PromotionalOfferV2SignatureCreator` for a promotional offer,
  /// `IntroductoryOfferEligibilitySignatureCreator` with `allowIntroductoryOffer` true for the
  /// introductory offer).
  func compactJWS(for request: OfferRequest) async throws -> String
}

/// The App Store as the layer sees it: `AppStoreFront` in the app, a fake in tests.
public protocol StoreFront: Sendable {
  /// `AppTransaction.shared`, verified. Never prompts.
  func appTransaction() async -> AppTransactionRead
  /// `AppTransaction.refresh()`, verified. May ask the customer to sign in: only on a user action.
  func refreshAppTransaction() async -> AppTransactionRead
  /// `Transaction.currentEntitlements`. Never prompts.
  func currentEntitlements() async -> [StoreTransaction]
  /// `Transaction.all` for `productIDs`: every purchase of them, refunded ones included. Current
  /// entitlements hold only the latest transaction of a non-renewing subscription, and a pass
  /// bought while one ran starts where that one ends, so its expiry needs the history. Never
  /// prompts; read from the device, offline too.
  func transactionHistory(for productIDs: Set<String>) async -> [StoreTransaction]
  /// `Transaction.updates`: purchases approved later, made on other devices, refunds.
  func transactionUpdates() -> AsyncStream<StoreTransaction>
  /// `Transaction.unfinished`: what the app hasn't finished yet, such as a consumable it couldn't
  /// deliver when it was bought. `Transaction.updates` sends these once at launch; this reads them
  /// again whenever the app is ready, so nothing waits for the next launch. Never prompts.
  func unfinishedTransactions() async -> [StoreTransaction]
  /// `AppStore.sync()`. May ask for the password: only from a Restore Purchases button.
  func sync() async throws
  /// `Product.products(for:)`.
  func products(for identifiers: [String]) async throws -> [StoreProduct]
  /// `Product.purchase(options:)`, with the signed discount when one applies.
  func purchase(productID: String, offer: SignedOffer?) async throws -> PurchaseAttempt
  /// `Product.SubscriptionInfo.status` of the subscription group `productID` belongs to: the
  /// customer's subscription and a family member's shared one, each with its renewal info (a
  /// cancellation, a plan change waiting for the next renewal, billing retry). Empty for a product
  /// that isn't an auto-renewable subscription. Never prompts.
  func subscriptionStatuses(for productID: String) async throws -> [SubscriptionStatus]
  /// Shows the App Store's sheet to redeem an offer code (`AppStore.presentOfferCodeRedeemSheet(in:)`)
  /// and returns when it closes. What the customer redeems arrives through `Transaction.updates`.
  /// Throws where the sheet can't be shown; a user action only.
  func presentOfferCodeRedemption() async throws
  /// `PurchaseIntent.intents`: purchases the customer started on the App Store (a promoted In-App
  /// Purchase), for the app to complete. Empty where StoreKit has none.
  func purchaseIntents() -> AsyncStream<StorePurchaseIntent>
}

/// A purchase the customer started outside the app, on the App Store (`PurchaseIntent`).
public struct StorePurchaseIntent: Hashable, Sendable {
  /// `PurchaseIntent.product`'s id.
  public var productID: String
  /// The win-back offer the customer chose on the App Store (`PurchaseIntent.offer`, iOS 18 and
  /// macOS 15, sent when Streamlined Purchasing is off); nil for none.
  public var winBackOfferID: String?

  public init(productID: String, winBackOfferID: String? = nil) {
    self.productID = productID
    self.winBackOfferID = winBackOfferID
  }
}

extension StoreFront {
  /// None: a store front without a history, where each pass counts from its own purchase.
  public func transactionHistory(for productIDs: Set<String>) async -> [StoreTransaction] { [] }

  /// Where no sheet can be shown: the customer redeems the code in the App Store, and it arrives
  /// through `Transaction.updates`.
  public func presentOfferCodeRedemption() async throws {
    throw StoreFrontError(message: StoreFrontError.offerCodesUnavailable)
  }

  /// None: a store front without `PurchaseIntent`.
  public func purchaseIntents() -> AsyncStream<StorePurchaseIntent> {
    AsyncStream { $0.finish() }
  }
}
