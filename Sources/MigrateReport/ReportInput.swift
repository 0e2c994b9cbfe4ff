import Foundation
import MigrateCore
import MigratePlan
import MigrateSimulation

/// Everything the report shows, each part computed by the code that prints it elsewhere: the simulation
/// `simulate` runs, the counts `explain --batch` makes, the comparison `simulate --actuals` makes and the
/// checks `check` makes. The report only lays them out.
public struct ReportInput: Sendable {
    /// The plan's file as the page names it: never an absolute path, since the page is shared.
    public var planName: String
    public var plan: MigrationPlan
    /// `Simulator.run` with one scenario: its first result is the one reported. Nil when the plan can't be
    /// simulated (it says nothing of the paid downloads), and then `simulationProblem` says why.
    public var simulation: SimulationReport?
    public var simulationProblem: String?
    public var check: CheckReport
    /// The decided customer list (`--batch`), and its name.
    public var customers: CustomerCounts?
    /// `ActualsComparison.compare` over the sales reports (`--actuals`), and their names.
    public var actuals: ActualsReport?
    public var actualsFiles: [String]
    /// What `simulate --actuals` warned about reading the reports (periods counted once).
    public var actualsWarnings: [String]
    /// The reader's locale and currency for every figure (`report --locale --currency`).
    public var figures: FigureStyle
    /// The moment "launched" is judged against (`--now`, or the clock).
    public var now: Date

    public init(
        planName: String, plan: MigrationPlan, simulation: SimulationReport?, simulationProblem: String? = nil, check: CheckReport,
        customers: CustomerCounts? = nil, actuals: ActualsReport? = nil, actualsFiles: [String] = [], actualsWarnings: [String] = [],
        figures: FigureStyle = .plain, now: Date
    ) {
        self.figures = figures
        self.planName = planName
        self.plan = plan
        self.simulation = simulation
        self.simulationProblem = simulationProblem
        self.check = check
        self.customers = customers
        self.actuals = actuals
        self.actualsFiles = actualsFiles
        self.actualsWarnings = actualsWarnings
        self.now = now
    }

    /// The go-live of the first free release after a paid one (the simulation's switch), and whether it has happened:
    /// its date is before `now` and is not a go-live still to come (`releasedSource: planned`).
    var launch: (date: Date, launched: Bool)? {
        guard let date = PreparedScenario.switchDate(plan) else { return nil }
        let planned = plan.releases.contains { $0.released == date && !$0.model.isPaid && $0.releasedSource == .planned }
        return (date, date <= now && !planned)
    }

    var isLaunched: Bool { launch?.launched ?? false }
}

/// The counts of a decided customer list: `explain --batch`'s summary and the list's name.
public struct CustomerCounts: Sendable {
    public var listName: String
    public var summary: BatchSummary

    public init(listName: String, summary: BatchSummary) {
        self.listName = listName
        self.summary = summary
    }

    /// Customers of a legacy tier (nil: new customers) in the list.
    public func count(tierID: String?) -> Int {
        summary.groups.values.filter { $0.tierID == tierID }.reduce(0) { $0 + $1.count }
    }

    /// Customers of every legacy tier in the list.
    var legacyCount: Int { summary.groups.values.filter { $0.tierID != nil }.reduce(0) { $0 + $1.count } }
}
