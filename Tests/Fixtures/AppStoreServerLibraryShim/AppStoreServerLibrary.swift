import Foundation

// Declarations of Apple's App Store Server Library for Swift (github.com/apple/app-store-server-library-swift,
// Sources/AppStoreServerLibrary/Models), with their exact names, types and signatures: the two payload types the
// generated server module accepts, only the properties its conformances read and the initializers a test calls,
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
    self.productId = productId
    self.purchaseDate = purchaseDate
    self.expiresDate = expiresDate
    self.rawInAppOwnershipType = rawInAppOwnershipType
    self.revocationDate = revocationDate
  }

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
