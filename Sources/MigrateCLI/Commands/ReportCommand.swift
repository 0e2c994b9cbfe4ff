import Foundation
import MigrateCore
import MigratePlan
import MigrateReport
import MigrateSimulation
import MigrateSupport

/// `migrate report PLAN --output report.html`: one HTML page for whoever decides. The figures come from the
/// code behind `simulate`, `explain --batch`, `simulate --actuals` and `check`; MigrateReport lays them out.
enum ReportCommand {
    static let plan = CommonArguments.plan
    static let output = Argument<String?>.option(
        "output", short: "o", valueName: "file.html", help: "Write the report to this file (whole or not at all); '-' for standard output."
    ).naming(.output)
    static let batch = Argument<String?>.option(
        "batch", valueName: "file-or-folder",
        help: "Count the cohorts in this customer list (CSV, JSON Lines, or a folder of App Store Server API responses), as explain --batch does."
    ).naming(.input)
    static let actuals = SimulateCommand.actuals.with(help: "Add what happened after launch: a Summary Sales report (.txt or .txt.gz); repeatable.")
    static let rates = SimulateCommand.rates.with(
        help: "With --actuals: one unit of a currency in the plan's currency, such as EUR=1.08; repeatable.")
    static let scenario = Argument<String?>.option("scenario", valueName: "id", help: "Report this scenario instead of the plan as written.")
    static let locale = Argument<String?>.option(
        "locale", valueName: "tag",
        help: "Write amounts and counts for this reader: en-US (the default), en-GB, de-DE, fr-FR or ja-JP.")
    static let currency = Argument<String?>.option(
        "currency", valueName: "code",
        help: "Write amounts with this currency's symbol and minor digits (USD, EUR, GBP, JPY, CHF, CAD, AUD): the plan's prices are in it.")
    static let now = Argument<Date?>.date(
        "now", help: "Judge whether the switch has happened, and 'in the future', against this moment instead of the clock (ISO 8601).")
    static let draws = SimulateCommand.draws
    static let seed = SimulateCommand.seed
    static let threads = SimulateCommand.threads

    static let spec = CommandSpec(
        name: "report",
        abstract: "Write one HTML page for whoever decides: the verdict, cohorts, forecast and rules.",
        discussion: """
            Writes a self-contained HTML file (inline style and chart, no script, nothing fetched) that opens with \
            the verdict in one sentence with every warning that touches people who paid beside it, then the cohorts (who, how many, what each keeps and is offered, and the \
            money at stake: what legacy buyers paid and keep, what would charge anyone again, and the expected \
            first purchases), the month-by-month forecast as a chart with its uncertainty band and the \
            table behind it, the assumptions in words with their sources, after launch (--actuals) the months \
            against the forecast and the refitted verdict, every warning check, explain --batch and simulate give for \
            the same inputs, and the cutoff rules and tiers as a table to sign off. After the switch's go-live (before \
            --now) it reports the app as launched. Amounts carry the sign of the plan's currency (¤) unless --currency \
            names it; --locale writes every figure and date for a reader elsewhere, from a fixed table so the bytes are \
            the same on every system. Files are named as given, an absolute path by its last part only. Its figures are those simulate, explain --batch and simulate \
            --actuals print for the same plan, seed and draws; the same inputs give the same bytes. A plan that \
            can't be simulated yet (no paid downloads a month) still gets the page, which says why it has no \
            forecast. Example: migrate report migration.json --batch customers.csv --output report.html
            """.wrappedForHelp,
        arguments: [plan, output, batch, actuals, rates, scenario, locale, currency, now, draws, seed, threads],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// Without '--output' there is no page to write.
    static let noOutput = "Name the page to write with --output, such as --output report.html ('-' for standard output)."

    /// How the options go together, every problem at once: the page to write, the rates and what they convert, and
    /// the locale and currency, each on its own.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        if arguments[Self.output] == nil { problems.append(noOutput) }
        if !arguments[Self.rates].isEmpty && arguments[Self.actuals].isEmpty {
            problems.append("'--rate' converts the proceeds of '--actuals'; give the sales reports with '--actuals'.")
        } else {
            problems += ActualsInput.rates(arguments[Self.rates]).problems
        }
        do {
            _ = try FigureStyle(localeTag: arguments[Self.locale], currencyCode: nil)
        } catch {
            problems.append("--locale: \(error.description).")
        }
        do {
            _ = try FigureStyle(localeTag: nil, currencyCode: arguments[Self.currency])
        } catch {
            problems.append("--currency: \(error.description).")
        }
        return problems
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        // How the options go together was checked before the run (`usageProblems`).
        guard let outputPath = arguments[Self.output] else { throw .usage(noOutput) }
        let rates = ActualsInput.rates(arguments[Self.rates]).rates
        let figures: FigureStyle
        do {
            figures = try FigureStyle(localeTag: arguments[Self.locale], currencyCode: arguments[Self.currency])
        } catch {
            throw .usage("\(error.description).")  // refused by `usageProblems`
        }
        let now = arguments[Self.now] ?? context.now
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "no report was written")
        let plan = catalog.plan
        // A price with cents in a currency without them (2.99 taken as yen) is not in that currency: every amount would be wrong.
        if let currency = figures.currency {
            let prices =
                plan.products.map(\.price)
                + plan.releases.compactMap { release -> Price? in
                    if case .paid(let price) = release.model { return price }
                    return nil
                }
            var unit = 1
            for _ in 0..<(4 - currency.minorDigits) { unit *= 10 }
            if let odd = prices.first(where: { $0.tenThousandths % Int64(unit) != 0 }) {
                throw .usage(
                    "--currency \(currency.code): the plan's price \(odd) has more decimals than \(currency.code) has (\(currency.minorDigits)); "
                        + "name the currency the plan's prices are in.")
            }
        }
        let threads = arguments[Self.threads] ?? ProcessInfo.processInfo.activeProcessorCount
        let scenarios = arguments[Self.scenario].map { [$0] } ?? [PreparedScenario.baseID]
        // A plan that can't be simulated (no paid downloads a month) still gets the page, which says why it has no forecast.
        var simulation: SimulationReport?
        var problem: String?
        do {
            simulation = try Simulator.run(
                plan, options: SimulationOptions(scenarios: scenarios, draws: arguments[Self.draws], seed: arguments[Self.seed], threads: threads))
        } catch {
            if error.isUsage { throw .usage(error.message + (error.hint.map { " " + $0 } ?? "")) }
            if !arguments[Self.actuals].isEmpty {
                throw CommandError(
                    .dataError, "\(loaded.file.displayPath): cannot compare: \(error.message)" + (error.hint.map { "\n  fix: \($0)" } ?? ""))
            }
            problem = error.message
            context.standardError.write("note: \(loaded.file.displayPath): no forecast in the report: \(error.message).\n")
        }
        var customers: CustomerCounts?
        if let list = arguments[Self.batch] {
            let summary = try CustomerListInput.summarize(list, catalog: catalog, now: context.now, context: context)
            customers = CustomerCounts(listName: list == "-" ? "standard input" : shareable(list), summary: summary)
        }
        var actuals: ActualsReport?
        var overlaps: [String] = []
        if !arguments[Self.actuals].isEmpty {
            let (periods, incomplete) = try ActualsInput.read(arguments[Self.actuals], plan: plan, context: context)
            if !incomplete.isEmpty {
                throw CommandError(
                    .dataError,
                    "\(incomplete.joined(separator: ", ")): rows that could not be read (above); no report was written. Fix them, or download the report again."
                )
            }
            let report = try ActualsInput.compare(
                plan, periods: periods, loaded: loaded, scenarioID: arguments[Self.scenario], draws: arguments[Self.draws],
                seed: arguments[Self.seed], rates: rates, threads: threads)
            for warning in report.overlaps { context.standardError.write(warning + "\n") }
            overlaps = report.overlaps
            actuals = report
        }
        let input = ReportInput(
            planName: shareable(loaded.file.displayPath), plan: plan, simulation: simulation, simulationProblem: problem,
            check: PlanChecker.check(catalog, now: now), customers: customers, actuals: actuals,
            actualsFiles: arguments[Self.actuals].map(shareable), actualsWarnings: overlaps, figures: figures, now: now)
        let html = HTMLReport.render(input)
        // The list's counts where a person reads them: every row decided or skipped (each skipped one listed above).
        // The terminal names the list as given; the page, by its shareable name.
        let listPath = arguments[Self.batch].map { $0 == "-" ? "standard input" : $0 } ?? ""
        var counts = ""
        if let customers {
            let summary = customers.summary
            counts = "\(listPath): \(Limits.grouped(summary.decided)) decided, \(Limits.grouped(summary.skippedCount)) skipped.\n"
        }
        if outputPath == "-" {
            context.standardOutput.write(data: Array(html.utf8))
            context.standardError.write(counts)
        } else {
            let written = try OutputFile.write(Array(html.utf8), to: outputPath, context: context)
            context.standardOutput.write("Wrote \(written): the report for \(plan.app.name).\n" + counts)
        }
        if let customers, customers.summary.skippedCount > 0 {
            throw CommandError(
                .dataError,
                "\(listPath): rows that could not be read (above) are not counted in the report. Fix them, and run it again.")
        }
        return .success
    }

    /// A file as the page names it: as given when relative, by its last part when absolute, so a page meant to be shared
    /// holds no folder of the machine that made it.
    static func shareable(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path).lastPathComponent
    }
}
