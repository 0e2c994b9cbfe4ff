import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport

/// `migrate codes assign`: pairs App Store Connect's one-time-use offer codes with direct-sale license holders,
/// exactly once, into a mail merge; nothing is sent.
enum CodesCommand {
    static let codes = Argument<[String]>.options(
        "codes", valueName: "[product=]file",
        help: "One-time-use codes App Store Connect downloaded; PRODUCT= names the legacy product when the file doesn't.")
    static let licenses = Argument<[String]>.options(
        "licenses", valueName: "file", help: "A customer export (Paddle, FastSpring, Gumroad or plain CSV), as for 'import licenses'."
    ).naming(.input)
    static let plan = Argument<String>.option("plan", valueName: "file", help: "The migration plan.", default: "migration.json").naming(.plan)
    static let ledger = Argument<String?>.option(
        "ledger", valueName: "file", help: "The ledger of codes given, which this command owns; created on the first run."
    ).naming(.inputOutput)
    static let output = Argument<String?>.option(
        "output", valueName: "file", help: "The mail merge to write (CSV: name, email, product, code, url…)."
    ).naming(.output)
    static let now = Argument<Date?>.date("now", help: "Judge codes' expiry at this moment instead of the clock (ISO 8601).")

    static let spec = CommandSpec(
        name: "codes", abstract: "Give direct-sale license holders one-time-use offer codes.",
        discussion: """
            assign pairs the codes App Store Connect created for each edition's legacy product with the license \
            holders of the exports: one code per seat, each code once. The ledger remembers every code given, so \
            a rerun changes nothing and a run with more codes or holders only adds. Refunded and duplicated \
            licenses get none. Nothing is sent: the mail merge lists each holder's code and redemption URL.
            """.wrappedForHelp,
        subcommands: [assign])

    static let assign = CommandSpec(
        name: "assign", abstract: "Pair one-time-use codes with license holders, exactly once, into a mail merge.",
        discussion: """
            Reads the plan's directSales (each edition's legacyProduct, offerCodes.appID), the exports and the \
            codes; keeps what --ledger already gave; gives the next unused, unexpired code of the product to \
            each seat still without one, oldest purchase first; and writes --output and --ledger together, all \
            or nothing. Reports codes given, missing, left, expiring within 30 days and expired. Exits 1 when \
            a holder is left without a code, 64 for a usage error, 65 when a file can't be read or the ledger \
            can't be trusted, 66 when one is missing, 73 when the outputs can't be written.
            """.wrappedForHelp,
        arguments: [codes, licenses, plan, ledger, output, now],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// The files assign needs, every one missing at once.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        if arguments[Self.ledger] == nil { problems.append("Give --ledger FILE: the record of codes given (created on the first run).") }
        if arguments[Self.output] == nil { problems.append("Give --output FILE: the mail merge to write.") }
        if arguments[Self.codes].isEmpty { problems.append("Give --codes FILE: the one-time-use codes App Store Connect downloaded.") }
        if arguments[Self.licenses].isEmpty { problems.append("Give --licenses FILE: the customer export(s) the codes are for.") }
        return problems
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        // Every file named was checked before the run (`usageProblems`).
        guard let ledgerPath = arguments[Self.ledger], let outputPath = arguments[Self.output] else {
            throw .usage("Give --ledger FILE and --output FILE.")
        }
        let codePaths = arguments[Self.codes]
        let licensePaths = arguments[Self.licenses]

        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let plan = try loaded.requirePlan(context: context)
        guard let sales = plan.directSales, !sales.editions.isEmpty else {
            throw CommandError(
                .dataError, "\(loaded.file.displayPath) has no directSales editions. Run 'migrate import licenses' with the exports first.")
        }
        guard let appID = sales.offerCodes?.appID else {
            throw CommandError(
                .dataError,
                "\(loaded.file.displayPath): directSales.offerCodes.appID is missing; the redemption URL needs the app's Apple ID "
                    + "(the number in its App Store URL). Add \"offerCodes\": { \"appID\": \"1234567890\" } to directSales.")
        }

        let holders = try ImportCommand.readLicenses(licensePaths, context: context)
        var codeFiles: [OfferCodeFile] = []
        for argument in codePaths {
            let (product, path) = split(argument, plan: plan)
            let file = try InputFile.read(path, context: context)
            var read = try ImportCommand.importing { () throws(ImportError) in
                try OfferCodeReader.read(file.bytes, file: file.displayPath, product: product)
            }
            let products = Set(plan.products.map(\.id))
            read.skipped += read.codes.filter { !products.contains($0.product) }.map {
                SkippedLicenseRow(file: $0.file, line: $0.line, reason: "product '\($0.product)' is not in the plan")
            }
            read.codes.removeAll { !products.contains($0.product) }
            codeFiles.append(read)
        }
        var ledger = CodeLedger()
        var oldLedger: [UInt8]?
        if FileManager.default.fileExists(atPath: context.resolve(ledgerPath)) {
            let file = try InputFile.read(ledgerPath, context: context)
            oldLedger = file.bytes
            ledger = try ImportCommand.importing { () throws(ImportError) in try CodeLedger.read(file.bytes, file: file.displayPath) }
        }
        let moment = arguments[Self.now] ?? context.now
        let assignment = CodeAssignment(plan: sales, holders: holders.holders, codes: codeFiles.flatMap(\.codes), ledger: ledger, now: moment)

        let style = context.style(for: context.standardOutput)
        var text = ImportCommand.licenseReport(holders, style: style)
        for file in codeFiles {
            text += "\(file.file): \(file.tally.sentence(records: ("code", "codes"), decidedVerb: "read"))\n"
            for row in file.skipped.sorted(by: { $0.line < $1.line }) { text += "  \(row.place): skipped: \(row.reason)\n" }
        }
        for item in assignment.repeated { text += "  \(item.code.place): skipped: code \(item.code.code) is listed again (first at \(item.first))\n" }
        for unserved in assignment.unserved { text += "  \(unserved.license.place): no code: \(unserved.reason)\n" }
        text += report(assignment, style: style)
        context.standardOutput.write(text)

        let mailMerge = assignment.mailMerge(appID: appID)
        let ledgerBytes = assignment.ledger.bytes
        let mailTarget = OutputTarget.resolve(outputPath == "-" ? "-" : context.resolve(outputPath), given: outputPath)
        let oldOutput = FileManager.default.contents(atPath: context.resolve(outputPath)).map { [UInt8]($0) }
        if oldLedger == ledgerBytes && oldOutput == mailMerge, case .file = mailTarget {
            context.standardOutput.write("\(outputPath) and \(ledgerPath) are unchanged.\n")
        } else {
            // One change: the mail merge and the ledger are renamed into place together, and a run killed between the
            // two renames is finished by the next (a journal beside them), so a code mailed is always in the ledger.
            var entries = [FileTransaction.Entry(path: context.resolve(ledgerPath), display: ledgerPath, bytes: ledgerBytes)]
            if case .file(let path) = mailTarget { entries.insert(FileTransaction.Entry(path: path, display: outputPath, bytes: mailMerge), at: 0) }
            do {
                _ = try (context.fileTransaction ?? FileTransaction.standard()).commit(entries)
            } catch {
                throw CommandError.writing(error, ". The ledger and the mail merge are as they were.")
            }
            if case .file = mailTarget {
            } else {
                // Standard output or a stream gets the mail merge once the ledger holds every code in it.
                try OutputFile.write(mailMerge, to: outputPath, context: context)
            }
            let summary = mailTarget == .standardOutput ? context.standardError : context.standardOutput
            summary.write(
                "Wrote \(outputPath) (\(assignment.letters.count) code\(assignment.letters.count == 1 ? "" : "s")) and \(ledgerPath). Nothing was sent.\n"
            )
        }
        // A row that couldn't be read may be a holder owed a code: the run fails until the row is fixed.
        if let unreadable = ImportCommand.unreadableRowsFailure(holders, context: context) { return unreadable }
        let missing = assignment.missing.values.reduce(0, +)
        if missing > 0 || !assignment.unserved.isEmpty {
            context.standardError.write(
                "\(style.red(style.bold("Not every holder has a code:"))) \(missing) seat\(missing == 1 ? "" : "s") without one, "
                    + "\(assignment.unserved.count) holder\(assignment.unserved.count == 1 ? "" : "s") with no product; create more codes or map the editions, then run again.\n"
            )
            return .checkFailed
        }
        return .success
    }

    /// `PRODUCT=FILE` when the part before `=` is a product of the plan; else the whole argument is the file.
    static func split(_ argument: String, plan: MigrationPlan) -> (product: String?, path: String) {
        guard let equals = argument.firstIndex(of: "=") else { return (nil, argument) }
        let product = String(argument[..<equals])
        guard plan.product(withID: product) != nil else { return (nil, argument) }
        return (product, String(argument[argument.index(after: equals)...]))
    }

    static func report(_ assignment: CodeAssignment, style: Style) -> String {
        func perProduct(_ counts: [String: Int]) -> String {
            counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
        }
        let before = assignment.letters.count - assignment.newlyAssigned
        let missing = assignment.missing.values.reduce(0, +)
        let left = assignment.left.values.reduce(0, +)
        var text = style.bold("Codes") + ": \(before) given before, \(assignment.newlyAssigned) given now, "
        text += "\(missing) missing\(perProduct(assignment.missing)), \(left) left\(perProduct(assignment.left)), "
        text += "\(assignment.expiringSoon) expiring within 30 days, \(assignment.expired.count) expired unused.\n"
        if !assignment.orphaned.isEmpty {
            text += "  \(assignment.orphaned.count) code\(assignment.orphaned.count == 1 ? "" : "s") in the ledger for licenses that no longer count "
            text += "(refunded since, or not in these exports): kept in the ledger, spent, and not in the mail merge.\n"
        }
        return text
    }
}
