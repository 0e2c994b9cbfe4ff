import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSimulation

/// `migrate simulate PLAN --actuals SALES…`: the forecast against the sales after the switch, and
/// `--update-plan`, which writes the refitted ranges into the plan.
enum SimulateActuals {
    /// How the options go together with '--actuals', every problem at once: the what-if's and the cohort preview's
    /// options don't apply, '--dry-run' needs '--update-plan', and every '--rate' must read.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        if !arguments[SimulateCommand.sweeps].isEmpty { problems.append("'--sweep' does not apply with '--actuals'.") }
        if arguments[SimulateCommand.chart] != nil { problems.append("'--chart' does not apply with '--actuals'.") }
        if arguments[SimulateCommand.offerStates] {
            problems.append(
                "'--offer-states' shapes the cohort preview, which '--actuals' does not print; leave it out, or run without '--actuals'.")
        }
        if arguments[SimulateCommand.scenarios].count > 1 {
            problems.append("'--actuals' compares one scenario; give at most one '--scenario'.")
        }
        if arguments[SimulateCommand.dryRun] && !arguments[SimulateCommand.updatePlan] {
            problems.append("'--dry-run' shows what '--update-plan' would write; add '--update-plan'.")
        }
        let format = arguments[SimulateCommand.format]
        if format == .csv || format == .markdown {
            problems.append("'--actuals' prints text or json; '--format \(format.rawValue)' is not supported with it.")
        }
        return problems + ActualsInput.rates(arguments[SimulateCommand.rates]).problems
    }

    /// Runs once `usageProblems` found nothing.
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let scenarios = arguments[SimulateCommand.scenarios]
        let format = arguments[SimulateCommand.format]
        let rates = ActualsInput.rates(arguments[SimulateCommand.rates]).rates

        let loaded = try LoadedPlan.load(arguments[SimulateCommand.plan], context: context)
        let plan = try loaded.requireCheckedPlan(context: context, outcome: "nothing was compared")
        let (actual, incomplete) = try ActualsInput.read(arguments[SimulateCommand.actuals], plan: plan, context: context)
        let report = try ActualsInput.compare(
            plan, periods: actual, loaded: loaded, scenarioID: scenarios.first, draws: arguments[SimulateCommand.draws],
            seed: arguments[SimulateCommand.seed], rates: rates,
            threads: arguments[SimulateCommand.threads] ?? ProcessInfo.processInfo.activeProcessorCount)
        // Reports that count the same sales: counted once, and said where a script sees it too.
        for warning in report.overlaps { context.standardError.write(warning + "\n") }
        let renderer = ActualsRenderer(report: report, style: context.style(for: context.standardOutput))
        switch format {
        case .json: context.standardOutput.write(renderer.json())
        default: context.standardOutput.write(renderer.text())
        }
        if !incomplete.isEmpty {
            let files = incomplete.joined(separator: ", ")
            let written = arguments[SimulateCommand.updatePlan] ? "; \(loaded.file.displayPath) was not updated" : ""
            throw CommandError(
                .dataError,
                "\(files): rows that could not be read (above) are left out of the comparison\(written). Fix them, or download the report again.")
        }
        guard arguments[SimulateCommand.updatePlan] else { return .success }
        return try updatePlan(report, plan: plan, loaded: loaded, dryRun: arguments[SimulateCommand.dryRun], context: context)
    }

    static func updatePlan(
        _ report: ActualsReport, plan: MigrationPlan, loaded: LoadedPlan, dryRun: Bool, context: CommandContext
    ) throws(CommandError) -> ExitCode {
        let path = loaded.file.displayPath
        let out = context.standardOutput
        guard !report.refits.isEmpty else {
            out.write("\nNothing to refit, so \(path) is unchanged.\n")
            return .success
        }
        let values = report.refits.map { AssumptionValue(name: $0.assumption.rawValue, distribution: $0.after) }
        // A refit of an assumption the plan left to its default says what it replaces; the others show it on the line.
        let reasons = Dictionary(
            uniqueKeysWithValues: report.refits.filter(\.replacesDefault).map {
                ($0.assumption.rawValue, "instead of the default \(PlanMerger.describe($0.before))")
            })
        let (merged, merge) = PlanMerger.mergeAssumptions(values, into: plan, reasons: reasons)
        let text = PlanEncoder.encode(merged)
        // The plan written must read and pass 'migrate check'; if it would not, the plan on disk is left alone.
        let decoded = PlanDecoder.decode(text)
        var problems = decoded.diagnostics.filter { $0.severity == .error }
        if let rewritten = decoded.plan, problems.isEmpty {
            problems = PlanChecker.check(PlanCatalog(rewritten), now: context.now).diagnostics.filter { $0.severity == .error }
        }
        if !problems.isEmpty {
            throw CommandError(
                .dataError,
                "the refitted plan would not pass 'migrate check', so \(path) was left unchanged:\n"
                    + problems.map { "  \($0.path.map { "\($0): " } ?? "")\($0.message)" }.joined(separator: "\n"))
        }
        out.write("\nThe refit in \(path) (nothing else changes):\n")
        // A change wider than the terminal goes on under itself from its arrow.
        for change in merge.changed + merge.added.map({ MergeChange($0) }) {
            if let after = change.after, change.description.count + 2 > TerminalWidth.columns {
                out.write("  \(change.before)\n    → \(after)\n")
            } else {
                out.write("  \(change)\n")
            }
        }
        for line in merge.conflicts { out.write("  kept: \(line)\n") }
        for line in merge.ignored { out.write("  unchanged: \(line)\n") }
        let bytes = Array(text.utf8)
        guard bytes != loaded.file.bytes else {
            out.write("\(path) is unchanged.\n")
            return .success
        }
        if dryRun {
            out.write("\n--dry-run: \(path) was not written. It would change like this:\n")
            out.write(
                LineDiff.render(
                    old: String(decoding: loaded.file.bytes, as: UTF8.self), new: text, style: context.style(for: context.standardOutput)))
            return .success
        }
        let written = try OutputFile.write(bytes, to: path, context: context)
        out.write("Wrote \(written).\n")
        return .success
    }
}
