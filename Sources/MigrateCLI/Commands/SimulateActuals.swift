import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSimulation

/// `migrate simulate PLAN --actuals SALES…`: the forecast against the sales after the switch, and
/// `--update-plan`, which writes the refitted ranges into the plan.
enum SimulateActuals {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        if !arguments[SimulateCommand.sweeps].isEmpty { throw .usage("'--sweep' does not apply with '--actuals'.") }
        if arguments[SimulateCommand.chart] != nil { throw .usage("'--chart' does not apply with '--actuals'.") }
        if arguments[SimulateCommand.offerStates] {
            throw .usage("'--offer-states' shapes the cohort preview, which '--actuals' does not print; leave it out, or run without '--actuals'.")
        }
        let scenarios = arguments[SimulateCommand.scenarios]
        if scenarios.count > 1 { throw .usage("'--actuals' compares one scenario; give at most one '--scenario'.") }
        if arguments[SimulateCommand.dryRun] && !arguments[SimulateCommand.updatePlan] {
            throw .usage("'--dry-run' shows what '--update-plan' would write; add '--update-plan'.")
        }
        let format = arguments[SimulateCommand.format]
        if format == .csv || format == .markdown {
            throw .usage("'--actuals' prints text or json; '--format \(format.rawValue)' is not supported with it.")
        }

        let rates = try parseRates(arguments[SimulateCommand.rates])

        let loaded = try LoadedPlan.load(arguments[SimulateCommand.plan], context: context)
        let plan = try loaded.requireCheckedPlan(context: context, outcome: "nothing was compared")
        let (actual, incomplete) = try readReports(arguments[SimulateCommand.actuals], plan: plan, context: context)
        let report = try compare(
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

    /// Reads the Summary Sales reports given with `--actuals` (each once), refusing another app's; their problems
    /// go to standard error, and the files with rows that could not be read are listed in `incomplete`.
    /// `simulate --actuals` and `report --actuals` read them here.
    static func readReports(_ paths: [String], plan: MigrationPlan, context: CommandContext) throws(CommandError) -> (
        periods: [ActualPeriod], incomplete: [String]
    ) {
        var actual: [ActualPeriod] = []
        // Files with rows the reader could not use (each reported by line): the comparison leaves them out.
        var incomplete: [String] = []
        // `FileRoles` refused the same file given twice; a copy is found by its overlapping sales.
        for path in paths {
            let file = try InputFile.read(path, context: context)
            // Only the plan's app's rows: the report covers every app of the account.
            let result = try ImportCommand.readSales(file, bySeries: true, scope: SalesScope(plan: plan), context: context)
            context.standardError.write(DiagnosticRenderer(file: nil, style: context.style(for: context.standardError)).render(result.issues))
            if !result.issues.isEmpty { incomplete.append(file.displayPath) }
            actual += result.periods.map { period in
                ActualPeriod(
                    begin: period.begin, end: period.end, freeDownloads: period.freeDownloads, paidDownloads: period.paidDownloads,
                    inAppUnits: period.inAppUnits, inAppRefunds: period.inAppRefunds, renewals: period.renewals,
                    proceeds: period.proceeds.mapValues { Double($0) / 10_000 }, origin: period.origin, file: file.displayPath,
                    series: period.series)
            }
        }
        return (actual, incomplete)
    }

    /// The forecast against the periods read, its errors made command errors.
    static func compare(
        _ plan: MigrationPlan, periods: [ActualPeriod], loaded: LoadedPlan, scenarioID: String?, draws: Int, seed: UInt64,
        rates: [String: Double], threads: Int
    ) throws(CommandError) -> ActualsReport {
        do {
            return try ActualsComparison.compare(
                plan, periods: periods, scenarioID: scenarioID, draws: draws, seed: seed, rates: rates, threads: threads)
        } catch {
            if error.isUsage { throw .usage(error.message + (error.hint.map { " " + $0 } ?? "")) }
            if error.file != nil {
                throw CommandError(.dataError, "\(error.message).\(error.hint.map { "\n  fix: \($0)" } ?? "")")
            }
            throw CommandError(
                .dataError, "\(loaded.file.displayPath): cannot compare: \(error.message)" + (error.hint.map { "\n  fix: \($0)" } ?? ""))
        }
    }

    /// `--rate EUR=1.08`, repeatable: one unit of a currency in the plan's currency. A malformed rate, one at or
    /// below 0, or two different rates for one currency are refused.
    static func parseRates(_ texts: [String]) throws(CommandError) -> [String: Double] {
        var rates: [String: Double] = [:]
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let code = parts[0].uppercased()
            guard parts.count == 2, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .usage(
                    "The value '\(text)' is invalid for '--rate'. Expected CUR=rate: a three-letter currency code, '=', and its rate, such as EUR=1.08."
                )
            }
            guard let rate = Double(parts[1]), rate.isFinite, rate > 0 else {
                throw .usage("The value '\(text)' is invalid for '--rate': '\(parts[1])' is not a rate above 0, such as 1.08.")
            }
            guard Limits.exchangeRate.contains(rate) else {
                throw .usage(
                    "The value '\(text)' is invalid for '--rate': \(parts[1]) is outside 0.000001 to 1,000,000, migrate's limit for one unit of a currency in the plan's; check the rate."
                )
            }
            if let known = rates[code], known != rate {
                throw .usage(
                    "'--rate \(code)' is given twice, as \(SimulationRenderer.number(known)) and \(SimulationRenderer.number(rate)); give it once.")
            }
            rates[code] = rate
        }
        return rates
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
            uniqueKeysWithValues: report.refits.filter { $0.beforeSource.hasPrefix("default") }.map {
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
        for line in merge.changed + merge.added {
            if line.count + 2 > TerminalWidth.columns, let arrow = line.range(of: " → ") {
                out.write("  \(line[..<arrow.lowerBound])\n    → \(line[arrow.upperBound...])\n")
            } else {
                out.write("  \(line)\n")
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
