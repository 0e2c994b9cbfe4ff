import Foundation
import MigrateCore
import MigratePlan

/// `migrate explain PLAN`: one customer's cohort, features and offers, and why.
enum ExplainCommand {
    static let spec = CommandSpec(
        name: "explain",
        abstract: "Say what one customer gets, which upsell they see, and why.",
        discussion: """
            Describe the customer with options, or pass --receipt with a verifyReceipt response or a \
            decoded AppTransaction payload; options given as well override the receipt. Example: \
            migrate explain migration.json --original-version 31 --owns pro.unlock
            """.wrappedForHelp,
        arguments: [
            .positional("plan", help: "The migration plan, or a folder holding migration.json."),
            .option("platform", valueName: "platform", help: "The platform the app runs on now (default: the app's first platform).", choices: Platform.allCases.map(\.rawValue)),
            .option("original-version", valueName: "version", help: "AppTransaction.originalAppVersion: a build number on iOS, a marketing version on macOS."),
            .option("original-purchase-date", valueName: "date-time", help: "AppTransaction.originalPurchaseDate (ISO 8601)."),
            .option("original-platform", valueName: "platform", help: "AppTransaction.originalPlatform, if the OS reports it.", choices: Platform.allCases.map(\.rawValue)),
            .option("environment", valueName: "environment", help: "Where the signature came from.", defaultValue: "production", choices: StoreEnvironment.allCases.map(\.rawValue)),
            .option("owns", valueName: "product[:state]", help: "A product the customer has a transaction for; state is familyShared, revoked, expired or unverified. Repeatable.", repeating: true),
            .option("receipt", valueName: "file", help: "A verifyReceipt JSON response or a decoded AppTransaction JSON payload."),
            .option("verification", valueName: "result", help: "Whether the app transaction verified.", defaultValue: "verified", choices: ["verified", "failed"]),
            .option("cache-age", valueName: "days", help: "With --verification failed: the age of the last verified result the app cached."),
            .flag("app-refunded", help: "The paid download itself was refunded (AppTransaction.revocationDate is set)."),
            .flag("vpp", help: "A Volume Purchase Program install, which cannot make in-app purchases."),
            .option("now", valueName: "date-time", help: "Judge subscription expiry in --receipt against this moment (default: now)."),
            .option("format", valueName: "format", help: "Output format.", defaultValue: "text", choices: ["text", "json"]),
        ],
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let loaded = try LoadedPlan.load(arguments.value("plan")!, context: context)
        let plan = try loaded.requireCheckedPlan(context: context, outcome: "nothing was explained")
        let customer = try customer(from: arguments, plan: plan, context: context)
        let advisor = Advisor(plan: plan)
        let report = advisor.report(for: customer)
        if arguments.value("format") == "json" {
            context.standardOutput.write(JSONWriter().string(from: ExplainRenderer(catalog: advisor.catalog).json(report)))
        } else {
            let renderer = ExplainRenderer(catalog: advisor.catalog)
            context.standardOutput.write(renderer.text(report, style: context.style(for: context.standardOutput)))
        }
        return .success
    }

    static func customer(from arguments: ParsedArguments, plan: MigrationPlan, context: CommandContext) throws(CommandError) -> Customer {
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        let now = try parseDate(arguments.value("now"), option: "now") ?? context.now

        if let path = arguments.value("receipt") {
            let file = try InputFile.read(path, context: context)
            let root: JSONNode
            do {
                root = try JSONParser.parse(bytes: file.bytes)
            } catch {
                throw CommandError(.dataError, "\(file.displayPath):\(error.location): \(error.message)")
            }
            let (facts, diagnostics) = ReceiptReader.read(root, now: now)
            let located = diagnostics.located(in: root)
            if located.hasErrors || facts == nil {
                let renderer = DiagnosticRenderer(file: file, style: context.style(for: context.standardError))
                context.standardError.write(renderer.render(located))
                throw CommandError(.dataError, "\(file.displayPath) is not a receipt migrate can read.")
            }
            if !located.isEmpty {
                context.standardError.write(DiagnosticRenderer(file: file, style: context.style(for: context.standardError)).render(located))
            }
            if let facts {
                if let bundleID = facts.bundleID, bundleID != plan.app.bundleID {
                    context.standardError.write("warning: \(file.displayPath) is for '\(bundleID)', but the plan is for '\(plan.app.bundleID)'.\n")
                }
                customer.environment = facts.environment ?? .production
                customer.originalAppVersion = facts.originalAppVersion
                customer.originalPurchaseDate = facts.originalPurchaseDate
                customer.originalPlatform = facts.originalPlatform
                customer.preorderDate = facts.preorderDate
                customer.isVolumePurchase = facts.isVolumePurchase
                customer.isAppPurchaseRevoked = facts.isAppPurchaseRevoked
                customer.purchases = facts.purchases
            }
        }

        if let name = arguments.value("platform"), let platform = Platform(rawValue: name) {
            customer.platform = platform
        } else if let original = customer.originalPlatform, plan.app.platforms.contains(original) {
            customer.platform = original
        }
        if let name = arguments.value("original-platform") { customer.originalPlatform = Platform(rawValue: name) }
        if arguments.isSet("environment") || arguments.value("receipt") == nil {
            customer.environment = StoreEnvironment(rawValue: arguments.value("environment")!)!
        }
        if let version = arguments.value("original-version") { customer.originalAppVersion = version }
        if let date = try parseDate(arguments.value("original-purchase-date"), option: "original-purchase-date") {
            customer.originalPurchaseDate = date
        }
        if arguments.value("verification") == "failed" {
            customer.appTransaction = .failed(lastVerifiedDaysAgo: try arguments.integer("cache-age", in: 0...36_500))
        } else if arguments.isSet("cache-age") {
            throw .usage("'--cache-age' applies only with '--verification failed'.")
        }
        if arguments.flag("app-refunded") { customer.isAppPurchaseRevoked = true }
        if arguments.flag("vpp") { customer.isVolumePurchase = true }

        for entry in arguments.values("owns") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard let id = parts.first, !id.isEmpty else { throw .usage("The value '\(entry)' is invalid for '--owns'. Expected PRODUCT or PRODUCT:STATE.") }
            var owned = OwnedProduct(productID: id)
            let states = ["familyShared", "revoked", "expired", "unverified", "purchased"]
            for state in parts.dropFirst() {
                switch state {
                case "familyShared": owned.ownership = .familyShared
                case "revoked": owned.isRevoked = true
                case "expired": owned.isExpired = true
                case "unverified": owned.isVerified = false
                case "purchased": owned.ownership = .purchased
                default:
                    throw .usage("The state '\(state)' is invalid in '--owns \(entry)'.\(Suggestions.didYouMean(state, in: states)) Use one of: \(states.joined(separator: ", ")).")
                }
            }
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
