import Foundation
import MigratePlan
import MigrateSupport

/// One month of the forecast against what happened.
public struct ActualsRow: Sendable, Hashable {
    public enum Place: String, Sendable, Hashable {
        case below, within, above
    }

    public var month: ActualMonth
    public var downloads: Percentiles
    public var units: Percentiles
    public var proceeds: Percentiles
    public var downloadsPlace: Place
    public var unitsPlace: Place
    /// The month's proceeds in the compared currency (`ActualsProceeds`); nil when they are not compared.
    public var proceedsActual: Double?
    /// Nil when the proceeds are not compared.
    public var proceedsPlace: Place?
}

/// Which proceeds the comparison compared, in what, and which it didn't: no currency is left out unsaid.
public struct ActualsProceeds: Sendable, Hashable {
    /// What the compared figures are in: the one currency of the reports, the one without a rate, or the plan's
    /// currency when every currency has a rate. Nil when the proceeds are not compared.
    public var currency: String?
    /// The rates used, by currency: one unit of it in the compared currency.
    public var rates: [String: Double]
    /// The reports' proceeds over the compared months, by currency, before conversion.
    public var totals: [String: Double]
    /// Why the proceeds are not compared, when they are not.
    public var notCompared: String?

    /// `currency` when every currency of the reports has a rate.
    public static let planCurrency = "the plan's currency"

    public var isCompared: Bool { notCompared == nil && currency != nil }
}

/// What the actuals imply about one assumption, and whether its range allows it.
public struct ImpliedAssumption: Sendable, Hashable {
    public var assumption: SimulationAssumption
    public var implied: Double
    /// The plausible range the plan (or the default) gives it: a distribution's low to high (a log-normal's
    /// P10 to P90), or ±10% around a single value.
    public var range: ClosedRange<Double>
    public var distribution: Distribution
    public var source: String
    /// How the implied value was worked out, with the numbers.
    public var how: String
    /// The refit's low to high, when the assumption is refitted.
    public var refitBand: ClosedRange<Double>?

    /// The implied value lies outside the range the plan gives.
    public var isOutside: Bool { !range.contains(implied) }
    /// What the actuals allow (the refit's band, or the implied value alone when it is not refitted) and the plan's
    /// range have nothing in common.
    public var isContradicted: Bool { !(refitBand ?? implied...implied).overlaps(range) }
}

/// A new range for an assumption, centred on what the actuals imply.
public struct AssumptionRefit: Sendable, Hashable {
    public var assumption: SimulationAssumption
    public var before: Distribution
    /// Where `before` came from: a refit of a documented default says what it replaces.
    public var beforeOrigin: AssumptionOrigin
    public var after: Distribution
    /// The spread and why: `±20%, 4 months` (the months that inform it; `variable` when the month-to-month
    /// variation set it).
    public var spread: String

    /// Where `before` came from, in words.
    public var beforeSource: String { beforeOrigin.description }

    /// The value it replaces is the documented default, which the plan never wrote.
    public var replacesDefault: Bool {
        if case .documentedDefault = beforeOrigin { return true }
        return false
    }
}

public struct ActualsReport: Sendable, Hashable {
    public var appName: String
    public var scenarioID: String
    public var switchDate: Date
    public var draws: Int
    public var seed: UInt64
    /// What the compared proceeds are in, when they are compared.
    public var currency: String? { proceeds.currency }
    public var proceeds: ActualsProceeds
    public var rows: [ActualsRow]
    public var implied: [ImpliedAssumption]
    public var refits: [AssumptionRefit]
    /// The verdict `simulate` gives the scenario as the plan has it, and with the refit in place of the assumptions
    /// refitted (nil when nothing is refitted): the same simulation, draws and seed.
    public var verdictBefore: Verdict
    public var verdictAfter: Verdict?
    /// Reports that count the same sales (each counted once): also in `notes`.
    public var overlaps: [String]
    public var notes: [String]
    /// One plain sentence: what happened, against what the plan expected, and what it means for the decision.
    public var headline: String

    public var contradicted: [ImpliedAssumption] { implied.filter(\.isContradicted) }
}

/// `migrate simulate PLAN --actuals SALES…`: the forecast's P10–P90 beside what the sales reports say, month by
/// month; the assumptions the actuals contradict; and a refit of conversion, the launch multiple and the lasting
/// multiple.
///
/// Implied values (R is the paid downloads a month the plan assumes, at its median):
/// - launchMultiple: month 1's free downloads ÷ R (÷ the share of month 1 covered).
/// - lastingMultiple: with the launch multiple A and the burst's half-life h at its median, month m's downloads
///   are R × (L + (A − L) × 0.5^(m/h)); L is the least-squares fit over months 2 on (needs two months).
/// - conversion: units of the products new free users are offered ÷ free downloads, over every month.
/// - legacyUpgradeRate: units of the products legacy buyers are offered ÷ legacy buyers (checked, not refitted).
/// - refundRate: in-app units refunded ÷ units bought (checked, not refitted).
/// A product offered to both is split between them in the proportions the forecast expects at its medians.
///
/// Refit: a triangular distribution with its mode at the implied value and low and high at ± a relative spread:
/// the larger of 40% ÷ √(months of data that inform it) and the month-to-month variation of the implied value
/// (its coefficient of variation), at most 90%; for the launch multiple, one month of data, 10% (or the spread of
/// the paid downloads a month, if larger). Three significant digits.
public enum ActualsComparison {
    /// - Parameter rates: one unit of a currency in the plan's currency (`--rate EUR=1.08`); a rate for a currency
    ///   no report has proceeds in is refused.
    public static func compare(
        _ plan: MigrationPlan, periods: [ActualPeriod], scenarioID: String? = nil, draws: Int = 10_000, seed: UInt64 = 1,
        rates: [String: Double] = [:], threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(SimulationError) -> ActualsReport {
        guard let switchDate = switchDate(plan) else {
            throw SimulationError(
                "the plan has no free release after a paid one, so there is no switch to compare sales with",
                path: JSONPath.root / PlanKeys.Root.releases, hint: "Add the first free release (\"model\": \"free\") with its date.")
        }
        let scenario = try scenarioID.flatMap { id throws(SimulationError) -> SimulationScenario? in
            if id == PreparedScenario.baseID { return nil }
            guard let found = plan.simulation?.scenarios.first(where: { $0.id == id }) else {
                let known = Simulator.scenarioIDs(plan)
                throw SimulationError(
                    "unknown scenario '\(id)'", hint: Suggestions.closest(to: id, in: known).map { "Did you mean '\($0)'?" }, isUsage: true)
            }
            return found
        }
        let prepared = try PreparedScenario.prepare(plan, scenario: scenario)
        let resolution = try ActualOverlaps.resolve(periods)
        var (months, notes) = ActualMonths.bucket(resolution.periods, switchDate: switchDate)
        notes = resolution.warnings + notes
        guard !months.isEmpty else {
            throw SimulationError(
                "the reports hold no sales from the switch (\(Timestamp.formatDate(switchDate))) on",
                hint: "Pass Summary Sales reports of the months after the first free release.")
        }
        let horizon = prepared.model.months
        if let last = months.last, last.index > horizon {
            notes.append("note: months after the horizon (\(horizon) months) are not compared")
            months.removeAll { $0.index > horizon }
        }
        // Products: which cohorts are offered each, and the units nobody in the forecast is offered.
        let planProducts = Set(plan.products.map(\.id))
        var unknown: [String: Double] = [:]
        var unoffered: [String: Double] = [:]
        let offered = offeredProducts(prepared)
        for month in months {
            for (id, units) in month.inAppUnits where offered[id] == nil {
                if planProducts.contains(id) { unoffered[id, default: 0] += units } else { unknown[id, default: 0] += units }
            }
        }
        for (id, units) in unknown.sorted(by: { $0.key < $1.key }) {
            notes.append("note: \(Int(units.rounded())) units of '\(id)', which is not a product in the plan, are not compared")
        }
        for (id, units) in unoffered.sorted(by: { $0.key < $1.key }) {
            notes.append("note: \(Int(units.rounded())) units of '\(id)', which the plan offers no one, are not compared")
        }
        let proceeds = try compared(months: months, periods: resolution.periods, rates: rates)
        if let reason = proceeds.notCompared { notes.append("note: \(reason)") }

        let forecast = Forecast.run(prepared, months: months, draws: draws, seed: seed)
        var rows: [ActualsRow] = []
        for (position, month) in months.enumerated() {
            let units = offeredUnits(month, offered: offered)
            let actual = proceeds.isCompared ? converted(month.proceeds, proceeds) : nil
            rows.append(
                ActualsRow(
                    month: month, downloads: forecast.downloads[position], units: forecast.units[position], proceeds: forecast.proceeds[position],
                    downloadsPlace: place(month.freeDownloads, forecast.downloads[position]),
                    unitsPlace: place(units, forecast.units[position]), proceedsActual: actual,
                    proceedsPlace: actual.map { place($0, forecast.proceeds[position]) }))
        }
        var implied = impliedValues(prepared, months: months, offered: offered)
        let refits = refit(prepared, months: months, implied: implied)
        for index in implied.indices {
            if case .triangular(let low, _, let high) = refits.first(where: { $0.assumption == implied[index].assumption })?.after {
                implied[index].refitBand = low...high
            }
        }
        let before = Simulator.verdict(prepared, draws: draws, seed: seed, threads: threads)
        var after: Verdict?
        if !refits.isEmpty {
            var refitted = prepared
            for refit in refits {
                guard let index = refitted.assumptions.firstIndex(where: { $0.assumption == refit.assumption }) else { continue }
                refitted.assumptions[index].distribution = refit.after
                refitted.assumptions[index].origin = .refit
                refitted.assumptions[index].sensitivityRange = refit.after.quantile(0.1)...refit.after.quantile(0.9)
            }
            after = Simulator.verdict(refitted, draws: draws, seed: seed, threads: threads)
        }
        return ActualsReport(
            appName: plan.app.name, scenarioID: prepared.id, switchDate: switchDate, draws: draws, seed: seed, proceeds: proceeds, rows: rows,
            implied: implied, refits: refits, verdictBefore: before, verdictAfter: after, overlaps: resolution.warnings, notes: notes,
            headline: ActualsHeadline.sentence(implied: implied, before: before, after: after, draws: draws))
    }

    /// Which currencies' proceeds are compared, converted with `rates`. Compared when the reports' proceeds are in
    /// one currency, or when every currency but at most one has a rate (that one is the plan's currency).
    static func compared(months: [ActualMonth], periods: [ActualPeriod], rates: [String: Double]) throws(SimulationError) -> ActualsProceeds {
        var totals: [String: Double] = [:]
        for month in months { totals.merge(month.proceeds, uniquingKeysWith: +) }
        // Months hold periods spread over their days: back to the reports' ten-thousandths.
        totals = totals.mapValues { ($0 * 10_000).rounded() / 10_000 }
        let reported = Set(periods.flatMap(\.proceeds.keys))
        for currency in rates.keys.sorted() where totals[currency] == nil {
            let known = totals.isEmpty ? "none from the switch on" : "they are in \(totals.keys.sorted().joined(separator: ", "))"
            throw SimulationError(
                reported.contains(currency)
                    ? "'--rate \(currency)=…' is not used: the reports' proceeds in \(currency) are all from before the switch, which is not compared."
                    : "'--rate \(currency)=…' is not used: no report has proceeds in \(currency) (\(known)).",
                hint: "Give a rate only for a currency of the reports' 'Currency of Proceeds' column after the switch.", isUsage: true)
        }
        let unrated = totals.keys.filter { rates[$0] == nil }.sorted()
        var proceeds = ActualsProceeds(currency: nil, rates: rates, totals: totals, notCompared: nil)
        if totals.isEmpty {
            proceeds.notCompared = "the reports have no proceeds from the switch on, so none are compared"
        } else if unrated.count > 1 {
            let example = unrated.dropFirst().map { "--rate \($0)=…" }.joined(separator: " ")
            // A rate that converts nothing compared is not used: refused, saying what it still needs.
            if let given = rates.keys.min() {
                throw SimulationError(
                    "'--rate \(given)=…' is not used: the proceeds in \(unrated.joined(separator: ", ")) have no rate between them, so none are compared",
                    hint: "Give a rate for every currency but the plan's, such as \(example) to compare in \(unrated[0]).", isUsage: true)
            }
            proceeds.notCompared =
                "proceeds are in \(unrated.joined(separator: ", ")) without a rate between them, so none are compared with the forecast (which is in the plan's currency); give each currency's rate in the plan's currency, as App Store Connect's Payments and Financial Reports list them (App Store Connect Help, Payments and financial reports), such as \(example) to compare in \(unrated[0])"
        } else {
            proceeds.currency = unrated.first ?? ActualsProceeds.planCurrency
        }
        return proceeds
    }

    /// A month's proceeds in the compared currency.
    static func converted(_ amounts: [String: Double], _ proceeds: ActualsProceeds) -> Double {
        amounts.reduce(0) { $0 + $1.value * (proceeds.rates[$1.key] ?? 1) }
    }

    /// The first free release after a paid one on its platform: when the app went free.
    public static func switchDate(_ plan: MigrationPlan) -> Date? { PreparedScenario.switchDate(plan) }

    static func place(_ value: Double, _ band: Percentiles) -> ActualsRow.Place {
        // Rounded as shown: a value that prints as the band's edge is inside it.
        let value = value.rounded()
        if value < band.p10.rounded() { return .below }
        if value > band.p90.rounded() { return .above }
        return .within
    }

    /// Per product id, the share of its forecast buyers who are new free users (the rest are legacy buyers).
    static func offeredProducts(_ scenario: PreparedScenario) -> [String: Double] {
        let model = scenario.model
        let expected = model.expectedBuyers(scenario.medians)
        var newBuyers: [String: Double] = [:]
        var legacyBuyers: [String: Double] = [:]
        for (index, cohort) in model.cohorts.enumerated() {
            for (offer, buyers) in zip(cohort.offers, expected[index]) {
                switch cohort.kind {
                case .newCustomers: newBuyers[offer.productID, default: 0] += max(buyers, 1e-12)
                case .legacy: legacyBuyers[offer.productID, default: 0] += max(buyers, 1e-12)
                }
            }
        }
        var share: [String: Double] = [:]
        for id in Set(newBuyers.keys).union(legacyBuyers.keys) {
            let new = newBuyers[id] ?? 0
            share[id] = new / (new + (legacyBuyers[id] ?? 0))
        }
        return share
    }

    static func offeredUnits(_ month: ActualMonth, offered: [String: Double]) -> Double {
        month.inAppUnits.filter { offered[$0.key] != nil }.values.reduce(0, +)
    }

    static func resolved(_ scenario: PreparedScenario, _ assumption: SimulationAssumption) -> ResolvedAssumption {
        // Every assumption the actuals imply or refit is resolved for every scenario.
        scenario.resolved(assumption)!
    }

    /// A distribution's plausible range: low to high (a log-normal's P10 to P90), or ±10% around a single value.
    public static func plausibleRange(_ distribution: Distribution) -> ClosedRange<Double> {
        switch distribution {
        case .point(let value): return min(value * 0.9, value * 1.1)...max(value * 0.9, value * 1.1)
        case .uniform(let low, let high), .logNormal(let low, let high), .triangular(let low, _, let high): return low...high
        }
    }

    static func impliedValues(_ scenario: PreparedScenario, months: [ActualMonth], offered: [String: Double]) -> [ImpliedAssumption] {
        var result: [ImpliedAssumption] = []
        let rate = resolved(scenario, .paidDownloadsPerMonth).distribution.median
        func add(_ assumption: SimulationAssumption, _ value: Double, _ how: String) {
            let known = resolved(scenario, assumption)
            guard value.isFinite else { return }
            result.append(
                ImpliedAssumption(
                    assumption: assumption, implied: value, range: plausibleRange(known.distribution), distribution: known.distribution,
                    source: known.source, how: how))
        }
        guard rate > 0 else { return result }
        if let launch = launchMultiple(months, rate: rate, season: scenario.model.season) {
            let first = months[0]
            let partial = first.daysCovered < first.daysInMonth ? " × \(first.daysInMonth)/\(first.daysCovered) days" : ""
            add(.launchMultiple, launch, "\(whole(first.freeDownloads)) free downloads in \(first.label)\(partial) ÷ \(whole(rate)) paid a month")
            if let lasting = lastingMultiple(months, rate: rate, launch: launch, halfLife: halfLife(scenario), season: scenario.model.season) {
                add(
                    .lastingMultiple, lasting.value,
                    "downloads of \(months[1].label)–\(months.last!.label) fitted to the burst's decay (half-life \(short(halfLife(scenario))) month\(halfLife(scenario) == 1 ? "" : "s")), from a launch multiple of \(short(launch))"
                )
            }
        }
        let downloads = months.reduce(0) { $0 + $1.freeDownloads }
        let bought = months.reduce(0) { $0 + Self.newUnits($1, offered: offered) }
        if downloads > 0 {
            add(.conversion, bought / downloads, "\(whole(bought)) units bought by new free users ÷ \(whole(downloads)) free downloads")
        }
        let legacyBuyers = scenario.model.legacyBuyers(scenario.medians)
        let legacyUnits = months.reduce(0) { $0 + offeredUnits($1, offered: offered) - Self.newUnits($1, offered: offered) }
        if legacyBuyers > 0, offered.values.contains(where: { $0 < 1 }) {
            add(
                .legacyUpgradeRate, legacyUnits / legacyBuyers,
                "\(whole(legacyUnits)) units bought by legacy buyers ÷ \(whole(legacyBuyers)) legacy buyers")
        }
        let allUnits = months.reduce(0) { $0 + $1.units }
        let refunded = months.reduce(0) { $0 + $1.refunds }
        if allUnits > 0 {
            add(.refundRate, refunded / allUnits, "\(whole(refunded)) in-app units refunded ÷ \(whole(allUnits)) bought")
        }
        return result
    }

    static func newUnits(_ month: ActualMonth, offered: [String: Double]) -> Double {
        month.inAppUnits.reduce(0) { $0 + $1.value * (offered[$1.key] ?? 0) }
    }

    static func halfLife(_ scenario: PreparedScenario) -> Double {
        resolved(scenario, .burstHalfLifeMonths).distribution.median
    }

    /// The season's factor of a month of the actuals (1 past the horizon's table): a month's downloads are the paid
    /// rate times the multiple times it, so the multiple is what is left once both are divided out.
    static func factor(_ season: [Double], _ month: ActualMonth) -> Double {
        month.index - 1 < season.count && season[month.index - 1] > 0 ? season[month.index - 1] : 1
    }

    static func launchMultiple(_ months: [ActualMonth], rate: Double, season: [Double] = []) -> Double? {
        guard let first = months.first, first.index == 1, first.daysCovered > 0 else { return nil }
        return first.freeDownloads / first.coverage / rate / factor(season, first)
    }

    /// The least-squares lasting multiple over months 2 on, and each month's own value.
    static func lastingMultiple(_ months: [ActualMonth], rate: Double, launch: Double, halfLife: Double, season: [Double] = []) -> (
        value: Double, perMonth: [Double]
    )? {
        let later = months.filter { $0.index > 1 && $0.daysCovered > 0 }
        guard !later.isEmpty, halfLife > 0 else { return nil }
        var numerator = 0.0
        var denominator = 0.0
        var perMonth: [Double] = []
        for month in later {
            let decayed = pow(0.5, Double(month.index - 1) / halfLife)
            let multiple = month.freeDownloads / month.coverage / rate / factor(season, month)
            numerator += (multiple - launch * decayed) * (1 - decayed)
            denominator += (1 - decayed) * (1 - decayed)
            perMonth.append((multiple - launch * decayed) / (1 - decayed))
        }
        guard denominator > 0 else { return nil }
        return (max(0, numerator / denominator), perMonth)
    }

    static func refit(_ scenario: PreparedScenario, months: [ActualMonth], implied: [ImpliedAssumption]) -> [AssumptionRefit] {
        var refits: [AssumptionRefit] = []
        let rateDistribution = resolved(scenario, .paidDownloadsPerMonth).distribution
        let rate = rateDistribution.median
        let rateRange = plausibleRange(rateDistribution)
        // The paid baseline's own uncertainty carries into both multiples; a measured single value adds none.
        let baseline = rateDistribution.isPoint ? 0 : (rateRange.upperBound - rateRange.lowerBound) / 2 / rate
        func add(_ assumption: SimulationAssumption, spread: Double, _ why: String) {
            guard let value = implied.first(where: { $0.assumption == assumption })?.implied, value > 0 else { return }
            let spread = min(0.9, spread)
            var high = significant(value * (1 + spread))
            if assumption.bound == .probability { high = min(1, high) }
            let after = Distribution.triangular(low: significant(value * (1 - spread)), mode: significant(value), high: high)
            let known = resolved(scenario, assumption)
            refits.append(
                AssumptionRefit(
                    assumption: assumption, before: known.distribution, beforeOrigin: known.origin, after: after,
                    spread: "±\(Int((spread * 100).rounded()))%, \(why)"))
        }
        let informing = months.filter { $0.daysCovered > 0 }
        // Conversion: every month informs it.
        let conversions = informing.filter { $0.freeDownloads > 0 }.map { month in
            newUnits(month, offered: offeredProducts(scenario)) / month.freeDownloads
        }
        let conversionVariation = variation(conversions)
        add(
            .conversion, spread: max(0.4 / Double(max(1, conversions.count)).squareRoot(), conversionVariation, 0),
            "\(conversions.count) month\(conversions.count == 1 ? "" : "s")\(conversionVariation > 0.4 / Double(max(1, conversions.count)).squareRoot() ? ", variable" : "")"
        )
        add(.launchMultiple, spread: max(0.1, baseline), baseline > 0.1 ? "1 month, paid baseline" : "1 month")
        if let launch = implied.first(where: { $0.assumption == .launchMultiple })?.implied,
            let fit = lastingMultiple(months, rate: rate, launch: launch, halfLife: halfLife(scenario), season: scenario.model.season)
        {
            let count = fit.perMonth.count
            let floor = 0.4 / Double(count).squareRoot()
            let spread = max(floor, variation(fit.perMonth), baseline)
            add(.lastingMultiple, spread: spread, "\(count) month\(count == 1 ? "" : "s")\(spread > floor ? ", variable" : "")")
        }
        return refits
    }

    /// The coefficient of variation (sample standard deviation ÷ mean); 0 for fewer than two values.
    static func variation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        guard mean > 0 else { return 0 }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return variance.squareRoot() / mean
    }

    /// Three significant digits.
    public static func significant(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return value }
        let scale = pow(10, 2 - floor(log10(abs(value))))
        return (value * scale).rounded() / scale
    }

    static func whole(_ value: Double) -> String {
        Limits.grouped(Int(value.rounded()))
    }

    static func short(_ value: Double) -> String {
        let rounded = significant(value)
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// The forecast's P10, P50 and P90 of each compared month's free downloads, in-app units and proceeds, by
/// drawing the scenario's assumptions as the Monte Carlo does (the same seeding, one uniform per assumption).
enum Forecast {
    struct Bands {
        var downloads: [Percentiles]
        var units: [Percentiles]
        var proceeds: [Percentiles]
    }

    static func run(_ scenario: PreparedScenario, months: [ActualMonth], draws: Int, seed: UInt64) -> Bands {
        let model = scenario.model
        let sampling = DrawSampling(scenario)
        let count = max(1, draws)
        var downloads = [[Double]](repeating: [], count: months.count)
        var units = downloads
        var proceeds = downloads
        var values = scenario.medians
        var paid = [Double](repeating: 0, count: model.months)
        var freemium = paid
        var ledger = [Double](repeating: 0, count: model.scratchSize)
        var generator = MonteCarlo.generator(seed: seed, chunk: 0)
        for draw in 0..<count {
            if draws == 0 {
                values = scenario.medians
            } else {
                if draw % MonteCarlo.chunkSize == 0 { generator = MonteCarlo.generator(seed: seed, chunk: draw / MonteCarlo.chunkSize) }
                sampling.draw(into: &values, using: &generator)
            }
            model.evaluate(values, paid: &paid, freemium: &freemium, ledger: &ledger)
            var newFactor = 0.0
            var legacyFactor = 0.0
            for cohort in model.cohorts {
                let response = cohort.offers.reduce(0) { $0 + $1.weight * $1.priceResponse(elasticity: values.priceElasticity) }
                switch cohort.kind {
                case .newCustomers: newFactor += cohort.share * response
                case .legacy: legacyFactor += cohort.share * response
                }
            }
            let legacyUnits = model.legacyBuyers(values) * values.legacyUpgradeRate * legacyFactor
            for (position, month) in months.enumerated() {
                let monthDownloads = model.downloads(values, month: month.index - 1) * month.coverage
                downloads[position].append(monthDownloads)
                units[position].append(monthDownloads * values.conversion * newFactor + (month.index == 1 ? legacyUnits : 0))
                proceeds[position].append(freemium[month.index - 1] * month.coverage)
            }
        }
        func percentiles(_ samples: [Double]) -> Percentiles {
            let sorted = samples.sorted()
            func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))] }
            return Percentiles(p10: at(0.1), p50: at(0.5), p90: at(0.9))
        }
        return Bands(downloads: downloads.map(percentiles), units: units.map(percentiles), proceeds: proceeds.map(percentiles))
    }
}
