// A shim of the StoreKit 2 API surface that generated code may use (DOMAIN.md, section 3), so the
// generated StoreKit layer is type-checked on Linux, where StoreKit doesn't exist. Only
// declarations, with Apple's availability; nothing here behaves like the App Store.
import Foundation

public enum VerificationResult<SignedType: Sendable>: Sendable {
  case unverified(SignedType, VerificationError)
  case verified(SignedType)

  public var payloadValue: SignedType {
    get throws {
      switch self {
      case .verified(let value): return value
      case .unverified(_, let error): throw error
      }
    }
  }

  public var unsafePayloadValue: SignedType {
    switch self {
    case .verified(let value), .unverified(let value, _): return value
    }
  }

  public enum VerificationError: Error, Sendable {
    case revokedCertificate
    case invalidCertificateChain
    case invalidDeviceVerification
    case invalidEncoding
    case invalidSignature
    case missingRequiredProperties
  }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
  public struct Environment: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let production = Environment(rawValue: "Production")
    public static let sandbox = Environment(rawValue: "Sandbox")
    public static let xcode = Environment(rawValue: "Xcode")
  }

  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public struct Platform: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let iOS = Platform(rawValue: "iOS")
    public static let macOS = Platform(rawValue: "macOS")
    public static let tvOS = Platform(rawValue: "tvOS")
    public static let visionOS = Platform(rawValue: "visionOS")
  }

  /// Prompts for the password: call only from a Restore Purchases button.
  public static func sync() async throws {}
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable {
  public let originalAppVersion: String
  public let originalPurchaseDate: Date
  public let environment: AppStore.Environment
  public let appID: UInt64?
  public let appVersionID: UInt64?
  public let preorderDate: Date?

  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public var originalPlatform: AppStore.Platform { .iOS }

  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
  public var appTransactionID: String { "" }

  public static var shared: VerificationResult<AppTransaction> {
    get async throws { throw VerificationResult<AppTransaction>.VerificationError.missingRequiredProperties }
  }

  /// Prompts: call only on a user action.
  public static func refresh() async throws -> VerificationResult<AppTransaction> {
    try await shared
  }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Sendable {
  public struct OwnershipType: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
  }

  public let productID: String
  public let purchaseDate: Date
  public let originalPurchaseDate: Date
  public let expirationDate: Date?
  public let revocationDate: Date?
  public let ownershipType: OwnershipType
  public let productType: Product.ProductType

  public func finish() async {}

  public struct Transactions: AsyncSequence, Sendable {
    public typealias Element = VerificationResult<Transaction>
    public struct AsyncIterator: AsyncIteratorProtocol {
      public mutating func next() async -> VerificationResult<Transaction>? { nil }
    }
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
  }

  public static var currentEntitlements: Transactions { Transactions() }
  public static var updates: Transactions { Transactions() }
  public static var all: Transactions { Transactions() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Identifiable, Sendable {
  public struct ProductType: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let consumable = ProductType(rawValue: "Consumable")
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
  }

  public let id: String
  public let type: ProductType
  public let displayName: String
  public let displayPrice: String

  public static func products<Identifiers: Collection & Sendable>(for identifiers: Identifiers) async throws -> [Product]
  where Identifiers.Element == String {
    []
  }
}
