import Foundation
import MigrateCLI
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateWizard
import Testing

/// The first free release's go-live: the moment the cutoff is drawn at, asked with the best evidence at hand and
/// never defaulted to a commit date.
@Suite("the first free release's go-live", .timeLimit(.minutes(20)))
struct GoLiveQuestionTests {
    /// 1.0 (1), 2.0 (2) and 3.0 (3), each dated at 10:00 UTC on its day by `provenance`.
    static func facts(_ provenance: ReleaseDateSource) -> WizardFacts {
        let releases = [("1.0", "1", "2019-03-01"), ("2.0", "2", "2020-06-01"), ("3.0", "3", "2021-06-01")].map {
            WizardFlowTests.release($0.0, $0.1, $0.2, provenance: provenance)
        }
        var facts = WizardFlowTests.facts
        facts.releases = releases
        return facts
    }

    /// Defaults up to the go-live question, with `firstFree` as the first free release.
    static func atGoLive(_ provenance: ReleaseDateSource, firstFree: String = "3.0") -> Wizard {
        var wizard = Wizard(facts: facts(provenance), now: WizardFlowTests.now)
        while let current = wizard.current, current != .freeGoLive {
            guard case .accepted = wizard.submit(current == .firstFree ? firstFree : "") else {
                Issue.record("\(current) refused")
                break
            }
        }
        return wizard
    }

    /// Defaults from here to the end; the written plan.
    static func finish(_ wizard: inout Wizard) -> MigrationPlan {
        while let current = wizard.current {
            // These plans launch freemium at the free release: its releases gave nothing away.
            guard case .accepted = wizard.submit(current == .freeGaveAway ? "none" : "") else {
                Issue.record("default for \(current) was refused")
                break
            }
        }
        return wizard.plan
    }

    static func weakDateWarnings(_ plan: MigrationPlan) -> [Diagnostic] {
        PlanChecker.check(plan, now: WizardFlowTests.now).diagnostics.filter { $0.code == .weakReleaseDate }
    }

    @Test("A release dated by a commit has no default: Return is refused with the reason, and a typed moment is confirmed")
    func commitDated() throws {
        var wizard = Self.atGoLive(.commit)
        let question = try #require(wizard.question)
        #expect(question.id == .freeGoLive)
        #expect(question.defaultAnswer == nil)
        #expect(question.hint?.contains("the list only has a git commit date, which is when code was written") == true, "\(question.hint ?? "")")
        #expect(question.hint?.contains("choose 'a release not listed yet'") == true)
        guard case .invalid(let message) = wizard.submit("") else {
            Issue.record("Return took a commit date")
            return
        }
        #expect(message.hasPrefix("an answer is needed here"))
        guard case .accepted(let lines) = wizard.submit("2021-06-01T17:00:00Z") else {
            Issue.record("a typed go-live was refused")
            return
        }
        #expect(lines.first == "Free from 2021-06-01T17:00:00Z, confirmed.")
        let plan = Self.finish(&wizard)
        let free = try #require(plan.releases.last)
        #expect(free.released == Timestamp.parse("2021-06-01T17:00:00Z"))
        #expect(free.releasedSource == .appStore)
        #expect(!free.model.isPaid)
        #expect(Self.weakDateWarnings(plan).isEmpty)
    }

    @Test("A release dated by a tag is the default, kept unconfirmed, and check warns until it is confirmed")
    func tagDated() throws {
        var wizard = Self.atGoLive(.tag)
        #expect(wizard.question?.defaultAnswer == "2021-06-01T10:00:00Z")
        guard case .accepted(let lines) = wizard.submit("") else {
            Issue.record("the tag date was refused")
            return
        }
        #expect(lines.first?.contains("a git tag date: check will warn until you confirm it") == true, "\(lines)")
        let plan = Self.finish(&wizard)
        #expect(plan.releases.last?.releasedSource == .tag)
        #expect(plan.releases.last?.released == Timestamp.parse("2021-06-01T10:00:00Z"))
        #expect(Self.weakDateWarnings(plan).count == 1)
    }

    @Test("A release dated by its first sale is the default, and it is evidence")
    func salesDated() throws {
        var wizard = Self.atGoLive(.sales)
        guard case .accepted(let lines) = wizard.submit("") else {
            Issue.record("the sales date was refused")
            return
        }
        #expect(lines.first == "Free from 2021-06-01T10:00:00Z, the first day it sold in a sales report.")
        let plan = Self.finish(&wizard)
        #expect(plan.releases.last?.releasedSource == .sales)
        #expect(Self.weakDateWarnings(plan).isEmpty)
    }

    @Test(
        "A typed go-live still to come is recorded as planned, not confirmed; one that has passed is confirmed",
        arguments: [
            ("2026-12-15", "2026-12-16T12:00:00Z", ReleaseDateSource.planned),
            ("2026-12-15T17:00:00Z", "2026-12-15T17:00:00Z", .planned),
            ("2021-06-01", "2021-06-02T12:00:00Z", .appStore),
        ])
    func plannedListedGoLive(typed: String, moment: String, source: ReleaseDateSource) throws {
        var wizard = Self.atGoLive(.commit)
        guard case .accepted = wizard.submit(typed) else {
            Issue.record("\(typed) refused")
            return
        }
        #expect(wizard.answers.freeGoLive.map(Timestamp.format) == moment)
        #expect(wizard.answers.freeGoLivePlanned == (source == .planned))
        let free = try #require(Self.finish(&wizard).releases.last)
        #expect(free.released == Timestamp.parse(moment))
        #expect(free.releasedSource == source)
    }

    @Test(
        "A release not listed yet, typed or given with --free-from: a date alone is the end of that day everywhere, a future one planned",
        arguments: [
            (["newFreeRelease": "4.0 (62) 2026-12-15"], "2026-12-16T12:00:00Z", ReleaseDateSource.planned),
            (["newFreeRelease": "4.0 (62) 2026-12-15", "freeFrom": "2026-12-15"], "2026-12-16T12:00:00Z", .planned),
            (["newFreeRelease": "4.0 (62) 2026-12-15", "freeFrom": "2026-12-15T17:00:00Z"], "2026-12-15T17:00:00Z", .planned),
            (["newFreeRelease": "4.0 (62) 2026-11-01"], "2026-11-02T12:00:00Z", .appStore),
        ])
    func newFreeReleaseGoLive(given: [String: String], moment: String, source: ReleaseDateSource) throws {
        var answers = given
        answers["firstFree"] = "new"
        guard
            case .success(let (done, _)) = ScriptedRun.run(
                Wizard(facts: WizardFlowTests.facts, now: WizardFlowTests.now), answers: answers, acceptDefaults: true)
        else {
            Issue.record("the run failed for \(given)")
            return
        }
        let free = try #require(done.plan.releases.last)
        #expect(free.released == Timestamp.parse(moment))
        #expect(free.releasedSource == source)
        // The summary says the day typed, not the UTC day of its end everywhere.
        let typedDay = String(given["newFreeRelease"]!.split(separator: " ").last!.prefix(10))
        let summary = PlanBuilder.summary(done.answers, facts: WizardFlowTests.facts)
        #expect(summary.contains { $0.hasPrefix("Releases") && $0.hasSuffix("on \(typedDay)") }, "\(summary)")
    }

    @Test(
        "A date alone is the end of that day everywhere on Earth, so nobody who paid that day becomes a new customer",
        arguments: [("2021-06-01", "2021-06-02T12:00:00Z"), ("2021-06-01T17:00:00Z", "2021-06-01T17:00:00Z")])
    func dateAlone(typed: String, moment: String) throws {
        var wizard = Self.atGoLive(.commit)
        guard case .accepted = wizard.submit(typed) else {
            Issue.record("\(typed) refused")
            return
        }
        #expect(Self.finish(&wizard).releases.last?.released == Timestamp.parse(moment))
    }

    @Test(
        "A moment not between the releases around it is refused, naming the release",
        arguments: [
            ("2019-01-01T00:00:00Z", "it must be after the release before it (1.0 (1), 2019-03-01T10:00:00Z)"),
            ("2022-01-01T00:00:00Z", "it must be before the release after it (3.0 (3), 2021-06-01T10:00:00Z)"),
            ("June 1", "'June 1' is not a date-time"),
        ])
    func outOfOrder(typed: String, expected: String) {
        var wizard = Self.atGoLive(.commit, firstFree: "2.0")
        guard case .invalid(let message) = wizard.submit(typed) else {
            Issue.record("\(typed) was taken")
            return
        }
        #expect(message.hasPrefix(expected), "\(message)")
        #expect(wizard.current == .freeGoLive)
    }

    @Test("Return on an answer typed earlier, picked again from the summary, keeps it confirmed")
    func keptAtSummary() throws {
        var wizard = Self.atGoLive(.tag)
        try wizard.accept("2021-06-01T17:00:00Z")
        wizard.walk(to: .confirm)
        #expect(wizard.submit(try SummaryChangeTests.number(of: .freeGoLive, in: wizard)) == .wentBack)
        #expect(wizard.question?.defaultAnswer == "2021-06-01T17:00:00Z")
        try wizard.accept("")
        #expect(wizard.current == .confirm)
        #expect(wizard.question?.choices.contains("It went live: 2021-06-01T17:00:00Z (confirmed)") == true)
        // The first free release: a release the free era's features are sold from may follow it.
        #expect(Self.finish(&wizard).releases.first { !$0.model.isPaid }?.releasedSource == .appStore)
    }

    @Test(
        "init --yes on an untagged history stops at the go-live and names --free-from; with it the plan checks without a warning",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func untaggedHistory() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment
        let stopped = CommandContext.testing(directory: folder.path, environment: environment)
        // The app went free with the newest tag: said, since the default is a release not listed yet.
        #expect(Migrate.run(["init", "--yes", "--price", "4.99", "--first-free", "3.0"], context: stopped) == .usage)
        #expect(
            stopped.standardError.text.contains("Give --free-from <date-time> (or \"freeFrom\" in --answers); it has no default"),
            "\(stopped.standardError.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))

        let given = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(
            Migrate.run(["init", "--yes", "--price", "4.99", "--first-free", "3.0", "--free-from", "2021-06-01T17:00:00Z"], context: given)
                == .success,
            "\(given.standardError.text)")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(
            plan.contains("\"version\": \"3.0\", \"build\": \"1\", \"released\": \"2021-06-01T17:00:00Z\", \"releasedSource\": \"appStore\""),
            "\(plan)")
        let check = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["check", "migration.json"], context: check) == .success)
        #expect(!check.standardOutput.text.contains("is dated by"), "\(check.standardOutput.text)")
        // What check says instead: the cutoff stands on the go-live given.
        #expect(check.standardOutput.text.contains("free from 3.0 (1), live 2021-06-01T17:00:00Z"), "\(check.standardOutput.text)")
    }

    @Test(
        "init --sales: a report showing 2.0 and 3.0 downloaded only free makes 2.0 the first free release, and says why",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func salesShowFreeRelease() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try String(contentsOf: TipsterProject.fixtures.appendingPathComponent("sales/daily-first-sales.txt"), encoding: .utf8)
        let lines = fixture.split(separator: "\n").map(String.init)
        var report = lines[0] + "\n"
        // Apple's Summary Sales columns: Version, Units, Developer Proceeds, dates, and Customer Price (0 for a free download).
        for (version, day, price) in [("1.1", "05/01/2020", "0.99"), ("2.0", "06/02/2020", "0"), ("3.0", "06/03/2021", "0")] {
            var fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[5] = version
            fields[8] = price == "0" ? "0" : "0.70"
            fields[9] = day
            fields[10] = day
            fields[15] = price
            report += fields.joined(separator: "\t") + "\n"
        }
        try report.write(to: folder.appendingPathComponent("sales.txt"), atomically: true, encoding: .utf8)
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        #expect(
            Migrate.run(["init", "--yes", "--price", "4.99", "--sales", "sales.txt"], context: context) == .success, "\(context.standardError.text)")
        let output = context.standardOutput.text + context.standardError.text
        #expect(output.contains("free and 0 paid downloads in sales.txt"), "\(output)")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        let firstFree = #""version": "2.0", "build": "1", "released": "2020-06-03T12:00:00Z", "releasedSource": "sales", "model": "free""#
        #expect(plan.contains(firstFree), "\(plan)")
        #expect(!plan.contains(#""version": "1.1", "build": "2", "released": "2019-09-01T10:00:00Z", "releasedSource": "commit", "model": "free""#))
    }

    @Test(
        "init --sales dates each version's first build by its first sale: the go-live default is evidence, and check is quiet",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func salesDatedInit() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A daily Summary Sales report in Apple's columns: its first day (1.1) dates nothing, 2.0 and 3.0 sold from a day
        // after their commits.
        let fixture = try String(contentsOf: TipsterProject.fixtures.appendingPathComponent("sales/daily-first-sales.txt"), encoding: .utf8)
        let lines = fixture.split(separator: "\n").map(String.init)
        var report = lines[0] + "\n"
        for (version, day) in [("1.1", "05/01/2020"), ("2.0", "06/02/2020"), ("3.0", "06/03/2021")] {
            var fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[5] = version
            fields[9] = day
            fields[10] = day
            report += fields.joined(separator: "\t") + "\n"
        }
        try report.write(to: folder.appendingPathComponent("sales.txt"), atomically: true, encoding: .utf8)
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        #expect(
            Migrate.run(["init", "--yes", "--price", "4.99", "--sales", "sales.txt"], context: context) == .success, "\(context.standardError.text)")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(
            plan.contains("\"version\": \"3.0\", \"build\": \"1\", \"released\": \"2021-06-04T12:00:00Z\", \"releasedSource\": \"sales\""), "\(plan)")
        #expect(plan.contains("\"version\": \"2.0\", \"build\": \"1\", \"released\": \"2020-06-03T12:00:00Z\", \"releasedSource\": \"sales\""))
        #expect(plan.contains("\"version\": \"1.1\", \"build\": \"2\", \"released\": \"2019-09-01T10:00:00Z\", \"releasedSource\": \"commit\""))
        let check = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["check", "migration.json"], context: check) == .success)
        #expect(!check.standardOutput.text.contains("is dated by"), "\(check.standardOutput.text)")
    }
}
