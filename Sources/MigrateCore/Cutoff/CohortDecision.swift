import Foundation
import MigratePlan

/// Which group of customers someone belongs to, by the era of their original purchase.
public enum Cohort: Sendable, Hashable {
    /// A buyer of a paid era, who keeps what the tier grants.
    case legacy(tierID: String)
    /// Someone who got the app free (or whose paid purchase doesn't count), who owns only what they buy.
    case newCustomer
}

/// How the cohort was decided.
public enum CutoffRuleKind: String, Sendable, Hashable {
    /// `originalAppVersion` compared numerically with the releases' build numbers (iOS family).
    case buildNumber
    /// `originalAppVersion` compared numerically with the releases' marketing versions (macOS).
    case marketingVersion
    /// `originalPurchaseDate` compared with the moments releases went live.
    case purchaseDate
    /// A sandbox, TestFlight or Xcode customer, decided by the plan's policy.
    case environmentPolicy
    /// The app transaction didn't verify (or can't be read) and nothing verified may decide: the original
    /// purchase is unknown, so what a legacy tier could own is not sold until it verifies.
    case noProof
    /// The paid download was refunded (`AppTransaction.revocationDate`): proven not to be a legacy buyer, so
    /// a new customer who may buy anything.
    case refunded
    /// Nothing to decide with.
    case undetermined

    public var displayName: String {
        switch self {
        case .buildNumber: "build number (CFBundleVersion), compared numerically"
        case .marketingVersion: "marketing version (CFBundleShortVersionString), compared numerically"
        case .purchaseDate: "original purchase date, compared with release dates (UTC)"
        case .environmentPolicy: "environment policy (policies.nonProduction)"
        case .noProof: "no verified proof of purchase"
        case .refunded: "the paid download was refunded"
        case .undetermined: "undetermined"
        }
    }
}

/// The cohort and everything that explains it.
public struct CohortDecision: Sendable, Hashable {
    public var cohort: Cohort
    public var rule: CutoffRuleKind
    /// The platform whose releases gave the original version its meaning.
    public var trackPlatform: Platform?
    /// Index into `plan.releases` of the release the customer first got.
    public var originalRelease: Int?
    /// The comparisons that decided it, e.g. `build 31 < 40 (numeric), the first build of 2.0 (40), a free release`.
    public var comparisons: [String]
    /// Why this rule, in sentences.
    public var reasons: [String]
    /// Things the developer should know about this customer.
    public var notes: [String]
    /// True when the tier came from a cached verification (policies.verificationFailure).
    public var fromCache: Bool

    public init(
        cohort: Cohort, rule: CutoffRuleKind, trackPlatform: Platform? = nil, originalRelease: Int? = nil,
        comparisons: [String] = [], reasons: [String] = [], notes: [String] = [], fromCache: Bool = false
    ) {
        self.cohort = cohort
        self.rule = rule
        self.trackPlatform = trackPlatform
        self.originalRelease = originalRelease
        self.comparisons = comparisons
        self.reasons = reasons
        self.notes = notes
        self.fromCache = fromCache
    }
}
