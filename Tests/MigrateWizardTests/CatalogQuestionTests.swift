import Foundation
import MigrateCLI
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// A repository with two `.storekit` files read whole: the app's own (Xcode's two placeholder products, a
/// lifetime pass sold as a non-renewing subscription, a non-consumable, two subscriptions with 3-month free
/// trials) and an SDK's demo configuration (another app's products, one non-renewing, and an Apple sample's).
@Suite("init: real catalogs, only this app's products", .timeLimit(.minutes(20)))
struct CatalogQuestionTests {
    static let files = ["ledger-products.storekit", "ledger-vendor-sample.storekit"]

    /// A folder holding both fixtures, as a project does.
    static func project() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-catalog-\(UUID().uuidString)")
        for (index, name) in files.enumerated() {
            let target = folder.appendingPathComponent(index == 0 ? "Ledger/Products.storekit" : "Vendor/Demo/Demo.storekit")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TipsterProject.fixtures.appendingPathComponent("storekit/" + name), to: target)
        }
        return folder
    }

    /// Both fixtures read by the importer, with the Tally-like releases of the flow tests.
    static func facts() throws -> WizardFacts {
        var facts = WizardFlowTests.facts
        facts.app = AppHints(name: "Ledger", bundleID: "com.example.ledger", platforms: [.iOS])
        facts.products = try files.flatMap { name in
            try StoreKitImporter.read(Array(try Data(contentsOf: TipsterProject.fixtures.appendingPathComponent("storekit/" + name))), file: name)
                .products
        }
        return facts
    }

    /// Every question answered with its default, or with `answers` by question.
    static func run(_ facts: WizardFacts, answers: [QuestionID: String] = [:]) -> (Wizard, [QuestionID]) {
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        var asked: [QuestionID] = []
        while let current = wizard.current, asked.count < 100 {
            asked.append(current)
            guard case .accepted = wizard.submit(answers[current] ?? "") else {
                Issue.record("\(current): '\(answers[current] ?? "")' refused")
                break
            }
        }
        return (wizard, asked)
    }

    @Test(
        "Product ids are judged against the bundle id",
        arguments: [
            ("com.temporary.id.nonconsumable.a", "com.example.ledger", ProductOwnership.placeholder),
            ("com.temporary.id.nonconsumable.b", nil, .placeholder),
            ("com.example.apple-samplecode.Ledger.tip", "com.example.ledger", .sample),
            ("com.vendorkit.demo.pro", "com.example.ledger", .otherApp(prefix: "com.vendorkit")),
            ("com.vendorkit.demo.pro", nil, .thisApp),
            ("com.example.ledger.export", "com.example.ledger", .thisApp),
            ("com.Example.Ledger.export", "com.example.ledger", .thisApp),
            ("com.example.ledgerpro.export", "com.example.ledger", .thisApp),
            ("pass.premium", "com.example.ledger", .thisApp),
            ("pro_monthly", "com.example.ledger", .thisApp),
        ] as [(String, String?, ProductOwnership)])
    func ownership(id: String, bundleID: String?, expected: ProductOwnership) {
        #expect(ProductOwnership.of(id, bundleID: bundleID) == expected)
    }

    @Test("Defaults alone: the doubtful products are asked about and left out, the lifetime pass's length is asked, and the plan checks")
    func defaults() throws {
        let (wizard, asked) = Self.run(try Self.facts())
        #expect(wizard.isFinished)
        let sells = asked.compactMap { if case .sells(let id) = $0 { id } else { nil } }
        #expect(
            sells == [
                "com.temporary.id.nonconsumable.a", "com.temporary.id.nonconsumable.b", "com.vendorkit.demo.pro",
                "com.example.apple-samplecode.Ledger.tip", "com.vendorkit.demo.season", "com.vendorkit.demo.weekly",
            ])
        #expect(asked.contains(.duration("com.example.ledger.lifetime")))
        #expect(!asked.contains(.duration("com.vendorkit.demo.season")), "another app's pass, left out, has no length to ask")
        #expect(!asked.contains(.newProduct), "the app's own products unlock features")
        let plan = wizard.plan
        #expect(
            plan.products.map(\.id).sorted() == [
                "com.example.ledger.export", "com.example.ledger.lifetime", "com.example.ledger.monthly", "com.example.ledger.yearly",
            ])
        let lifetime = try #require(plan.products.first { $0.id == "com.example.ledger.lifetime" })
        #expect(lifetime.duration == TrialPeriod(years: Limits.durationYears), "'lifetime' in its id: the longest length")
        let trial = IntroductoryOffer(paymentMode: .freeTrial, period: "P3M")
        #expect(plan.products.filter { $0.subscription?.introductoryOffer == trial }.count == 2, "the free trials are in the plan")
        let errors = PlanChecker.check(plan, now: WizardFlowTests.now).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        let summary = PlanBuilder.summary(wizard.answers, facts: wizard.facts)
        #expect(summary.contains { $0.hasPrefix("Left out   com.temporary.id.nonconsumable.a, com.temporary.id.nonconsumable.b") })
        #expect(summary.contains { $0.contains("com.example.ledger.yearly 19.99 (first a free trial of 3 months)") })
        #expect(summary.contains { $0.contains("com.example.ledger.lifetime 199.99, one purchase lasting 100 years,") })
    }

    @Test("A placeholder is never given every feature: it is asked about first, and kept only when the app sells it")
    func placeholderKept() throws {
        let id = "com.temporary.id.nonconsumable.a"
        var wizard = Wizard(facts: try Self.facts(), now: WizardFlowTests.now)
        wizard.walk(to: .sells(id))
        let question = try #require(wizard.question)
        #expect(question.prompt.contains("looks like a placeholder Xcode's StoreKit template writes. Does this app sell it?"))
        #expect(question.defaultAnswer == "no")
        #expect(wizard.submit("maybe") == .invalid("answer yes or no (1 or 2)"))
        guard case .accepted(let lines) = wizard.submit("yes") else {
            Issue.record("yes refused")
            return
        }
        #expect(lines.first?.contains("is this app's product") == true)
        #expect(wizard.answers.products.contains { $0.id == id })
        #expect(wizard.sequence().contains(.grants(id)))
        #expect(wizard.submit("<") == .wentBack)
        _ = wizard.submit("no")
        #expect(!wizard.answers.products.contains { $0.id == id })
        #expect(!wizard.sequence().contains(.grants(id)))
    }

    @Test(
        "A non-renewing product's length: words, long ISO durations, and refusals that speak of the product",
        arguments: [
            ("P10Y", "P10Y"), ("lifetime", "P100Y"), ("yearly", "P1Y"), ("p6m", "P6M"), ("P100Y", "P100Y"),
            ("P101Y", "longer than the 100 years one purchase of a non-renewing subscription may last"),
            ("PT12H", "is not a duration of whole years, months, weeks and days"),
            ("forever", "is not a length"),
            ("lifetme", "Did you mean 'lifetime'?"),
        ])
    func duration(answer: String, expected: String) throws {
        var wizard = Wizard(facts: try Self.facts(), now: WizardFlowTests.now)
        let id = QuestionID.duration("com.example.ledger.lifetime")
        wizard.walk(to: id)
        #expect(wizard.question?.prompt.contains("How long does one purchase of Ledger Lifetime (com.example.ledger.lifetime) last?") == true)
        #expect(wizard.question?.defaultAnswer == "lifetime")
        switch wizard.submit(answer) {
        case .accepted:
            #expect(wizard.answers.durations["com.example.ledger.lifetime"]?.description == expected)
            #expect(wizard.plan.products.first { $0.id == "com.example.ledger.lifetime" }?.duration?.description == expected)
        case .invalid(let message):
            #expect(message.contains(expected), "\(message)")
            #expect(!message.contains("trial"), "the message speaks of the product: \(message)")
        default:
            Issue.record("\(answer): unexpected outcome")
        }
    }

    @Test("Nothing in its name says how long a pass lasts: no default, so a script must answer")
    func noGuess() throws {
        var facts = try Self.facts()
        facts.products = facts.products.map { product in
            guard product.id == "com.example.ledger.lifetime" else { return product }
            var renamed = product
            renamed.id = "com.example.ledger.pass"
            renamed.name = "Ledger Pass"
            return renamed
        }
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        wizard.walk(to: .duration("com.example.ledger.pass"))
        #expect(wizard.question?.defaultAnswer == nil)
    }

    @Test(
        "--product accepts a long non-renewing length and says what is wrong with a bad one",
        arguments: [
            ("com.example.tipster.pass non-renewing P10Y 199.99", nil),
            ("com.example.tipster.pass non-renewing lifetime 199.99", nil),
            ("com.example.tipster.pass non-renewing P200Y 199.99", "longer than the 100 years one purchase of a non-renewing subscription may last"),
        ] as [(String, String?)])
    func typedProduct(answer: String, message: String?) throws {
        var wizard = ProductQuestionTests.atProduct(try ProductQuestionTests.facts())
        switch (wizard.submit(answer), message) {
        case (.accepted, nil): #expect(wizard.answers.newProduct?.duration != nil)
        case (.invalid(let text), let message?): #expect(text.contains(message), "\(text)")
        case (let outcome, _): Issue.record("\(answer): \(outcome)")
        }
    }

    @Test(
        "The paid price's default is what the sales reports show paid downloads cost, never an in-app product's price",
        arguments: [
            (nil, nil, "no sales report shows a paid download, so there is no default"),
            (
                PaidDownloadPrice(price: try! Price("2.99"), currency: "USD", units: 100, of: 120), "2.99",
                "in USD; the default is what 100 of the 120 paid downloads in USD cost in the sales reports"
            ),
        ] as [(PaidDownloadPrice?, String?, String)])
    func paidPriceDefault(sold: PaidDownloadPrice?, price: String?, hint: String) throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        var facts = try ProjectImport.gather(root: folder.path, scan: ProjectScanner.scan(folder.path), environment: [:])
        facts.app = AppHints(name: "Ledger", bundleID: "com.example.ledger", platforms: [.iOS])
        facts.releases = WizardFlowTests.facts.releases
        facts.paidDownloadPrice = sold
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        while let current = wizard.current, current != .price {
            guard case .accepted = wizard.submit("") else { break }
        }
        let question = try #require(wizard.question)
        // The catalog sells an unlock at 4.99 and Xcode's placeholder at 0.99: neither is what the download cost.
        #expect(question.defaultAnswer == price)
        #expect(question.hint?.contains(hint) == true, "\(question.hint ?? "")")
    }

    @Test("init --yes on the repository completes: placeholders and other apps' products left out, the pass's length from its id")
    func initYes() throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        let status = Migrate.run(
            [
                "init", "--yes", "--price", "4.99", "--app-name", "Ledger", "--bundle-id", "com.example.ledger", "--platform", "iOS",
                "--release", "1.0 (1) 2019-03-01", "--release", "2.0 (5) 2021-06-01", "--first-free", "2.0", "--free-from", "2021-06-01T17:00:00Z",
                "--duration", "com.example.ledger.lifetime=P10Y", "--sells", "com.vendorkit.demo.pro=no",
            ], context: context)
        let output = context.standardOutput.text.unwrapped
        #expect(status == .success, "\(output)\(context.standardError.text)")
        #expect(
            output.contains(
                "read: 6 products from Ledger/Products.storekit; 2 with a free trial; not this app's by their ids (asked, left out by default): 2 Xcode placeholders"
            ))
        // No project names the bundle id, so only the sample is known from the file; the others are asked about once it is given.
        #expect(
            output.contains(
                "read: 4 products from Vendor/Demo/Demo.storekit; 1 with a paid introductory offer; not this app's by their ids (asked, left out by default): 1 Apple sample"
            ))
        #expect(output.contains("com.vendorkit.demo.season is left out of the plan"))
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"duration\": \"P10Y\""))
        #expect(plan.contains("\"introductoryOffer\": { \"paymentMode\": \"freeTrial\", \"period\": \"P3M\" }"), "\(plan)")
        #expect(!plan.contains("com.temporary.id") && !plan.contains("vendorkit") && !plan.contains("apple-samplecode"))
        #expect(plan.contains("\"id\": \"com.example.ledger.lifetime\""), "the app's own products are kept: \(plan)")
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
    }

    @Test(
        "Answers for products no question asks are refused, saying why",
        arguments: [
            ("--sells", "com.example.ledger.export=yes", "is not a .storekit product whose id says it may be another app's"),
            ("--duration", "com.vendorkit.demo.season=P1Y", "is left out of the plan (it is not this app's)"),
            ("--duration", "com.example.ledger.export=P1Y", "is not a non-renewing subscription found in a .storekit"),
        ])
    func unused(flag: String, value: String, reason: String) throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        let status = Migrate.run(
            [
                "init", "--yes", "--price", "4.99", "--app-name", "Ledger", "--bundle-id", "com.example.ledger", "--platform", "iOS",
                "--release", "1.0 (1) 2019-03-01", "--first-free", "new", flag, value,
            ], context: context)
        #expect(status == .usage)
        #expect(context.standardError.text.contains(reason), "\(context.standardError.text)")
    }
}
