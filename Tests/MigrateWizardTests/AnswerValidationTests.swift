import Foundation
import MigrateCLI
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateWizard
import Testing

/// Each answer is checked when it is given, by the plan's own rules, and no session is lost.
@Suite("the wizard validates each answer when it is given", .timeLimit(.minutes(20)))
struct AnswerValidationTests {
    static var facts: WizardFacts { WizardFlowTests.facts }  // 1.0 (1), 1.1 (2), 2.0 (1), 3.0 (1)

    /// Takes defaults up to `question`.
    static func wizard(at question: QuestionID, answering earlier: [QuestionID: String] = [:]) -> Wizard {
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        wizard.walk(to: question, answers: earlier)
        return wizard
    }

    @Test(
        "keepLastVerified days: the wizard allows exactly what the plan allows",
        arguments: [(0, false), (1, true), (7, true), (90, true), (91, false), (200, false), (365, false)])
    func keepDays(days: Int, accepted: Bool) {
        var wizard = Self.wizard(at: .verificationFailure)
        let outcome = wizard.submit("keep \(days)")
        #expect(PlanKeys.keepLastVerifiedDays.contains(days) == accepted)
        if case .accepted = outcome { #expect(accepted, "keep \(days)") } else { #expect(!accepted, "keep \(days): \(outcome)") }
        if !accepted, case .invalid(let message) = outcome { #expect(message.contains("1 to 90 days")) }
    }

    @Test("The schema's bound is the same constant")
    func schemaBound() throws {
        let schema = JSONWriter().string(from: PlanSchema.document)
        #expect(schema.contains("\"maximum\": \(PlanKeys.keepLastVerifiedDays.upperBound)"))
    }

    @Test(
        "A release already listed is refused at once",
        arguments: [
            (question: QuestionID.newFreeRelease, answer: "3.0 (1) 2027-01-01", message: "iOS 3.0 (1) is already listed"),
            (question: QuestionID.newFreeRelease, answer: "3 (1) 2027-01-01", message: "iOS 3.0 (1) is already listed"),
        ])
    func duplicateFreeRelease(question: QuestionID, answer: String, message: String) {
        var wizard = Self.wizard(at: question, answering: [.firstFree: "5"])
        #expect(wizard.current == question)
        guard case .invalid(let text) = wizard.submit(answer) else {
            Issue.record("'\(answer)' was accepted")
            return
        }
        #expect(text.contains(message), "\(text)")
        #expect(wizard.current == question, "the same question is asked again")
    }

    @Test("Typed releases listed twice are refused")
    func duplicateTypedReleases() {
        var wizard = Wizard(
            facts: WizardFacts(app: AppHints(name: "Tally", bundleID: "com.example.tally", platforms: [.iOS])), now: WizardFlowTests.now)
        wizard.walk(to: .releases)
        guard case .invalid(let text) = wizard.submit("1.0 (1) 2019-03-01, 2.0 (5) 2020-01-01, 1.0 (1) 2019-04-01") else {
            Issue.record("accepted")
            return
        }
        #expect(text.contains("iOS 1.0 (1) is listed twice"))
    }

    @Test(
        "A number that is also a listed version is asked about; '#N' is the item, 'N.0' the version",
        arguments: [
            (
                answer: "3", chosen: nil,
                message: "'3' is both number 3 in the list (2.0 (1)) and version 3.0 (1); type '#3' for the list item or '3.0' for the version"
            ),
            (answer: "2", chosen: nil, message: "version 2.0 (1)"),
            (answer: "#3", chosen: 2, message: ""),
            (answer: "3.0", chosen: 3, message: ""),
            (answer: "4", chosen: 3, message: ""),  // no version 4: the list item
            (answer: "1", chosen: nil, message: "no one paid"),  // item 1 and version 1 are the same release
            (answer: "", chosen: 4, message: ""),  // the default is a list item ("not listed yet"), never a version
        ] as [(answer: String, chosen: Int?, message: String)])
    func ambiguousNumber(answer: String, chosen: Int?, message: String) {
        var wizard = Self.wizard(at: .firstFree)
        let outcome = wizard.submit(answer)
        if let chosen {
            #expect(wizard.answers.firstFree == chosen, "\(answer): \(outcome)")
        } else if case .invalid(let text) = outcome {
            #expect(text.contains(message), "\(text)")
        } else {
            Issue.record("'\(answer)' was accepted")
        }
    }

    @Test("A session with an out-of-range answer and a duplicate release still ends with a plan that checks")
    func sessionEnds() {
        var wizard = Wizard(facts: Self.facts, now: WizardFlowTests.now)
        var refused = 0
        let scripted: [QuestionID: [String]] = [
            .firstFree: ["5"],
            .newFreeRelease: ["3.0 (1) 2027-01-01", "4.0 (5) 2027-01-01"],
            .verificationFailure: ["keep 200", "keep 30"],
        ]
        var used: [QuestionID: Int] = [:]
        while let current = wizard.current {
            let answers = scripted[current] ?? [""]
            let position = used[current, default: 0]
            used[current] = position + 1
            if case .invalid = wizard.submit(answers[min(position, answers.count - 1)]) { refused += 1 }
            if refused > 5 { break }
        }
        #expect(refused == 2)
        #expect(wizard.isFinished)
        let errors = PlanChecker.check(wizard.plan, now: WizardFlowTests.now).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        #expect(wizard.plan.policies.verificationFailure == .keepLastVerified(days: 30))
        #expect(wizard.answers.typed["newFreeRelease"] == "4.0 (5) 2027-01-01")
        #expect(wizard.answers.typed["firstFree"] == "new", "saved by what it chose, not its place in the list")
    }
}

@Suite("migrate init never loses the answers", .timeLimit(.minutes(20)))
struct SavedAnswersTests {
    @Test(
        "When the plan can't be written, the answers are saved, the message says so, and --answers re-runs them",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func savedAndRerun() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment
        // A folder where the plan should go is refused before the first question, so no answer is asked for nothing.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("migration.json"), withIntermediateDirectories: true)
        let refused = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--yes", "--price", "4.99", "--force"], context: refused) == .cannotCreate)
        #expect(refused.standardError.text.contains("--plan migration.json is a folder; name a file to write."))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("migration.json"))
        // The disk refuses the plan itself: the write fails after every answer was given.
        var failing = CommandContext.testing(directory: folder.path, environment: environment)
        failing.fileTransaction = FileTransaction(fault: { step in
            if case .create(let display) = step, display == "migration.json" { return EACCES }
            return nil
        })
        let status = Migrate.run(
            [
                "init", "--yes", "--price", "4.99", "--force", "--verification-failure", "keep:30", "--first-free", "3.0", "--free-from",
                "2021-06-01T17:00:00Z",
            ],
            context: failing)
        #expect(status == .cannotCreate, "\(failing.standardError.text)")
        #expect(
            failing.standardError.text.contains(
                "Your answers were saved to migration.answers.json; run 'migrate init --answers migration.answers.json'"),
            "\(failing.standardError.text)")
        let saved = try String(contentsOf: folder.appendingPathComponent("migration.answers.json"), encoding: .utf8)
        #expect(saved.contains("\"verificationFailure\": \"keep:30\""), "\(saved)")

        // The saved answers alone (no --yes, not a terminal) answer every question.
        let rerun = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(
            Migrate.run(["init", "--answers", "migration.answers.json", "--plan", "plan.json"], context: rerun) == .success,
            "\(rerun.standardError.text)")
        let again = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["check", "plan.json"], context: again) == .success)
        #expect(try String(contentsOf: folder.appendingPathComponent("plan.json"), encoding: .utf8).contains("\"days\": 30"))

        // Once the plan they were saved for is written, the saved answers are removed, and that is said in 80 columns.
        let written = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--answers", "migration.answers.json"], context: written) == .success, "\(written.standardError.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.answers.json").path))
        let said = written.standardOutput.text
        #expect(said.unwrapped.contains("Removed migration.answers.json, the answers saved by an earlier run (--keep-answers keeps it)."), "\(said)")
        #expect(said.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(said)")
    }
}
