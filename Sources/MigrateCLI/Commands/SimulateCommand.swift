import Foundation
import MigratePlan
import MigrateSimulation
import MigrateSupport

/// `migrate simulate PLAN`: the cohort preview, and what-if revenue under honest uncertainty.
enum SimulateCommand {
    static let plan = CommonArguments.plan
    static let scenarios = Argument<[String]>.options(
        "scenario", valueName: "id", help: "Run only this scenario ('plan' is the plan as written). Repeatable.")
    static let draws = Argument<Int>.number("draws", help: "Monte Carlo draws; 0 for the median run only.", in: 0...10_000_000, default: 10_000)
    static let seed = Argument<UInt64>.number("seed", help: "The random seed; the same seed gives the same output.", in: 0...UInt64.max, default: 1)
    static let sweeps = Argument<[String]>.options(
        "sweep", valueName: "name=low:high:step", help: "Grid over an assumption or price.PRODUCT-ID. Repeatable.")
    static let format = CommonArguments.tableFormat
    static let chart = Argument<String?>.option("chart", valueName: "file.svg", help: "Also write an SVG chart of monthly and cumulative proceeds.")
        .naming(.output)
    static let threads = Argument<Int?>.number(
        "threads", help: "Worker threads (default: every core); the output does not depend on it.", in: 1...256)
    static let offerStates = Argument<Bool>.flag(
        "offer-states",
        help:
            "In the cohort preview, one row for each offer bought even when a cohort has more than 10 (folded into one row by default); the work grows with the square of the offers."
    )

    static let actuals = Argument<[String]>.options(
        "actuals", valueName: "sales-report",
        help:
            "Compare the forecast with a Summary Sales report (.txt or .txt.gz) from after the switch; repeatable. Prints only the comparison."
    ).naming(.input)
    static let rates = Argument<[String]>.options(
        "rate", valueName: "CUR=rate",
        help:
            "With --actuals: one unit of a currency of the reports' proceeds in the plan's currency, such as EUR=1.08 (the rates App Store Connect's Payments and Financial Reports list; App Store Connect Help, Payments and financial reports); repeatable. Proceeds in several currencies are compared only converted."
    )
    static let updatePlan = Argument<Bool>.flag(
        "update-plan", help: "With --actuals, write the refitted conversion and download multiples into the plan, saying what changed.")
    static let dryRun = ImportCommand.dryRun.with(help: "With --update-plan: show how the plan would change; write nothing.")

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
            prints the best settings. A sensitivity table shows which assumption moves the answer most. \
            With --actuals, prints instead the forecast against the sales reports after the switch: a sentence \
            that says what happened against what the plan assumed and what it means for the verdict, each month's \
            free downloads, in-app units and proceeds beside the forecast's P10–P90, the assumptions the actuals \
            contradict (the refit's band and the plan's range don't overlap), a refit of conversion, launchMultiple \
            and lastingMultiple with the verdict it gives, which --update-plan writes into the plan (nothing else \
            in it changes). Reports that count the same sales (the same report twice, a daily report inside a \
            monthly one) are counted once, with a warning; proceeds in several currencies are compared after \
            --rate converts them.
            """.wrappedForHelp,
        arguments: [plan, scenarios, draws, seed, sweeps, format, chart, threads, offerStates, actuals, rates, updatePlan, dryRun],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// How the options go together, every problem at once: the refit's options need '--actuals', and '--actuals'
    /// takes its own set (`SimulateActuals.usageProblems`).
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        if !arguments[Self.actuals].isEmpty { return SimulateActuals.usageProblems(arguments) }
        var problems: [String] = []
        if arguments[Self.updatePlan] { problems.append("'--update-plan' writes the refit of '--actuals'; give the sales reports with '--actuals'.") }
        if arguments[Self.dryRun] { problems.append("'--dry-run' shows what '--update-plan' would write; give '--actuals' and '--update-plan'.") }
        if !arguments[Self.rates].isEmpty {
            problems.append("'--rate' converts the proceeds of '--actuals'; give the sales reports with '--actuals'.")
        }
        return problems
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        // How the options go together was checked before the run (`usageProblems`).
        if !arguments[Self.actuals].isEmpty { return try SimulateActuals.run(arguments, context) }
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let checkedPlan = try loaded.requireCheckedPlan(context: context, outcome: "nothing was simulated")
        let options = SimulationOptions(
            scenarios: arguments[Self.scenarios], draws: arguments[Self.draws], seed: arguments[Self.seed],
            threads: arguments[Self.threads] ?? ProcessInfo.processInfo.activeProcessorCount, sweeps: arguments[Self.sweeps],
            offerStates: arguments[Self.offerStates])

        let progress = ProgressLine(output: context.standardError, label: "simulating")
        let report: SimulationReport
        do {
            report = try Simulator.run(
                checkedPlan, options: options, progress: progress.map { line in { @Sendable fraction in line.update(fraction) } })
        } catch {
            progress?.finish()
            if error.isUsage {
                throw .usage(error.message + (error.hint.map { " " + $0 } ?? ""))
            }
            let diagnostic = Diagnostic(.error, code: .simulation, error.message, at: error.path, hint: error.hint)
            let renderer = DiagnosticRenderer(file: loaded.file, style: context.style(for: context.standardError))
            context.standardError.write(renderer.render([diagnostic].located(in: loaded.document.root)))
            throw CommandError(.dataError, "\(loaded.file.displayPath): cannot simulate; fix the plan as shown above.")
        }
        progress?.finish()

        // `TerminalWidth` off a terminal; a terminal's own width when the shell exports COLUMNS.
        let columns = context.standardOutput.isTerminal ? context.environment["COLUMNS"].flatMap { Int($0) } : nil
        let renderer = SimulationRenderer(
            report: report, style: context.style(for: context.standardOutput), width: max(60, columns ?? TerminalWidth.columns))
        if let path = arguments[Self.chart] {
            try OutputFile.write(RevenueChart.svg(report), to: path, context: context)
        }
        switch arguments[Self.format] {
        case .json: context.standardOutput.write(renderer.json())
        case .csv: context.standardOutput.write(renderer.csv())
        case .markdown: context.standardOutput.write(renderer.markdown())
        case .text: context.standardOutput.write(renderer.text())
        }
        return .success
    }
}
