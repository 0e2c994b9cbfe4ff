import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// A scenario ready to run: the plan with its overrides applied, the engine's view of it, the
/// resolved assumptions and the compiled revenue model.
public struct PreparedScenario: Sendable {
    public static let baseID = "plan"

    public var id: String
    public var name: String
    public var plan: MigrationPlan
    public var catalog: PlanCatalog
    public var assumptions: [ResolvedAssumption]
    public var model: RevenueModel
    /// A representative customer for each revenue cohort (same order as `model.cohorts`).
    public var representatives: [Customer]

    /// The medians of every assumption: what a deterministic run uses.
    public var medians: RevenueModel.Values {
        assumptions.map { resolved in
            if resolved.assumption == .legacyBuyers, resolved.source.hasPrefix(Self.derivedMarker) { return .nan }
            return resolved.distribution.median
        }
    }

    /// How the source of an assumption worked out from others begins (`legacyBuyers` from the paid downloads).
    public static let derivedMarker = "derived:"

    /// Applies `scenario` (nil: the plan as written) and resolves every assumption.
    public static func prepare(
        _ plan: MigrationPlan, scenario: SimulationScenario?, overrides: [SimulationAssumption: Double] = [:],
        priceOverrides: [String: Price] = [:]
    ) throws(SimulationError) -> PreparedScenario {
        let settings = plan.simulation ?? SimulationSettings()
        var variant = plan
        if let scenario {
            for price in scenario.prices {
                if let index = variant.products.firstIndex(where: { $0.id == price.product }) { variant.products[index].price = price.price }
            }
            if let tiers = scenario.tiers { variant.tiers = tiers }
        }
        for (product, price) in priceOverrides {
            if let index = variant.products.firstIndex(where: { $0.id == product }) { variant.products[index].price = price }
        }
        let catalog = PlanCatalog(variant)
        let advisor = Advisor(catalog: catalog)
        let months = settings.horizonMonths ?? SimulationSettings.defaultHorizonMonths
        let commission = scenario?.commission ?? settings.commission ?? .standard

        // Cohorts: legacy buyers of each tier per platform track, and new free users per track.
        let tracks = orderedTracks(catalog)
        var cohorts: [RevenueCohort] = []
        var representatives: [Customer] = []
        var legacyWeights: [Double] = []
        let paidMonths = paidMonthsOnSale(catalog)
        let installed = installBaseWeights(catalog)
        for tier in catalog.tiers {
            for track in tracks {
                let members = tier.releases.filter { variant.releases[$0].platform == track }
                guard let newest = members.max(by: { variant.releases[$0].released < variant.releases[$1].released }) else { continue }
                let release = variant.releases[newest]
                let customer = Customer(
                    platform: track, originalAppVersion: (track == .macOS ? release.version : release.build ?? release.version).text,
                    originalPurchaseDate: release.released)
                let weight: Double
                if let installed {
                    weight = members.reduce(0) { $0 + (installed[$1] ?? 0) }
                } else {
                    weight = members.reduce(0) { $0 + (paidMonths.perRelease[$1] ?? 0) }
                }
                cohorts.append(RevenueCohort(kind: .legacy(tierID: tier.id), platform: track, share: 0, offers: []))
                representatives.append(customer)
                legacyWeights.append(weight)
            }
        }
        let legacyTotal = legacyWeights.reduce(0, +)
        for index in cohorts.indices { cohorts[index].share = legacyTotal > 0 ? legacyWeights[index] / legacyTotal : 0 }
        let freeTracks = tracks.filter { track in
            guard let newest = catalog.tracks[track]?.last else { return false }
            return !variant.releases[newest].model.isPaid
        }
        for track in freeTracks {
            let release = variant.releases[catalog.tracks[track]!.last!]
            let customer = Customer(
                platform: track, originalAppVersion: (track == .macOS ? release.version : release.build ?? release.version).text,
                originalPurchaseDate: release.released)
            cohorts.append(RevenueCohort(kind: .newCustomers, platform: track, share: 1 / Double(freeTracks.count), offers: []))
            representatives.append(customer)
        }

        // Offers come from the engine, so the simulation sells exactly what the app will show.
        var slots: [String: Int] = [:]
        var subscriptions: [OfferSpec] = []
        // The plan as written (before the scenario's prices), by id: conversion is measured at its prices.
        let written = Dictionary(plan.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in cohorts.indices {
            let report = advisor.report(for: representatives[index])
            // A free trial earns nothing and leads to what is sold beside it: buyers split over what they pay for.
            let paid = report.upsell.offers.filter { written[$0.productID]?.trial == nil }
            cohorts[index].offers = paid.map { offer in
                let product = catalog.product(withID: offer.productID)
                let reference = written[offer.productID]?.price.doubleValue ?? offer.price.doubleValue
                var spec = OfferSpec(
                    productID: offer.productID, price: offer.price.doubleValue, periodMonths: nil, chargesPerPeriod: 1, slot: nil,
                    referencePrice: reference)
                if product?.kind == .autoRenewable, let period = product?.subscription?.period {
                    let (months, charges) = periodMonths(period)
                    spec.periodMonths = months
                    spec.chargesPerPeriod = charges
                    // The App Store gives a subscription's introductory offer to whoever is new to its group (every
                    // cohort here, the app having been paid), unless a promotional offer is applied instead.
                    if let introductory = product?.subscription?.introductoryOffer, !offer.isPromotional {
                        spec.introductory = IntroductorySchedule(introductory, price: spec.price)
                    }
                    let key = "\(offer.productID)@\(offer.price)" + (spec.introductory == nil ? "" : "+introductory")
                    if let slot = slots[key] {
                        spec.slot = slot
                    } else {
                        spec.slot = subscriptions.count
                        slots[key] = subscriptions.count
                        subscriptions.append(spec)
                    }
                }
                return spec
            }
            let weights = OfferSpec.splitWeights(cohorts[index].offers.map(\.price))
            for offer in cohorts[index].offers.indices { cohorts[index].offers[offer].weight = weights[offer] }
        }
        let model = RevenueModel(
            months: months, commission: commission, cohorts: cohorts, paidMonthsOnSale: paidMonths.total, subscriptions: subscriptions)
        let assumptions = try resolveAssumptions(variant, settings: settings, scenario: scenario, overrides: overrides, catalog: catalog)
        return PreparedScenario(
            id: scenario?.id ?? baseID, name: scenario?.name ?? "The plan as written", plan: variant, catalog: catalog, assumptions: assumptions,
            model: model, representatives: representatives)
    }

    static func periodMonths(_ period: String) -> (Int, Double) {
        switch period {
        case "P1W": (1, 52.0 / 12.0)
        case "P2M": (2, 1)
        case "P3M": (3, 1)
        case "P6M": (6, 1)
        case "P1Y": (12, 1)
        default: (1, 1)
        }
    }

    static func orderedTracks(_ catalog: PlanCatalog) -> [Platform] {
        let order = catalog.plan.app.platforms
        return catalog.tracks.keys.sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs) ?? Int.max
            let right = order.firstIndex(of: rhs) ?? Int.max
            return left != right ? left < right : lhs.rawValue < rhs.rawValue
        }
    }

    /// Months each paid release was on sale: until the next release on its track went live.
    static func paidMonthsOnSale(_ catalog: PlanCatalog) -> (perRelease: [Int: Double], total: Double) {
        let secondsPerMonth = InstallBase.daysPerMonth * 86_400
        var perRelease: [Int: Double] = [:]
        var totals: [Double] = []
        for indices in catalog.tracks.values {
            var total = 0.0
            for (position, index) in indices.enumerated() where catalog.plan.releases[index].model.isPaid {
                guard position + 1 < indices.count else { continue }
                let months =
                    catalog.plan.releases[indices[position + 1]].released.timeIntervalSince(catalog.plan.releases[index].released) / secondsPerMonth
                perRelease[index] = max(0, months)
                total += max(0, months)
            }
            if total > 0 { totals.append(total) }
        }
        // Tracks sell to the same market at the same rate, so the paid months are averaged, not added.
        return (perRelease, totals.isEmpty ? 0 : totals.reduce(0, +) / Double(totals.count))
    }

    /// Paid downloads per release from the install base, matched by platform and marketing version.
    static func installBaseWeights(_ catalog: PlanCatalog) -> [Int: Double]? {
        guard let base = catalog.plan.installBase, base.downloads.contains(where: { $0.paid > 0 }) else { return nil }
        var weights: [Int: Double] = [:]
        for row in base.downloads where row.paid > 0 {
            guard let version = row.version else { continue }
            let matches = catalog.plan.releases.indices.filter { index in
                let release = catalog.plan.releases[index]
                return release.model.isPaid && release.version.canonical == version.canonical
                    && (row.platform == nil || row.platform == release.platform)
            }
            for index in matches { weights[index, default: 0] += Double(row.paid) / Double(matches.count) }
        }
        return weights.values.reduce(0, +) > 0 ? weights : nil
    }

    /// Whether the plan has license holders to size (`directSales`), or sets `codeRedemptionRate` itself.
    static func usesCodeRedemption(_ plan: MigrationPlan, settings: SimulationSettings, scenario: SimulationScenario?) -> Bool {
        let name = SimulationAssumption.codeRedemptionRate.rawValue
        return !(plan.directSales?.editions.isEmpty ?? true) || settings.assumptions.contains { $0.name == name }
            || (scenario?.assumptions.contains { $0.name == name } ?? false)
    }

    static func resolveAssumptions(
        _ plan: MigrationPlan, settings: SimulationSettings, scenario: SimulationScenario?, overrides: [SimulationAssumption: Double],
        catalog: PlanCatalog
    ) throws(SimulationError) -> [ResolvedAssumption] {
        var result: [ResolvedAssumption] = []
        for assumption in SimulationAssumption.allCases {
            // The last case, so leaving it out keeps every other assumption's index (and each draw's uniforms) as they were.
            if assumption == .codeRedemptionRate, !usesCodeRedemption(plan, settings: settings, scenario: scenario) { continue }
            let known = AssumptionDefaults.of(assumption)
            var distribution: Distribution?
            var source = ""
            var measured = false
            if let value = overrides[assumption] {
                distribution = .point(value)
                source = "--sweep"
            } else if let scenario, let written = scenario.assumptions.first(where: { $0.name == assumption.rawValue }) {
                distribution = written.distribution
                source = "scenario: \(written.origin?.description ?? scenario.id)"
            } else if let written = settings.assumptions.first(where: { $0.name == assumption.rawValue }) {
                distribution = written.distribution
                source = "plan: \(written.origin?.description ?? "simulation.assumptions.\(assumption.rawValue)")"
            } else if assumption == .paidTrendPerMonth, let fit = TrendFit.fit(plan.installBase) {
                distribution = fit.distribution
                source = fit.description
            } else if let documented = known.distribution {
                distribution = documented
                source = "default: \(known.source)"
            } else {
                measured = true
                switch assumption {
                case .paidDownloadsPerMonth:
                    guard let base = plan.installBase, let measured = base.averagePaidPerMonth else {
                        throw SimulationError(
                            "the simulation needs the paid downloads a month: set 'simulation.assumptions.paidDownloadsPerMonth', or import sales reports into 'installBase' (with 'from' and 'until')",
                            path: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.assumptions
                                / SimulationAssumption.paidDownloadsPerMonth,
                            hint:
                                "Your App Store Connect Sales and Trends page shows it; a distribution such as { \"distribution\": \"uniform\", \"low\": 500, \"high\": 900 } is fine."
                        )
                    }
                    let average = "\(measured.paid) paid downloads over \(String(format: "%.1f", measured.months)) months"
                    if let fit = TrendFit.fit(base) {
                        // Staying paid starts from now: the fitted line's last month, not the period's middle.
                        distribution = .point(fit.currentRate)
                        source = "installBase: the fitted trend's last month (\(average), \(Int(measured.rate.rounded())) a month on average)"
                    } else {
                        distribution = .point(measured.rate)
                        source = "installBase: \(average)"
                    }
                case .paidPrice:
                    let paid = plan.releases.filter(\.model.isPaid).max { $0.released < $1.released }
                    guard let paid, case .paid(let price) = paid.model else {
                        throw SimulationError(
                            "the plan has no paid release, so there is no paid price to compare with; set 'simulation.assumptions.paidPrice'",
                            path: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.assumptions / SimulationAssumption.paidPrice)
                    }
                    distribution = .point(price.doubleValue)
                    source = "plan: the price of \(paid.platform) \(paid.displayName)"
                case .legacyBuyers:
                    if let base = plan.installBase, base.downloads.contains(where: { $0.paid > 0 }) {
                        let paid = base.downloads.reduce(0) { $0 + $1.paid }
                        distribution = .point(Double(paid))
                        source = "installBase: paid downloads"
                    } else {
                        // Resolved per draw from paidDownloadsPerMonth (NaN in the values).
                        let months = paidMonthsOnSale(catalog).total
                        distribution = .point(0)
                        source = "\(derivedMarker) paidDownloadsPerMonth × \(String(format: "%.1f", months)) months the paid releases were on sale"
                    }
                default:
                    distribution = .point(0)
                }
            }
            let resolved = distribution!
            let range: ClosedRange<Double>
            if !resolved.isPoint {
                range = resolved.quantile(0.1)...resolved.quantile(0.9)
            } else if let documented = known.range {
                range = documented
            } else {
                let value = resolved.median
                range = (value * 0.5)...(value * 1.5)
            }
            result.append(
                ResolvedAssumption(assumption: assumption, distribution: resolved, source: source, sensitivityRange: range, measured: measured))
        }
        if let index = result.firstIndex(where: { $0.assumption == .legacyBuyers }), result[index].source.hasPrefix(derivedMarker) {
            let value = result[0].distribution.median * paidMonthsOnSale(catalog).total
            result[index].sensitivityRange = (value * 0.5)...(value * 1.5)
        }
        return result
    }
}

extension Offer {
    /// Charged through a promotional offer, which the App Store applies instead of the introductory offer.
    fileprivate var isPromotional: Bool {
        if case .promotionalOffer? = charge { return true }
        return false
    }
}
