import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// What to run.
public struct SimulationOptions: Sendable {
    /// Scenario ids to run, in order; empty means the plan as written and then every scenario.
    public var scenarios: [String]
    /// Monte Carlo draws; 0 runs only the deterministic model (every assumption at its median).
    public var draws: Int
    public var seed: UInt64
    public var threads: Int
    /// Raw `--sweep` texts.
    public var sweeps: [String]
    /// One cohort preview row for every ownership state, however many offers a cohort has (`--offer-states`).
    public var offerStates: Bool

    public init(
        scenarios: [String] = [], draws: Int = 10_000, seed: UInt64 = 1, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        sweeps: [String] = [],
        offerStates: Bool = false
    ) {
        self.scenarios = scenarios
        self.draws = draws
        self.seed = seed
        self.threads = threads
        self.sweeps = sweeps
        self.offerStates = offerStates
    }
}

/// Everything one scenario's simulation found.
public struct ScenarioResult: Sendable {
    public var scenario: PreparedScenario
    public var cohorts: [CohortPreviewRow]
    /// Every assumption at its median.
    public var deterministic: RevenueSeries
    public var monteCarlo: MonteCarloSummary?
    public var sensitivity: [SensitivityRow]
    /// The answer up front, and what would have to be true.
    public var verdict: Verdict
}

/// The grid a set of sweeps ran over the first scenario.
public struct SweepResult: Sendable {
    public var specs: [SweepSpec]
    public var scenarioID: String
    /// Every grid point, best (highest cumulative freemium proceeds at the horizon) first.
    public var points: [SweepPoint]
}

public struct SimulationReport: Sendable {
    public var appName: String
    public var months: Int
    public var commission: Commission
    public var scenarios: [ScenarioResult]
    public var sweep: SweepResult?
}

/// The front door: a plan and options in, a report out. No printing, no files.
public enum Simulator {
    /// The scenario ids a plan offers: `plan` (as written) and each named scenario.
    public static func scenarioIDs(_ plan: MigrationPlan) -> [String] {
        [PreparedScenario.baseID] + (plan.simulation?.scenarios.map(\.id) ?? [])
    }

    public static func run(_ plan: MigrationPlan, options: SimulationOptions, progress: (@Sendable (Double) -> Void)? = nil) throws(SimulationError)
        -> SimulationReport
    {
        let known = scenarioIDs(plan)
        let chosen = options.scenarios.isEmpty ? known : options.scenarios
        for id in chosen where !known.contains(id) {
            let hint = Suggestions.closest(to: id, in: known).map { "Did you mean '\($0)'?" } ?? "Known scenarios: \(known.joined(separator: ", "))."
            throw SimulationError(
                "unknown scenario '\(id)'", path: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.scenarios, hint: hint, isUsage: true)
        }
        let sweeps = try options.sweeps.map { text throws(SimulationError) in try SweepSpec.parse(text, plan: plan) }
        let grid = sweeps.reduce(1) { $0 * $1.values.count }
        guard grid <= SweepSpec.maximumGrid else {
            throw SimulationError("the sweeps make a grid of \(grid) points; at most \(SweepSpec.maximumGrid)", isUsage: true)
        }
        var prepared: [PreparedScenario] = []
        for id in chosen {
            let scenario = plan.simulation?.scenarios.first { $0.id == id }
            prepared.append(try PreparedScenario.prepare(plan, scenario: scenario))
        }
        var results: [ScenarioResult] = []
        for (index, scenario) in prepared.enumerated() {
            let deterministic = RevenueSeries.evaluate(scenario.model, values: scenario.medians)
            var summary: MonteCarloSummary?
            if options.draws > 0 {
                let share = 1 / Double(prepared.count)
                summary = MonteCarlo.run(scenario, draws: options.draws, seed: options.seed, threads: options.threads) { done in
                    progress?((Double(index) + done) * share)
                }
            }
            let sensitivity = Sensitivity.rows(for: scenario)
            results.append(
                ScenarioResult(
                    scenario: scenario,
                    cohorts: CohortPreview.rows(for: scenario, perOffer: options.offerStates, draws: options.draws, seed: options.seed),
                    deterministic: deterministic,
                    monteCarlo: summary,
                    sensitivity: sensitivity,
                    verdict: Verdict.of(scenario, deterministic: deterministic, monteCarlo: summary, sensitivity: sensitivity)))
        }
        var sweep: SweepResult?
        if !sweeps.isEmpty, let first = chosen.first {
            sweep = try runSweep(plan, scenarioID: first, specs: sweeps)
        }
        let settings = plan.simulation ?? SimulationSettings()
        return SimulationReport(
            appName: plan.app.name, months: settings.horizonMonths ?? SimulationSettings.defaultHorizonMonths,
            commission: prepared.first?.model.commission ?? .standard, scenarios: results, sweep: sweep)
    }

    /// The verdict `run` gives one prepared scenario: the median model, the draws, the sensitivity table.
    public static func verdict(_ scenario: PreparedScenario, draws: Int, seed: UInt64, threads: Int) -> Verdict {
        let deterministic = RevenueSeries.evaluate(scenario.model, values: scenario.medians)
        let summary = draws > 0 ? MonteCarlo.run(scenario, draws: draws, seed: seed, threads: threads) : nil
        return Verdict.of(scenario, deterministic: deterministic, monteCarlo: summary, sensitivity: Sensitivity.rows(for: scenario))
    }

    static func runSweep(_ plan: MigrationPlan, scenarioID: String, specs: [SweepSpec]) throws(SimulationError) -> SweepResult {
        let scenario = plan.simulation?.scenarios.first { $0.id == scenarioID }
        var points: [SweepPoint] = []
        var cache: [String: PreparedScenario] = [:]
        var indices = [Int](repeating: 0, count: specs.count)
        while true {
            let settings = specs.indices.map { (specs[$0].target, specs[$0].values[indices[$0]]) }
            var overrides: [SimulationAssumption: Double] = [:]
            var prices: [String: Price] = [:]
            for (target, value) in settings {
                switch target {
                case .assumption(let assumption): overrides[assumption] = value
                case .price(let id): prices[id] = Price(tenThousandths: Int64((value * 10_000).rounded()))
                }
            }
            // Prices change what the engine offers, so each price combination is prepared once and reused.
            let key = prices.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            let base: PreparedScenario
            if let cached = cache[key] {
                base = cached
            } else {
                base = try PreparedScenario.prepare(plan, scenario: scenario, priceOverrides: prices)
                cache[key] = base
            }
            var values = base.medians
            for (assumption, value) in overrides { values.set(assumption, value) }
            points.append(SweepPoint(settings: settings, series: RevenueSeries.evaluate(base.model, values: values)))
            var position = specs.count - 1
            while position >= 0 {
                indices[position] += 1
                if indices[position] < specs[position].values.count { break }
                indices[position] = 0
                position -= 1
            }
            if position < 0 { break }
        }
        let ranked = points.enumerated().sorted { lhs, rhs in
            let left = lhs.element.series.cumulativeFreemium.last ?? 0
            let right = rhs.element.series.cumulativeFreemium.last ?? 0
            return left != right ? left > right : lhs.offset < rhs.offset
        }.map(\.element)
        return SweepResult(specs: specs, scenarioID: scenarioID, points: ranked)
    }
}
