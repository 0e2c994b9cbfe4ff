import MigrateCore
import MigratePlan

/// One cohort the plan creates, as the cohort preview shows it.
public struct CohortPreviewRow: Sendable, Hashable {
    /// `tier 'paid-1.0'` or `new free users`.
    public var cohort: String
    public var tierID: String?
    public var platform: Platform
    /// Products this state owns (empty: owns nothing).
    public var owns: [String]
    /// Estimated people in this state by the end of the horizon; nil when nothing says.
    public var size: Double?
    public var entitlements: [String]
    /// From MigrateCore's `Advisor`: what the upsell screen shows, cheapest useful first.
    public var offers: [Offer]
    public var withheld: [WithheldOffer]
    public var reason: String
}

/// Every cohort the plan creates, with the offers the engine would show it.
public enum CohortPreview {
    public static func rows(for scenario: PreparedScenario) -> [CohortPreviewRow] {
        let advisor = Advisor(catalog: scenario.catalog)
        let plan = scenario.plan
        let values = scenario.medians
        let buyers = scenario.model.expectedBuyers(values)
        let legacyTotal = scenario.model.legacyBuyers(values)
        let downloads = scenario.model.totalDownloads(values)
        var rows: [CohortPreviewRow] = []
        for (index, cohort) in scenario.model.cohorts.enumerated() {
            let customer = scenario.representatives[index]
            let base = advisor.report(for: customer)
            let label: String
            let size: Double
            var tierID: String?
            let origin: String
            switch cohort.kind {
            case .legacy(let id):
                tierID = id
                let tier = scenario.catalog.tier(withID: id)
                label = "tier '\(id)'"
                size = legacyTotal * cohort.share
                let names = tier.map { $0.name } ?? id
                origin = names
            case .newCustomers:
                label = "new free users"
                size = downloads * cohort.share
                origin = "downloaded free \(customer.originalAppVersion.map { "build \($0)" } ?? "")"
            }
            rows.append(row(label, tierID: tierID, customer: customer, owns: [], size: size, report: base, origin: origin))

            // Ownership states that matter: having bought what this cohort is offered, and owning a retired
            // product that still entitles (bought before it left the store).
            var states: [(product: String, size: Double?)] = []
            for (offerIndex, offer) in base.upsell.offers.enumerated() {
                states.append((offer.productID, buyers[index].indices.contains(offerIndex) ? buyers[index][offerIndex] : nil))
            }
            if case .newCustomers = cohort.kind {
                for product in plan.products where !product.forSale && product.kind != .consumable {
                    let features = scenario.catalog.productFeatures[product.id] ?? []
                    guard !features.subtracting(base.entitlements.featureIDs).isEmpty,
                        Set(product.requires).isSubset(of: base.entitlements.featureIDs)
                    else { continue }
                    let units = plan.installBase?.products.first { $0.product == product.id }.map { Double($0.units) * cohort.share }
                    states.append((product.id, units))
                }
            }
            for state in states {
                var owner = customer
                owner.purchases = [OwnedProduct(productID: state.product)]
                let report = advisor.report(for: owner)
                let name = plan.product(withID: state.product)?.name ?? state.product
                rows.append(row(label, tierID: tierID, customer: owner, owns: [state.product], size: state.size, report: report, origin: "bought \(name)"))
            }
        }
        return rows
    }

    static func row(
        _ label: String, tierID: String?, customer: Customer, owns: [String], size: Double?, report: CustomerReport, origin: String
    ) -> CohortPreviewRow {
        var parts: [String] = [origin]
        if report.upsell.offers.isEmpty {
            parts.append(report.upsell.notes.first.map { $0.components(separatedBy: ":").first ?? $0 } ?? "nothing offered")
        } else {
            parts.append(report.upsell.offers.map { "\($0.name) \($0.reason)" }.joined(separator: "; "))
        }
        for withheld in report.upsell.withheld where withheld.reason.hasPrefix("would charge again") {
            let short = withheld.reason.components(separatedBy: ";").first ?? withheld.reason
            parts.append("bundle withheld: it \(short)")
        }
        return CohortPreviewRow(
            cohort: label, tierID: tierID, platform: customer.platform, owns: owns, size: size, entitlements: report.entitlements.features.map(\.featureID),
            offers: report.upsell.offers, withheld: report.upsell.withheld, reason: parts.joined(separator: "; "))
    }
}
