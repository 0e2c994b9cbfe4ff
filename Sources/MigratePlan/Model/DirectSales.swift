import Foundation
import MigrateSupport

/// Buyers who paid outside the App Store (Paddle, FastSpring, Gumroad, a developer's own store), grandfathered
/// through one-time offer codes for a legacy in-app product: the plan's direct-sale channel.
///
/// Only counts, editions and dates live here: who bought (names, e-mail addresses, order numbers) stays in the
/// developer's exports, which `migrate codes assign` reads again each time.
public struct DirectSales: Sendable, Hashable {
    /// The stores the licenses were sold through, as `import licenses` detected them (`paddle`, `fastspring`,
    /// `gumroad`, `csv`), sorted.
    public var stores: [String]
    public var editions: [DirectEdition]
    /// How the offer codes were (or will be) created in App Store Connect.
    public var offerCodes: OfferCodeSettings?
    public var origin: JSONPath?

    public init(stores: [String] = [], editions: [DirectEdition] = [], offerCodes: OfferCodeSettings? = nil, origin: JSONPath? = nil) {
        self.stores = stores
        self.editions = editions
        self.offerCodes = offerCodes
        self.origin = origin
    }

    /// The edition a license row of an export belongs to: the one whose `sources` list the row's label.
    public func edition(forSource label: String) -> DirectEdition? {
        editions.first { $0.sources.contains(label) }
    }
}

/// One edition sold directly (a product, or a product's version or variant): who bought it, when, and what its
/// buyers keep on the App Store, like an App Store era's tier.
public struct DirectEdition: Sendable, Hashable {
    public var id: String
    public var name: String
    /// The product labels exports give this edition's rows (`Product Name`, or `Item Name (Variant)`); how a row
    /// is matched to it.
    public var sources: [String]
    /// The first and last purchase seen in the exports (UTC).
    public var soldFrom: Date?
    public var soldUntil: Date?
    /// The tier its holders join: they keep what the tier grants.
    public var tier: String?
    /// The in-app product a one-time offer code gives them for free (a non-consumable, or an auto-renewable
    /// subscription's offer code), which grants the tier's features.
    public var legacyProduct: String?
    /// Licenses that count (not refunded, not duplicated), when imported.
    public var holders: Int
    /// Seats of those licenses: one code each.
    public var seats: Int
    /// Refunded licenses (left out of `holders`).
    public var refunded: Int
    public var origin: JSONPath?

    public init(
        id: String, name: String, sources: [String] = [], soldFrom: Date? = nil, soldUntil: Date? = nil, tier: String? = nil,
        legacyProduct: String? = nil, holders: Int = 0, seats: Int = 0, refunded: Int = 0, origin: JSONPath? = nil
    ) {
        self.id = id
        self.name = name
        self.sources = sources
        self.soldFrom = soldFrom
        self.soldUntil = soldUntil
        self.tier = tier
        self.legacyProduct = legacyProduct
        self.holders = holders
        self.seats = seats
        self.refunded = refunded
        self.origin = origin
    }
}

/// What the plan knows of the App Store Connect offer behind the codes.
public struct OfferCodeSettings: Sendable, Hashable {
    /// The app's Apple ID (the number in its App Store URL), for the redemption URL.
    public var appID: String?
    /// When the one-time codes stop working, as chosen in App Store Connect (at most six months after creation).
    public var expires: Date?

    public init(appID: String? = nil, expires: Date? = nil) {
        self.appID = appID
        self.expires = expires
    }

    /// Whether `text` can be an app's Apple ID: digits only.
    public static func isAppID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 20 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension PlanKeys {
    public enum DirectSales: String, PlanObjectKeys { case stores, editions, offerCodes }
    public enum DirectEdition: String, PlanObjectKeys {
        case id, name, sources, soldFrom, soldUntil, tier, legacyProduct, holders, seats, refunded
    }
    public enum OfferCodes: String, PlanObjectKeys { case appID, expires }
    /// The stores `import licenses` reads, as the plan names them.
    public static let licenseStores = ["paddle", "fastspring", "gumroad", "csv"]
}
