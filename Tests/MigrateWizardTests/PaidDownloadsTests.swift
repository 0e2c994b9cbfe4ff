import Foundation
import MigrateImport
import MigratePlan
import MigrateSimulation
import MigrateWizard
import Testing

/// "How many paid downloads a month": always a range in the plan, asked whenever no sales history shows a trend.
@Suite("the paid downloads answer", .timeLimit(.minutes(20)))
struct PaidDownloadsTests {
    @Test(
        "A number is a range around it, a typed range is every value equally likely, anything else is refused",
        arguments: [
            ("250", Distribution.triangular(low: 150, mode: 250, high: 350)),
            ("150-350", .uniform(low: 150, high: 350)),
            ("150 – 350", .uniform(low: 150, high: 350)),
            ("150 to 350", .uniform(low: 150, high: 350)),
            ("0", .point(0)),
            ("40-40", .point(40)),
        ])
    func parsed(text: String, distribution: Distribution) throws {
        let answer = try #require(PaidDownloads.parse(text))
        #expect(answer.distribution == distribution)
        #expect(PaidDownloads.parse(answer.text) == answer, "the answer typed again is the same answer")
    }

    @Test("Not a number or a range", arguments: ["", "many", "-5", "350-150", "1-2-3", "2.5"])
    func refused(text: String) {
        #expect(PaidDownloads.parse(text) == nil)
    }

    /// An install base of `months` whole months of 300 paid downloads each, from January 2024.
    static func installBase(months: Int) -> InstallBase {
        let from = Timestamp.parse("2024-01-01T00:00:00Z")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let end = calendar.date(byAdding: .month, value: months, to: from)!.addingTimeInterval(-86_400)
        let series = (0..<months).map { MonthlyDownloads(month: String(format: "2024-%02d", $0 + 1), paid: 300) }
        return InstallBase(from: from, until: end, downloads: [DownloadCount(paid: 300 * months)], months: series)
    }

    static func wizard(installBase: InstallBase?) -> Wizard {
        var facts = WizardFlowTests.facts
        facts.installBase = installBase
        return Wizard(facts: facts, now: WizardFlowTests.now)
    }

    @Test("Reports too short to show a trend: asked, with their average as the default, and the answer is written beside them")
    func shortHistory() throws {
        var wizard = Self.wizard(installBase: Self.installBase(months: 3))
        wizard.walk(until: { $0 == .paidDownloads || $0 == .confirm })
        let question = try #require(wizard.question)
        #expect(question.id == .paidDownloads)
        #expect(question.prompt.hasPrefix("The sales reports cover 3.0 months, too few to show a trend."), "\(question.prompt)")
        // January to March 2024 is 91 days, 2.99 average months: 900 paid downloads are 301 a month.
        #expect(question.defaultAnswer == "301")
        #expect(question.hint?.hasSuffix("the reports average 301 a month") == true)
        guard case .accepted(let lines) = wizard.submit("200-260") else {
            Issue.record("a range was refused")
            return
        }
        #expect(lines == ["migrate simulate starts from 200–260 paid downloads a month, each as likely, in simulation.assumptions; edit it there."])
        wizard.walk()
        let plan = wizard.plan
        #expect(plan.installBase != nil)
        #expect(plan.simulation?.assumptions.first { $0.name == "paidDownloadsPerMonth" }?.distribution == .uniform(low: 200, high: 260))
        let prepared = try PreparedScenario.prepare(plan, scenario: nil)
        #expect(prepared.assumptions.first { $0.assumption == .paidDownloadsPerMonth }?.source.hasPrefix("plan: ") == true)
    }

    @Test("Reports that show a trend measure the rate: not asked, nothing written over them")
    func longHistory() {
        var wizard = Self.wizard(installBase: Self.installBase(months: 6))
        let asked = wizard.walk()
        #expect(!asked.contains(.paidDownloads))
        #expect(wizard.plan.simulation == nil)
    }
}
