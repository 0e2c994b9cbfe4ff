import Foundation
import MigratePlan

/// A doubt about one decided customer of a list: written in the row's `warnings` column (CSV, separated
/// by spaces) or key (JSON Lines, an array), and counted in the summary. The row is decided all the same;
/// `explain --batch --strict` makes any of them a failed check.
public enum BatchRowWarning: String, CaseIterable, Sendable, Hashable, Comparable {
    /// Bought while a paid release was on sale (by `originalPurchaseDate`), yet decided a new customer by
    /// the version: the version and the date disagree about the era.
    case paidButNew
    /// Downloaded while the app was free (by date), yet decided legacy by the version.
    case freeButLegacy
    /// Not production (Sandbox, Xcode): `originalAppVersion` is always "1.0" in the sandbox, so the row shows
    /// `policies.nonProduction`, not what a customer gets.
    case notProduction
    /// The original version is no release of the plan (it is still compared with the releases around it).
    case unknownVersion
    /// Neither an original version nor a purchase date the plan can judge: decided a new customer.
    case undetermined
    /// Bought before the first release the plan lists on the customer's track (a pre-order, or a release
    /// missing from the plan).
    case beforeFirstRelease
    /// A transaction history the App Store Server API said has more pages (`hasMore`): products on the
    /// pages not given are missing, so offers may be wrong.
    case incompleteHistory
    /// A product the row names is none of the plan's products (a misspelled id, two ids joined by a comma, another
    /// app's product): the customer is decided as owning nothing of it.
    case unknownProduct
    /// The row's customer id (its `customerID` or other id column) is an earlier row's: one customer listed twice,
    /// perhaps decided two ways.
    case duplicateCustomer

    public static func < (left: Self, right: Self) -> Bool { left.position < right.position }

    /// Where the warning is in `allCases`: the order rows and the summary list warnings in.
    public var position: Int {
        switch self {
        case .paidButNew: 0
        case .freeButLegacy: 1
        case .notProduction: 2
        case .unknownVersion: 3
        case .undetermined: 4
        case .beforeFirstRelease: 5
        case .incompleteHistory: 6
        case .unknownProduct: 7
        case .duplicateCustomer: 8
        }
    }

    /// What the warning means, for the manual and the summary.
    public var meaning: String {
        switch self {
        case .paidButNew: "bought while a paid release was on sale (by originalPurchaseDate) but decided a new customer by the version"
        case .freeButLegacy: "downloaded while the app was free (by originalPurchaseDate) but decided legacy by the version"
        case .notProduction: "not production: the row shows policies.nonProduction, not what a customer gets"
        case .unknownVersion: "the original version is no release in the plan"
        case .undetermined: "neither an original version nor a purchase date the plan can judge, so decided a new customer"
        case .beforeFirstRelease: "bought before the first release the plan lists (a pre-order, or a release missing from the plan)"
        case .incompleteHistory: "a transaction history with more pages (hasMore): products on the missing pages are not counted"
        case .unknownProduct: "a product the row names is none of the plan's, so it is decided as owning nothing of it"
        case .duplicateCustomer: "the row's customer id is an earlier row's: one customer listed twice"
        }
    }
}

/// Finds the doubts about one decided customer. One per thread: it remembers the version texts it judged.
public struct BatchRowJudge: Sendable {
    public let catalog: PlanCatalog
    private let knownVersions: Set<Version>
    private let knownProducts: Set<String>
    /// Version texts already judged (nil: not a version), so a list of a million parses each distinct text once.
    private var judged: [String: Bool?] = [:]

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
        var versions = Set<Version>()
        for release in catalog.plan.releases {
            versions.insert(release.version)
            if let build = release.build { versions.insert(build) }
        }
        knownVersions = versions
        knownProducts = Set(catalog.plan.products.map(\.id))
    }

    /// The warnings for `customer`, decided as `decision`, sorted.
    public mutating func warnings(for customer: Customer, decision: CohortDecision) -> [BatchRowWarning] {
        let unknownProduct = customer.purchases.contains { !knownProducts.contains($0.productID) }
        guard customer.environment == .production else { return unknownProduct ? [.notProduction, .unknownProduct] : [.notProduction] }
        var warnings: [BatchRowWarning] = unknownProduct ? [.unknownProduct] : []
        let isLegacy: Bool
        if case .legacy = decision.cohort { isLegacy = true } else { isLegacy = false }
        if decision.rule == .undetermined { warnings.append(.undetermined) }
        if let text = customer.originalAppVersion, isUnknown(text) { warnings.append(.unknownVersion) }
        let track = decision.trackPlatform ?? catalog.trackPlatform(for: customer.originalPlatform ?? customer.platform)
        if let date = customer.originalPurchaseDate, let track {
            if let first = catalog.tracks[track]?.first, date < catalog.plan.releases[first].released {
                warnings.append(.beforeFirstRelease)
            } else if !customer.isAppPurchaseRevoked, decision.rule != .purchaseDate, let release = catalog.release(liveAt: date, on: track) {
                // The version decided; the purchase date should agree about the era.
                let paid = catalog.plan.releases[release].model.isPaid
                if paid && !isLegacy { warnings.append(.paidButNew) }
                if !paid && isLegacy { warnings.append(.freeButLegacy) }
            }
        }
        return warnings.sorted()
    }

    /// Whether a version text parses and is no release of the plan.
    private mutating func isUnknown(_ text: String) -> Bool {
        if let known = judged[text] { return known ?? false }
        let version = try? Version(text)
        let unknown = version.map { !knownVersions.contains($0) }
        if judged.count < 10_000 { judged[text] = .some(unknown) }
        return unknown ?? false
    }
}
