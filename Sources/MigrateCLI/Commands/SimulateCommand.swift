import Foundation
import MigratePlan
import MigrateSimulation

/// `migrate simulate PLAN`: the cohort preview, and what-if revenue under honest uncertainty.
enum SimulateCommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Preview cohorts and offers; compare staying paid with freemium.",
        discussion: """
            Prints the verdict first (how often freemium ends ahead of staying paid, the median difference and \
            break-even month, and what would have to be true for it to break even), then the cohort preview \
            (every cohort the plan creates, its estimated size, what it keeps, the offers it is shown with their \
            prices, and why), then the revenue what-if: staying paid (with its trend) against the freemium \
            plan, month by month and cumulative, with the break-even month. Assumptions come from the plan's \
            'simulation' section, or documented default ranges; each may be a distribution, drawn --draws \
            times with a seeded generator for P10/P50/P90, the share of draws where freemium ends ahead, and \
            ties counted apart. Named \
            scenarios are compared side by side; --sweep grids over any assumption (or price.PRODUCT) and \
            prints the best settings. A sensitivity table shows which assumption moves the answer most.
            """.wrappedForHelp,
        arguments: [
            .positional("plan", help: "The migration plan, or a folder holding migration.json."),
            .option("scenario", valueName: "id", help: "Run only this scenario ('plan' is the plan as written). Repeatable.", repeating: true),
            .option("draws", valueName: "n", help: "Monte Carlo draws; 0 for the median run only.", defaultValue: "10000"),
            .option("seed", valueName: "n", help: "The random seed; the same seed gives the same output.", defaultValue: "1"),
            .option("sweep", valueName: "name=low:high:step", help: "Grid over an assumption or price.PRODUCT-ID. Repeatable.", repeating: true),
            .option("format", valueName: "format", help: "Output format.", defaultValue: "text", choices: ["text", "csv", "json", "markdown"]),
            .option("chart", valueName: "file.svg", help: "Also write an SVG chart of monthly and cumulative proceeds."),
            .option("threads", valueName: "n", help: "Worker threads (default: every core); the output does not depend on it."),
            .flag(
                "offer-states",
                help:
                    "In the cohort preview, one row for each offer bought even when a cohort has more than 10 (folded into one row by default); the work grows with the square of the offers."
            ),
        ],
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let loaded = try LoadedPlan.load(arguments.value("plan")!, context: context)
        let plan = try loaded.requireCheckedPlan(context: context, outcome: "nothing was simulated")
        let draws = try arguments.integer("draws", in: 0...10_000_000)!
        guard let seedText = arguments.value("seed"), let seed = UInt64(seedText) else {
            throw .usage("The value '\(arguments.value("seed") ?? "")' is invalid for '--seed'. Expected a whole number from 0 to \(UInt64.max).")
        }
        let threads = try arguments.integer("threads", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let options = SimulationOptions(
            scenarios: arguments.values("scenario"), draws: draws, seed: seed, threads: threads, sweeps: arguments.values("sweep"),
            offerStates: arguments.flag("offer-states"))

        let progress = ProgressLine(output: context.standardError, label: "simulating")
        let report: SimulationReport
        do {
            report = try Simulator.run(plan, options: options, progress: progress.map { line in { @Sendable fraction in line.update(fraction) } })
        } catch {
            progress?.finish()
            if error.isUsage {
                throw .usage(error.message + (error.hint.map { " " + $0 } ?? ""))
            }
            let diagnostic = Diagnostic(.error, code: "simulation", error.message, at: error.path, hint: error.hint)
            let renderer = DiagnosticRenderer(file: loaded.file, style: context.style(for: context.standardError))
            context.standardError.write(renderer.render([diagnostic].located(in: loaded.document.root)))
            throw CommandError(.dataError, "\(loaded.file.displayPath): cannot simulate; fix the plan as shown above.")
        }
        progress?.finish()

        // 100 columns off a terminal; a terminal's own width when the shell exports COLUMNS.
        let columns = context.standardOutput.isTerminal ? context.environment["COLUMNS"].flatMap { Int($0) } : nil
        let renderer = SimulationRenderer(report: report, style: context.style(for: context.standardOutput), width: max(60, columns ?? 100))
        if let chart = arguments.value("chart") {
            try AtomicFile.write(RevenueChart.svg(report), to: context.resolve(chart), displayPath: chart)
        }
        switch arguments.value("format") {
        case "json": context.standardOutput.write(renderer.json())
        case "csv": context.standardOutput.write(renderer.csv())
        case "markdown": context.standardOutput.write(renderer.markdown())
        default: context.standardOutput.write(renderer.text())
        }
        return .success
    }
}
