// A shim of the StoreKit 2 API surface the generated code uses (Apple's StoreKit documentation), so the
// generated StoreKit layer is type-checked on Linux, where StoreKit doesn't exist.
//
// Only declarations, mirroring Apple's: the kind (enum, struct), `let`/`var`, effects, optionality,
// conformances, `@frozen`, `@available` (including deprecations) and `@backDeployed` as Apple's
// documentation pages show them (the SDK 27 surface). Each declaration names its page, relative to
// https://developer.apple.com/documentation/storekit/ (the ".md" pages). Nothing here behaves like
// the App Store: bodies only compile.
//
// Build this module with library evolution (`-enable-library-evolution`), as Apple ships StoreKit:
// only then must a client `switch` over a non-frozen enum (Product.PurchaseResult, StoreKitError,
// VerificationResult.VerificationError) carry `@unknown default`. In SwiftPM that needs the shim in
// a package of its own (`.package(path:)`, target `swiftSettings: [.unsafeFlags(
// ["-enable-library-evolution"])]`): targets of one package share a `-package-name`, and the
// compiler then doesn't ask for `@unknown default` even with library evolution.
//
// The documentation pages print a declaration without its `@available`; the availability here is
// the page's availability list ("iOS: 16.0.0 -"; a range "16.0.0 - 18.4.0" is a deprecation).
import Foundation

#if canImport(UIKit)
  import UIKit
#endif

// MARK: - VerificationResult

/// verificationresult.md: `@frozen enum VerificationResult<SignedType>`, iOS 15.0, macOS 12.0,
/// tvOS 15.0, watchOS 8.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
@frozen
public enum VerificationResult<SignedType> {
  /// verificationresult/unverified(_:_:).md
  case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
  /// verificationresult/verified(_:).md
  case verified(SignedType)

  /// verificationresult/verificationerror.md: `enum VerificationError` (not frozen).
  public enum VerificationError: Error {
    /// verificationresult/verificationerror/revokedcertificate.md
    case revokedCertificate
    /// verificationresult/verificationerror/invalidcertificatechain.md
    case invalidCertificateChain
    /// verificationresult/verificationerror/invaliddeviceverification.md
    case invalidDeviceVerification
    /// verificationresult/verificationerror/invalidencoding.md
    case invalidEncoding
    /// verificationresult/verificationerror/invalidsignature.md
    case invalidSignature
    /// verificationresult/verificationerror/missingrequiredproperties.md
    case missingRequiredProperties
  }

  /// verificationresult/payloadvalue.md: `var payloadValue: SignedType { get throws }`
  public var payloadValue: SignedType {
    get throws { fatalError("StoreKit shim") }
  }

  /// verificationresult/unsafepayloadvalue.md: `var unsafePayloadValue: SignedType { get }`
  public var unsafePayloadValue: SignedType { fatalError("StoreKit shim") }
}

/// verificationresult.md, Relationships: Sendable where SignedType: Sendable.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Sendable where SignedType: Sendable {}

/// verificationresult/jwsrepresentation-21vgo.md (the Transaction overload).
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
  public var jwsRepresentation: String { fatalError("StoreKit shim") }
  /// verificationresult/signeddate-8x9bg.md (the Transaction overload): `var signedDate: Date { get }`,
  /// iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
  public var signedDate: Date { fatalError("StoreKit shim") }
}

/// verificationresult/jwsrepresentation-178oj.md (the RenewalInfo overload).
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
  public var jwsRepresentation: String { fatalError("StoreKit shim") }
}

/// verificationresult.md lists a third jwsRepresentation, for AppTransaction (iOS 16).
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension VerificationResult where SignedType == AppTransaction {
  public var jwsRepresentation: String { fatalError("StoreKit shim") }
}

// MARK: - AppStore

/// appstore.md: `enum AppStore` (a namespace), iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0,
/// visionOS 1.0.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
  /// appstore/sync().md: `static func sync() async throws`. Prompts for the password: call only
  /// from a Restore Purchases button.
  public static func sync() async throws { fatalError("StoreKit shim") }

  #if canImport(UIKit)
    /// appstore/presentoffercoderedeemsheet(in:).md: `@MainActor static func
    /// presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws`; availability "iOS: 16.0.0 -
    /// 27.0.0", Mac Catalyst 16.0 - 27.0, "visionOS: 1.0.0 - 27.0.0" (no macOS, tvOS or watchOS).
    @available(iOS, introduced: 16.0, deprecated: 27.0)
    @available(visionOS, introduced: 1.0, deprecated: 27.0)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
      fatalError("StoreKit shim")
    }
  #endif

  /// appstore/environment.md: `struct Environment`, iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0,
  /// visionOS 1.0; RawRepresentable, Hashable, Sendable.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  public struct Environment: RawRepresentable, Hashable, Sendable {
    /// appstore/environment/rawvalue.md: `let rawValue: String`
    public let rawValue: String
    /// appstore/environment/init(rawvalue:).md: `init(rawValue: String)`
    public init(rawValue: String) { self.rawValue = rawValue }
    /// appstore/environment/production.md: `static let production: AppStore.Environment`
    public static let production = Environment(rawValue: "Production")
    /// appstore/environment/sandbox.md: `static let sandbox: AppStore.Environment`
    public static let sandbox = Environment(rawValue: "Sandbox")
    /// appstore/environment/xcode.md: `static let xcode: AppStore.Environment`
    public static let xcode = Environment(rawValue: "Xcode")
  }

  /// appstore/platform.md: `struct Platform`, iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4,
  /// visionOS 2.4; RawRepresentable, Hashable, Sendable. Any declaration whose signature names it
  /// needs the same availability.
  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public struct Platform: RawRepresentable, Hashable, Sendable {
    /// `let rawValue: String`
    public let rawValue: String
    /// `init(rawValue: String)`
    public init(rawValue: String) { self.rawValue = rawValue }
    /// appstore/platform/ios.md: `static let iOS: AppStore.Platform`
    public static let iOS = Platform(rawValue: "iOS")
    /// appstore/platform/macos.md: `static let macOS: AppStore.Platform`
    public static let macOS = Platform(rawValue: "macOS")
    /// appstore/platform/tvos.md: `static let tvOS: AppStore.Platform`
    public static let tvOS = Platform(rawValue: "tvOS")
    /// appstore/platform/visionos.md: `static let visionOS: AppStore.Platform`
    public static let visionOS = Platform(rawValue: "visionOS")
    /// appstore/platform/managed.md (SDK 27): `@backDeployed(before: iOS 27.0, …)
    /// static var managed: AppStore.Platform { get }`, available from 18.4 like its type.
    @backDeployed(before: iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0)
    public static var managed: AppStore.Platform { Platform(rawValue: "managed") }
  }
}

// MARK: - AppTransaction

/// apptransaction.md: `struct AppTransaction`, iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0,
/// visionOS 1.0; Sendable, Hashable (StoreKit's interface: `struct AppTransaction: Sendable,
/// Hashable, CustomDebugStringConvertible`).
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable, Hashable {
  /// apptransaction/shared.md: `static var shared: VerificationResult<AppTransaction> { get async throws }`
  public static var shared: VerificationResult<AppTransaction> {
    get async throws { fatalError("StoreKit shim") }
  }

  /// apptransaction/refresh().md: `static func refresh() async throws -> VerificationResult<AppTransaction>`.
  /// Prompts: call only on a user action.
  public static func refresh() async throws -> VerificationResult<AppTransaction> {
    fatalError("StoreKit shim")
  }

  /// apptransaction/originalappversion.md: `let originalAppVersion: String`
  public let originalAppVersion: String
  /// apptransaction/originalpurchasedate.md: `let originalPurchaseDate: Date`
  public let originalPurchaseDate: Date
  /// apptransaction/environment.md: `let environment: AppStore.Environment`
  public let environment: AppStore.Environment
  /// apptransaction/appid.md: `let appID: UInt64?`
  public let appID: UInt64?
  /// apptransaction/appversionid.md: `let appVersionID: UInt64?`
  public let appVersionID: UInt64?
  /// apptransaction/appversion.md: `let appVersion: String`
  public let appVersion: String
  /// apptransaction/bundleid.md: `let bundleID: String`
  public let bundleID: String
  /// apptransaction/preorderdate.md: `let preorderDate: Date?`
  public let preorderDate: Date?
  /// apptransaction/signeddate.md: `let signedDate: Date`
  public let signedDate: Date

  /// apptransaction/originalplatform.md: `let originalPlatform: AppStore.Platform`, iOS 18.4,
  /// macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4. (A stored `let` can't carry a newer
  /// availability in source, so the shim declares a computed property with Apple's availability.)
  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public var originalPlatform: AppStore.Platform { fatalError("StoreKit shim") }

  /// apptransaction/apptransactionid.md: `@backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4,
  /// watchOS 11.4, visionOS 2.4) var appTransactionID: String { get }`, available from iOS 16.0.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  @backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)
  public var appTransactionID: String { fatalError("StoreKit shim") }

  /// apptransaction/originalplatformstringrepresentation.md: `@backDeployed(before: iOS 18.4, …)
  /// var originalPlatformStringRepresentation: String { get }`; availability "iOS: 16.0.0 - 18.4.0",
  /// i.e. deprecated in 18.4 in favour of originalPlatform.
  @available(iOS, introduced: 16.0, deprecated: 18.4, renamed: "originalPlatform")
  @available(macOS, introduced: 13.0, deprecated: 15.4, renamed: "originalPlatform")
  @available(tvOS, introduced: 16.0, deprecated: 18.4, renamed: "originalPlatform")
  @available(watchOS, introduced: 9.0, deprecated: 11.4, renamed: "originalPlatform")
  @available(visionOS, introduced: 1.0, deprecated: 2.4, renamed: "originalPlatform")
  @backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)
  public var originalPlatformStringRepresentation: String { fatalError("StoreKit shim") }

  /// apptransaction/revocationdate.md (SDK 27): `@backDeployed(before: iOS 27.0, macOS 27.0,
  /// tvOS 27.0, watchOS 27.0, visionOS 27.0) var revocationDate: Date? { get }`, available from
  /// iOS 16.0. Older SDKs don't declare it: guard its use with
  /// `#if canImport(StoreKit, _version: 816)`, the 27 SDKs' StoreKit module version.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  @backDeployed(before: iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0)
  public var revocationDate: Date? { fatalError("StoreKit shim") }
}

// MARK: - Transaction

/// transaction.md: `struct Transaction`, iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0,
/// visionOS 1.0; Identifiable, Hashable, Sendable.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Identifiable, Hashable, Sendable {
  /// transaction/id.md: `let id: UInt64`
  public let id: UInt64
  /// transaction/originalid.md: `let originalID: UInt64`
  public let originalID: UInt64
  /// transaction/productid.md: `let productID: String`
  public let productID: String
  /// transaction/purchasedate.md: `let purchaseDate: Date`
  public let purchaseDate: Date
  /// transaction/originalpurchasedate.md: `let originalPurchaseDate: Date`
  public let originalPurchaseDate: Date
  /// transaction/expirationdate.md: `let expirationDate: Date?`
  public let expirationDate: Date?
  /// transaction/revocationdate.md: `let revocationDate: Date?`
  public let revocationDate: Date?
  /// transaction/ownershiptype-swift.property.md: `let ownershipType: Transaction.OwnershipType`
  public let ownershipType: Transaction.OwnershipType
  /// transaction/producttype.md: `let productType: Product.ProductType`
  public let productType: Product.ProductType
  /// transaction/appaccounttoken.md: `let appAccountToken: UUID?`
  public let appAccountToken: UUID?
  /// transaction/isupgraded.md: `let isUpgraded: Bool`
  public let isUpgraded: Bool

  /// transaction/finish().md: `func finish() async`
  public func finish() async {}

  /// transaction/offer-swift.property.md: `let offer: Transaction.Offer?`, iOS 17.2, macOS 14.2,
  /// tvOS 17.2, watchOS 10.2, visionOS 1.1. (A stored `let` can't carry a newer availability in
  /// source, so the shim declares a computed property with Apple's availability.)
  @available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
  public var offer: Transaction.Offer? { fatalError("StoreKit shim") }

  /// transaction/offertype-swift.property.md: `var offerType: Transaction.OfferType? { get }`;
  /// availability "iOS: 15.0.0 - 17.2.0", macOS 12.0 - 14.2, tvOS 15.0 - 17.2, watchOS 8.0 - 10.2,
  /// visionOS 1.0 - 1.1.
  @available(iOS, introduced: 15.0, deprecated: 17.2)
  @available(macOS, introduced: 12.0, deprecated: 14.2)
  @available(tvOS, introduced: 15.0, deprecated: 17.2)
  @available(watchOS, introduced: 8.0, deprecated: 10.2)
  @available(visionOS, introduced: 1.0, deprecated: 1.1)
  public var offerType: Transaction.OfferType? { fatalError("StoreKit shim") }

  /// transaction/offerid.md: `var offerID: String? { get }`; availability "iOS: 15.0.0 - 17.2.0",
  /// macOS 12.0 - 14.2, tvOS 15.0 - 17.2, watchOS 8.0 - 10.2, visionOS 1.0 - 1.1.
  @available(iOS, introduced: 15.0, deprecated: 17.2)
  @available(macOS, introduced: 12.0, deprecated: 14.2)
  @available(tvOS, introduced: 15.0, deprecated: 17.2)
  @available(watchOS, introduced: 8.0, deprecated: 10.2)
  @available(visionOS, introduced: 1.0, deprecated: 1.1)
  public var offerID: String? { fatalError("StoreKit shim") }

  /// transaction/offertype-swift.struct.md: `struct OfferType`, iOS 15.0, macOS 12.0, tvOS 15.0,
  /// watchOS 8.0, visionOS 1.0; RawRepresentable (`init(rawValue: Int)`), Hashable, Sendable. Each
  /// constant's page gives its raw value.
  public struct OfferType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// transaction/offertype-swift.struct/introductory.md: `static let introductory`
    public static let introductory = OfferType(rawValue: 1)
    /// transaction/offertype-swift.struct/promotional.md: `static let promotional`
    public static let promotional = OfferType(rawValue: 2)
    /// transaction/offertype-swift.struct/code.md: `static let code`, raw value 3.
    public static let code = OfferType(rawValue: 3)
    /// transaction/offertype-swift.struct/winback.md: `@backDeployed(before: iOS 18.0, macOS 15.0,
    /// tvOS 18.0, watchOS 11.0, visionOS 2.0) static var winBack: Transaction.OfferType { get }`,
    /// available from iOS 15.0; raw value 4.
    @backDeployed(before: iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0)
    public static var winBack: Transaction.OfferType { OfferType(rawValue: 4) }
  }

  /// transaction/offer-swift.struct.md: `struct Offer`, iOS 17.2, macOS 14.2, tvOS 17.2,
  /// watchOS 10.2, visionOS 1.1 (only what this shim needs).
  @available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
  public struct Offer: Hashable, Sendable {
    /// transaction/offer-swift.struct/type.md: `let type: Transaction.OfferType`
    public let type: Transaction.OfferType
    /// transaction/offer-swift.struct/id.md: `let id: String?` (an offer code's reference name).
    public let id: String?
  }

  /// transaction/ownershiptype-swift.struct.md: `struct OwnershipType`; RawRepresentable,
  /// Hashable, Sendable.
  public struct OwnershipType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// transaction/ownershiptype-swift.struct/purchased.md: `static let purchased`
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    /// transaction/ownershiptype-swift.struct/familyshared.md: `static let familyShared`
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    /// transaction/ownershiptype-swift.struct/assigned.md (SDK 27): `@backDeployed(before: iOS
    /// 27.0, …) static var assigned: Transaction.OwnershipType { get }`, available from iOS 15.0.
    @backDeployed(before: iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0)
    public static var assigned: Transaction.OwnershipType { OwnershipType(rawValue: "ASSIGNED") }
  }

  /// transaction/transactions.md: `struct Transactions`; Sendable, AsyncSequence of
  /// `VerificationResult<Transaction>`.
  public struct Transactions: AsyncSequence, Sendable {
    public typealias Element = VerificationResult<Transaction>
    /// `struct AsyncIterator` with `mutating func next() async -> VerificationResult<Transaction>?`
    public struct AsyncIterator: AsyncIteratorProtocol {
      public typealias Element = VerificationResult<Transaction>
      public mutating func next() async -> VerificationResult<Transaction>? { nil }
    }
    /// `func makeAsyncIterator() -> Transaction.Transactions.AsyncIterator`
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
  }

  /// transaction/currententitlements.md: `static var currentEntitlements: Transaction.Transactions { get }`
  public static var currentEntitlements: Transaction.Transactions { Transactions() }
  /// transaction/updates.md: `static var updates: Transaction.Transactions { get }`
  public static var updates: Transaction.Transactions { Transactions() }
  /// transaction/unfinished.md: `static var unfinished: Transaction.Transactions { get }`
  public static var unfinished: Transaction.Transactions { Transactions() }
  /// transaction/all.md: `static var all: Transaction.Transactions { get }`
  public static var all: Transaction.Transactions { Transactions() }

  /// transaction/currententitlements(for:).md: `static func currentEntitlements(for productID:
  /// String) -> Transaction.Transactions`, iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4,
  /// visionOS 2.4.
  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public static func currentEntitlements(for productID: String) -> Transaction.Transactions {
    Transactions()
  }

  /// transaction/currententitlement(for:).md: `static func currentEntitlement(for productID:
  /// String) async -> VerificationResult<Transaction>?`; availability "iOS: 15.0.0 - 18.4.0".
  @available(iOS, introduced: 15.0, deprecated: 18.4, renamed: "currentEntitlements(for:)")
  @available(macOS, introduced: 12.0, deprecated: 15.4, renamed: "currentEntitlements(for:)")
  @available(tvOS, introduced: 15.0, deprecated: 18.4, renamed: "currentEntitlements(for:)")
  @available(watchOS, introduced: 8.0, deprecated: 11.4, renamed: "currentEntitlements(for:)")
  @available(visionOS, introduced: 1.0, deprecated: 2.4, renamed: "currentEntitlements(for:)")
  public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
    nil
  }

  /// transaction/latest(for:).md: `static func latest(for productID: String) async ->
  /// VerificationResult<Transaction>?`
  public static func latest(for productID: String) async -> VerificationResult<Transaction>? { nil }
}

// MARK: - Product

/// product.md: `struct Product`, iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0;
/// Identifiable, Hashable, Sendable.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Identifiable, Hashable, Sendable {
  /// product/id.md: `let id: String`
  public let id: String
  /// product/type.md: `let type: Product.ProductType`
  public let type: Product.ProductType
  /// product/displayname.md: `let displayName: String`
  public let displayName: String
  /// product/description.md: `let description: String`
  public let description: String
  /// product/displayprice.md: `let displayPrice: String`
  public let displayPrice: String
  /// product/price.md: `let price: Decimal`
  public let price: Decimal
  /// product/subscription.md: `let subscription: Product.SubscriptionInfo?`
  public let subscription: Product.SubscriptionInfo?

  /// product/products(for:).md: `static func products<Identifiers>(for identifiers: Identifiers)
  /// async throws -> [Product] where Identifiers : Collection, Identifiers.Element == String`
  public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
  where Identifiers: Collection, Identifiers.Element == String {
    fatalError("StoreKit shim")
  }

  /// product/purchase(options:).md: `@MainActor func purchase(options: Set<Product.PurchaseOption>
  /// = []) async throws -> Product.PurchaseResult`; the page lists no visionOS.
  @available(visionOS, unavailable)
  @MainActor
  public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
    fatalError("StoreKit shim")
  }

  #if canImport(UIKit)
    /// product/purchase(confirmin:options:)-6dj6y.md: `@MainActor func purchase(confirmIn scene: some
    /// UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult`;
    /// iOS 17.0, Mac Catalyst 17.0, tvOS 17.0, visionOS 1.0 (no macOS, no watchOS).
    @available(iOS 17.0, tvOS 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public func purchase(
      confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []
    ) async throws -> Product.PurchaseResult {
      fatalError("StoreKit shim")
    }
  #endif

  /// product/producttype.md: `struct ProductType`; RawRepresentable, Hashable, Sendable.
  public struct ProductType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// product/producttype/consumable.md: `static let consumable`
    public static let consumable = ProductType(rawValue: "Consumable")
    /// product/producttype/nonconsumable.md: `static let nonConsumable`
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    /// product/producttype/nonrenewable.md: `static let nonRenewable`
    public static let nonRenewable = ProductType(rawValue: "Non-Renewable")
    /// product/producttype/autorenewable.md: `static let autoRenewable`
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable")
  }

  /// product/purchaseresult.md: `enum PurchaseResult` (not frozen: switch with `@unknown default`).
  public enum PurchaseResult {
    /// product/purchaseresult/success(_:).md: `case success(VerificationResult<Transaction>)`
    case success(VerificationResult<Transaction>)
    /// product/purchaseresult/usercancelled.md: `case userCancelled`
    case userCancelled
    /// product/purchaseresult/pending.md: `case pending`
    case pending
  }

  /// product/purchaseoption.md: `struct PurchaseOption`; Hashable, Sendable.
  public struct PurchaseOption: Hashable, Sendable {
    private let name: String
    private init(name: String) { self.name = name }

    /// product/purchaseoption/appaccounttoken(_:).md: `static func appAccountToken(_ token: UUID)
    /// -> Product.PurchaseOption`
    public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption {
      PurchaseOption(name: "appAccountToken")
    }

    /// product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:).md:
    /// `static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data,
    /// timestamp: Int) -> Product.PurchaseOption`; availability "iOS: 15.0.0 - 26.0.0".
    @available(iOS, introduced: 15.0, deprecated: 26.0)
    @available(macOS, introduced: 12.0, deprecated: 26.0)
    @available(tvOS, introduced: 15.0, deprecated: 26.0)
    @available(watchOS, introduced: 8.0, deprecated: 26.0)
    @available(visionOS, introduced: 1.0, deprecated: 26.0)
    public static func promotionalOffer(
      offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
    ) -> Product.PurchaseOption {
      PurchaseOption(name: "promotionalOffer")
    }

    /// product/purchaseoption/promotionaloffer(offerid:signature:).md: `static func
    /// promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) ->
    /// Product.PurchaseOption`; availability "iOS: 17.4.0 - 26.0.0", macOS 14.4, tvOS 17.4,
    /// watchOS 10.4, visionOS 1.1.
    @available(iOS, introduced: 17.4, deprecated: 26.0)
    @available(macOS, introduced: 14.4, deprecated: 26.0)
    @available(tvOS, introduced: 17.4, deprecated: 26.0)
    @available(watchOS, introduced: 10.4, deprecated: 26.0)
    @available(visionOS, introduced: 1.1, deprecated: 26.0)
    public static func promotionalOffer(
      offerID: String, signature: Product.SubscriptionOffer.Signature
    ) -> Product.PurchaseOption {
      PurchaseOption(name: "promotionalOffer")
    }

    /// product/purchaseoption/introductoryoffereligibility(compactjws:).md: `@backDeployed(before:
    /// iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4) static func
    /// introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption`, available from
    /// iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    @backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)
    public static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption {
      PurchaseOption(name: "introductoryOfferEligibility")
    }

    /// product/purchaseoption/promotionaloffer(_:compactjws:).md: `@backDeployed(before: iOS 26.0,
    /// macOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0) static func promotionalOffer(_ offerID:
    /// String, compactJWS: String) -> [Product.PurchaseOption]`, available from iOS 15.0. Note
    /// that it returns an array: pass `Set(options)` to `purchase(options:)`.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    @backDeployed(before: iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0)
    public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] {
      [PurchaseOption(name: "promotionalOffer")]
    }

    /// product/purchaseoption/winbackoffer(_:).md: `static func winBackOffer(_ offer:
    /// Product.SubscriptionOffer) -> Product.PurchaseOption`, iOS 18.0, macOS 15.0, tvOS 18.0,
    /// watchOS 11.0, visionOS 2.0.
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption {
      PurchaseOption(name: "winBackOffer")
    }
  }

  /// product/subscriptionoffer.md: `struct SubscriptionOffer` (only what this shim needs).
  public struct SubscriptionOffer: Hashable, Sendable {
    /// product/subscriptionoffer/id.md: `let id: String?`
    public let id: String?
    /// product/subscriptionoffer/displayprice.md: `let displayPrice: String`
    public let displayPrice: String

    /// product/subscriptionoffer/signature.md: `struct Signature`; availability
    /// "iOS: 17.4.0 - 26.0.0", macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1.
    @available(iOS, introduced: 17.4, deprecated: 26.0)
    @available(macOS, introduced: 14.4, deprecated: 26.0)
    @available(tvOS, introduced: 17.4, deprecated: 26.0)
    @available(watchOS, introduced: 10.4, deprecated: 26.0)
    @available(visionOS, introduced: 1.1, deprecated: 26.0)
    public struct Signature: Hashable, Sendable {
      public let keyID: String
      public let nonce: UUID
      public let timestamp: Int
      public let signature: Data
      /// product/subscriptionoffer/signature/init(keyid:nonce:timestamp:signature:).md
      public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
      }
    }
  }

  /// product/subscriptioninfo.md: `struct SubscriptionInfo` (only what this shim needs).
  public struct SubscriptionInfo: Hashable, Sendable {
    /// product/subscriptioninfo/subscriptiongroupid.md: `let subscriptionGroupID: String`
    public let subscriptionGroupID: String
    /// product/subscriptioninfo/promotionaloffers.md: `let promotionalOffers: [Product.SubscriptionOffer]`,
    /// iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
    public let promotionalOffers: [Product.SubscriptionOffer]
    /// product/subscriptioninfo/introductoryoffer.md: `let introductoryOffer: Product.SubscriptionOffer?`,
    /// iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
    public let introductoryOffer: Product.SubscriptionOffer?
    /// product/subscriptioninfo/winbackoffers.md: `let winBackOffers: [Product.SubscriptionOffer]`,
    /// iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0. Every offer set up, whatever
    /// the customer's eligibility (`RenewalInfo.eligibleWinBackOfferIDs`). A stored property can't
    /// carry a newer availability than its type here, so the shim computes it.
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public var winBackOffers: [Product.SubscriptionOffer] { fatalError("StoreKit shim") }

    /// product/subscriptioninfo/status-swift.property.md: `var status:
    /// [Product.SubscriptionInfo.Status] { get async throws }`
    public var status: [Product.SubscriptionInfo.Status] {
      get async throws { fatalError("StoreKit shim") }
    }

    /// product/subscriptioninfo/renewalinfo.md: `struct RenewalInfo`; Hashable, Sendable.
    public struct RenewalInfo: Hashable, Sendable {
      /// product/subscriptioninfo/renewalinfo/currentproductid.md: `let currentProductID: String`
      public let currentProductID: String
      /// product/subscriptioninfo/renewalinfo/willautorenew.md: `let willAutoRenew: Bool`
      public let willAutoRenew: Bool
      /// product/subscriptioninfo/renewalinfo/isinbillingretry.md: `let isInBillingRetry: Bool`
      public let isInBillingRetry: Bool
      /// product/subscriptioninfo/renewalinfo/graceperiodexpirationdate.md:
      /// `let gracePeriodExpirationDate: Date?`, iOS 15.0.
      public let gracePeriodExpirationDate: Date?
      /// product/subscriptioninfo/renewalinfo/autorenewpreference.md: `let autoRenewPreference: String?`
      public let autoRenewPreference: String?
      /// product/subscriptioninfo/renewalinfo/expirationreason-swift.property.md:
      /// `let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?`
      public let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?
      /// product/subscriptioninfo/renewalinfo/eligiblewinbackofferids.md: `let
      /// eligibleWinBackOfferIDs: [String]`, iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0,
      /// visionOS 2.0; best offer first. Computed in the shim, as `winBackOffers` is.
      @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
      public var eligibleWinBackOfferIDs: [String] { fatalError("StoreKit shim") }

      /// product/subscriptioninfo/renewalinfo/expirationreason-swift.struct.md: `struct
      /// ExpirationReason`; RawRepresentable (`init(rawValue: Int)`), Hashable, Sendable; each
      /// constant iOS 15.0. Apple doesn't document the raw values: these follow the App Store Server
      /// API's `expirationIntent` (1 to 5), and the layer compares the constants, never the numbers.
      public struct ExpirationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// .../expirationreason-swift.struct/autorenewdisabled.md
        public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
        /// .../expirationreason-swift.struct/billingerror.md
        public static let billingError = ExpirationReason(rawValue: 2)
        /// .../expirationreason-swift.struct/didnotconsenttopriceincrease.md
        public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
        /// .../expirationreason-swift.struct/productunavailable.md
        public static let productUnavailable = ExpirationReason(rawValue: 4)
        /// .../expirationreason-swift.struct/unknown.md
        public static let unknown = ExpirationReason(rawValue: 5)
      }
    }

    /// product/subscriptioninfo/renewalstate.md: `struct RenewalState`; RawRepresentable,
    /// Hashable, Sendable.
    public struct RenewalState: RawRepresentable, Hashable, Sendable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      /// product/subscriptioninfo/renewalstate/subscribed.md
      public static let subscribed = RenewalState(rawValue: 1)
      /// product/subscriptioninfo/renewalstate/expired.md
      public static let expired = RenewalState(rawValue: 2)
      /// product/subscriptioninfo/renewalstate/inbillingretryperiod.md
      public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
      /// product/subscriptioninfo/renewalstate/ingraceperiod.md
      public static let inGracePeriod = RenewalState(rawValue: 4)
      /// product/subscriptioninfo/renewalstate/revoked.md
      public static let revoked = RenewalState(rawValue: 5)
    }

    /// product/subscriptioninfo/status.md: `struct Status`; Hashable, Sendable.
    public struct Status: Hashable, Sendable {
      /// `let state: Product.SubscriptionInfo.RenewalState`
      public let state: Product.SubscriptionInfo.RenewalState
      /// `let transaction: VerificationResult<Transaction>`
      public let transaction: VerificationResult<Transaction>
      /// `let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>`
      public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>

      public static func == (lhs: Status, rhs: Status) -> Bool { fatalError("StoreKit shim") }
      public func hash(into hasher: inout Hasher) { fatalError("StoreKit shim") }
    }
  }
}

/// product/purchaseresult.md: Sendable.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseResult: Sendable {}

// MARK: - PurchaseIntent

/// purchaseintent.md: `struct PurchaseIntent`, iOS 16.4, iPadOS 16.4, Mac Catalyst 16.4, macOS 14.4
/// (no tvOS, watchOS or visionOS). Only what this shim needs.
@available(iOS 16.4, macOS 14.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent {
  /// purchaseintent/product.md: `let product: Product`
  public let product: Product
  /// purchaseintent/offer.md: `let offer: Product.SubscriptionOffer?`, iOS 18.0, macOS 15.0; set
  /// only for a win-back offer redeemed outside the app. Computed in the shim: a stored property
  /// can't carry a newer availability than its type.
  @available(iOS 18.0, macOS 15.0, *)
  public var offer: Product.SubscriptionOffer? { fatalError("StoreKit shim") }

  /// purchaseintent/intents.md: `static var intents: PurchaseIntent.PurchaseIntents { get }`
  public static var intents: PurchaseIntent.PurchaseIntents { PurchaseIntents() }

  /// purchaseintent/purchaseintents.md: `struct PurchaseIntents`; AsyncSequence.
  public struct PurchaseIntents: AsyncSequence {
    public typealias Element = PurchaseIntent
    /// `struct AsyncIterator` with `mutating func next() async -> PurchaseIntent.PurchaseIntents.Element?`
    public struct AsyncIterator: AsyncIteratorProtocol {
      public typealias Element = PurchaseIntent
      public mutating func next() async -> PurchaseIntent? { nil }
    }
    /// `func makeAsyncIterator() -> PurchaseIntent.PurchaseIntents.AsyncIterator`
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
  }
}

// MARK: - Product.PurchaseError

extension Product {
  /// product/purchaseerror.md: `enum PurchaseError` (not frozen), iOS 15.0, macOS 12.0, tvOS 15.0,
  /// watchOS 8.0, visionOS 1.0; Error. Thrown by `purchase(options:)`.
  @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
  public enum PurchaseError: Error {
    /// product/purchaseerror/invalidquantity.md: `case invalidQuantity`
    case invalidQuantity
    /// product/purchaseerror/productunavailable.md: `case productUnavailable`
    case productUnavailable
    /// product/purchaseerror/purchasenotallowed.md: `case purchaseNotAllowed`
    case purchaseNotAllowed
    /// product/purchaseerror/ineligibleforoffer.md: `case ineligibleForOffer`
    case ineligibleForOffer
    /// product/purchaseerror/invalidofferidentifier.md: `case invalidOfferIdentifier`
    case invalidOfferIdentifier
    /// product/purchaseerror/invalidofferprice.md: `case invalidOfferPrice`
    case invalidOfferPrice
    /// product/purchaseerror/invalidoffersignature.md: `case invalidOfferSignature`
    case invalidOfferSignature
    /// product/purchaseerror/missingofferparameters.md: `case missingOfferParameters`
    case missingOfferParameters
  }
}

// MARK: - StoreKitError

/// storekiterror.md: `enum StoreKitError` (not frozen), iOS 15.0, macOS 12.0, tvOS 15.0,
/// watchOS 8.0, visionOS 1.0; Error.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error {
  /// storekiterror/unknown.md: `case unknown`
  case unknown
  /// storekiterror/usercancelled.md: `case userCancelled`
  case userCancelled
  /// storekiterror/networkerror(_:).md: `case networkError(URLError)`
  case networkError(URLError)
  /// storekiterror/systemerror(_:).md: `case systemError(any Error)`
  case systemError(any Error)
  /// storekiterror/notavailableinstorefront.md: `case notAvailableInStorefront`
  case notAvailableInStorefront
  /// storekiterror/notentitled.md: `case notEntitled`
  case notEntitled
  /// storekiterror/unsupported.md: `case unsupported`, iOS 18.4, macOS 15.4, tvOS 18.4,
  /// watchOS 11.4, visionOS 2.4.
  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  case unsupported
}
