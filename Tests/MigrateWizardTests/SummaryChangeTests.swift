import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// At the summary, the number of any earlier answer goes back to it; the wizard asks what the change
/// brings in and returns to the summary with every other answer kept.
@Suite("the wizard's summary changes any answer", .timeLimit(.minutes(20)))
struct SummaryChangeTests {
    /// Answers for a full session on `WizardFlowTests.facts` (1.0 (1), 1.1 (2), 2.0 (1), 3.0 (1)).
    static let session: [QuestionID: String] = [
        .appName: "Tally Counter", .firstFree: "3.0", .price: "1.49", .features: "Themes, Sync", .featureSince("themes"): "1",
        .featureSince("sync"): "2.0", .era(0): "keep", .era(1): "everything", .verificationFailure: "keep 3", .familySharing: "no",
        .paidDownloads: "250",
    ]

    static func atSummary() -> Wizard {
        var wizard = Wizard(facts: WizardFlowTests.facts, now: WizardFlowTests.now)
        while let current = wizard.current, current != .confirm {
            guard case .accepted = wizard.submit(session[current] ?? "") else {
                Issue.record("\(current) refused")
                break
            }
        }
        return wizard
    }

    /// The number the summary gives an answer.
    static func number(of id: QuestionID, in wizard: Wizard) throws -> String {
        let question = try #require(wizard.question)
        let position = try #require(question.choices.firstIndex { $0.hasPrefix(id.label + ": ") }, "\(id) is not listed: \(question.choices)")
        return String(position + 1)
    }

    @Test("The summary lists every answer by what it decided")
    func listed() throws {
        let wizard = Self.atSummary()
        let question = try #require(wizard.question)
        #expect(question.id == .confirm)
        #expect(question.choices.first == "App name: Tally Counter")
        #expect(question.choices.contains("First free release: iOS 3.0 (1) 2021-06-01; makes 1 listed release's buyers new customers"))
        #expect(question.choices.contains("It went live: 2021-06-01T10:00:00Z (as listed, not confirmed)"))
        #expect(question.choices.contains("First paid release with themes: 1.0 (1)"))
        #expect(question.choices.contains("Paid era 2: buyers of 2.0 get everything"))
        #expect(question.choices.contains("Testers: as new customers"))
        #expect(question.choices.contains("Unverified signature: keep the last verified for 3 days"))
        #expect(question.choices.contains("Family Sharing: ignored"))
        #expect(question.choices.count == wizard.sequence().count - 1)
    }

    @Test("The paid downloads answer states its range in balanced parentheses")
    func downloadsLine() throws {
        var wizard = Wizard(facts: WizardFlowTests.facts, now: WizardFlowTests.now)
        wizard.walk(to: .paidDownloads, answers: Self.session)
        let lines = try wizard.accept("250")
        #expect(lines.first?.contains("as a range (150–350, most likely 250) in simulation.assumptions") == true, "\(lines)")
    }

    @Test("answers → summary → an earlier question → a changed answer → summary → a plan with the change and every other answer")
    func changeAndReturn() throws {
        var wizard = Self.atSummary()
        let before = wizard.plan

        // The price: one answer, straight back to the summary.
        #expect(wizard.submit(try Self.number(of: .price, in: wizard)) == .wentBack)
        #expect(wizard.current == .price)
        #expect(wizard.question?.defaultAnswer == "1.49", "the kept answer is the default")
        try wizard.accept("1.99")
        #expect(wizard.current == .confirm)

        // The first free release: now one not shipped yet, so its question is asked, then the summary again.
        #expect(wizard.submit(try Self.number(of: .firstFree, in: wizard)) == .wentBack)
        try wizard.accept("new")
        #expect(wizard.current == .newFreeRelease)
        try wizard.accept("4.0 (2) 2027-01-10")
        #expect(wizard.current == .confirm, "every other answer still holds")

        // A new feature brings in its own question only.
        #expect(wizard.submit(try Self.number(of: .features, in: wizard)) == .wentBack)
        try wizard.accept("Themes, Sync, Export")
        #expect(wizard.current == .featureSince("export"))
        try wizard.accept("none")
        #expect(wizard.current == .confirm)

        try wizard.accept("yes")
        #expect(wizard.isFinished)
        let plan = wizard.plan
        let paid = BusinessModel.paid(try Price("1.99"))
        #expect(plan.releases.map(\.model) == [paid, paid, paid, paid, .free])
        #expect(plan.releases.last.map { "\($0.version) \($0.model.isPaid)" } == "4.0 false")
        #expect(plan.features.map(\.id) == ["themes", "sync", "export"])
        // Kept: the name, the features' first releases, the eras' treatments and the policies.
        #expect(plan.app.name == "Tally Counter" && plan.app.name == before.app.name)
        #expect(plan.releases.map { $0.includes ?? [] } == [["themes"], ["themes"], ["themes", "sync"], ["themes", "sync"], []])
        #expect(plan.tiers.map(\.id) == ["era-1", "era-2"] && plan.tiers[1].grants == ["themes", "sync", "export"])
        #expect(plan.policies.verificationFailure == .keepLastVerified(days: 3) && plan.policies.familySharing == .ignored)
        #expect(plan.simulation == before.simulation)
        let errors = PlanChecker.check(plan, now: WizardFlowTests.now).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
    }

    @Test("'<' at a question picked from the summary returns to the summary, changing nothing")
    func backToSummary() throws {
        var wizard = Self.atSummary()
        #expect(wizard.submit(try Self.number(of: .verificationFailure, in: wizard)) == .wentBack)
        #expect(wizard.current == .verificationFailure)
        #expect(wizard.submit("<") == .wentBack)
        #expect(wizard.current == .confirm)
        try wizard.accept("yes")
        #expect(wizard.plan.policies.verificationFailure == .keepLastVerified(days: 3))
    }

    @Test("A changed answer that makes another meaningless asks that one again", arguments: ["2.0", "#2"])
    func invalidated(firstFree: String) throws {
        var wizard = Self.atSummary()
        #expect(wizard.submit(try Self.number(of: .firstFree, in: wizard)) == .wentBack)
        guard case .accepted = wizard.submit(firstFree) else {
            Issue.record("\(firstFree) refused")
            return
        }
        // Another first free release went live at another moment: asked again (Return takes its listed date).
        #expect(wizard.current == .freeGoLive)
        try wizard.accept("")
        // Sync was first in 2.0, which is free now: asked again; Themes (1.0) still holds.
        #expect(wizard.current == .featureSince("sync"))
        try wizard.accept("none")
        #expect(wizard.current == .confirm)
    }

    @Test("Numbers outside the list and words are refused at the summary", arguments: ["0", "99", "maybe"])
    func refused(answer: String) {
        var wizard = Self.atSummary()
        guard case .invalid(let message) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted")
            return
        }
        #expect(message.contains("a number from 1 to \(wizard.sequence().count - 1)"))
        #expect(wizard.current == .confirm)
    }
}
