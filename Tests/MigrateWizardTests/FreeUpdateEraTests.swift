import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateWizard
import Testing

/// The wizard's feature answers never turn into a take-away. Themes from 1.0, Sync from 2.0: buyers of
/// 1.0 – 1.1 got Sync as a free update and keep it, unless the developer says 2.0 was a paid upgrade they never got.
@Suite("init keeps what free updates brought", .timeLimit(.minutes(20)))
struct FreeUpdateEraTests {
    static let answers = [
        "firstFree": "3.0", "freeFrom": "2021-06-01T17:00:00Z", "features": "Themes, Sync", "featureSince.themes": "1.0",
        "featureSince.sync": "2.0",
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        var era: String?
        var grants: [String]?
        var takesAway: [String]
        var keepsSync: Bool
        var testDescription: String { era ?? "default" }
    }

    @Test(
        "Era 1's answer: keep (the default) keeps Sync with no 'grants'; 'upgrade' writes the take-away explicitly",
        arguments: [
            Row(era: nil, grants: nil, takesAway: [], keepsSync: true),
            Row(era: "keep", grants: nil, takesAway: [], keepsSync: true),
            Row(era: "4", grants: ["themes"], takesAway: ["sync"], keepsSync: false),
            Row(era: "upgrade", grants: ["themes"], takesAway: ["sync"], keepsSync: false),
        ])
    func eraAnswer(_ row: Row) throws {
        var answers = Self.answers
        if let era = row.era { answers["eras.1"] = era }
        guard
            case .success(let (done, _)) = ScriptedRun.run(
                Wizard(facts: WizardFlowTests.facts, now: WizardFlowTests.now), answers: answers, acceptDefaults: true)
        else {
            Issue.record("the run failed")
            return
        }
        let plan = done.plan
        let tier = try #require(plan.tier(withID: "era-1"))
        #expect(tier.grants == row.grants)
        #expect(tier.takesAway == row.takesAway)
        let buyer = Customer(platform: .iOS, originalAppVersion: "1", originalPurchaseDate: Timestamp.parse("2019-04-01T00:00:00Z"))
        let report = Advisor(plan: plan).report(for: buyer)
        #expect(report.decision.cohort == .legacy(tierID: "era-1"))
        #expect(report.entitlements.has("sync") == row.keepsSync)
        // The plan passes check either way: the take-away is explicit, and said as a note.
        let diagnostics = PlanChecker.check(plan, now: WizardFlowTests.now).diagnostics
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics.map(\.message))")
        #expect(diagnostics.contains { $0.code == .freeUpdateTakenAway } == !row.keepsSync)
    }

    @Test("The era question offers the paid upgrade only to an era a later release added features to")
    func choices() throws {
        var wizard = Wizard(facts: WizardFlowTests.facts, now: WizardFlowTests.now)
        while let current = wizard.current, current != .era(0) {
            let answer =
                [QuestionID.firstFree: "3.0", .freeGoLive: "2021-06-01T17:00:00Z", .features: "Themes, Sync", .featureSince("sync"): "2.0"][current]
                ?? ""
            guard case .accepted = wizard.submit(answer) else {
                Issue.record("\(current) refused")
                return
            }
        }
        let first = try #require(wizard.question)
        #expect(first.choices.first == "keep what they had when the app went free (themes, sync), free updates included")
        #expect(first.choices.count == 4)
        #expect(first.defaultAnswer == "1")
        try wizard.accept("")
        let second = try #require(wizard.question)
        #expect(second.id == .era(1))
        #expect(second.choices.count == 3)
        guard case .invalid(let message) = wizard.submit("upgrade") else {
            Issue.record("a paid upgrade was accepted for the last era")
            return
        }
        #expect(message.contains("had every feature of the paid app through free updates"))
    }
}
