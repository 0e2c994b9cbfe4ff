import Foundation
import MigratePlan

extension PlanMerger {
    /// Writes new ranges for simulation assumptions (a refit from sales after the switch) into the plan's
    /// `simulation.assumptions`, and nothing else.
    ///
    /// Only the assumptions given are replaced: they are the ones the new evidence measured, so the plan's own
    /// value of exactly those gives way (that is what asking for the refit means). Every other assumption, the
    /// horizon, the commission and every scenario stay as written; a scenario that sets one of these assumptions
    /// for itself keeps its value, and the report says so. Each change is reported as
    /// `simulation.assumptions.conversion: uniform 0.01–0.05 → triangular 0.021–0.034–0.048 (why)`.
    ///
    /// - Parameter reasons: per assumption name, why the new range (shown after it).
    public static func mergeAssumptions(
        _ assumptions: [AssumptionValue], into plan: MigrationPlan, reasons: [String: String] = [:]
    ) -> (plan: MigrationPlan, report: MergeReport) {
        var plan = plan
        var report = MergeReport()
        var settings = plan.simulation ?? SimulationSettings()
        for value in assumptions {
            let label = "simulation.assumptions.\(value.name)"
            let why = reasons[value.name].map { " (\($0))" } ?? ""
            if let index = settings.assumptions.firstIndex(where: { $0.name == value.name }) {
                let before = settings.assumptions[index].distribution
                guard before != value.distribution else {
                    report.ignored.append("\(label): already \(describe(value.distribution))")
                    continue
                }
                report.changed.append(MergeChange("\(label): \(describe(before))", after: "\(describe(value.distribution))\(why)"))
                settings.assumptions[index].distribution = value.distribution
            } else {
                report.added.append("\(label): \(describe(value.distribution))\(why)")
                settings.assumptions.append(AssumptionValue(name: value.name, distribution: value.distribution))
            }
            for scenario in settings.scenarios where scenario.assumptions.contains(where: { $0.name == value.name }) {
                report.conflicts.append(
                    "simulation.scenarios '\(scenario.id)' sets \(value.name) for itself; kept (only simulation.assumptions is refitted)")
            }
        }
        plan.simulation = settings
        return (plan, report)
    }

    /// `uniform 0.01–0.05`, `triangular 0.021–0.034–0.048`, `logNormal 15–80 (P10–P90)`, `0.03`.
    public static func describe(_ distribution: Distribution) -> String {
        func number(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
        switch distribution {
        case .point(let value): return number(value)
        case .uniform(let low, let high): return "uniform \(number(low))–\(number(high))"
        case .triangular(let low, let mode, let high): return "triangular \(number(low))–\(number(mode))–\(number(high))"
        case .logNormal(let low, let high): return "logNormal \(number(low))–\(number(high)) (P10–P90)"
        }
    }
}
