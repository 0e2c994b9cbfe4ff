import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSupport

/// `migrate explain PLAN --licenses FILE… [--ledger FILE]`: what each direct-sale license comes to — its edition, the
/// tier and product its holder gets, the features the redeemed product unlocks, and the code the ledger gave.
extension ExplainCommand {
    static let licenses = Argument<[String]>.options(
        "licenses", valueName: "file",
        help:
            "Decide direct-sale license holders: a customer export (Paddle, FastSpring, Gumroad or plain CSV); with --batch, counted after the list's summary. Repeatable."
    ).naming(.input)
    static let ledger = Argument<String?>.option(
        "ledger", valueName: "file", help: "With --licenses: the ledger of 'codes assign', to say each holder's code."
    ).naming(.input)

    /// Runs once `usageProblems` found nothing: no option of one customer's or a list's, and text or csv.
    static func explainLicenses(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let format = arguments[Self.format]
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "nothing was explained")
        let (_, holders, decisions) = try decideLicenses(arguments, loaded: loaded, catalog: catalog, context: context)
        if format == .csv {
            var text = "file,line,store,order,verdict,edition,tier,product,features,codes,reason\n"
            for decision in decisions {
                let verdict =
                    switch decision.verdict {
                    case .holder: "holder"
                    case .refunded: "refunded"
                    case .duplicate: "duplicate"
                    }
                let fields = [
                    decision.license.file, String(decision.license.line), decision.license.store.rawValue, decision.license.order, verdict,
                    decision.edition?.id ?? "", decision.edition?.tier ?? "", decision.product ?? "", decision.features.joined(separator: " "),
                    decision.codes.joined(separator: " "), decision.verdict.reason ?? decision.waiting ?? "",
                ]
                text += fields.map { CSVWriter.field($0) }.joined(separator: ",") + "\n"
            }
            for row in holders.skippedRows {
                text +=
                    [row.file, String(row.line), "", "", "skipped", "", "", "", "", "", row.reason].map { CSVWriter.field($0) }.joined(separator: ",")
                    + "\n"
            }
            context.standardOutput.write(text)
            return .success
        }
        let style = context.style(for: context.standardOutput)
        var text = ""
        for decision in decisions {
            let license = decision.license
            text += "\(license.place)  \(license.key)  \(license.label)"
            if let reason = decision.verdict.reason {
                text += style.dim(" → not counted: \(reason)") + "\n"
                continue
            }
            if let edition = decision.edition, let product = decision.product {
                text += " → edition \(edition.id)" + (edition.tier.map { ", tier \($0)" } ?? "") + ", redeems \(product)"
                text += " (" + (decision.features.isEmpty ? "no features" : decision.features.joined(separator: ", ")) + ")"
                if !decision.codes.isEmpty { text += "; code\(decision.codes.count == 1 ? "" : "s") \(decision.codes.joined(separator: ", "))" }
            }
            if let waiting = decision.waiting { text += style.yellow(" — \(waiting)") }
            text += "\n"
        }
        for row in holders.skippedRows { text += style.dim("\(row.place)  skipped: \(row.reason)") + "\n" }
        let holding = decisions.filter { $0.verdict == .holder }
        let served = holding.filter { $0.waiting == nil }.count
        text +=
            style.bold("\(holding.count) holder\(holding.count == 1 ? "" : "s")")
            + ": \(served) with a code for every seat, \(holding.count - served) waiting; "
        text +=
            "\(holders.refundedCount) refunded, \(holders.duplicateCount) duplicate\(holders.duplicateCount == 1 ? "" : "s"), \(holders.skippedRows.count) skipped.\n"
        context.standardOutput.write(text)
        return .success
    }

    /// `explain --batch LIST --licenses FILE…`: the holders of the exports, decided as `--licenses` decides them, counted
    /// after the list's summary so every row of both is accounted for. Each license's own line is `--licenses` alone.
    /// The plan's direct sales, the holders read from `--licenses`, and each one's decision (with `--ledger`'s codes).
    static func decideLicenses(
        _ arguments: ParsedArguments, loaded: LoadedPlan, catalog: PlanCatalog, context: CommandContext
    ) throws(CommandError) -> (sales: DirectSales, holders: LicenseHolders, decisions: [LicenseDecision]) {
        guard let sales = catalog.plan.directSales else {
            throw CommandError(.dataError, "\(loaded.file.displayPath) has no directSales. Run 'migrate import licenses' with the exports first.")
        }
        let holders = try ImportCommand.readLicenses(arguments[Self.licenses], context: context)
        var ledger: CodeLedger?
        if let path = arguments[Self.ledger] {
            let file = try InputFile.read(path, context: context)
            ledger = try ImportCommand.importing { () throws(ImportError) in try CodeLedger.read(file.bytes, file: file.displayPath) }
        }
        let decisions = LicenseDecision.decide(holders, catalog: catalog, ledger: ledger, now: arguments[Self.now] ?? context.now)
        return (sales, holders, decisions)
    }

    static func licenseSummary(
        _ arguments: ParsedArguments, loaded: LoadedPlan, catalog: PlanCatalog, context: CommandContext
    ) throws(CommandError) -> String {
        let (sales, holders, decisions) = try decideLicenses(arguments, loaded: loaded, catalog: catalog, context: context)
        let holding = decisions.filter { $0.verdict == .holder }
        func plural(_ count: Int, _ word: String) -> String { "\(Limits.grouped(count)) \(word)\(count == 1 ? "" : "s")" }
        // Every line of every export accounted for, then what the licenses read come to.
        var text = "\nLicense holders:\n"
        for export in holders.exports {
            text += "  \(export.file): \(export.tally.sentence(records: ("license", "licenses"), decidedVerb: "read"))\n"
        }
        let notLicenses = holders.skippedRows.count - holders.unreadableRows.count
        text += "  \(plural(holding.count, "holder")) (\(plural(holding.reduce(0) { $0 + $1.license.seats }, "seat"))), "
        text += "\(Limits.grouped(holders.refundedCount)) refunded, \(plural(holders.duplicateCount, "duplicate"))"
        if notLicenses > 0 {
            text += ", \(Limits.grouped(notLicenses)) not \(notLicenses == 1 ? "a license" : "licenses") (a totals row, a recurring charge…)"
        }
        text += ", \(Limits.grouped(holders.unreadableRows.count)) skipped\n"
        for edition in sales.editions {
            let members = holding.filter { $0.edition?.id == edition.id }
            guard !members.isEmpty else { continue }
            let seats = members.reduce(0) { $0 + $1.license.seats }
            text += "  \(edition.id)" + (edition.tier.map { ", tier \($0)" } ?? "") + (edition.legacyProduct.map { ", redeems \($0)" } ?? "")
            text += ": \(plural(members.count, "holder")), \(plural(seats, "seat"))"
            if arguments[Self.ledger] != nil { text += "; \(members.filter { $0.waiting == nil }.count) with a code for every seat" }
            text += "\n"
        }
        let unmapped = holding.filter { $0.edition == nil }.count
        if unmapped > 0 { text += "  \(plural(unmapped, "holder")) of no edition in the plan: run 'migrate import licenses' with the export\n" }
        text += "  each license's line, with its reason: explain with --licenses and without --batch\n"
        return text
    }
}
