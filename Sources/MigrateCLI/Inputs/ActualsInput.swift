import Foundation
import MigrateImport
import MigratePlan
import MigrateSimulation

/// The sales after the switch, as `simulate --actuals` and `report --actuals` both take them: the reports read, the
/// exchange rates given, and the forecast compared with them.
enum ActualsInput {
    /// Reads the Summary Sales reports given with `--actuals` (each once), refusing another app's; their problems
    /// go to standard error, and the files with rows that could not be read are listed in `incomplete`.
    static func read(_ paths: [String], plan: MigrationPlan, context: CommandContext) throws(CommandError) -> (
        periods: [ActualPeriod], incomplete: [String]
    ) {
        var actual: [ActualPeriod] = []
        // Files with rows the reader could not use (each reported by line): the comparison leaves them out.
        var incomplete: [String] = []
        // `FileRoles` refused the same file given twice; a copy is found by its overlapping sales.
        for path in paths {
            let file = try InputFile.read(path, context: context)
            // Only the plan's app's rows: the report covers every app of the account.
            let result = try SalesReportInput.read(file, bySeries: true, scope: SalesScope(plan: plan), context: context)
            context.standardError.write(DiagnosticRenderer(file: nil, style: context.style(for: context.standardError)).render(result.issues))
            if !result.issues.isEmpty { incomplete.append(file.displayPath) }
            actual += result.periods.map { period in
                ActualPeriod(
                    begin: period.begin, end: period.end, freeDownloads: period.freeDownloads, paidDownloads: period.paidDownloads,
                    inAppUnits: period.inAppUnits, inAppRefunds: period.inAppRefunds, renewals: period.renewals,
                    proceeds: period.proceedsAmounts, origin: period.origin, file: file.displayPath,
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

    /// `--rate EUR=1.08`, repeatable: one unit of a currency in the plan's currency, and every rate refused with why:
    /// a malformed rate, one at or below 0 or past migrate's limit, or two different rates for one currency. A
    /// command's validation step reports the problems; its run reads the rates.
    static func rates(_ texts: [String]) -> (rates: [String: Double], problems: [String]) {
        var rates: [String: Double] = [:]
        var problems: [String] = []
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let code = parts[0].uppercased()
            guard parts.count == 2, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                problems.append(
                    "The value '\(text)' is invalid for '--rate'. Expected CUR=rate: a three-letter currency code, '=', and its rate, such as EUR=1.08."
                )
                continue
            }
            guard let rate = Double(parts[1]), rate.isFinite, rate > 0 else {
                problems.append("The value '\(text)' is invalid for '--rate': '\(parts[1])' is not a rate above 0, such as 1.08.")
                continue
            }
            guard Limits.exchangeRate.contains(rate) else {
                problems.append(
                    "The value '\(text)' is invalid for '--rate': \(parts[1]) is outside 0.000001 to 1,000,000, migrate's limit for one unit of a currency in the plan's; check the rate."
                )
                continue
            }
            if let known = rates[code] {
                if known != rate {
                    problems.append(
                        "'--rate \(code)' is given twice, as \(SimulationRenderer.number(known)) and \(SimulationRenderer.number(rate)); give it once."
                    )
                }
                continue
            }
            rates[code] = rate
        }
        return (rates, problems)
    }
}
