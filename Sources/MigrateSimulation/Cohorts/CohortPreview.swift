import MigrateCore
import MigratePlan

/// One cohort the plan creates, as the cohort preview shows it.
public struct CohortPreviewRow: Sendable, Hashable {
    /// `tier 'paid-1.0'` or `new free users`.
    public var cohort: String
    public var tierID: String?
    public var platform: Platform
    /// Products this state owns (empty: owns nothing, or a folded row).
    public var owns: [String]
    /// Estimated people in this state by the end of the horizon; nil when nothing says.
    public var size: Double?
    public var entitlements: [String]
    /// From MigrateCore's `Advisor`: what the upsell screen shows, cheapest useful first.
    public var offers: [Offer]
    public var withheld: [WithheldOffer]
    public var reason: String
    /// Set on a folded row: the states of owning any one of these products, one row for them all.
    /// `entitlements` are then what every one of them keeps (each adds what its product grants), and
    /// `offers` and `withheld` are empty: what each leaves on offer is listed only with `perOffer`.
    public var folded: FoldedStates?
    /// Set on a direct-sale edition's row: its license holders who redeem their code (`size` is the median), and
    /// what that can cost.
    public var directSale: DirectSaleFigures?
}

/// Ownership states folded into one row: owning one of a cohort's many offers, or one of many products
/// that are no longer sold.
public struct FoldedStates: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Having bought one of the offers the cohort is shown.
        case offers
        /// Owning a product that is no longer sold but still entitles (bought before it left the store).
        case retired
    }

    /// A product one of the folded states owns, with the expected people owning it (nil when nothing says).
    public struct Choice: Sendable, Hashable {
        public var productID: String
        public var name: String
        public var size: Double?
    }

    public var kind: Kind
    public var choices: [Choice]
}

/// Every cohort the plan creates, with the offers the engine would show it.
public enum CohortPreview {
    /// A cohort shown more offers than this (or whose new users may own more retired products) gets one
    /// row for owning any one of them instead of one each: every state's row lists the cohort's offers,
    /// so one row each would grow with the square of the catalog. `perOffer` lists them all.
    public static let foldedAbove = 10

    /// - Parameter perOffer: one row for every ownership state, however many (`simulate --offer-states`);
    ///   the work then grows with the square of the offers.
    public static func rows(for scenario: PreparedScenario, perOffer: Bool = false) -> [CohortPreviewRow] {
        let advisor = Advisor(catalog: scenario.catalog)
        let plan = scenario.plan
        let catalog = scenario.catalog
        let values = scenario.medians
        let buyers = scenario.model.expectedBuyers(values)
        let legacyTotal = scenario.model.legacyBuyers(values)
        let downloads = scenario.model.totalDownloads(values)
        let installed = Dictionary((plan.installBase?.products ?? []).map { ($0.product, $0.units) }, uniquingKeysWith: { first, _ in first })
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
                let tier = catalog.tier(withID: id)
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
            var bought: [FoldedStates.Choice] = []
            for (offerIndex, offer) in base.upsell.offers.enumerated() {
                let expected = buyers[index].indices.contains(offerIndex) ? buyers[index][offerIndex] : nil
                bought.append(FoldedStates.Choice(productID: offer.productID, name: offer.name, size: expected))
            }
            var retired: [FoldedStates.Choice] = []
            if case .newCustomers = cohort.kind {
                let keeps = base.entitlements.featureIDs
                for product in plan.products where !product.forSale && product.kind != .consumable {
                    let features = catalog.productFeatures[product.id] ?? []
                    guard !features.subtracting(keeps).isEmpty, Set(product.requires).isSubset(of: keeps) else { continue }
                    let units = installed[product.id].map { Double($0) * cohort.share }
                    retired.append(FoldedStates.Choice(productID: product.id, name: product.name, size: units))
                }
            }
            for (kind, choices) in [(FoldedStates.Kind.offers, bought), (.retired, retired)] where !choices.isEmpty {
                if !perOffer && choices.count > foldedAbove {
                    rows.append(folded(kind, choices, label: label, tierID: tierID, customer: customer, base: base))
                    continue
                }
                for choice in choices {
                    var owner = customer
                    owner.purchases = [OwnedProduct(productID: choice.productID)]
                    let report = advisor.report(for: owner)
                    rows.append(
                        row(
                            label, tierID: tierID, customer: owner, owns: [choice.productID], size: choice.size, report: report,
                            origin: "bought \(choice.name)"))
                }
            }
        }
        return rows + directSaleRows(for: scenario)
    }

    static func row(
        _ label: String, tierID: String?, customer: Customer, owns: [String], size: Double?, report: CustomerReport, origin: String
    ) -> CohortPreviewRow {
        var parts: [String] = [origin]
        if report.upsell.offers.isEmpty {
            parts.append(report.upsell.remarks.first?.summary ?? "nothing offered")
        } else {
            parts.append(report.upsell.offers.map { "\($0.name) \($0.reason)" }.joined(separator: "; "))
        }
        for withheld in report.upsell.withheld where withheld.why.chargesTwice {
            parts.append("bundle withheld: it \(withheld.why.summary)")
        }
        return CohortPreviewRow(
            cohort: label, tierID: tierID, platform: customer.platform, owns: owns, size: size,
            entitlements: report.entitlements.features.map(\.featureID),
            offers: report.upsell.offers, withheld: report.upsell.withheld, reason: parts.joined(separator: "; "))
    }

    /// One row for owning any one of `choices`: its size is theirs added up (where known), and it keeps what
    /// the cohort keeps without them; each adds what its product grants.
    static func folded(
        _ kind: FoldedStates.Kind, _ choices: [FoldedStates.Choice], label: String, tierID: String?, customer: Customer, base: CustomerReport
    ) -> CohortPreviewRow {
        let sizes = choices.compactMap(\.size)
        let what = kind == .offers ? "one of its \(choices.count) offers" : "one of \(choices.count) products no longer sold"
        let reason =
            "bought \(what), each adding what it grants; one state each is folded into this row, "
            + "and --offer-states lists what each keeps and is still offered"
        return CohortPreviewRow(
            cohort: label, tierID: tierID, platform: customer.platform, owns: [], size: sizes.isEmpty ? nil : sizes.reduce(0, +),
            entitlements: base.entitlements.features.map(\.featureID), offers: [], withheld: [], reason: reason,
            folded: FoldedStates(kind: kind, choices: choices))
    }
}
