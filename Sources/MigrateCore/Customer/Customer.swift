import Foundation
import FreemiumStoreKit
import MigratePlan

/// Where an App Store signature came from. TestFlight is `sandbox`. The layer's own type, so `migrate`
/// and the app read Apple's environment names in one place (`StoreEnvironment(appleName:)`).
public typealias StoreEnvironment = FreemiumStoreKit.StoreEnvironment

/// Whether a signed App Store record could be verified on the device.
public enum VerificationStatus: Sendable, Hashable {
    case verified
    /// Verification failed; `lastVerifiedDaysAgo` is the age of the last verified result the app cached.
    case failed(lastVerifiedDaysAgo: Int?)
}

/// One product the customer has a transaction for.
public struct OwnedProduct: Sendable, Hashable {
    public enum Ownership: String, Sendable, Hashable {
        case purchased
        case familyShared
    }

    public var productID: String
    public var ownership: Ownership
    /// Refunded or revoked: `Transaction.revocationDate` is set.
    public var isRevoked: Bool
    /// An expired subscription.
    public var isExpired: Bool
    /// False when this transaction's signature did not verify.
    public var isVerified: Bool
    /// `Transaction.purchaseDate`: when a trial product's time began. Nil when not known.
    public var purchaseDate: Date?

    /// The states that set this transaction apart, in the words `migrate explain --owns` takes:
    /// `familyShared`, `revoked`, `expired`, `unverified` (the purchase date is shown apart).
    public var stateNames: [String] {
        var states: [String] = []
        if ownership == .familyShared { states.append("familyShared") }
        if isRevoked { states.append("revoked") }
        if isExpired { states.append("expired") }
        if !isVerified { states.append("unverified") }
        return states
    }

    public init(
        productID: String, ownership: Ownership = .purchased, isRevoked: Bool = false, isExpired: Bool = false,
        isVerified: Bool = true, purchaseDate: Date? = nil
    ) {
        self.purchaseDate = purchaseDate
        self.productID = productID
        self.ownership = ownership
        self.isRevoked = isRevoked
        self.isExpired = isExpired
        self.isVerified = isVerified
    }
}

/// Everything the App Store tells an app about one customer, as inputs that tests can set freely.
public struct Customer: Sendable, Hashable {
    /// The platform the app is running on now.
    public var platform: Platform
    /// `AppTransaction.originalPlatform`, known only on iOS 18.4 / macOS 15.4 and later.
    public var originalPlatform: Platform?
    public var environment: StoreEnvironment
    /// `AppTransaction.originalAppVersion`, as the App Store gave it (it may not parse).
    public var originalAppVersion: String?
    /// `AppTransaction.originalPurchaseDate`.
    public var originalPurchaseDate: Date?
    public var appTransaction: VerificationStatus
    /// `AppTransaction.revocationDate` is set: the paid download itself was refunded.
    public var isAppPurchaseRevoked: Bool
    public var preorderDate: Date?
    /// A Volume Purchase Program install (`ProductionVPP`), which cannot make in-app purchases.
    public var isVolumePurchase: Bool
    public var purchases: [OwnedProduct]
    /// The moment a trial is judged at: on a device, the later of its clock and the newest date the App Store
    /// signed a verified record, so that setting the clock back doesn't lengthen a trial. Nil when unknown,
    /// and then no trial grants (a trial is free, so no one who paid loses anything).
    public var now: Date?

    public init(
        platform: Platform, originalPlatform: Platform? = nil, environment: StoreEnvironment = .production,
        originalAppVersion: String? = nil, originalPurchaseDate: Date? = nil, appTransaction: VerificationStatus = .verified,
        isAppPurchaseRevoked: Bool = false, preorderDate: Date? = nil, isVolumePurchase: Bool = false,
        purchases: [OwnedProduct] = [], now: Date? = nil
    ) {
        self.now = now
        self.platform = platform
        self.originalPlatform = originalPlatform
        self.environment = environment
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.appTransaction = appTransaction
        self.isAppPurchaseRevoked = isAppPurchaseRevoked
        self.preorderDate = preorderDate
        self.isVolumePurchase = isVolumePurchase
        self.purchases = purchases
    }
}
