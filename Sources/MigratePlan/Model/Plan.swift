import Foundation
import MigrateSupport

/// A migration plan: everything `migrate` knows about one app's move from paid to freemium.
///
/// This is the plan as written in `migration.json`, with no derived data; `PlanCatalog` in
/// MigrateCore derives tracks, tiers and effective grants from it.
public struct MigrationPlan: Sendable, Hashable {
    public static let currentFormatVersion = 1

    /// The `$schema` reference, kept so that rewriting a plan doesn't drop it.
    public var schemaReference: String?
    public var formatVersion: Int
    public var app: AppInfo
    public var features: [Feature]
    public var releases: [Release]
    public var products: [Product]
    /// Legacy tiers as written; empty means "derive one tier per distinct paid offering".
    public var tiers: [LegacyTier]
    public var policies: Policies
    /// Who bought what, from sales reports; sizes cohorts in simulations.
    public var installBase: InstallBase?
    /// What `migrate simulate` assumes, and the scenarios it compares.
    public var simulation: SimulationSettings?
    /// Licenses sold outside the App Store, grandfathered through offer codes (`migrate import licenses`).
    public var directSales: DirectSales?

    public init(
        schemaReference: String? = nil, formatVersion: Int = MigrationPlan.currentFormatVersion, app: AppInfo,
        features: [Feature] = [], releases: [Release] = [], products: [Product] = [], tiers: [LegacyTier] = [],
        policies: Policies = Policies(), installBase: InstallBase? = nil, simulation: SimulationSettings? = nil,
        directSales: DirectSales? = nil
    ) {
        self.schemaReference = schemaReference
        self.directSales = directSales
        self.simulation = simulation
        self.installBase = installBase
        self.formatVersion = formatVersion
        self.app = app
        self.features = features
        self.releases = releases
        self.products = products
        self.tiers = tiers
        self.policies = policies
    }

    public func feature(withID id: String) -> Feature? { features.first { $0.id == id } }
    public func product(withID id: String) -> Product? { products.first { $0.id == id } }
    public func tier(withID id: String) -> LegacyTier? { tiers.first { $0.id == id } }
}

/// The app itself.
public struct AppInfo: Sendable, Hashable {
    public var name: String
    public var bundleID: String
    public var platforms: [Platform]
    /// True when iOS and macOS share one App Store record, so one purchase covers both
    /// and `originalAppVersion` means whatever the *original* platform put there.
    public var universalPurchase: Bool
    /// The SKU chosen in App Store Connect, when the plan says: sales reports name the app's rows by it.
    public var sku: String?
    /// The app's Apple ID (the number in its App Store URL), when the plan says: sales reports' Apple Identifier.
    public var appleID: String?

    public init(name: String, bundleID: String, platforms: [Platform], universalPurchase: Bool = false) {
        self.name = name
        self.bundleID = bundleID
        self.platforms = platforms
        self.universalPurchase = universalPurchase
    }
}

/// Something a customer can be entitled to.
public struct Feature: Sendable, Hashable {
    public var id: String
    public var name: String
    public var origin: JSONPath?

    public init(id: String, name: String, origin: JSONPath? = nil) {
        self.id = id
        self.name = name
        self.origin = origin
    }
}

/// How a release was sold.
public enum BusinessModel: Sendable, Hashable {
    /// A paid download at this price.
    case paid(Price)
    /// A free download.
    case free

    public var isPaid: Bool {
        if case .paid = self { return true }
        return false
    }
}

/// One build that went live on the App Store.
public struct Release: Sendable, Hashable {
    public var platform: Platform
    /// `CFBundleShortVersionString`.
    public var version: Version
    /// `CFBundleVersion`; required on iOS-family platforms, where receipts carry it.
    public var build: Version?
    /// When the build went live, in UTC.
    public var released: Date
    /// Where `released` came from; nil when the plan doesn't say (a date written by hand).
    public var releasedSource: ReleaseDateSource?
    public var model: BusinessModel
    /// For a paid release, what the price bought; for a free one, what was free to everyone.
    /// Nil means "the same as the previous release of the same model on this platform".
    public var includes: [String]?
    public var origin: JSONPath?

    public init(
        platform: Platform, version: Version, build: Version?, released: Date, releasedSource: ReleaseDateSource? = nil,
        model: BusinessModel, includes: [String]? = nil, origin: JSONPath? = nil
    ) {
        self.platform = platform
        self.version = version
        self.build = build
        self.released = released
        self.releasedSource = releasedSource
        self.model = model
        self.includes = includes
        self.origin = origin
    }

    /// `2.0 (40)` or `2.0` when there is no build.
    public var displayName: String {
        if let build { return "\(version) (\(build))" }
        return version.text
    }

    /// The value a receipt's original version carries for this release: its build number where the App
    /// Store reports `CFBundleVersion` (iOS and the platforms that share its binary), its marketing version
    /// on macOS. The one place that rule is written; nil when the build number is needed and not known.
    public func receiptVersion(_ meaning: Platform.VersionMeaning) -> Version? {
        meaning == .buildNumber ? build : version
    }
}

/// An in-app product, sold now or in the past.
public struct Product: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case nonConsumable
        case consumable
        case autoRenewable
        case nonRenewing
    }

    public var id: String
    public var name: String
    public var kind: Kind
    public var price: Price
    /// Features this product unlocks by itself.
    public var grants: [String]
    /// Products this one bundles; owning the bundle entitles their features too.
    public var contains: [String]
    /// Features a customer must already have before this product is offered (an add-on).
    public var requires: [String]
    /// False for products no longer sold; they keep entitling the people who bought them.
    public var forSale: Bool
    public var familyShareable: Bool
    /// For auto-renewable subscriptions.
    public var subscription: SubscriptionInfo?
    /// A free trial: the product grants for this long after its purchase date, then no more.
    public var trial: TrialPeriod?
    /// How long one purchase of a non-renewing subscription lasts: it grants for this long after its
    /// purchase date, then no more (StoreKit never ends one itself).
    public var duration: TrialPeriod?
    public var origin: JSONPath?

    public init(
        id: String, name: String, kind: Kind, price: Price, grants: [String] = [], contains: [String] = [],
        requires: [String] = [], forSale: Bool = true, familyShareable: Bool = false,
        subscription: SubscriptionInfo? = nil, trial: TrialPeriod? = nil, duration: TrialPeriod? = nil, origin: JSONPath? = nil
    ) {
        self.trial = trial
        self.duration = duration
        self.id = id
        self.name = name
        self.kind = kind
        self.price = price
        self.grants = grants
        self.contains = contains
        self.requires = requires
        self.forSale = forSale
        self.familyShareable = familyShareable
        self.subscription = subscription
        self.origin = origin
    }
}

/// Where an auto-renewable subscription sits in its group.
public struct SubscriptionInfo: Sendable, Hashable {
    public var group: String
    /// 1 is the highest level of service, as in App Store Connect.
    public var level: Int
    /// An ISO 8601 duration: P1W, P1M, P2M, P3M, P6M or P1Y.
    public var period: String
    /// The introductory offer new subscribers of the group get (a free trial, or a price paid up front or
    /// per period), as set up in App Store Connect.
    public var introductoryOffer: IntroductoryOffer?

    public init(group: String, level: Int, period: String, introductoryOffer: IntroductoryOffer? = nil) {
        self.group = group
        self.level = level
        self.period = period
        self.introductoryOffer = introductoryOffer
    }
}

/// An auto-renewable subscription's introductory offer: what a customer new to its group pays first, as
/// StoreKit's `Product.SubscriptionOffer.PaymentMode` names it. The App Store gives it once per group.
public struct IntroductoryOffer: Sendable, Hashable {
    public enum PaymentMode: String, Sendable, Hashable, CaseIterable {
        /// Nothing, for `period`.
        case freeTrial
        /// `price` once, for `period`.
        case payUpFront
        /// `price` each period (the subscription's own) for `periods` periods.
        case payAsYouGo
    }

    public var paymentMode: PaymentMode
    /// An ISO 8601 duration (`PlanKeys.introductoryPeriods`): how long the free trial or the paid-up-front offer
    /// lasts, or one period of a pay-as-you-go offer.
    public var period: String
    /// How many periods a pay-as-you-go offer lasts; 1 for the others.
    public var periods: Int
    /// What it charges (per period, pay as you go); nil for a free trial.
    public var price: Price?

    public init(paymentMode: PaymentMode, period: String, periods: Int = 1, price: Price? = nil) {
        self.paymentMode = paymentMode
        self.period = period
        self.periods = periods
        self.price = price
    }

    /// "a 3-month free trial", "3 periods of P1M at 2.49", for messages and summaries.
    public var spoken: String {
        let length = (try? TrialPeriod(period)).map(\.spoken) ?? period
        switch paymentMode {
        case .freeTrial: return "a free trial of \(length)"
        case .payUpFront: return "\(length) for \(price?.description ?? "?") up front"
        case .payAsYouGo: return "\(price?.description ?? "?") a period for \(periods) period\(periods == 1 ? "" : "s") of \(length)"
        }
    }
}

/// What buyers of one purchase era keep after the switch.
public struct LegacyTier: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Customers whose original release went live at or after this moment…
    public var from: Date?
    /// …and before this one.
    public var until: Date?
    /// Limits the tier to purchases first made on these platforms; nil means every platform.
    public var platforms: [Platform]?
    /// Nil means "what the buyers of the paid releases in the window had when the app went free": what their
    /// releases included and what later paid releases brought them as free updates.
    public var grants: [String]?
    /// Features the tier's buyers had (free updates brought them) that `grants` leaves out on purpose; without
    /// this acknowledgement `check` refuses a tier that takes them away.
    public var takesAway: [String]
    /// Cheaper prices instead of (or on top of) free access.
    public var discounts: [Discount]
    public var origin: JSONPath?

    public init(
        id: String, name: String, from: Date? = nil, until: Date? = nil, platforms: [Platform]? = nil,
        grants: [String]? = nil, takesAway: [String] = [], discounts: [Discount] = [], origin: JSONPath? = nil
    ) {
        self.id = id
        self.name = name
        self.from = from
        self.until = until
        self.platforms = platforms
        self.grants = grants
        self.takesAway = takesAway
        self.discounts = discounts
        self.origin = origin
    }
}

/// A legacy price for one product, and what makes the App Store charge it.
public struct Discount: Sendable, Hashable {
    public var product: String
    public var price: Price
    /// How the App Store charges `price`; nil leaves the price display-only, which `migrate check` rejects.
    public var charge: LegacyCharge?

    public init(product: String, price: Price, charge: LegacyCharge? = nil) {
        self.product = product
        self.price = price
        self.charge = charge
    }
}

/// How the App Store charges a legacy price (Apple, "Implementing promotional offers in your app"): a price the App Store won't
/// charge must never be shown.
public enum LegacyCharge: Sendable, Hashable, CustomStringConvertible {
    /// A promotional offer on an auto-renewable subscription, set up in App Store Connect under this
    /// identifier; the app applies it with `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`
    /// and its server signs the JWS with an In-App Purchase key.
    case promotionalOffer(id: String)
    /// A separate product, sold only to the tier at the legacy price, that grants what the regular one does.
    case legacyProduct(String)
    /// The auto-renewable subscription's introductory offer (set up in App Store Connect at the legacy price),
    /// granted to the tier per purchase: the app's server signs the eligibility
    /// (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`, App Store Server Library's
    /// `IntroductoryOfferEligibilitySignatureCreator`). It discounts the first periods only.
    case introductoryOffer

    /// The plan key that names this mechanism (`promotionalOffer`, `legacyProduct` or `introductoryOffer`).
    public var key: String {
        switch self {
        case .promotionalOffer: PlanKeys.Discount.promotionalOffer.rawValue
        case .legacyProduct: PlanKeys.Discount.legacyProduct.rawValue
        case .introductoryOffer: PlanKeys.Discount.introductoryOffer.rawValue
        }
    }

    /// The offer identifier, the product id, or `introductory`.
    public var value: String {
        switch self {
        case .promotionalOffer(let id): id
        case .legacyProduct(let id): id
        case .introductoryOffer: "introductory"
        }
    }

    /// How reports say it: `promotional offer tally.legacy.yearly`, `legacy product com.example.app.pro.legacy`.
    public var description: String {
        switch self {
        case .promotionalOffer(let id): "promotional offer \(id)"
        case .legacyProduct(let id): "legacy product \(id)"
        case .introductoryOffer: "introductory offer (eligibility signed)"
        }
    }

    /// The longest offer identifier accepted.
    public static let maximumOfferIDLength = 64

    /// Why `id` can't be an App Store offer identifier, or nil when it can: letters, digits, `.`, `_`
    /// and `-`, at most `maximumOfferIDLength` characters.
    public static func offerIDProblem(_ id: String) -> String? {
        if id.count > maximumOfferIDLength {
            return "is \(id.count) characters long; an offer identifier has at most \(maximumOfferIDLength)"
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        if let bad = id.first(where: { !allowed.contains($0) }) {
            return "contains '\(bad)'; an offer identifier uses only letters, digits, '.', '_' and '-'"
        }
        return nil
    }
}

/// Decisions the plan makes for cases the App Store leaves open.
public struct Policies: Sendable, Hashable {
    /// What a sandbox, TestFlight or Xcode customer is, since their original version is always "1.0".
    public enum NonProduction: Sendable, Hashable {
        /// Treat testers as new customers who own only what they bought in the sandbox.
        case newCustomer
        /// Treat testers as members of this tier, to try the grandfathered path.
        case tier(String)
    }

    /// What to do when the App Store's signature does not verify.
    public enum VerificationFailure: Sendable, Hashable {
        /// Grant nothing that needs proof.
        case deny
        /// Keep the last verified entitlements for this many days, so a bug or an outage
        /// doesn't lock out people who paid (FullControl 3.0.3).
        case keepLastVerified(days: Int)
    }

    public enum FamilySharing: String, Sendable, Hashable {
        case entitles
        case ignored
    }

    /// Which cutoff rule to use; `automatic` picks the version rule unless it is ambiguous.
    public enum CutoffRule: String, Sendable, Hashable {
        case automatic
        case version
        case date
    }

    /// A legacy tier granted for a few days on the app's own local evidence (data only the paid app could have
    /// written) while the App Store can't be reached at a first launch and nothing verified is cached.
    public struct ProvisionalGrant: Sendable, Hashable {
        /// The tier granted.
        public var tier: String
        /// How long the grant may last, from its first day on a device; the App Store's answer ends it sooner.
        public var days: Int

        public init(tier: String, days: Int) {
            self.tier = tier
            self.days = days
        }
    }

    public var nonProduction: NonProduction
    public var verificationFailure: VerificationFailure
    public var familySharing: FamilySharing
    public var cutoffRule: CutoffRule
    /// Nil, the safe default: until the App Store answers, the purchase is being checked and nothing is granted.
    public var provisionalGrant: ProvisionalGrant?

    public init(
        nonProduction: NonProduction = .newCustomer, verificationFailure: VerificationFailure = .deny,
        familySharing: FamilySharing = .entitles, cutoffRule: CutoffRule = .automatic, provisionalGrant: ProvisionalGrant? = nil
    ) {
        self.nonProduction = nonProduction
        self.verificationFailure = verificationFailure
        self.familySharing = familySharing
        self.cutoffRule = cutoffRule
        self.provisionalGrant = provisionalGrant
    }
}

/// What the App Store's sales reports say about who got the app and its products, in units.
///
/// Money is left out on purpose: reports mix currencies, and simulations take prices from the plan.
public struct InstallBase: Sendable, Hashable {
    /// The first day the reports cover (UTC).
    public var from: Date?
    /// The last day the reports cover (UTC), inclusive.
    public var until: Date?
    /// App downloads per platform and marketing version.
    public var downloads: [DownloadCount]
    /// In-app purchases per product.
    public var products: [ProductCount]
    /// Paid downloads per calendar month (UTC) of the reports, oldest first: the series `simulate` fits its
    /// staying-paid trend to.
    public var months: [MonthlyDownloads]

    public init(
        from: Date? = nil, until: Date? = nil, downloads: [DownloadCount] = [], products: [ProductCount] = [], months: [MonthlyDownloads] = []
    ) {
        self.from = from
        self.until = until
        self.downloads = downloads
        self.products = products
        self.months = months
    }
}

/// Paid downloads in one calendar month, net of refunds.
public struct MonthlyDownloads: Sendable, Hashable {
    /// `2011-03`.
    public var month: String
    public var paid: Int

    public init(month: String, paid: Int) {
        self.month = month
        self.paid = paid
    }

    /// `2011-03` for a date, in UTC.
    public static func month(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        return String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
    }

    /// Whether `text` is a month written `YYYY-MM`.
    public static func isMonth(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]) else { return false }
        return year >= 2008 && (1...12).contains(month)
    }
}

/// Downloads of one marketing version. Sales reports carry the marketing version, never the build.
public struct DownloadCount: Sendable, Hashable {
    public var platform: Platform?
    /// Nil when the report didn't say.
    public var version: Version?
    /// Paid downloads, net of refunds.
    public var paid: Int
    /// Free downloads (first-time, not updates or redownloads).
    public var free: Int
    /// Refunded downloads (already subtracted from `paid`).
    public var refunds: Int

    public init(platform: Platform? = nil, version: Version? = nil, paid: Int = 0, free: Int = 0, refunds: Int = 0) {
        self.platform = platform
        self.version = version
        self.paid = paid
        self.free = free
        self.refunds = refunds
    }
}

/// Sales of one in-app product.
public struct ProductCount: Sendable, Hashable {
    public var product: String
    /// Units sold, net of refunds.
    public var units: Int
    /// Refunded units (already subtracted from `units`).
    public var refunds: Int

    public init(product: String, units: Int, refunds: Int = 0) {
        self.product = product
        self.units = units
        self.refunds = refunds
    }
}

extension Release {
    /// What makes a release the same release: platform, version and build, compared as versions
    /// (`2.0` is `2`). The plan rejects two with one identity, and `init` refuses the second at once.
    public static func identity(platform: Platform, version: Version, build: Version?) -> String {
        "\(platform) \(version.canonical) \(build?.canonical ?? "-")"
    }
}
