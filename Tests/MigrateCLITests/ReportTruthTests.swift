import Foundation
import MigrateCore
import MigratePlan
import MigrateSimulation
import MigrateSupport
import MigrateTestSupport
import Testing

@testable import MigrateReport

/// The page that gets signed off tells the whole truth: every warning the other commands give for the same inputs (the
/// harmful ones beside the verdict), names that can't turn the page around, one locale for every figure, and a plan
/// that has gone free reported as launched.
@Suite(.timeLimit(.minutes(20))) struct ReportTruthTests {
    static let flagship = "Examples/tilt-to-live-hd"

    /// Each example, the flagship also with its customer list.
    static let inputs: [(plan: String, list: String?)] =
        Examples.names.map { ("Examples/\($0)", nil) } + [(flagship, "\(flagship)/customers.csv")]

    /// What `check`, `explain --batch` and `simulate` warn about for `plan` and `list`, in their words.
    static func warnings(plan: String, list: String?) throws -> (all: Set<String>, harmful: Set<String>) {
        var all = Set<String>()
        var harmful = Set<String>()
        let check = Run("check", plan, "--format", "json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any], "\(check.error)")
        for diagnostic in (json["diagnostics"] as? [[String: Any]]) ?? [] {
            let message = try #require(diagnostic["message"] as? String)
            all.insert(message)
            if ["legacy-feature-dropped", "free-update-taken-away", "paid-release-uncovered", "legacy-product-grants-less"].contains(
                diagnostic["code"] as? String)
            {
                harmful.insert(message)
            }
        }
        if let list {
            let explain = Run("explain", plan, "--batch", list)
            let text = explain.error.replacingOccurrences(of: "\n  ", with: " ")
            for match in text.matches(of: /warning: (.*)\n/) {
                all.insert(String(match.1))
                if match.1.contains("would see a paywall") { harmful.insert(String(match.1)) }
            }
        }
        let simulate = Run("simulate", plan, "--format", "json", "--draws", "200")
        let forecast = !Examples.withoutForecast.contains(URL(fileURLWithPath: plan).lastPathComponent)
        #expect(simulate.status == (forecast ? .success : .dataError), "\(plan): \(simulate.error)")
        if forecast {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(simulate.output.utf8)) as? [String: Any])
            let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
            for note in (scenario["notes"] as? [String]) ?? [] { all.insert(note) }
            if Run("simulate", plan, "--draws", "200").output.contains("No uncertainty is modelled") {
                all.insert(Verdict.noUncertaintyNotice)
            }
        }
        return (all, harmful)
    }

    @Test(arguments: inputs)
    func everyWarningTheOtherCommandsGiveIsOnThePage(_ plan: String, _ list: String?) throws {
        let expected = try Self.warnings(plan: plan, list: list)
        let run = Run(arguments: ["report", plan, "--draws", "200", "--output", "-"] + (list.map { ["--batch", $0] } ?? []))
        #expect(run.status == .success, "\(run.error)")
        let page = ReportPage(html: run.output)
        // The table of warnings holds exactly the other commands' warnings, each once.
        let listed = page.rows(in: "warnings").map { $0[3] }
        #expect(Set(listed) == expected.all, "\(plan) \(list ?? ""): the page \(listed), the commands \(expected.all)")
        #expect(listed.count == Set(listed).count, "\(plan): a warning listed twice")
        // The harmful ones stand beside the verdict, with where they come from.
        let verdict = ReportPage.text(page.section("verdict"))
        for warning in expected.harmful {
            #expect(verdict.contains(warning), "\(plan): \(warning) is not beside the verdict")
            #expect(verdict.contains("(migrate "), "\(plan): where it comes from")
        }
        #expect(expected.harmful.isEmpty == !page.section("verdict").contains("class=\"harm\""), "\(plan)")
        // "No launch-day trap" only when nothing warns.
        #expect(expected.all.isEmpty == page.text.contains("No command warns about these inputs"), "\(plan)")
    }

    @Test func theFlagshipsListAndQuillsTakenFeaturesAreBesideTheVerdict() throws {
        let flagship = ReportPage(
            html: Run("report", Self.flagship, "--batch", "\(Self.flagship)/customers.csv", "--draws", "200", "--output", "-").output)
        #expect(ReportPage.text(flagship.section("verdict")).contains("would see a paywall (line 8)"))
        let quill = ReportPage(html: Run("report", "Examples/quill-writer", "--draws", "200", "--output", "-").output)
        let verdict = ReportPage.text(quill.section("verdict"))
        #expect(verdict.contains("2 warnings touch people who paid"))
        #expect(verdict.contains("doesn't grant them (migrate check, at tiers[0].grants)"), "\(verdict)")
    }

    // MARK: Names

    /// A plan whose names hold an override, ESC and BEL.
    static func hostilePlan() throws -> (scratch: Scratch, plan: URL) {
        let scratch = try Scratch()
        let original = try String(contentsOf: repositoryRoot.appendingPathComponent("\(flagship)/migration.json"), encoding: .utf8)
        let text = original.replacingOccurrences(of: #""name": "Tilt to Live HD""#, with: #""name": "Tilt\u001b[2J\u0007 HD\u202e""#)
            .replacingOccurrences(of: #""name": "Viva la Turret""#, with: #""name": "Viva\u202e la Turret""#)
        #expect(text != original)
        return (scratch, try scratch.write("migration.json", text))
    }

    @Test func checkRefusesControlAndBidiCharactersInNamesWithTheirPath() throws {
        let (scratch, plan) = try Self.hostilePlan()
        let check = Run("check", plan.path)
        #expect(check.status == .checkFailed, "\(check.output)\(check.error)")
        let output = check.output + check.error
        #expect(output.contains("app.name: 'Tilt\\u{1B}[2J\\u{7} HD\\u{202E}' holds a character that reorders text"), "\(output)")
        #expect(output.contains("products[1].name: 'Viva\\u{202E} la Turret'"), "\(output)")
        #expect(output.contains("control-character-in-name") || output.contains("Remove \\u{202E}"), "\(output)")
        // The terminal never gets the raw characters.
        for raw in ["\u{1B}[2J", "\u{07}", "\u{202E}"] { #expect(!output.contains(raw)) }
        // The report refuses the plan as check does, and writes nothing.
        let page = scratch.url.appendingPathComponent("report.html")
        let report = Run("report", plan.path, "--draws", "100", "--output", page.path)
        #expect(report.status == .dataError)
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test func theTerminalShowsBidiControlsInsteadOfObeyingThem() {
        #expect(TextHazards.shown("a\u{202E}b\u{2066}c\u{200F}") == "a\\u{202E}b\\u{2066}c\\u{200F}")
        #expect(TextHazards.shown("plain\ttext\n") == "plain\ttext\n")
    }

    /// The page laid out from a plan check would refuse: nothing in it acts, and every name is isolated.
    @Test func namesCannotTurnThePageAround() throws {
        var plan = try examplePlan("tilt-to-live-hd")
        plan.app.name = "Tilt\u{1B}[2J\u{07} HD\u{202E}"
        let turret = try #require(plan.products.firstIndex { $0.name == "Viva la Turret" })
        plan.products[turret].name = "Viva\u{202E} la Turret"
        let hebrew = try #require(plan.features.indices.first)
        plan.features[hebrew].name = "מצב קלאסי"
        let simulation = try Simulator.run(plan, options: SimulationOptions(scenarios: [PreparedScenario.baseID], draws: 50, seed: 1, threads: 1))
        let html = HTMLReport.render(
            ReportInput(
                planName: "migration.json", plan: plan, simulation: simulation, check: PlanChecker.check(plan, now: Date()), now: Date()))
        for raw in ["\u{1B}", "\u{07}", "\u{202E}"] { #expect(!html.contains(raw), "raw \(raw.unicodeScalars.first!.value)") }
        #expect(html.contains("<h1><bdi>Tilt\\u{1B}[2J\\u{7} HD\\u{202E}</bdi>: "))
        #expect(html.contains("<bdi>Viva\\u{202E} la Turret</bdi> at ¤0.99"))
        #expect(html.contains("<bdi>מצב קלאסי</bdi>"))
        // Every name the cohorts show is isolated: no text of the plan's stands outside a <bdi> in a cell that names.
        let offered = html.matches(of: /data-label="offered">(.*?)<\/td>/).map { String($0.1) }
        #expect(!offered.isEmpty)
        for cell in offered where cell != "nothing" { #expect(cell.hasPrefix("<bdi>"), "\(cell)") }
    }

    // MARK: Locale

    /// The numbers of the page's own sections, in order, dates as `DATE`. Left out: names (isolated), quoted sources, and
    /// what each plan key means, whose examples are values as the plan's JSON writes them (`−0.02`).
    static func figures(_ html: String, dates: Regex<Substring>) -> (numbers: [String], dates: Int, iso: Int) {
        var text = html.replacing(/<bdi>.*?<\/bdi>/, with: "")
        for assumption in SimulationAssumption.allCases {
            text = text.replacingOccurrences(of: ReportTruthTests.escaped(assumption.meaning), with: "")
        }
        text = text.replacing(/<td[^>]*data-label="source">.*?<\/td>/, with: "")
        text = text.replacing(/<div class="harm".*?<\/div>/.dotMatchesNewlines(), with: "")
        let sections = ["verdict", "cohorts", "forecast", "assumptions", "after-launch"].map { ReportPage(html: text).section($0) }
        var body = ReportPage.text(sections.joined().replacing(/<[^>]+>/, with: " "))
        let iso = body.matches(of: /\d{4}-\d{2}-\d{2}/).count
        let count = body.matches(of: dates).count
        body = body.replacing(dates, with: "DATE")
        let numbers = body.matches(of: /\d[\d,.\u{202F}]*\d|\d/).map { String($0.0).trimmingCharacters(in: CharacterSet(charactersIn: ".,")) }
        return (numbers, count, iso)
    }

    @Test(arguments: [("de-DE", ".", ","), ("fr-FR", "\u{202F}", ",")])
    func everyFigureFollowsTheLocale(_ locale: String, _ grouping: String, _ decimal: String) throws {
        let arguments = [
            "report", Self.flagship, "--batch", "\(Self.flagship)/customers.csv", "--actuals", "\(Self.flagship)/sales-2011-11-to-2012-02.txt",
            "--draws", "200", "--output", "-",
        ]
        let english = Run(arguments: arguments + ["--locale", "en-US"])
        let local = Run(arguments: arguments + ["--locale", locale])
        #expect(english.status == .success && local.status == .success, "\(local.error)")
        let en = Self.figures(english.output, dates: /\d{2}\/\d{2}\/\d{4}/)
        let here = Self.figures(local.output, dates: locale == "de-DE" ? /\d{2}\.\d{2}\.\d{4}/ : /\d{2}\/\d{2}\/\d{4}/)
        #expect(en.dates > 0 && en.dates == here.dates, "dates: \(en.dates) and \(here.dates)")
        #expect(en.iso == 0 && here.iso == 0, "an ISO date on the page")
        #expect(en.numbers.count == here.numbers.count, "\(en.numbers.count) figures in en-US, \(here.numbers.count) in \(locale)")
        for (english, written) in zip(en.numbers, here.numbers) {
            let expected = english.replacingOccurrences(of: ",", with: "G").replacingOccurrences(of: ".", with: decimal)
                .replacingOccurrences(of: "G", with: grouping)
            #expect(written == expected, "\(english) in en-US is \(written) in \(locale), not \(expected)")
        }
        // A percentage as the locale writes it.
        #expect(local.output.contains(locale == "de-DE" ? "\u{00A0}%" : "\u{202F}%"))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    // MARK: After launch

    @Test func aSwitchInThePastIsReportedAsLaunched() throws {
        let after = Run("report", Self.flagship, "--draws", "100", "--now", "2012-06-01T00:00:00Z", "--output", "-")
        let before = Run("report", Self.flagship, "--draws", "100", "--now", "2011-10-01T00:00:00Z", "--output", "-")
        #expect(after.status == .success && before.status == .success, "\(after.error)\(before.error)")
        let launched = ReportPage.text(after.output)
        #expect(launched.contains("Tilt to Live HD: free since 11/01/2011"))
        #expect(launched.contains("The forecast since the switch"))
        #expect(launched.contains("Free since 11/01/2011: the forecast made from the plan says"))
        #expect(!launched.contains("should it go free?"))
        #expect(!launched.contains("Not launched yet"))
        let planned = ReportPage.text(before.output)
        #expect(planned.contains("Tilt to Live HD: should it go free?"))
        #expect(planned.contains("The switch is planned for 11/01/2011, not yet confirmed as live."))
    }

    // MARK: Small ones

    @Test func noAbsolutePathAndNoFoldersMade() throws {
        let scratch = try Scratch()
        let plan = repositoryRoot.appendingPathComponent("\(Self.flagship)/migration.json").path
        let list = repositoryRoot.appendingPathComponent("\(Self.flagship)/customers.csv").path
        let run = Run("report", plan, "--batch", list, "--draws", "100", "--output", "-")
        #expect(run.status == .success)
        #expect(!run.output.contains(repositoryRoot.path), "an absolute path in the page")
        #expect(run.output.contains("From the plan <bdi>migration.json</bdi>"))
        let missing = scratch.url.appendingPathComponent("no/such/folder/report.html").path
        let refused = Run("report", Self.flagship, "--draws", "100", "-o", missing)
        #expect(refused.status == .cannotCreate, "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("no").path))
        // The rules' reasons and switches are separated, and no caption repeats its section's heading.
        #expect(run.output.contains("the release dates; free from 2.0 (30)"))
        let headings = run.output.matches(of: /<h2 id="[a-z-]+-title">(.*?)<\/h2>/)
        #expect(headings.count > 3, "the page's sections are found")
        for heading in headings {
            #expect(!run.output.contains("<caption>\(heading.1)</caption>"), "\(heading.1)")
        }
    }
}
