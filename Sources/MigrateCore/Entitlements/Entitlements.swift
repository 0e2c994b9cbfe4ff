import MigratePlan

/// Why a customer has a feature.
public enum GrantSource: Sendable, Hashable, CustomStringConvertible {
    /// A legacy tier of paid buyers.
    case tier(String)
    /// A product the customer owns.
    case product(String)
    /// A bundle the customer owns that contains the product granting it.
    case bundle(String, via: String)
    /// Free to everyone in the current release.
    case free

    /// Whether it is lent by one of `trials` (product ids) rather than owned.
    public func isLent(byTrials trials: Set<String>) -> Bool {
        switch self {
        case .product(let id), .bundle(let id, _): trials.contains(id)
        case .tier, .free: false
        }
    }

    public var description: String {
        switch self {
        case .tier(let id): "tier '\(id)'"
        case .product(let id): "product '\(id)'"
        case .bundle(let bundle, let via): "bundle '\(bundle)' (contains '\(via)')"
        case .free: "free to everyone"
        }
    }
}

/// One feature a customer has, with every reason they have it.
public struct FeatureGrant: Sendable, Hashable {
    public var featureID: String
    public var sources: [GrantSource]
}

/// A transaction that does not entitle, and why.
public struct IgnoredPurchase: Sendable, Hashable {
    public var productID: String
    public var reason: String
}

/// What a customer is entitled to.
public struct Entitlements: Sendable, Hashable {
    /// In the plan's feature order.
    public var features: [FeatureGrant]
    /// Product ids whose transactions count, sorted.
    public var activeProducts: [String]
    public var ignored: [IgnoredPurchase]
    public var notes: [String]
    /// Of `activeProducts`, those the customer holds only through Family Sharing, sorted: the organizer's purchase,
    /// which the customer can neither switch nor cancel ("Supporting Family Sharing in your app").
    public var familySharedOnly: [String] = []

    public var featureIDs: Set<String> { Set(features.map(\.featureID)) }

    public func has(_ featureID: String) -> Bool { features.contains { $0.featureID == featureID } }
}
