import Foundation
import MigrateImport
import MigratePlan
import Testing

@testable import MigrateWizard

/// The first free release's default: a release not listed yet, unless the sales reports show the app
/// already free from a listed one (and nothing sold for money after it).
@Suite("The first free release's default from the sales reports", .timeLimit(.minutes(20)))
struct FirstFreeEvidenceTests {
    /// 1.0 (1), 1.1 (2), 2.0 (1), 3.0 (1), with each version's paid and free downloads.
    static func wizard(_ figures: [(version: String, paid: Int, free: Int)], files: [String] = ["sales-2021.txt"]) -> Wizard {
        var facts = WizardFlowTests.facts
        facts.installBase = InstallBase(
            downloads: figures.map { DownloadCount(platform: .iOS, version: try! Version($0.version), paid: $0.paid, free: $0.free) })
        facts.salesFiles = files
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        wizard.walk(to: .firstFree)
        return wizard
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var figures: [(version: String, paid: Int, free: Int)]
        var files: [String] = ["sales-2021.txt"]
        /// The default's item number: 3 is 2.0, 5 is "not listed yet".
        var defaultItem: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "free from 2.0 on, after paid 1.x", figures: [("1.0", 40, 2), ("1.1", 30, 0), ("2.0", 0, 900), ("3.0", 0, 1_200)], defaultItem: "3"),
        Case(name: "a later release sold for money: no evidence", figures: [("1.0", 40, 0), ("2.0", 0, 900), ("3.0", 5, 1_200)], defaultItem: "5"),
        Case(name: "free downloads only, never paid: no evidence", figures: [("1.0", 0, 40), ("2.0", 0, 900)], defaultItem: "5"),
        Case(name: "no reports named: no evidence", figures: [("1.0", 40, 0), ("2.0", 0, 900)], files: [], defaultItem: "5"),
        Case(
            name: "promo codes alone in a paid release aren't free from there", figures: [("1.0", 40, 0), ("1.1", 0, 3), ("2.0", 20, 0)],
            defaultItem: "5"),
    ]

    @Test("The default follows the reports only when they show the app free from a listed release", arguments: cases)
    func defaultRelease(_ input: Case) {
        var wizard = Self.wizard(input.figures, files: input.files)
        guard let question = wizard.question else {
            Issue.record("no question")
            return
        }
        #expect(question.defaultAnswer == input.defaultItem, "\(question.choices)")
        if input.defaultItem == "3" {
            #expect(question.choices[2].contains("free: 900 free and 0 paid downloads in sales-2021.txt"), "\(question.choices[2])")
            guard case .accepted(let notes) = wizard.submit("") else {
                Issue.record("the default was refused")
                return
            }
            #expect(wizard.answers.firstFree == 2)
            // The summary says what the choice makes free: the paid releases before it keep their buyers.
            #expect(notes.joined(separator: " ").contains("2.0"), "\(notes)")
        }
    }
}
