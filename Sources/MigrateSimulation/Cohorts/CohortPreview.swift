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
    /// Estimated people in this state by the end of the horizon, at the assumptions' medians; nil when nothing says.
    public var size: Double?
    /// The same estimate's P10, P50 and P90 over the draws (`CohortPreview.bandDraws` of the Monte Carlo's own), when
    /// there are draws and it varies: a cohort's size is as uncertain as the assumptions that make it.
    public var sizeBand: Percentiles?
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
    /// Draws that size the cohorts' bands: the Monte Carlo's first ones (the same seed and chunks), exact percentiles.
    public static let bandDraws = 1_000

    /// - Parameter perOffer: one row for every ownership state, however many (`simulate --offer-states`);
    ///   the work then grows with the square of the offers.
    ///   - draws: the run's draws; with none, sizes have no band.
    public static func rows(for scenario: PreparedScenario, perOffer: Bool = false, draws: Int = 0, seed: UInt64 = 1) -> [CohortPreviewRow] {
        let advisor = Advisor(catalog: scenario.catalog)
        let plan = scenario.plan
        let catalog = scenario.catalog
        let values = scenario.medians
        let buyers = scenario.model.expectedBuyers(values)
        let legacyTotal = scenario.model.legacyBuyers(values)
        let downloads = scenario.model.totalDownloads(values)
        let bands = SizeBands(scenario, draws: min(draws, bandDraws), seed: seed)
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
            var cohortRow = row(label, tierID: tierID, customer: customer, owns: [], size: size, report: base, origin: origin)
            cohortRow.sizeBand = bands?.cohort[index]
            rows.append(cohortRow)

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
                for (position, choice) in choices.enumerated() {
                    var owner = customer
                    owner.purchases = [OwnedProduct(productID: choice.productID)]
                    let report = advisor.report(for: owner)
                    var ownerRow = row(
                        label, tierID: tierID, customer: owner, owns: [choice.productID], size: choice.size, report: report,
                        origin: "bought \(choice.name)")
                    if kind == .offers { ownerRow.sizeBand = bands?.offers[index]?[position] }
                    rows.append(ownerRow)
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

/// The P10–P90 of each cohort's size and, for a cohort shown at most `CohortPreview.foldedAbove` offers, of each
/// offer's buyers, over the Monte Carlo's first draws.
struct SizeBands {
    var cohort: [Percentiles?]
    var offers: [[Percentiles?]?]

    init?(_ scenario: PreparedScenario, draws: Int, seed: UInt64) {
        guard draws > 1, scenario.assumptions.contains(where: { !$0.distribution.isPoint && !$0.origin.isDerived }) else { return nil }
        let model = scenario.model
        let sampling = DrawSampling(scenario)
        var values = scenario.medians
        var cohortSamples = [[Double]](repeating: [], count: model.cohorts.count)
        var offerSamples: [[[Double]]?] = model.cohorts.map { cohort in
            cohort.offers.count <= CohortPreview.foldedAbove ? [[Double]](repeating: [], count: cohort.offers.count) : nil
        }
        var generator = MonteCarlo.generator(seed: seed, chunk: 0)
        for draw in 0..<draws {
            if draw > 0, draw % MonteCarlo.chunkSize == 0 { generator = MonteCarlo.generator(seed: seed, chunk: draw / MonteCarlo.chunkSize) }
            sampling.draw(into: &values, using: &generator)
            let legacy = model.legacyBuyers(values)
            let downloads = model.totalDownloads(values)
            for (index, cohort) in model.cohorts.enumerated() {
                let people: Double
                let buyers: Double
                switch cohort.kind {
                case .legacy:
                    people = legacy * cohort.share
                    buyers = people * values.legacyUpgradeRate
                case .newCustomers:
                    people = downloads * cohort.share
                    buyers = people * values.conversion
                }
                cohortSamples[index].append(people)
                guard offerSamples[index] != nil else { continue }
                for (position, offer) in cohort.offers.enumerated() {
                    offerSamples[index]![position].append(buyers * offer.weight * offer.priceResponse(elasticity: values.priceElasticity))
                }
            }
        }
        cohort = cohortSamples.map(Self.band)
        offers = offerSamples.map { $0?.map(Self.band) }
    }

    /// Exact P10, P50 and P90 at the nearest rank; nil when every draw agrees (a measured count has no band).
    static func band(_ samples: [Double]) -> Percentiles? {
        let sorted = samples.sorted()
        guard let first = sorted.first, let last = sorted.last, last > first else { return nil }
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))] }
        return Percentiles(p10: at(0.1), p50: at(0.5), p90: at(0.9))
    }
}
