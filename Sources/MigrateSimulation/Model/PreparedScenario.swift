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
    /// The price `conversion` and `legacyUpgradeRate` are quoted at: the paid app's own price (the plan's
    /// `paidPrice`, or its newest paid release's), which editing an offer's price never moves. An offer at
    /// another price sells `OfferSpec.priceResponse` times as many.
    public var referencePrice: Double
    /// When the app went free (the first free release after a paid one): month 1 is its calendar month.
    public var switchDate: Date?
    /// How the calendar months weigh (`Season`).
    public var season: Season
    /// What the output says about how the forecast was set up: the season, a commission the plan leaves out.
    public var notes: [ForecastNote]

    /// The medians of every assumption: what a deterministic run uses. A derived `legacyBuyers` stays nil, for
    /// the model to work out from the paid downloads.
    public var medians: AssumptionValues {
        var values = AssumptionValues()
        for resolved in assumptions where !resolved.origin.isDerived {
            values.set(resolved.assumption, resolved.distribution.median)
        }
        return values
    }

    /// The resolved assumption of `assumption` (every assumption but an unused `codeRedemptionRate` has one).
    public func resolved(_ assumption: SimulationAssumption) -> ResolvedAssumption? {
        assumptions.first { $0.assumption == assumption }
    }

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
        let switchDate = switchDate(plan)
        let season = Season.of(plan)
        var notes: [ForecastNote] = [season.isFlat ? .flatSeason(switchDate: switchDate) : .season(season, switchDate: switchDate)]
        let commission: Commission
        if let chosen = scenario?.commission ?? settings.commission {
            commission = chosen
        } else if let switchDate, switchDate >= Commission.smallBusinessProgramStart {
            commission = .smallBusiness
            notes.append(.smallBusinessAssumed(switchDate: switchDate))
        } else {
            commission = .standard
        }
        let assumptions = try resolveAssumptions(
            variant, settings: settings, scenario: scenario, overrides: overrides, catalog: catalog, season: season)
        let referencePrice = Self.referencePrice(plan, settings: settings)

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
                let weight: Double
                if let installed {
                    weight = members.reduce(0) { $0 + (installed[$1] ?? 0) }
                } else {
                    weight = members.reduce(0) { $0 + (paidMonths.perRelease[$1] ?? 0) }
                }
                cohorts.append(RevenueCohort(kind: .legacy(tierID: tier.id), platform: track, share: 0, offers: []))
                representatives.append(buyer(of: variant.releases[newest], on: track))
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
            cohorts.append(RevenueCohort(kind: .newCustomers, platform: track, share: 1 / Double(freeTracks.count), offers: []))
            representatives.append(buyer(of: release, on: track))
        }

        // Offers come from the engine, so the simulation sells exactly what the app will show.
        var slots: [String: Int] = [:]
        var subscriptions: [OfferSpec] = []
        // Products as the plan writes them (before the scenario's prices), by id: a free trial is the plan's.
        let written = Dictionary(plan.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in cohorts.indices {
            let report = advisor.report(for: representatives[index])
            // A free trial earns nothing and leads to what is sold beside it: buyers split over what they pay for.
            let paid = report.upsell.offers.filter { written[$0.productID]?.trial == nil }
            cohorts[index].offers = paid.map { offer in
                let product = catalog.product(withID: offer.productID)
                var spec = OfferSpec(
                    productID: offer.productID, price: offer.price.doubleValue, periodMonths: nil, chargesPerPeriod: 1, slot: nil,
                    referencePrice: referencePrice)
                if product?.kind == .autoRenewable, let period = product?.subscription?.period, let renewal = RenewalPeriod(period) {
                    spec.periodMonths = renewal.months
                    spec.chargesPerPeriod = renewal.chargesPerPeriod
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
            months: months, commission: commission, cohorts: cohorts, paidMonthsOnSale: paidMonths.total, subscriptions: subscriptions,
            season: season.horizon(from: switchDate, months: months))
        return PreparedScenario(
            id: scenario?.id ?? baseID, name: scenario?.name ?? "The plan as written", plan: variant, catalog: catalog, assumptions: assumptions,
            model: model, representatives: representatives, referencePrice: referencePrice, switchDate: switchDate, season: season, notes: notes)
    }

    /// Someone who bought `release` on `track`: the original version the App Store gives them is what the kernel
    /// says a receipt carries on that platform (`Release.receiptVersion`), a build number or a marketing version, and
    /// none where the plan doesn't know it: the cutoff rules read such a release by its date
    /// (`PlanCatalog.makeCohortRules`), and so does its buyer here, never a marketing version read as a build number.
    static func buyer(of release: Release, on track: Platform) -> Customer {
        Customer(
            platform: track, originalAppVersion: release.receiptVersion(track.originalVersionMeaning)?.text,
            originalPurchaseDate: release.released)
    }

    /// The first free release after a paid one on its platform: when the app went free.
    public static func switchDate(_ plan: MigrationPlan) -> Date? {
        let sorted = plan.releases.sorted { $0.released < $1.released }
        return sorted.first { release in
            !release.model.isPaid && sorted.contains { $0.platform == release.platform && $0.model.isPaid && $0.released < release.released }
        }?.released
    }

    /// The price conversion is quoted at: the plan's own `paidPrice` (its median) when it writes one, else the
    /// newest paid release's price. Neither moves when an offer's price is edited, by a scenario or a sweep.
    static func referencePrice(_ plan: MigrationPlan, settings: SimulationSettings) -> Double {
        if let written = settings.assumptions.first(where: { $0.name == SimulationAssumption.paidPrice.rawValue }) {
            return written.distribution.median
        }
        let paid = plan.releases.filter(\.model.isPaid).max { $0.released < $1.released }
        if let paid, case .paid(let price) = paid.model { return price.doubleValue }
        return 0
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
        catalog: PlanCatalog, season: Season
    ) throws(SimulationError) -> [ResolvedAssumption] {
        var result: [ResolvedAssumption] = []
        for assumption in SimulationAssumption.allCases {
            // The last case, so leaving it out keeps every other assumption's place (and each draw's uniforms) as they were.
            if assumption == .codeRedemptionRate, !usesCodeRedemption(plan, settings: settings, scenario: scenario) { continue }
            let known = AssumptionDefaults.of(assumption)
            let distribution: Distribution
            let origin: AssumptionOrigin
            if let value = overrides[assumption] {
                distribution = .point(value)
                origin = .sweep
            } else if let scenario, let written = scenario.assumptions.first(where: { $0.name == assumption.rawValue }) {
                distribution = written.distribution
                origin = .scenario(id: scenario.id, path: written.origin)
            } else if let written = settings.assumptions.first(where: { $0.name == assumption.rawValue }) {
                distribution = written.distribution
                origin = .plan(assumption, path: written.origin)
            } else if assumption == .paidTrendPerMonth, let fit = TrendFit.fit(plan.installBase) {
                distribution = fit.distribution
                origin = .trendFit(fit)
            } else if let documented = known.distribution {
                distribution = documented
                origin = .documentedDefault(known)
            } else {
                (distribution, origin) = try measured(assumption, plan, catalog: catalog, season: season)
            }
            let range: ClosedRange<Double>
            if !distribution.isPoint {
                range = distribution.quantile(0.1)...distribution.quantile(0.9)
            } else if let documented = known.range {
                range = documented
            } else {
                let value = distribution.median
                range = min(value * 0.5, value * 1.5)...max(value * 0.5, value * 1.5)
            }
            result.append(ResolvedAssumption(assumption: assumption, distribution: distribution, origin: origin, sensitivityRange: range))
        }
        // A derived legacyBuyers: its value at the medians, shown in the tables and moved ±50% by the sensitivity table.
        if let index = result.firstIndex(where: { $0.assumption == .legacyBuyers }), case .derivedFromPaidRate(let months) = result[index].origin,
            let rate = result.first(where: { $0.assumption == .paidDownloadsPerMonth })
        {
            let value = rate.distribution.median * months
            result[index].derived = value
            result[index].distribution = .point(value)
            result[index].sensitivityRange = (value * 0.5)...(value * 1.5)
        }
        return result
    }

    /// An assumption the plan measures (its install base, its releases) when it doesn't write it.
    static func measured(_ assumption: SimulationAssumption, _ plan: MigrationPlan, catalog: PlanCatalog, season: Season) throws(SimulationError)
        -> (Distribution, AssumptionOrigin)
    {
        switch assumption {
        case .paidDownloadsPerMonth:
            guard let base = plan.installBase, base.averagePaidPerMonth != nil else {
                throw SimulationError(
                    "the simulation needs the paid downloads a month: set 'simulation.assumptions.paidDownloadsPerMonth', or import sales reports into 'installBase' (with 'from' and 'until')",
                    path: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.assumptions / SimulationAssumption.paidDownloadsPerMonth,
                    hint:
                        "Your App Store Connect Sales and Trends page shows it; a distribution such as { \"distribution\": \"uniform\", \"low\": 500, \"high\": 900 } is fine."
                )
            }
            // Staying paid starts from now (a fitted trend's last month), with the uncertainty of the count.
            let measure = PaidRateMeasure(base, season: season)
            return (measure.distribution, .installBaseRate(measure))
        case .paidPrice:
            let paid = plan.releases.filter(\.model.isPaid).max { $0.released < $1.released }
            guard let paid, case .paid(let price) = paid.model else {
                throw SimulationError(
                    "the plan has no paid release, so there is no paid price to compare with; set 'simulation.assumptions.paidPrice'",
                    path: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.assumptions / SimulationAssumption.paidPrice)
            }
            return (.point(price.doubleValue), .releasePrice(paid.platform, release: paid.displayName))
        case .legacyBuyers:
            if let base = plan.installBase, base.downloads.contains(where: { $0.paid > 0 }) {
                return (.point(Double(base.downloads.reduce(0) { $0 + $1.paid })), .installBasePaidDownloads)
            }
            // Worked out in each draw from paidDownloadsPerMonth: its value at the medians is filled in after.
            return (.point(0), .derivedFromPaidRate(months: paidMonthsOnSale(catalog).total))
        default:
            // Every other assumption has a documented default.
            let known = AssumptionDefaults.of(assumption)
            return (known.distribution ?? .point(0), .documentedDefault(known))
        }
    }
}

extension Offer {
    /// Charged through a promotional offer, which the App Store applies instead of the introductory offer.
    fileprivate var isPromotional: Bool {
        if case .promotionalOffer? = charge { return true }
        return false
    }
}
