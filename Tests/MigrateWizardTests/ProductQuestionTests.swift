import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// A `.storekit` with nothing that unlocks a feature (a tip jar) asks for the product that will.
@Suite("the wizard asks for a product when the .storekit can't unlock anything", .timeLimit(.minutes(20)))
struct ProductQuestionTests {
    /// The tip jar fixture, read by the real importer.
    static func facts() throws -> WizardFacts {
        let bytes = Array(try Data(contentsOf: TipsterProject.fixtures.appendingPathComponent("storekit/tip-jar-consumable-only.storekit")))
        let imported = try StoreKitImporter.read(bytes, file: "TipJar.storekit")
        var facts = WizardFlowTests.facts
        facts.app = AppHints(name: "Tipster", bundleID: "com.example.tipster", platforms: [.iOS])
        facts.products = imported.products
        return facts
    }

    static func atProduct(_ facts: WizardFacts, asksForProduct: Bool = false) -> Wizard {
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now, asksForProduct: asksForProduct)
        wizard.walk(to: .newProduct, answers: [.price: "2.99"])
        return wizard
    }

    @Test("The fixture holds one consumable and nothing else")
    func fixture() throws {
        #expect(try Self.facts().products.map(\.kind) == [.consumable])
    }

    @Test("Only a consumable: the product question is asked, and says why")
    func asked() throws {
        let wizard = Self.atProduct(try Self.facts())
        #expect(wizard.current == .newProduct)
        let prompt = try #require(wizard.question?.prompt)
        #expect(
            prompt.contains("com.example.tipster.tip.coffee, consumable") && prompt.contains("Which in-app purchase will unlock the paid features?"))
        #expect(wizard.question?.defaultAnswer == "com.example.tipster.pro 4.99")
    }

    @Test(
        "Answers name the id, the kind and the price",
        arguments: [
            ("com.example.tipster.pro 4.99", Product.Kind.nonConsumable, nil),
            ("com.example.tipster.pro non-consumable 4.99", .nonConsumable, nil),
            ("com.example.tipster.pass non-renewing yearly 9.99", .nonRenewing, nil),
            ("com.example.tipster.pass non-renewing P3M 4.99", .nonRenewing, nil),
            ("com.example.tipster.yearly yearly 19.99", .autoRenewable, "P1Y"),
            ("com.example.tipster.monthly subscription P1M 1.99", .autoRenewable, "P1M"),
        ] as [(String, Product.Kind, String?)])
    func kinds(answer: String, kind: Product.Kind, period: String?) throws {
        var wizard = Self.atProduct(try Self.facts())
        guard case .accepted = wizard.submit(answer) else {
            Issue.record("'\(answer)' refused")
            return
        }
        let product = try #require(wizard.answers.newProduct)
        #expect(product.kind == kind && product.subscription?.period == period)
        #expect(wizard.current == .grants(product.id), "what it unlocks is asked next")
        wizard.walk()
        let plan = wizard.plan
        #expect(plan.products.map(\.id) == ["com.example.tipster.tip.coffee", product.id], "the tip jar is kept")
        let errors = PlanChecker.check(plan, now: WizardFlowTests.now).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
    }

    @Test(
        "A consumable, a product already in the .storekit, or a malformed answer is refused",
        arguments: [
            ("com.example.tipster.pro consumable 4.99", "a consumable is used up"),
            ("com.example.tipster.tip.coffee 2.99", "already in the .storekit (consumable at 2.99)"),
            ("com.example.tipster.pro monthy 4.99", "Did you mean 'monthly'?"),
            ("com.example.tipster.pro subscription 4.99", "needs its period"),
            ("com.example.tipster.pass non-renewing 9.99", "needs how long one purchase lasts"),
            ("com.example.tipster.pro free", "not a price above 0"),
            ("pro 4.99", "not a product id"),
        ])
    func refused(answer: String, message: String) throws {
        var wizard = Self.atProduct(try Self.facts())
        guard case .invalid(let text) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted")
            return
        }
        #expect(text.contains(message), "\(text)")
        #expect(wizard.current == .newProduct)
    }

    @Test("Going back to the product replaces the typed one, never an imported one")
    func replaced() throws {
        var wizard = Self.atProduct(try Self.facts())
        _ = wizard.submit("com.example.tipster.pro 4.99")
        #expect(wizard.submit("<") == .wentBack)
        #expect(wizard.question?.defaultAnswer == "com.example.tipster.pro 4.99")
        _ = wizard.submit("com.example.tipster.plus yearly 9.99")
        #expect(wizard.answers.products.map(\.id) == ["com.example.tipster.tip.coffee", "com.example.tipster.plus"])
    }

    @Test("With a product that unlocks features, it is asked only when --product asks for it")
    func onlyWhenAsked() throws {
        let facts = WizardFlowTests.facts  // a non-consumable
        #expect(!Wizard(facts: facts, now: WizardFlowTests.now).sequence().contains(.newProduct))
        var wizard = Self.atProduct(facts, asksForProduct: true)
        #expect(wizard.current == .newProduct)
        #expect(wizard.question?.prompt.hasPrefix("Besides com.example.tally.pro from the .storekit:") == true)
        try wizard.accept("com.example.tally.plus 6.99")
        #expect(wizard.answers.products.map(\.id) == ["com.example.tally.pro", "com.example.tally.plus"])
    }
}

/// A history of a thousand builds shows a few releases, and any is reached by typing.
@Suite("the wizard's long lists", .timeLimit(.minutes(20)))
struct LongListTests {
    static let builds = 1_036

    static var facts: WizardFacts {
        let start = Date(timeIntervalSince1970: 1_420_000_000)
        let releases = (0..<builds).map { index in
            ImportedRelease(
                platform: .iOS, version: try! Version(TipsterProject.version(index)), build: Version(UInt64(index + 1)),
                date: start.addingTimeInterval(Double(index) * 3 * 86_400), dateSource: "commit", origin: "git")
        }
        return WizardFacts(
            app: AppHints(name: "Tipster", bundleID: "com.example.tipster", platforms: [.iOS]), releases: releases,
            products: [Product(id: "com.example.tipster.pro", name: "Pro", kind: .nonConsumable, price: try! Price("4.99"))]
        ).withSalesPrice("4.99")
    }

    static func wizard(at question: QuestionID, answering earlier: [QuestionID: String] = [:]) -> Wizard {
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        while let current = wizard.current, current != question {
            guard case .accepted = wizard.submit(earlier[current] ?? "") else { break }
        }
        return wizard
    }

    @Test("The first free release: the last 10 releases and 'not listed', numbered as in the whole list")
    func firstFreeShown() throws {
        let question = try #require(Self.wizard(at: .firstFree).question)
        #expect(question.choices.count == Self.builds + 1)
        #expect(question.shownChoices == Array((Self.builds - 9)...(Self.builds + 1)))
        let visible = question.visibleChoices
        #expect(visible.count == Wizard.releasesShown + 1)
        #expect(visible.first?.hiddenBefore == Self.builds - Wizard.releasesShown)
        #expect(visible.first?.text.hasPrefix("iOS 3.5.2 (1027)") == true)
        #expect(question.hint?.contains("the start of a version to search (3.)") == true)
        // The default is "not listed yet": Return never makes a listed release's buyers new customers.
        #expect(question.defaultAnswer == String(Self.builds + 1))
    }

    @Test("A feature's first paid release: the default (the first) is shown with the last ones")
    func featureSinceShown() throws {
        // Commit-dated releases: the go-live has no default.
        let question = try #require(
            Self.wizard(
                at: .featureSince("pro"), answering: [.firstFree: "#\(Self.builds)", .freeGoLive: "2030-01-01T00:00:00Z"]
            ).question)
        #expect(question.defaultAnswer == "1")
        #expect(question.shownChoices?.first == 1)
        #expect(question.visibleChoices.map(\.hiddenBefore).filter { $0 > 0 } == [Self.builds - 1 - 1 - Wizard.releasesShown])
    }

    @Test(
        "Any release is reached by version and build, a version one build has, #N, or the start of a version",
        arguments: [
            ("3.5.3 (1036)", 1_035), ("iOS 2.0 (401)", 400), ("#5", 4), ("1027", 1_026), ("", 1_036),
        ])
    func reached(answer: String, index: Int) {
        var wizard = Self.wizard(at: .firstFree)
        let outcome = wizard.submit(answer)
        #expect(wizard.answers.firstFree == index, "\(answer): \(outcome)")
    }

    @Test(
        "A version several builds share, the start of several, or a number that is also the start of a version lists the candidates",
        arguments: [
            ("3.5", "'3.5' matches 9 releases: '3.5 (1001)' (#1001)"),
            ("2.9.", "'2.9.' matches 40 releases"),
            ("3.5.3", "matches 9 releases"),
            ("3", "'3' is both number 3 in the list (1.0 (3)) and version 3.0, which 9 builds share"),
            ("1.", "'1.' matches 400 releases"),
            ("7.1", "neither a number from the list nor a listed version"),
            ("3.5.3 (10366)", "Did you mean '3.5.3 (1036)'?"),
        ])
    func asked(answer: String, message: String) {
        var wizard = Self.wizard(at: .firstFree)
        guard case .invalid(let text) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted")
            return
        }
        #expect(text.contains(message), "\(text)")
        #expect(text.count < 400, "a few candidates, not the list: \(text.count) characters")
    }
}
