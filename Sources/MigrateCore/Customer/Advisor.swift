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

    public init(plan: MigrationPlan) {
        self.catalog = PlanCatalog(plan)
    }

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
    }

    public func report(for customer: Customer) -> CustomerReport {
        let decision = CohortResolver(catalog: catalog).decide(customer)
        let entitlements = EntitlementResolver(catalog: catalog).resolve(customer, decision: decision)
        let upsell = UpsellPolicy(catalog: catalog).offers(for: customer, decision: decision, entitlements: entitlements)
        var tier: ResolvedTier?
        if case .legacy(let id) = decision.cohort { tier = catalog.tier(withID: id) }
        return CustomerReport(customer: customer, decision: decision, tier: tier, entitlements: entitlements, upsell: upsell)
    }
}
