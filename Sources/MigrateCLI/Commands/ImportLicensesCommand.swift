import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport

/// `migrate import licenses FILE…`: license holders from Paddle, FastSpring, Gumroad or a plain CSV, counted into the
/// plan's direct-sale channel. Counts, editions and dates only: e-mail addresses and names stay in the exports.
extension ImportCommand {
    static let licenseFiles = Argument<[String]>.positionals(
        "files", help: "Customer exports: Paddle, FastSpring or Gumroad CSV, or the plain CSV (order,email,product,purchased…)."
    ).naming(.input)

    static let licenses = CommandSpec(
        name: "licenses", abstract: "License holders who bought outside the App Store (Paddle, FastSpring, Gumroad, plain CSV).",
        discussion: """
            Reads each export strictly, tells its store by its header (an unknown header is refused with the \
            columns each store's export has), and decides every row: a license holder, refunded, a duplicate, \
            or skipped with its line and reason. The plan's directSales gets one edition per product (and \
            variant) with its holders, seats, refunds and dates, never an e-mail address or a name. Map each \
            edition to a tier and a legacyProduct, then run check and codes assign. Exits 65 when an export \
            can't be read, 66 when a file or the plan is missing.
            """.wrappedForHelp,
        arguments: [licenseFiles, plan, dryRun],
        run: { arguments, context throws(CommandError) in try importLicenses(arguments, context) })

    /// Reads license exports, as `import licenses` and `codes assign` do: every file, its rows decided.
    static func readLicenses(_ paths: [String], context: CommandContext) throws(CommandError) -> LicenseHolders {
        var exports: [LicenseExport] = []
        for path in paths {
            let file = try InputFile.read(path, context: context)
            exports.append(try importing { () throws(ImportError) in try LicenseImporter.read(file.bytes, file: file.displayPath) })
        }
        return LicenseHolders(exports)
    }

    /// What was read: per file, every line accounted for; then every row not counted with its place and reason,
    /// the order ids two buyers share, the stray quotes; then the totals.
    static func licenseReport(_ holders: LicenseHolders, style: Style) -> String {
        var text = ""
        for export in holders.exports {
            text +=
                "\(export.file): \(export.store.displayName) export, \(export.tally.sentence(records: ("license", "licenses"), decidedVerb: "read"))\n"
        }
        let notCounted =
            holders.skippedRows.map { ($0.file, $0.line, "skipped: \($0.reason)") }
            + holders.decided.compactMap { item in item.verdict.reason.map { (item.license.file, item.license.line, "not counted: \($0)") } }
        for (file, line, reason) in notCounted.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            text += "  \(file):\(line): \(reason)\n"
        }
        for shared in holders.sharedOrderIDs {
            text +=
                "  \(shared.place): order \(shared.order) has the id of \(shared.other)'s, for another buyer: read as another order (each shop numbers its own)\n"
        }
        for export in holders.exports {
            for stray in export.strayQuotes {
                text += "  \(export.file): \(stray.sentence); that row alone is skipped, and the lines after it are read as rows of their own\n"
            }
        }
        let holderList = holders.holders
        let seats = holderList.map(\.seats).reduce(0, +)
        let rows = holders.rowsRead
        text +=
            style.bold("Read \(Limits.grouped(rows)) row\(rows == 1 ? "" : "s")") + ": \(holderList.count) holder\(holderList.count == 1 ? "" : "s") "
        text +=
            "(\(seats) seat\(seats == 1 ? "" : "s")), \(holders.refundedCount) refunded, \(holders.duplicateCount) duplicate\(holders.duplicateCount == 1 ? "" : "s"), "
        text += "\(holders.skippedRows.count) skipped.\n"
        return text
    }

    static func importLicenses(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let paths = arguments[Self.licenseFiles]
        guard !paths.isEmpty else { throw .usage("Give at least one export to read.") }
        let planPath = arguments[Self.plan]
        guard FileManager.default.fileExists(atPath: context.resolve(planPath)) else {
            throw CommandError(
                .noInput, "\(planPath): no such file. 'import licenses' adds to an existing plan: create it first with 'migrate init'.")
        }
        let loaded = try LoadedPlan.load(planPath, context: context)
        let plan = try loaded.requirePlan(context: context)
        let holders = try readLicenses(paths, context: context)
        let style = context.style(for: context.standardOutput)
        context.standardOutput.write(licenseReport(holders, style: style))

        let (sales, added, _) = holders.merged(into: plan.directSales)
        var merged = plan
        merged.directSales = sales
        let header = ["edition", "holders", "seats", "refunded", "sold", "tier", "legacy product"]
        let table = TextTable(
            rows: [header]
                + sales.editions.map { edition in
                    let sold = [edition.soldFrom, edition.soldUntil].compactMap { $0.map(Timestamp.formatDate) }
                    return [
                        edition.id + (added.contains(edition.id) ? " (new)" : ""), String(edition.holders), String(edition.seats),
                        String(edition.refunded),
                        sold.count == 2 && sold[0] != sold[1] ? "\(sold[0])–\(sold[1])" : (sold.first ?? "—"), edition.tier ?? "—",
                        edition.legacyProduct ?? "—",
                    ]
                }, rightAligned: [1, 2, 3])
        context.standardOutput.write(style.bold("Editions") + "\n" + table.lines().map { "  " + $0 }.joined(separator: "\n") + "\n")
        let unmapped = sales.editions.filter { $0.tier == nil || $0.legacyProduct == nil }.map(\.id)
        if !unmapped.isEmpty {
            context.standardOutput.write(
                "Map \(unmapped.joined(separator: ", ")) to a \"tier\" and a \"legacyProduct\" in directSales.editions, then run 'migrate check'.\n")
        }
        let text = PlanEncoder.encode(merged)
        let check = PlanDecoder.decode(text)
        if check.hasErrors {
            let problems = check.diagnostics.filter { $0.severity == .error }.map { "  \($0.path.map { "\($0): " } ?? "")\($0.message)" }
            throw CommandError(
                .dataError, "the merged plan would not be valid, so \(planPath) was left unchanged:\n" + problems.joined(separator: "\n"))
        }
        let bytes = Array(text.utf8)
        if bytes == loaded.file.bytes {
            context.standardOutput.write("\(planPath) is unchanged.\n")
        } else if arguments[Self.dryRun] {
            context.standardOutput.write("\n--dry-run: \(planPath) was not written. It would change like this:\n")
            context.standardOutput.write(LineDiff.render(old: String(decoding: loaded.file.bytes, as: UTF8.self), new: text, style: style))
        } else {
            let written = try OutputFile.write(bytes, to: planPath, context: context)
            context.standardOutput.write("Wrote \(written).\n")
        }
        return unreadableRowsFailure(holders, context: context) ?? .success
    }

    /// Exit 65, said on standard error, when a row of the exports couldn't be read: its buyer is in none of the counts
    /// and has no code until the row is fixed. Nil when every row was read.
    static func unreadableRowsFailure(_ holders: LicenseHolders, context: CommandContext) -> ExitCode? {
        let rows = holders.unreadableRows
        guard !rows.isEmpty else { return nil }
        let style = context.style(for: context.standardError)
        context.standardError.write(
            "\(style.red(style.bold("\(rows.count) \(rows.count == 1 ? "row" : "rows") could not be read"))) (listed above: "
                + rows.prefix(5).map(\.place).joined(separator: ", ") + (rows.count > 5 ? ", …" : "")
                + "): a buyer there is in no count and has no code; fix the rows and run again (exit status 65 while any remain).\n")
        return .dataError
    }
}
