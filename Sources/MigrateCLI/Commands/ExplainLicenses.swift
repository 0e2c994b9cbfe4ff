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
        help: "Decide direct-sale license holders instead: a customer export (Paddle, FastSpring, Gumroad or plain CSV). Repeatable.")
    static let ledger = Argument<String?>.option(
        "ledger", valueName: "file", help: "With --licenses: the ledger of 'codes assign', to say each holder's code.")

    static func explainLicenses(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        if let given = (oneCustomer + [batch, output, inputFormat, rejected, strict]).first(where: { arguments.isSet($0) }) {
            throw .usage("'--\(given.spec.name)' describes an App Store customer; --licenses decides the holders of the exports. Leave one out.")
        }
        let format = arguments[Self.format]
        guard format == .text || format == .csv else {
            throw .usage("--licenses writes text, or csv for a spreadsheet; not \(format.rawValue).")
        }
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "nothing was explained")
        guard catalog.plan.directSales != nil else {
            throw CommandError(.dataError, "\(loaded.file.displayPath) has no directSales. Run 'migrate import licenses' with the exports first.")
        }
        let holders = try ImportCommand.readLicenses(arguments[Self.licenses], context: context)
        var ledger: CodeLedger?
        if let path = arguments[Self.ledger] {
            let file = try InputFile.read(path, context: context)
            ledger = try ImportCommand.importing { () throws(ImportError) in try CodeLedger.read(file.bytes, file: file.displayPath) }
        }
        let decisions = LicenseDecision.decide(holders, catalog: catalog, ledger: ledger, now: arguments[Self.now] ?? context.now)
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
}
