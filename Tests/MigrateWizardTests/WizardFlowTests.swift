import Foundation
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// The question flow as a state machine, with no I/O.
@Suite("the wizard's question flow", .timeLimit(.minutes(20)))
struct WizardFlowTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A release as a tagged history gives it: dated by its annotated tag, which the go-live question offers as an
    /// unconfirmed default (a commit date is never offered; `GoLiveQuestionTests`).
    static func release(_ version: String, _ build: String, _ day: String, provenance: ReleaseDateSource = .tag) -> ImportedRelease {
        ImportedRelease(
            platform: .iOS, version: try! Version(version), build: try! Version(build), date: Timestamp.parse(day + "T10:00:00Z")!,
            dateSource: provenance == .tag ? "git tag date" : "git commit date", provenance: provenance, origin: "git")
    }

    static var facts: WizardFacts {
        WizardFacts(
            app: AppHints(name: "Tally", bundleID: "com.example.tally", platforms: [.iOS]),
            releases: [
                release("1.0", "1", "2019-03-01"), release("1.1", "2", "2019-09-01"), release("2.0", "1", "2020-06-01"),
                release("3.0", "1", "2021-06-01"),
            ],
            products: [Product(id: "com.example.tally.pro", name: "Pro", kind: .nonConsumable, price: try! Price("4.99"))]
        )
        .withSalesPrice("4.99")
    }

    @Test("defaults alone reach the end, and the plan has the releases, features, grants and a tier")
    func defaults() {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        var asked: [QuestionID] = []
        while let question = wizard.question {
            asked.append(question.id)
            guard case .accepted = wizard.submit("") else {
                Issue.record("default for \(question.id) was refused")
                return
            }
        }
        #expect(
            asked == [
                // The first free release defaults to one not listed yet: no listed release's buyers lose anything on Return.
                .appName, .bundleID, .platforms, .firstFree, .newFreeRelease, .price, .features, .featureSince("pro"),
                .grants("com.example.tally.pro"),
                .era(0),
                .nonProduction, .verificationFailure, .familySharing, .paidDownloads, .confirm,
            ])
        let plan = wizard.plan
        #expect(plan.releases.map(\.model.isPaid) == [true, true, true, true, false])
        #expect(plan.features.map(\.id) == ["pro"])
        #expect(plan.products[0].grants == ["pro"])
        #expect(plan.tiers.map(\.id) == ["era-1"])
        #expect(plan.simulation != nil)
        let downloads = plan.simulation?.assumptions.first { $0.name == "paidDownloadsPerMonth" }?.distribution
        #expect(downloads.map { !$0.isPoint } == true, "init writes a range, not a point: \(String(describing: downloads))")
    }

    @Test("the cutoff rule is stated, with its reason, as soon as the first free release is known")
    func cutoffRule() {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        for _ in 0..<3 { _ = wizard.submit("") }
        #expect(wizard.current == .firstFree)
        guard case .accepted(let lines) = wizard.submit("3.0") else {
            Issue.record("3.0 refused")
            return
        }
        #expect(
            lines.contains {
                $0.hasPrefix("Cutoff rule on iOS: build number 1 is used by 1.0 (1) and by 3.0 (1)") && $0.contains("so purchases are dated instead")
            })
    }

    @Test("a sound build history keeps the build number rule")
    func buildRule() throws {
        var facts = Self.facts
        facts.releases = [Self.release("1.0", "10", "2019-03-01"), Self.release("2.0", "20", "2020-06-01"), Self.release("3.0", "30", "2021-06-01")]
        var wizard = Wizard(facts: facts, now: Self.now)
        for _ in 0..<3 { _ = wizard.submit("") }
        let lines = try wizard.accept("3.0")
        #expect(lines.contains { $0.hasPrefix("Cutoff rule on iOS: the build number at first purchase, because") })
        #expect(lines.contains("1 listed release (3.0 (30)) count as free: whoever bought it is a new customer."))
    }

    @Test(
        "typos are refused with a reason and a suggestion, and the question stays",
        arguments: [
            (QuestionID.bundleID, "not a bundle id", "reverse-DNS"),
            (QuestionID.platforms, "iSO", "Did you mean 'iOS'?"),
            (QuestionID.platforms, "iOS, wearOS", "not a platform"),
        ])
    func typos(question: QuestionID, answer: String, expected: String) {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        wizard.walk(to: question)
        guard case .invalid(let message) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted for \(question)")
            return
        }
        #expect(message.contains(expected))
        #expect(wizard.current == question)
    }

    @Test(
        "choices out of range, unknown versions and features are re-asked",
        arguments: [
            (QuestionID.firstFree, "9", "from 1 to 5"),
            (QuestionID.firstFree, "1", "no one paid"),
            (QuestionID.firstFree, "3.O", "Did you mean '3.0'?"),
            (QuestionID.price, "free", "not a price"),
            (QuestionID.grants("com.example.tally.pro"), "prp", "Did you mean 'pro'?"),
            (QuestionID.era(0), "dicount", "Did you mean 'discount'?"),
            (QuestionID.verificationFailure, "keep forever", "1 to 90 days"),
            (QuestionID.paidDownloads, "lots", "neither a whole number of downloads nor a range"),
            (QuestionID.confirm, "maybe", "answer yes, no, or a number from 1 to"),
        ])
    func refusals(question: QuestionID, answer: String, expected: String) {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        wizard.walk(to: question)
        guard case .invalid(let message) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted for \(question)")
            return
        }
        #expect(message.contains(expected), "\(message)")
    }

    @Test("going back returns to the previous question, whose answer becomes the default")
    func back() {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        #expect(wizard.submit("<") == .invalid("this is the first question; there is nothing to go back to"))
        _ = wizard.submit("Tally Counter")
        _ = wizard.submit("com.example.counter")
        #expect(wizard.current == .platforms)
        #expect(wizard.submit("back") == .wentBack)
        #expect(wizard.current == .bundleID)
        #expect(wizard.question?.defaultAnswer == "com.example.counter")
        #expect(wizard.submit("<") == .wentBack)
        #expect(wizard.question?.defaultAnswer == "Tally Counter")
        _ = wizard.submit("")
        _ = wizard.submit("")
        #expect(wizard.plan.app.bundleID == "com.example.counter")
    }

    @Test("per-feature questions follow the features answer, and a new free release is asked for")
    func branching() throws {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        for _ in 0..<3 { _ = wizard.submit("") }
        _ = wizard.submit("new")
        #expect(wizard.current == .newFreeRelease)
        #expect(wizard.question?.defaultAnswer == "4.0 (2) 2026-12-18")
        #expect(wizard.submit("2.5 (3) 2020-01-01") == .invalid("it must go live after the last listed release (3.0 (1), 2021-06-01)"))
        try wizard.accept("4.0 (2) 2027-01-10")
        _ = wizard.submit("1.99")
        _ = wizard.submit("Themes, Dark Mode")
        #expect(wizard.current == .featureSince("themes"))
        _ = wizard.submit("1")
        #expect(wizard.current == .featureSince("dark-mode"))
        _ = wizard.submit("3.0")
        #expect(wizard.current == .grants("com.example.tally.pro"))
        _ = wizard.submit("all")
        #expect(wizard.current == .era(0))
        _ = wizard.submit("")
        #expect(wizard.current == .era(1))
        #expect(wizard.question?.prompt == "How are buyers of 3.0 treated?")
        _ = wizard.submit("3")
        #expect(wizard.current == .eraDiscount(1))
        #expect(wizard.submit("com.example.tally.pro 9.99") == .invalid("a discount costs less than com.example.tally.pro's 4.99"))
        try wizard.accept("com.example.tally.pro 2.49")
        _ = wizard.submit("3")
        for _ in 0..<20 where wizard.question != nil { _ = wizard.submit("") }
        let plan = wizard.plan
        #expect(plan.releases.last?.model == .free)
        #expect(plan.releases.map { $0.includes ?? [] } == [["themes"], ["themes"], ["themes"], ["themes", "dark-mode"], []])
        #expect(plan.tiers.map(\.id) == ["era-1", "era-2"])
        // A non-consumable's legacy price is charged through a legacy product, sold only to the era.
        #expect(
            plan.tiers[1].discounts == [
                Discount(product: "com.example.tally.pro", price: try! Price("2.49"), charge: .legacyProduct("com.example.tally.pro.legacy"))
            ])
        let legacy = plan.product(withID: "com.example.tally.pro.legacy")
        #expect(legacy?.price == (try! Price("2.49")) && legacy?.contains == ["com.example.tally.pro"])
        #expect(plan.policies.nonProduction == .tier("era-2"))
    }

    @Test("the first paid release must have bought something")
    func firstPaidReleaseIncludesSomething() {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        wizard.walk(to: .featureSince("pro"))
        guard case .invalid(let message) = wizard.submit("none") else {
            Issue.record("accepted")
            return
        }
        #expect(message.contains("must have included at least one feature; type '#1' or 1.0 here, or go back"), "\(message)")
        // What the message says to type is taken, both ways.
        for answer in ["#1", "1.0"] {
            var again = wizard
            guard case .accepted(let lines) = again.submit(answer) else {
                Issue.record("'\(answer)' was refused after the message said to type it")
                continue
            }
            #expect(lines.joined().contains("Buyers of every paid release keep"), "\(lines)")
        }
    }

    @Test("without a history, releases are typed, and iOS ones need their build")
    func typedReleases() throws {
        var facts = Self.facts
        facts.releases = []
        var wizard = Wizard(facts: facts, now: Self.now)
        for _ in 0..<3 { _ = wizard.submit("") }
        #expect(wizard.current == .releases)
        #expect(wizard.question?.defaultAnswer == nil)
        try wizard.refuse("")
        let message = try wizard.refuse("1.0 2019-03-01")
        #expect(message.contains("needs one"))
        try wizard.accept("1.0 (1) 2019-03-01, 2.0 (5) 2020-03-01")
        #expect(wizard.question?.defaultAnswer == "3", "not listed yet")
    }

    @Test("a scripted run names the missing answer's flag, or takes defaults with --yes")
    func scripted() {
        let wizard = Wizard(facts: Self.facts, now: Self.now)
        guard case .failure(.missing(let id, _)) = ScriptedRun.run(wizard, answers: ["appName": "Tally"], acceptDefaults: false) else {
            Issue.record("expected a missing answer")
            return
        }
        #expect(id == .bundleID)
        #expect(id.flag == "--bundle-id <id>")
        guard case .failure(.invalid(let bad, _, _)) = ScriptedRun.run(wizard, answers: ["firstFree": "7.0"], acceptDefaults: true) else {
            Issue.record("expected an invalid answer")
            return
        }
        #expect(bad == .firstFree)
        guard case .success(let (done, _)) = ScriptedRun.run(wizard, answers: ["familySharing": "no"], acceptDefaults: true) else {
            Issue.record("expected success")
            return
        }
        #expect(done.plan.policies.familySharing == .ignored)
    }
}

extension WizardFacts {
    /// The facts with a sales report's evidence of what the paid download cost, as `init --sales` reads it: the price
    /// question's only default.
    func withSalesPrice(_ price: String) -> WizardFacts {
        var facts = self
        facts.paidDownloadPrice = PaidDownloadPrice(price: try! Price(price), currency: "USD", units: 100, of: 100)
        return facts
    }
}
