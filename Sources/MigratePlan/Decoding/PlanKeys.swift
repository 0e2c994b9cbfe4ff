import FreemiumStoreKit
import MigrateSupport

/// The keys of one object of a plan, declared once as the cases of an enum: the decoder accepts exactly these
/// and reads each through its case (`ObjectReader<PlanKeys.Release>`), the encoder writes them through the same
/// cases, and the schema describes them in an exhaustive switch, so a key added here can't be forgotten there.
public protocol PlanObjectKeys: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible where RawValue == String {}

extension PlanObjectKeys {
    /// The key as it is written in the file.
    public var description: String { rawValue }

    /// Every key, in declaration order (which is the order the encoder writes and messages list them).
    public static var names: [String] { allCases.map(\.rawValue) }

    /// An object with these keys, in the order given; nil values are left out.
    public static func members(_ pairs: [(Self, JSONValue?)]) -> JSONValue {
        .members(pairs.map { ($0.rawValue, $1) })
    }
}

/// The model's product kinds, named outside `PlanKeys`, where `Product` is the product object's keys.
private typealias ProductKind = Product.Kind

/// The keys of an `assumptions` object are the assumptions.
extension SimulationAssumption: PlanObjectKeys {}

/// The keys of each object of a plan, and the closed sets of values some of them take.
public enum PlanKeys {
    public enum Root: String, PlanObjectKeys {
        case schema = "$schema"
        case formatVersion, app, features, releases, products, tiers, policies, installBase, simulation, directSales
    }
    public enum App: String, PlanObjectKeys { case name, bundleID, platforms, universalPurchase, sku, appleID }
    public enum Feature: String, PlanObjectKeys { case id, name }
    public enum Release: String, PlanObjectKeys { case platform, version, build, released, releasedSource, model, price, includes }
    public enum Product: String, PlanObjectKeys {
        case id, name, type, price, grants, contains, requires, forSale, familyShareable, subscription, trial, duration
    }
    public enum Subscription: String, PlanObjectKeys { case group, level, period, introductoryOffer }
    public enum IntroductoryOffer: String, PlanObjectKeys { case paymentMode, period, periods, price }
    public enum Tier: String, PlanObjectKeys { case id, name, from, until, platforms, grants, takesAway, discounts }
    public enum Discount: String, PlanObjectKeys {
        case product, price
        /// The mechanisms that charge a legacy price; a discount names exactly one.
        case promotionalOffer, legacyProduct, introductoryOffer
    }
    public enum Policies: String, PlanObjectKeys { case nonProduction, verificationFailure, familySharing, cutoffRule, provisionalGrant }
    public enum ProvisionalGrant: String, PlanObjectKeys { case tier, days }
    public enum NonProduction: String, PlanObjectKeys { case treatAs, tier }
    public enum VerificationFailure: String, PlanObjectKeys { case action, days }
    public enum InstallBase: String, PlanObjectKeys { case from, until, downloads, products, months }
    public enum MonthlyDownloads: String, PlanObjectKeys { case month, paid }
    public enum DownloadCount: String, PlanObjectKeys { case platform, version, paid, free, refunds }
    public enum ProductCount: String, PlanObjectKeys { case product, units, refunds }
    public enum Simulation: String, PlanObjectKeys { case horizonMonths, commission, assumptions, scenarios, seasonality }
    public enum Scenario: String, PlanObjectKeys { case id, name, assumptions, prices, tiers, commission }
    public enum ScenarioPrice: String, PlanObjectKeys { case product, price }
    public enum Distribution: String, PlanObjectKeys { case distribution, value, low, mode, high }

    public static let releasedSources = ReleaseDateSource.allCases.map(\.rawValue)
    public static let distributions = ["point", "uniform", "triangular", "logNormal"]
    public static let commissions = Commission.allCases.map(\.rawValue)

    public static let productTypes = ProductKind.allCases.map(\.rawValue)
    public static let models = ["paid", "free"]
    public static let subscriptionPeriods = SubscriptionPeriods.ids
    /// The lengths App Store Connect offers for an introductory offer (a free trial from 3 days, a pay-up-front
    /// offer from a month, one period of a pay-as-you-go offer).
    public static let introductoryPeriods = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    public static let paymentModes = MigratePlan.IntroductoryOffer.PaymentMode.allCases.map(\.rawValue)
    /// How many periods a pay-as-you-go introductory offer may last.
    public static let introductoryPeriodCounts: ClosedRange<Int> = 1...12
    public static let nonProductionChoices = ["newCustomer", "tier"]
    public static let verificationFailureChoices = ["deny", "keepLastVerified"]
    /// The days `keepLastVerified` may keep a verified result: the one bound the decoder, the schema,
    /// `init`'s question and its `--verification-failure` flag all read.
    public static let keepLastVerifiedDays: ClosedRange<Int> = 1...90
    /// The days a provisional grant may last: long enough for a trip offline, short enough that forged
    /// evidence gains little.
    public static let provisionalGrantDays: ClosedRange<Int> = 1...7
    public static let familySharingChoices = ["entitles", "ignored"]
    public static let cutoffRuleChoices = ["automatic", "version", "date"]
}

extension JSONPath {
    /// `origin / PlanKeys.Product.grants`: a path into a plan object, named by its key's case.
    public static func / <Key: PlanObjectKeys>(path: JSONPath, key: Key) -> JSONPath {
        path / key.rawValue
    }
}

extension PlanObjectKeys {
    /// An object with these keys, in the order given.
    public static func object(_ pairs: KeyValuePairs<Self, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key.rawValue, value: JSONNode($0.value)) })
    }
}
