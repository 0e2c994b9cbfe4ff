import Foundation

// Declarations of Apple's App Store Server Library for Swift (github.com/apple/app-store-server-library-swift,
// Sources/AppStoreServerLibrary/Models), with their exact names, types and signatures: the payload types the
// generated server module accepts (the app transaction, a transaction, a notification and its renewal info), only the properties its conformances read and the initializers a test calls,
// and the enums those return. The library's other members and conformances are left out, and a body here only
// stores what the shim keeps.

/// AppStoreEnvironment.swift: `public enum AppStoreEnvironment: String, Decodable, Encodable, Hashable, Sendable`.
public enum AppStoreEnvironment: String, Decodable, Encodable, Hashable, Sendable {
  case sandbox = "Sandbox"
  case production = "Production"
  case xcode = "Xcode"
  case localTesting = "LocalTesting"
}

/// PurchasePlatform.swift: `public enum PurchasePlatform: String, Decodable, Encodable, Hashable, Sendable`.
public enum PurchasePlatform: String, Decodable, Encodable, Hashable, Sendable {
  case iOS = "iOS"
  case macOS = "macOS"
  case tvOS = "tvOS"
  case visionOS = "visionOS"
}

/// AppTransaction.swift: `public struct AppTransaction: DecodedSignedData, Decodable, Encodable, Hashable, Sendable`,
/// the App Store Server API's `JWSAppTransactionDecodedPayload`. It has no revocation date.
public struct AppTransaction: Hashable, Sendable {
  public init(
    receiptType: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, applicationVersion: String? = nil,
    versionExternalIdentifier: Int64? = nil, receiptCreationDate: Date? = nil, originalPurchaseDate: Date? = nil,
    originalApplicationVersion: String? = nil, deviceVerification: String? = nil, deviceVerificationNonce: UUID? = nil,
    preorderDate: Date? = nil, appTransactionId: String? = nil, originalPlatform: PurchasePlatform? = nil
  ) {
    self.rawReceiptType = receiptType?.rawValue
    self.bundleId = bundleId
    self.originalPurchaseDate = originalPurchaseDate
    self.originalApplicationVersion = originalApplicationVersion
    self.appTransactionId = appTransactionId
    self.rawOriginalPlatform = originalPlatform?.rawValue
  }

  public var receiptType: AppStoreEnvironment? {
    get { rawReceiptType.flatMap { AppStoreEnvironment(rawValue: $0) } }
    set { rawReceiptType = newValue.map { $0.rawValue } }
  }
  public var rawReceiptType: String?
  public var bundleId: String?
  public var originalPurchaseDate: Date?
  public var originalApplicationVersion: String?
  public var appTransactionId: String?
  public var originalPlatform: PurchasePlatform? {
    get { rawOriginalPlatform.flatMap { PurchasePlatform(rawValue: $0) } }
    set { rawOriginalPlatform = newValue.map { $0.rawValue } }
  }
  public var rawOriginalPlatform: String?
}

/// InAppOwnershipType.swift: `public enum InAppOwnershipType: String, Decodable, Encodable, Hashable`.
public enum InAppOwnershipType: String, Decodable, Encodable, Hashable {
  case familyShared = "FAMILY_SHARED"
  case purchased = "PURCHASED"
}

/// JWSTransactionDecodedPayload.swift:
/// `public struct JWSTransactionDecodedPayload: DecodedSignedData, Decodable, Encodable, Hashable, Sendable`.
public struct JWSTransactionDecodedPayload: Hashable, Sendable {
  /// The initializer of raw values (the library's other one takes its enums).
  public init(
    originalTransactionId: String? = nil, transactionId: String? = nil, webOrderLineItemId: String? = nil, bundleId: String? = nil,
    productId: String? = nil, subscriptionGroupIdentifier: String? = nil, purchaseDate: Date? = nil, originalPurchaseDate: Date? = nil,
    expiresDate: Date? = nil, quantity: Int32? = nil, rawType: String? = nil, appAccountToken: UUID? = nil,
    rawInAppOwnershipType: String? = nil, signedDate: Date? = nil, rawRevocationReason: Int32? = nil, revocationDate: Date? = nil,
    isUpgraded: Bool? = nil, rawOfferType: Int32? = nil, offerIdentifier: String? = nil, rawEnvironment: String? = nil,
    storefront: String? = nil, storefrontId: String? = nil, rawTransactionReason: String? = nil, currency: String? = nil,
    price: Int64? = nil, rawOfferDiscountType: String? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.transactionId = transactionId
    self.productId = productId
    self.purchaseDate = purchaseDate
    self.expiresDate = expiresDate
    self.rawInAppOwnershipType = rawInAppOwnershipType
    self.revocationDate = revocationDate
  }

  public var originalTransactionId: String?
  public var transactionId: String?
  public var productId: String?
  public var purchaseDate: Date?
  public var expiresDate: Date?
  public var inAppOwnershipType: InAppOwnershipType? {
    get { rawInAppOwnershipType.flatMap { InAppOwnershipType(rawValue: $0) } }
    set { rawInAppOwnershipType = newValue.map { $0.rawValue } }
  }
  public var rawInAppOwnershipType: String?
  public var revocationDate: Date?
}

/// NotificationTypeV2.swift: `public enum NotificationTypeV2: String, Decodable, Encodable, Hashable, Sendable`.
public enum NotificationTypeV2: String, Decodable, Encodable, Hashable, Sendable {
  case subscribed = "SUBSCRIBED"
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  case offerRedeemed = "OFFER_REDEEMED"
  case didRenew = "DID_RENEW"
  case expired = "EXPIRED"
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  case priceIncrease = "PRICE_INCREASE"
  case refund = "REFUND"
  case refundDeclined = "REFUND_DECLINED"
  case consumptionRequest = "CONSUMPTION_REQUEST"
  case renewalExtended = "RENEWAL_EXTENDED"
  case revoke = "REVOKE"
  case test = "TEST"
  case renewalExtension = "RENEWAL_EXTENSION"
  case refundReversed = "REFUND_REVERSED"
  case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
  case oneTimeCharge = "ONE_TIME_CHARGE"
}

/// Subtype.swift: `public enum Subtype: String, Decodable, Encodable, Hashable`.
public enum Subtype: String, Decodable, Encodable, Hashable {
  case initialBuy = "INITIAL_BUY"
  case resubscribe = "RESUBSCRIBE"
  case downgrade = "DOWNGRADE"
  case upgrade = "UPGRADE"
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  case voluntary = "VOLUNTARY"
  case billingRetry = "BILLING_RETRY"
  case priceIncrease = "PRICE_INCREASE"
  case gracePeriod = "GRACE_PERIOD"
  case pending = "PENDING"
  case accepted = "ACCEPTED"
  case billingRecovery = "BILLING_RECOVERY"
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  case summary = "SUMMARY"
  case failure = "FAILURE"
}

/// Data.swift: `public struct Data: Decodable, Encodable, Hashable, Sendable`, a notification's `data`: only the
/// signed payloads and the environment an endpoint reads.
public struct Data: Hashable, Sendable {
  /// The initializer of raw values (the library's other one takes its enums); only what the shim keeps.
  public init(
    rawEnvironment: String? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, bundleVersion: String? = nil,
    signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, rawStatus: Int32? = nil,
    rawConsumptionRequestReason: String? = nil
  ) {
    self.rawEnvironment = rawEnvironment
    self.bundleId = bundleId
    self.signedTransactionInfo = signedTransactionInfo
    self.signedRenewalInfo = signedRenewalInfo
  }

  public var rawEnvironment: String?
  public var bundleId: String?
  public var signedTransactionInfo: String?
  public var signedRenewalInfo: String?
}

/// ResponseBodyV2DecodedPayload.swift:
/// `public struct ResponseBodyV2DecodedPayload: DecodedSignedData, Decodable, Encodable, Hashable, Sendable`.
public struct ResponseBodyV2DecodedPayload: Hashable, Sendable {
  /// The initializer of raw values (the library's other one takes its enums), without `summary` and
  /// `externalPurchaseToken`, which the shim doesn't declare.
  public init(
    rawNotificationType: String? = nil, rawSubtype: String? = nil, notificationUUID: String? = nil, data: Data? = nil,
    version: String? = nil, signedDate: Date? = nil
  ) {
    self.rawNotificationType = rawNotificationType
    self.rawSubtype = rawSubtype
    self.notificationUUID = notificationUUID
    self.data = data
    self.version = version
    self.signedDate = signedDate
  }

  public var notificationType: NotificationTypeV2? {
    get { rawNotificationType.flatMap { NotificationTypeV2(rawValue: $0) } }
    set { rawNotificationType = newValue.map { $0.rawValue } }
  }
  public var rawNotificationType: String?
  public var subtype: Subtype? {
    get { rawSubtype.flatMap { Subtype(rawValue: $0) } }
    set { rawSubtype = newValue.map { $0.rawValue } }
  }
  public var rawSubtype: String?
  public var notificationUUID: String?
  public var data: Data?
  public var version: String?
  public var signedDate: Date?
}

/// JWSRenewalInfoDecodedPayload.swift:
/// `public struct JWSRenewalInfoDecodedPayload: DecodedSignedData, Decodable, Encodable, Hashable, Sendable`.
public struct JWSRenewalInfoDecodedPayload: Hashable, Sendable {
  /// The initializer of raw values (the library's other one takes its enums); only what the shim keeps.
  public init(
    rawExpirationIntent: Int32? = nil, originalTransactionId: String? = nil, autoRenewProductId: String? = nil,
    productId: String? = nil, rawAutoRenewStatus: Int32? = nil, isInBillingRetryPeriod: Bool? = nil,
    rawPriceIncreaseStatus: Int32? = nil, gracePeriodExpiresDate: Date? = nil, rawOfferType: Int32? = nil,
    offerIdentifier: String? = nil, signedDate: Date? = nil, rawEnvironment: String? = nil,
    recentSubscriptionStartDate: Date? = nil, renewalDate: Date? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.autoRenewProductId = autoRenewProductId
    self.productId = productId
    self.rawAutoRenewStatus = rawAutoRenewStatus
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
  }

  public var originalTransactionId: String?
  public var autoRenewProductId: String?
  public var productId: String?
  public var rawAutoRenewStatus: Int32?
  public var isInBillingRetryPeriod: Bool?
  public var gracePeriodExpiresDate: Date?
}
