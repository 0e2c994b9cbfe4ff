import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// `migrate explain PLAN`: one customer's cohort, features and offers, and why.
enum ExplainCommand {
    /// `text` and `json` describe one customer; `csv` and `jsonl` are for `--batch` (which otherwise
    /// writes what it read: JSON Lines for JSON Lines, CSV for the rest).
    enum Format: String, CaseIterable, Sendable { case text, json, csv, jsonl }
    /// `--input-format`: how to read a `--batch` file or standard input, instead of its extension or first line.
    enum InputFormat: String, CaseIterable, Sendable { case csv, jsonl }
    /// `--verification`: whether `AppTransaction.shared` verified.
    enum Verification: String, CaseIterable, Sendable { case verified, failed }

    static let plan = CommonArguments.plan
    static let platform = Argument<Platform?>.choice(
        "platform", valueName: "platform", help: "The platform the app runs on now (default: the app's first platform).")
    static let originalVersion = Argument<String?>.option(
        "original-version", valueName: "version",
        help: "AppTransaction.originalAppVersion: a build number on iOS, a marketing version on macOS.")
    static let originalPurchaseDate = Argument<Date?>.date("original-purchase-date", help: "AppTransaction.originalPurchaseDate (ISO 8601).")
    static let originalPlatform = Argument<Platform?>.choice(
        "original-platform", valueName: "platform", help: "AppTransaction.originalPlatform, if the OS reports it.")
    static let environment = Argument<StoreEnvironment>.choice(
        "environment", valueName: "environment", help: "Where the signature came from.", default: .production)
    static let owns = Argument<[String]>.options(
        "owns", valueName: "product[@date][:state]",
        help:
            "A product the customer has a transaction for, bought at date (for a trial); state is familyShared, revoked, expired or unverified. Repeatable."
    )
    static let receipt = Argument<String?>.option(
        "receipt", valueName: "file",
        help: "A verifyReceipt response, AppTransaction or Transaction (JSON or JWS), or an App Store Server API response."
    ).naming(.input)
    static let verification = Argument<Verification>.choice(
        "verification", valueName: "result", help: "Whether the app transaction verified.", default: .verified)
    static let cacheAge = Argument<Int?>.number(
        "cache-age", valueName: "days", help: "With --verification failed: the age of the last verified result the app cached.", in: 0...36_500)
    static let appRefunded = Argument<Bool>.flag(
        "app-refunded", help: "The paid download itself was refunded (AppTransaction.revocationDate is set).")
    static let vpp = Argument<Bool>.flag("vpp", help: "A Volume Purchase Program install, which cannot make in-app purchases.")
    static let now = Argument<Date?>.date(
        "now", help: "Judge subscription expiry in --receipt and trials against this moment (default: now).")
    static let format = Argument<Format>.choice(
        "format", valueName: "format", help: "Output format: text or json for one customer; csv or jsonl for --batch.", default: .text)
    static let batch = Argument<String?>.option(
        "batch", valueName: "file-or-folder",
        help:
            "Decide every customer of a list: CSV with a header naming the columns like AppTransaction's properties (\(BatchColumn.allCases.map(\.rawValue).joined(separator: ", ")); other columns are carried through), JSON Lines with the same keys, or a folder of App Store Server API responses or compact JWS files (a subfolder per customer merges its files)."
    ).naming(.input)
    static let output = Argument<String?>.option(
        "output", short: "o", valueName: "file",
        help: "With --batch: write the decisions to this file (whole or not at all) and the summary to standard output."
    ).naming(.output)
    static let inputFormat = Argument<InputFormat?>.choice(
        "input-format", valueName: "format",
        help: "With --batch: read the list as csv or jsonl, whatever its name or first line (for standard input, '-').")
    static let rejected = Argument<String?>.option(
        "rejected", valueName: "file",
        help: "With --batch: copy every skipped row, byte for byte, to this CSV file with its line and reason (line,reason,record)."
    ).naming(.output)
    static let strict = Argument<Bool>.flag(
        "strict", help: "With --batch: exit 1 when any decided row carries a warning or the summary warns (a skipped row is 65 regardless).")

    static let spec = CommandSpec(
        name: "explain",
        abstract: "Say what one customer gets, which upsell they see, and why.",
        discussion: """
            Describe the customer with options, or pass --receipt with a verifyReceipt response, a decoded \
            AppTransaction or Transaction, an App Store Server API transaction history or subscription \
            status, or a compact JWS of an AppTransaction or Transaction (decoded without verifying its \
            signature); options given as well override the receipt. Example: \
            migrate explain migration.json --original-version 31 --owns pro.unlock

            With --batch, a whole customer list: one decision per row (cohort, tier, rule, features, \
            offers, withheld), streamed to standard output or --output, then a summary of the cohorts \
            and the rules that decided them, with warnings that catch a wrong cutoff. Rows that can't be \
            read are reported with their line and skipped (--rejected FILE copies them), and the exit status \
            is then 65; with --strict a row that carries a warning makes it 1. '-' reads standard input. \
            Example: migrate explain migration.json --batch customers.csv --output decisions.csv

            With --licenses, the holders of direct-sale exports: each license's edition, tier, the product \
            its code gives and the features it unlocks, and (with --ledger) its codes; --format csv for a \
            spreadsheet. With --batch as well, the list's summary is followed by the holders' counts, every \
            row of both accounted for.
            """.wrappedForHelp,
        arguments: [
            plan, platform, originalVersion, originalPurchaseDate, originalPlatform, environment, owns, receipt, verification, cacheAge,
            appRefunded, vpp, now, format, batch, output, inputFormat, rejected, strict, licenses, ledger,
        ],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// How the options go together, every problem at once: one customer's options, a list's and the license holders'
    /// exclude each other, and every '--owns' must read.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        let withLicenses = !arguments[Self.licenses].isEmpty
        if arguments.isSet(Self.ledger) && !withLicenses { problems.append("'--ledger' applies only with --licenses.") }
        if arguments.isSet(Self.batch) {
            for given in oneCustomer where arguments.isSet(given) {
                problems.append(
                    "'--\(given.spec.name)' describes one customer; with --batch each row of the list does. Put it in the list's column, or leave out --batch."
                )
            }
            if arguments[Self.format] == .text && arguments.isSet(Self.format) {
                problems.append("--batch writes csv or jsonl, not text; the summary is text already.")
            }
        } else if withLicenses {
            for given in oneCustomer where arguments.isSet(given) {
                problems.append(
                    "'--\(given.spec.name)' describes an App Store customer; --licenses decides the holders of the exports. Leave one out, "
                        + "or add --batch LIST to decide a customer list and the holders in one summary.")
            }
            for listOnly in [Self.output, Self.inputFormat, Self.rejected, Self.strict] as [any DeclaredArgument] where arguments.isSet(listOnly) {
                problems.append(
                    "'--\(listOnly.spec.name)' applies only with --batch, to a customer list; --licenses alone prints the holders. Leave it out, "
                        + "or add --batch LIST to decide a customer list and the holders in one summary.")
            }
            let format = arguments[Self.format]
            if format != .text && format != .csv { problems.append("--licenses writes text, or csv for a spreadsheet; not \(format.rawValue).") }
        } else {
            for entry in arguments[Self.owns] {
                do {
                    _ = try OwnedProductSyntax.parse(entry, shownAs: "--owns \(entry)")
                } catch {
                    problems.append(error.message)
                }
            }
            if arguments.isSet(Self.output) {
                problems.append("'--output' applies only with --batch; one customer's explanation goes to standard output.")
            }
            for batchOnly in [Self.inputFormat, Self.rejected, Self.strict] as [any DeclaredArgument] where arguments.isSet(batchOnly) {
                problems.append("'--\(batchOnly.spec.name)' applies only with --batch, to a customer list.")
            }
            if [.csv, .jsonl].contains(arguments[Self.format]) {
                problems.append("--format \(arguments[Self.format].rawValue) is for --batch; one customer is explained as text or json.")
            }
            if arguments[Self.verification] == .verified && arguments.isSet(Self.cacheAge) {
                problems.append("'--cache-age' applies only with '--verification failed'.")
            }
        }
        return problems
    }

    /// The options that describe one customer, which a list's rows describe instead.
    static let oneCustomer: [any DeclaredArgument] = [
        platform, originalVersion, originalPurchaseDate, originalPlatform, environment, owns, receipt, verification, cacheAge, appRefunded, vpp,
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let withLicenses = !arguments[Self.licenses].isEmpty
        if withLicenses && !arguments.isSet(Self.batch) { return try explainLicenses(arguments, context) }
        // How the options go together was checked before the run (`usageProblems`).
        if let list = arguments[Self.batch] {
            let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
            let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "nothing was explained")
            var options = ExplainBatch.Options(
                format: arguments[Self.format], inputFormat: arguments[Self.inputFormat], outputPath: arguments[Self.output],
                rejectedPath: arguments[Self.rejected], strict: arguments[Self.strict])
            // Read and decided before the list, so a wrong export stops the run before anything is written.
            if withLicenses { options.licenses = try licenseSummary(arguments, loaded: loaded, catalog: catalog, context: context) }
            return try ExplainBatch.run(list, catalog: catalog, options: options, now: arguments[Self.now] ?? context.now, context: context)
        }
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "nothing was explained")
        let plan = catalog.plan
        var receipt: (file: String, facts: ReceiptFacts)?
        let customer = try customer(from: arguments, plan: plan, context: context, receipt: &receipt)
        let advisor = Advisor(catalog: catalog)
        let report = advisor.report(for: customer)
        let notes = receipt.map { receiptNotes($0.facts, bundleID: plan.app.bundleID, arguments: arguments) } ?? []
        if arguments[Self.format] == .json {
            var value = ExplainRenderer(catalog: advisor.catalog).json(report)
            if let receipt, case .object(var members) = value {
                members.insert(
                    JSONMember(
                        key: "receipt",
                        value: JSONNode(
                            .members([
                                ("file", .string(receipt.file)), ("kind", .string(receipt.facts.source.rawValue)),
                                ("signatureVerified", receipt.facts.unverifiedSignatures > 0 ? .bool(false) : nil), ("notes", .strings(notes)),
                            ]))), at: 0)
                value = .object(members)
            }
            context.standardOutput.write(JSONWriter().string(from: value))
        } else {
            let style = context.style(for: context.standardOutput)
            var text = ""
            if let receipt {
                text += style.bold("Receipt") + "\n  " + receipt.file + ": " + receipt.facts.source.displayName + "\n"
                for note in notes { text += "  " + style.dim("note  " + note) + "\n" }
                text += "\n"
            }
            text += ExplainRenderer(catalog: advisor.catalog).text(report, style: style)
            context.standardOutput.write(text)
        }
        return .success
    }

    /// What the reader of an explanation must know about the receipt it came from.
    static func receiptNotes(_ facts: ReceiptFacts, bundleID: String, arguments: ParsedArguments) -> [String] {
        var notes = facts.doubts(forBundleID: bundleID).filter { !$0.refuses }.map(\.message)
        if facts.unverifiedSignatures > 0 {
            let count = facts.unverifiedSignatures == 1 ? "its JWS signature was" : "its \(facts.unverifiedSignatures) JWS signatures were"
            notes.append("\(count) NOT verified: decoded only to read it; never trust an unverified JWS in the app or on a server")
        }
        if !facts.source.describesAppPurchase {
            let given = arguments.isSet(Self.originalVersion) || arguments.isSet(Self.originalPurchaseDate)
            notes.append(
                "it describes products the customer owns (\(facts.purchases.map(\.productID).joined(separator: ", "))), not the app's own purchase"
                    + (given ? "" : "; give --original-version and --original-purchase-date, or pass the AppTransaction, for the cohort"))
        }
        return notes
    }

    static func customer(
        from arguments: ParsedArguments, plan: MigrationPlan, context: CommandContext, receipt: inout (file: String, facts: ReceiptFacts)?
    ) throws(CommandError) -> Customer {
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        let now = arguments[Self.now] ?? context.now
        customer.now = now

        if let path = arguments[Self.receipt] {
            let file = try InputFile.read(path, context: context)
            let read: (facts: ReceiptFacts?, diagnostics: [Diagnostic], root: JSONNode?, isJWS: Bool)
            do {
                read = try ReceiptReader.read(bytes: file.bytes, now: now)
            } catch {
                if let location = error.location { throw CommandError(.dataError, "\(file.displayPath):\(location): \(error.message)") }
                throw CommandError(
                    .dataError,
                    "\(file.displayPath): \(error.message). Pass the compact JWS exactly as StoreKit or the App Store Server API gave it (jwsRepresentation, signedTransactions[]), or its decoded JSON payload."
                )
            }
            let located = read.root.map { read.diagnostics.located(in: $0) } ?? read.diagnostics
            // Paths in a JWS's payload can't be shown as lines of the file, which holds base64.
            let renderer = DiagnosticRenderer(
                file: read.isJWS ? InputFile(displayPath: file.displayPath, bytes: []) : file, style: context.style(for: context.standardError))
            if located.hasErrors || read.facts == nil {
                context.standardError.write(renderer.render(located))
                throw CommandError(.dataError, "\(file.displayPath) is not a receipt migrate can read.")
            }
            if !located.isEmpty {
                context.standardError.write(renderer.render(located))
            }
            if let facts = read.facts {
                // The doubts that don't refuse it are the explanation's notes (`receiptNotes`).
                if let doubt = facts.doubts(forBundleID: plan.app.bundleID).first(where: \.refuses) {
                    throw CommandError(.dataError, "\(file.displayPath): \(doubt.message).")
                }
                receipt = (file.displayPath, facts)
                customer.take(facts)
            }
        }

        if let platform = arguments[Self.platform] {
            customer.platform = platform
        } else if let original = customer.originalPlatform, plan.app.platforms.contains(original) {
            customer.platform = original
        }
        if let platform = arguments[Self.originalPlatform] { customer.originalPlatform = platform }
        // The receipt's environment stands unless --environment is given; without a receipt, the default.
        if arguments.isSet(Self.environment) || arguments[Self.receipt] == nil {
            customer.environment = arguments[Self.environment]
        }
        if let version = arguments[Self.originalVersion] { customer.originalAppVersion = version }
        if let date = arguments[Self.originalPurchaseDate] { customer.originalPurchaseDate = date }
        switch (arguments[Self.verification], arguments[Self.cacheAge]) {
        case (.failed, let days): customer.appTransaction = .failed(lastVerifiedDaysAgo: days)
        case (.verified, _): break  // --cache-age without a failure is refused by `usageProblems`
        }
        if arguments[Self.appRefunded] { customer.isAppPurchaseRevoked = true }
        if arguments[Self.vpp] { customer.isVolumePurchase = true }

        for entry in arguments[Self.owns] {
            let owned: OwnedProduct
            do {
                owned = try OwnedProductSyntax.parse(entry, shownAs: "--owns \(entry)")
            } catch {
                throw .usage(error.message)  // refused by `usageProblems`
            }
            let id = owned.productID
            customer.purchases.removeAll { $0.productID == id }
            customer.purchases.append(owned)
        }
        if !plan.app.platforms.contains(customer.platform) {
            let names = plan.app.platforms.map(\.rawValue)
            throw .usage("The app doesn't run on \(customer.platform); the plan lists \(names.joined(separator: ", ")).")
        }
        return customer
    }
}
