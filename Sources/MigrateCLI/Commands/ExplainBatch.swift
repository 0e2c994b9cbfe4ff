import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// `migrate explain PLAN --batch FILE`: a decision for every customer of a list, streamed, then a
/// summary of the cohorts and warnings that catch a wrong cutoff. The list is read and decided by
/// `BatchRun`; this command opens the files, says what is skipped and writes the summary.
struct ExplainBatch {
    let list: BatchRun
    let context: CommandContext
    var catalog: PlanCatalog { list.catalog }
    var display: String { list.display }

    /// How `explain --batch` was asked to read and what to write besides the decisions.
    struct Options {
        var format: ExplainCommand.Format = .text
        var inputFormat: ExplainCommand.InputFormat?
        var outputPath: String?
        var rejectedPath: String?
        var strict = false
        /// With `--licenses`: the direct-sale holders' summary, said after the list's.
        var licenses: String?
    }

    static func run(_ path: String, catalog: PlanCatalog, options: Options, now: Date, context: CommandContext) throws(CommandError) -> ExitCode {
        let input = try CustomerListInput(path, context: context)
        let display = input.display
        let absolute = input.absolute
        // The outputs first (`FileRoles` already refused one that is an input or the other output): a run killed while it
        // reads leaves a temporary file the next run removes.
        var file: OutputSink?
        var rejected: RejectedRows?
        do throws(CommandError) {
            if let outputPath = options.outputPath { file = try OutputSink(outputPath, context: context) }
            if let rejectedPath = options.rejectedPath {
                rejected = RejectedRows(sink: try OutputSink(rejectedPath, context: context), input: input.isFolder ? .folder : .lines)
            }
        } catch {
            file?.abandon()
            throw error
        }
        var source: ByteSource?
        let kind: BatchInputKind
        do throws(CommandError) {
            if input.isFolder {
                if let given = options.inputFormat {
                    throw .usage(
                        "--input-format \(given.rawValue) is for a file or standard input; \(path) is a folder, read as App Store Server API responses."
                    )
                }
                kind = .folder
            } else {
                let opened = try input.open(path, as: options.inputFormat.map { $0 == .csv ? .csv : .jsonLines })
                kind = opened.0
                source = opened.1
            }
        } catch {
            file?.abandon()
            rejected?.abandon()
            throw error
        }
        let outputKind: BatchOutputKind
        switch options.format {
        case .csv: outputKind = .csv
        case .jsonl, .json: outputKind = .jsonLines
        case .text: outputKind = kind == .jsonLines ? .jsonLines : .csv
        }
        let output = BatchOutput(sink: file.map { file in .sink(file) } ?? .output(context.standardOutput))
        let batch = ExplainBatch(
            list: BatchRun(
                catalog: catalog, display: display, now: now, outputKind: outputKind,
                events: events(display: display, context: context, output: output, rejected: rejected)),
            context: context)
        do {
            try batch.list.read(kind, source: source, folder: absolute)
            if batch.list.summary.decided + batch.list.summary.skippedCount == 0 {
                throw CommandError(.dataError, "\(display): \(batch.list.emptyReason(kind)); nothing was decided.")
            }
            output.flush()
            try file?.commit()
            try rejected?.commit()
        } catch let error as CommandError {
            file?.abandon()
            rejected?.abandon()
            throw error
        } catch let error as BatchListError {
            file?.abandon()
            rejected?.abandon()
            throw CommandError(.dataError, error.message)
        } catch let error as FileWriteError {
            file?.abandon()
            rejected?.abandon()
            throw CommandError.writing(error, "; nothing was written.")
        } catch {
            file?.abandon()
            rejected?.abandon()
            throw CommandError(.noInput, "\(display): \(error).")
        }
        let report =
            batch.summaryText(kind: kind, outputPath: options.outputPath, rejectedPath: options.rejectedPath, strict: options.strict)
            + (options.licenses ?? "")
        // The decisions own standard output unless they went elsewhere.
        (file == nil || file!.isStandardOutput ? context.standardError : context.standardOutput).write(report)
        if batch.list.summary.skippedCount > 0 { return .dataError }
        if options.strict && (batch.list.summary.rowsWithWarnings > 0 || !batch.list.summary.warnings.isEmpty) { return .checkFailed }
        return .success
    }

    /// What the command does with what the list hands back: decisions to `output`, skipped rows to `rejected`
    /// and (the first few) standard error, warnings to standard error.
    static func events(display: String, context: CommandContext, output: BatchOutput, rejected: RejectedRows?) -> BatchRun.Events {
        BatchRun.Events(
            write: output.append,
            skipped: { place, message, raw, listed in
                rejected?.add(place: place, reason: message, raw: raw)
                if listed { context.standardError.write("\(display): \(place): skipped: \(message)\n") }
            })
    }
}

extension ExplainBatch {
    /// The summary: counts per cohort with the rules that decided them, skipped rows, warnings.
    func summaryText(kind: BatchInputKind, outputPath: String?, rejectedPath: String?, strict: Bool) -> String {
        let summary = list.summary
        let style = context.style(for: outputPath == nil ? context.standardError : context.standardOutput)
        let environments = StoreEnvironment.allCases.compactMap { environment in
            summary.environments[environment].map { "\(Limits.grouped($0)) \(environment.rawValue)" }
        }
        // Every line read is accounted for: the parts add up to the lines, and say so.
        let extras = list.readingNotes
        var text =
            style.bold("\(display): \(list.accounting(kind, detail: environments.isEmpty ? nil : environments.joined(separator: ", ")))")
            + (outputPath.map { "; decisions in \($0)" } ?? "") + (extras.isEmpty ? "" : "; " + extras.joined(separator: "; ")) + ".\n"
        if summary.skippedCount > 0 {
            let more = summary.skippedCount > summary.skipped.count ? " (the first \(summary.skipped.count) listed above)" : " (listed above)"
            text +=
                style.red(
                    "Skipped \(Limits.grouped(summary.skippedCount)) \(summary.skippedCount == 1 ? "row" : "rows") that could not be read\(more)")
                + (rejectedPath.map { ", each copied to \($0) with its line and reason" } ?? "")
                + "; fix them and run again (exit status 65 while any are skipped).\n"
        }
        if summary.rowsWithWarnings > 0 {
            let counts = BatchRowWarning.allCases.compactMap { warning in
                summary.warningCounts[warning].map { "\(warning.rawValue) \(Limits.grouped($0))" }
            }
            text +=
                style.yellow(
                    "\(Limits.grouped(summary.rowsWithWarnings)) decided \(summary.rowsWithWarnings == 1 ? "row carries" : "rows carry") warnings in the warnings column"
                )
                + " (\(counts.joined(separator: ", ")))" + (strict ? "; exit status 1 with --strict" : "") + ".\n"
        }
        if list.unverifiedFiles > 0 {
            text +=
                style.dim(
                    "note  \(list.unverifiedFiles) \(list.unverifiedFiles == 1 ? "file's" : "files'") JWS signatures were decoded without being verified; verify them before trusting them on a server"
                ) + "\n"
        }
        let total = max(1, summary.decided)
        // The plan's tiers in its order, then new customers.
        let position = Dictionary(catalog.tiers.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = summary.groups.values.sorted { left, right in
            let a = left.tierID.map { (position[$0] ?? .max - 1, $0) } ?? (.max, "")
            let b = right.tierID.map { (position[$0] ?? .max - 1, $0) } ?? (.max, "")
            return a < b
        }
        if !ordered.isEmpty {
            // The rules that decided each cohort go under its row: beside a tier's name they would pass 80 columns.
            var rows = [["cohort", "customers", "share", "offered"]]
            var decidedBy: [String] = []
            for group in ordered {
                let name = group.tierID.map { id in "legacy: \(id)" + (catalog.tier(withID: id).map { " (\($0.name))" } ?? "") } ?? "new customers"
                let rules = group.rules.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \(Limits.grouped($0.value))" }.joined(separator: ", ")
                let share = String(format: "%.1f%%", Double(group.count) * 100 / Double(total))
                rows.append([name, Limits.grouped(group.count), share, Limits.grouped(group.offered)])
                decidedBy.append(rules)
            }
            text += "\n"
            for (index, line) in TextTable(rows: rows, rightAligned: [1, 2, 3]).lines().enumerated() {
                text += "  " + line + "\n"
                if index > 0 {
                    for (position, piece) in TextTable.wrap("decided by " + decidedBy[index - 1], width: TerminalWidth.columns - 6).enumerated() {
                        text += (position == 0 ? "    " : "      ") + style.dim(piece) + "\n"
                    }
                }
            }
            let legend = "offered: customers the upsell offers at least one product; the others own everything they can buy"
            for (index, line) in TextTable.wrap(legend, width: TerminalWidth.columns - 4).enumerated() {
                text += (index == 0 ? "  " : "    ") + style.dim(line) + "\n"
            }
        }
        let warnings = summary.warnings
        if !warnings.isEmpty { text += "\n" }
        // Wrapped at the terminal's width, its later lines indented under the first.
        for warning in warnings {
            for (index, line) in TextTable.wrap("warning: " + warning, width: TerminalWidth.columns - 2).enumerated() {
                text += index == 0 ? style.yellow("warning: ") + line.dropFirst("warning: ".count) + "\n" : "  " + line + "\n"
            }
        }
        return text
    }
}
