import Foundation
import MigratePlan

/// What `explain --batch` says about one row: the same cohort, features and offers as `explain`.
public struct BatchDecision: Sendable, Hashable {
    public var cohort: Cohort
    public var rule: CutoffRuleKind
    public var trackPlatform: Platform?
    public var features: [String]
    public var offers: [String]
    public var withheld: [String]
    /// The doubts about this customer, sorted; the decision stands, but the row says them.
    public var warnings: [BatchRowWarning] = []

    /// `legacy` or `newCustomer`, as the `cohort` column writes it.
    public var cohortName: String {
        if case .legacy = cohort { return "legacy" }
        return "newCustomer"
    }

    /// The legacy tier's id, or nil.
    public var tierID: String? {
        if case .legacy(let id) = cohort { return id }
        return nil
    }
}

/// Decides many customers with one plan, as fast as a list of a million needs.
///
/// Each customer's cohort is decided on its own. Features and offers depend on far fewer facts (the
/// cohort and rule, and the customer's platform, purchases, verification, volume purchase and clock;
/// see `Advisor.report(for:decided:)`), which repeat across a list, so they are worked out once per
/// distinct set and reused. `BatchDeciderTests` checks every reuse against a fresh `Advisor.report`.
public struct BatchDecider: Sendable {
    public let advisor: Advisor

    private struct Key: Hashable, Sendable {
        var cohort: Cohort
        var rule: CutoffRuleKind
        var platform: Platform
        var appTransaction: VerificationStatus
        var isVolumePurchase: Bool
        var now: Date?
        var purchases: [OwnedProduct]
    }

    private struct Granted: Sendable {
        var features: [String]
        var offers: [String]
        var withheld: [String]
    }

    private var granted: [Key: Granted] = [:]
    private var judge: BatchRowJudge
    /// Distinct sets held at once: past it the table starts again, so memory stays bounded on any list.
    private let capacity: Int

    public init(catalog: PlanCatalog, capacity: Int = 65_536) {
        advisor = Advisor(catalog: catalog)
        judge = BatchRowJudge(catalog: catalog)
        self.capacity = capacity
    }

    /// Decides `customer`; `doubts` are what its source said about it (an incomplete history), added to the
    /// row's warnings.
    public mutating func decide(_ customer: Customer, doubts: [BatchRowWarning] = []) -> BatchDecision {
        // The words of each decision are explain's; a list keeps only the cohort, rule and track.
        let decision = advisor.cohortOnly(for: customer)
        let key = Key(
            cohort: decision.cohort, rule: decision.rule, platform: customer.platform, appTransaction: customer.appTransaction,
            isVolumePurchase: customer.isVolumePurchase, now: customer.now, purchases: customer.purchases)
        let result: Granted
        if let known = granted[key] {
            result = known
        } else {
            let report = advisor.report(for: customer, decided: decision)
            result = Granted(
                features: report.entitlements.features.map(\.featureID), offers: report.upsell.offers.map(\.productID),
                withheld: report.upsell.withheld.map(\.productID))
            if granted.count >= capacity { granted.removeAll(keepingCapacity: true) }
            granted[key] = result
        }
        let judged = judge.warnings(for: customer, decision: decision)
        return BatchDecision(
            cohort: decision.cohort, rule: decision.rule, trackPlatform: decision.trackPlatform, features: result.features,
            offers: result.offers, withheld: result.withheld,
            warnings: doubts.isEmpty ? judged : Array(Set(judged + doubts)).sorted())
    }
}
