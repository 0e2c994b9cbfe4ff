import MigratePlan

/// Everything `migrate explain` says about one customer.
public struct CustomerReport: Sendable, Hashable {
    public var customer: Customer
    public var decision: CohortDecision
    public var tier: ResolvedTier?
    public var entitlements: Entitlements
    public var upsell: UpsellResult
}

/// The engine's front door: one customer in, cohort, features and offers out.
public struct Advisor: Sendable {
    public let catalog: PlanCatalog
    private let cohorts: CohortResolver
    private let resolver: EntitlementResolver
    private let upsells: UpsellPolicy

    public init(plan: MigrationPlan) {
        self.init(catalog: PlanCatalog(plan))
    }

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
        cohorts = CohortResolver(catalog: catalog)
        // One copy of the plan's tables for both: they are the same rules' input.
        let rules = catalog.makeRules()
        resolver = EntitlementResolver(catalog: catalog, rules: rules)
        upsells = UpsellPolicy(catalog: catalog, rules: rules)
    }

    /// The offers policy this advisor words its reports with, over the same tables.
    public var upsellPolicy: UpsellPolicy { upsells }

    public func report(for customer: Customer) -> CustomerReport {
        report(for: customer, decided: cohorts.decide(customer))
    }

    /// The customer's cohort alone.
    public func cohortDecision(for customer: Customer) -> CohortDecision {
        cohorts.decide(customer)
    }

    /// The customer's cohort, rule and track without the reasons, for a long list: what `cohortDecision(for:)`
    /// decides, not what it says.
    public func cohortOnly(for customer: Customer) -> CohortDecision {
        cohorts.decideWithoutReasons(customer)
    }

    /// The report for a customer whose cohort is already decided (by `cohortDecision(for:)`).
    ///
    /// Entitlements and offers read only the decision's cohort and rule and the customer's platform,
    /// purchases, verification, volume purchase and clock (`BatchDecider` relies on this to reuse them).
    public func report(for customer: Customer, decided decision: CohortDecision) -> CustomerReport {
        let entitlements = resolver.resolve(customer, decision: decision)
        let upsell = upsells.offers(for: customer, decision: decision, entitlements: entitlements)
        var tier: ResolvedTier?
        if case .legacy(let id) = decision.cohort { tier = catalog.tier(withID: id) }
        return CustomerReport(customer: customer, decision: decision, tier: tier, entitlements: entitlements, upsell: upsell)
    }
}
