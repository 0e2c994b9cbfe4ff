import Foundation
import MigrateCLI
import MigratePlan
import MigrateSimulation
import MigrateSupport
import MigrateTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("migrate simulate", .timeLimit(.minutes(20)))
struct SimulateCommandTests {
    static let flagship = "Examples/tilt-to-live-hd/migration.json"

    @Test("The cohort preview shows seed 000's states: demo users see the bundle, old buyers the new mode alone, new full-version owners nothing")
    func seed000Preview() throws {
        let run = Run("simulate", Self.flagship, "--draws", "0", "--scenario", "plan", "--format", "json")
        #expect(run.status == .success, "\(run.error)")
        let report = try JSONParser.parse(run.output)
        let cohorts = try #require(report["scenarios"]?.arrayValue?.first?["cohorts"]?.arrayValue)
        func offers(cohort: String, owns: [String]) -> [String]? {
            cohorts.first { $0["cohort"]?.stringValue == cohort && $0["owns"]?.arrayValue?.compactMap(\.stringValue) == owns }?["offers"]?.arrayValue?
                .compactMap { $0["product"]?.stringValue }
        }
        #expect(offers(cohort: "new free users", owns: []) == ["com.example.tilttolivehd.fullturret"])
        #expect(offers(cohort: "tier 'paid-1.0'", owns: []) == ["com.example.tilttolivehd.turret"])
        #expect(offers(cohort: "new free users", owns: ["com.example.tilttolivehd.fullturret"]) == [])
        #expect(offers(cohort: "new free users", owns: ["com.example.tilttolivehd.full"]) == ["com.example.tilttolivehd.turret"])
        let legacy = try #require(cohorts.first { $0["cohort"]?.stringValue == "tier 'paid-1.0'" })
        #expect(legacy["size"]?.value == .number("13200.00"), "the install base's paid downloads")
        #expect(legacy["withheld"]?.arrayValue?.compactMap(\.stringValue) == ["com.example.tilttolivehd.fullturret"])
    }

    @Test("Text output: the preview first, then the what-if, scenarios, sensitivity and assumptions; no colour off a terminal")
    func textLayout() {
        let run = Run("simulate", Self.flagship, "--draws", "2000")
        #expect(run.status == .success)
        let sections = [
            "Verdict: Tilt to Live HD", "No single assumption within its plausible range changes the answer",
            "Season: none known, so the switch in November 2011", "Cohort preview: Tilt to Live HD", "What-if revenue:",
            "Scenarios compared after 24 months", "Sensitivity:", "Assumptions:",
        ]
        let positions = sections.compactMap { run.output.range(of: $0)?.lowerBound }
        #expect(positions.count == sections.count)
        #expect(positions == positions.sorted())
        #expect(run.output.contains("offers: Full Version + Viva la Turret 2.99"))
        #expect(run.output.contains("bundle-4.99"))
        #expect(run.output.contains("Monte Carlo: 2,000 draws, seed 1"))
        #expect(!run.output.contains("\u{1B}["))
        #expect(run.error.isEmpty, "no progress line off a terminal")
        let coloured = Run("simulate", Self.flagship, "--draws", "0", terminal: true)
        #expect(coloured.output.contains("\u{1B}[1m"))
    }

    @Test("The same seed gives byte-identical output, whatever the thread count; another seed differs")
    func determinism() {
        let first = Run("simulate", Self.flagship, "--draws", "5000", "--seed", "7", "--format", "json", "--threads", "1")
        let second = Run("simulate", Self.flagship, "--draws", "5000", "--seed", "7", "--format", "json", "--threads", "2")
        let other = Run("simulate", Self.flagship, "--draws", "5000", "--seed", "8", "--format", "json")
        #expect(first.status == .success)
        #expect(first.output == second.output)
        #expect(first.output != other.output)
    }

    @Test("CSV has one row per scenario and month; Markdown has tables", arguments: ["csv", "markdown"])
    func formats(format: String) {
        let run = Run("simulate", Self.flagship, "--draws", "1000", "--format", format)
        #expect(run.status == .success)
        if format == "csv" {
            let lines = run.output.split(separator: "\n")
            #expect(lines.first?.hasPrefix("scenario,month,stay_paid,freemium") == true)
            #expect(lines.count == 1 + 3 * 24)
            #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 11 })
        } else {
            #expect(run.output.contains("| cohort | platform | owns |"))
            #expect(run.output.contains("## Scenarios compared"))
        }
    }

    @Test("A sweep prints the best settings and the grid, best first")
    func sweep() {
        let run = Run(
            "simulate", Self.flagship, "--draws", "0", "--scenario", "plan", "--sweep", "price.com.example.tilttolivehd.fullturret=0.99:9.99:1",
            "--sweep", "conversion=0.01:0.05:0.02")
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("Sweep over price.com.example.tilttolivehd.fullturret × conversion (30 settings"))
        // Conversion responds to price against the paid app's 2.99, so the best price is inside the range, not its top.
        #expect(run.output.contains("Best: price.com.example.tilttolivehd.fullturret = 8.99, conversion = 0.05"))
    }

    @Test(
        "Malformed sweeps and unknown scenarios are usage errors with a suggestion",
        arguments: [
            (["--sweep", "conversoin=0.01:0.05:0.01"], "Did you mean 'conversion'?"),
            (["--sweep", "conversion=0.01-0.05"], "is not LOW:HIGH:STEP"),
            (["--sweep", "conversion"], "expected NAME=LOW:HIGH:STEP"),
            (["--sweep", "conversion=0.01:0.05:0"], "the step must be above zero"),
            (["--sweep", "conversion=0.5:1.5:0.5"], "must be from 0 to 1"),
            (["--sweep", "price.com.example.tilttolivehd.turet=1:2:1"], "Did you mean 'price.com.example.tilttolivehd.turret'?"),
            (["--scenario", "bundle-4.9"], "unknown scenario 'bundle-4.9' Did you mean 'bundle-4.99'?"),
            (["--seed", "-1"], "'--seed <n>'"),
        ])
    func usageErrors(options: [String], message: String) {
        let run = Run(arguments: ["simulate", Self.flagship, "--draws", "0"] + options)
        #expect(run.status == .usage)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test("A plan without paid downloads or an install base says where to add them (exit 65)")
    func missingPaidDownloads() throws {
        let scratch = try Scratch()
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/server-pal/migration.json"), encoding: .utf8)
        try scratch.write("plan.json", text)
        let run = Run("simulate", "plan.json", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("simulation.assumptions.paidDownloadsPerMonth"))
        #expect(run.error.contains("Error: plan.json: cannot simulate"))
    }

    @Test("Bad assumptions stop the command with every path (exit 65)")
    func badAssumptions() throws {
        let scratch = try Scratch()
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.flagship), encoding: .utf8)
            .replacingOccurrences(of: #""conversion": { "distribution": "uniform", "low": 0.01, "high": 0.05 }"#, with: #""conversion": 2"#)
            .replacingOccurrences(of: #""legacyUpgradeRate": {"#, with: #""legacyUpgradeRat": {"#)
        try scratch.write("plan.json", text)
        let run = Run("simulate", "plan.json", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("simulation.assumptions.conversion: 'conversion' is a probability and must be from 0 to 1, found 2"))
        #expect(run.error.contains("Did you mean 'legacyUpgradeRate'?"))
    }

    @Test("--chart writes a well-formed SVG with axes, ticks, a band and a line per scenario")
    func chart() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("out"), withIntermediateDirectories: false)
        let run = Run("simulate", Self.flagship, "--draws", "1000", "--chart", scratch.url.appendingPathComponent("out/chart.svg").path)
        #expect(run.status == .success, "\(run.error)")
        let svg = try String(contentsOf: scratch.url.appendingPathComponent("out/chart.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "the SVG is well-formed XML")
        func count(_ needle: String) -> Int { svg.components(separatedBy: needle).count - 1 }
        #expect(count("<polygon class=\"band freemium\"") == 2 * 3, "a P10–P90 band per scenario in each panel")
        #expect(count("<polyline") == 2 * 3 + 2, "a median line per scenario per panel, and staying paid in each")
        #expect(count("<polygon class=\"band paid\"") == 2, "staying paid's P10–P90 band in each panel")
        #expect(count("month after the switch") == 2)
        #expect(svg.contains(">proceeds per month</text>") && svg.contains(">cumulative proceeds</text>"))
        #expect(svg.contains(">23</text>"), "month ticks")
        #expect(svg.contains("no break-even within 24 months"))
        #expect(!svg.contains("NaN") && !svg.contains("inf"))
    }

    /// Characters, not bytes: the output uses −, ≥ and curly quotes.
    static func widest(_ text: String) -> Int { text.split(separator: "\n").map(\.count).max() ?? 0 }

    @Test(
        "Text fits 80 columns off a terminal, but for a table whose names are wider (the manual shows 85)",
        arguments: [
            (["--draws", "0"], 80), (["--draws", "1000"], 85),
            (["--draws", "0", "--scenario", "plan", "--sweep", "price.com.example.tilttolivehd.fullturret=0.99:9.99:1"], 85),
        ])
    func width(options: [String], columns: Int) {
        let run = Run(arguments: ["simulate", Self.flagship] + options)
        #expect(run.status == .success, "\(run.error)")
        #expect(Self.widest(run.output) <= columns, "\(run.output.split(separator: "\n").filter { $0.count > columns })")
        #expect(run.output.contains("why: Paid buyers of 1.0–1.2"), "the reason column wraps instead of running on")
    }

    @Test("The verdict comes first, with what would have to be true; JSON has it under new keys and keeps the old ones")
    func verdict() throws {
        let text = Run("simulate", Self.flagship, "--draws", "2000")
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Verdict: Tilt to Live HD, the plan as written")
        #expect(lines.count > 1 && lines[1].hasPrefix("  After 24 months freemium is ahead of staying paid in "))
        #expect(flat(text.output).contains("That share is under these assumptions, not a calibrated chance: held against"))
        // Far behind: no single assumption within its plausible range changes it, and the output says so.
        #expect(
            flat(text.output).contains(
                "No single assumption within its plausible range changes the answer at the median: not conversion, paidTrendPerMonth or lastingMultiple"
            ))
        #expect(!text.output.contains("No uncertainty is modelled"))
        let json = try JSONParser.parse(Run("simulate", Self.flagship, "--draws", "2000", "--format", "json").output)
        let scenario = try #require(json["scenarios"]?.arrayValue?.first)
        for key in [
            "id", "name", "commission", "referencePrice", "notes", "cohorts", "assumptions", "months", "breakEvenMonth", "monteCarlo", "sensitivity",
            "verdict",
        ] {
            #expect(scenario[key] != nil, "\(key)")
        }
        let verdict = try #require(scenario["verdict"])
        #expect(verdict["comparable"]?.value == .bool(true))
        #expect(verdict["uncertaintyModelled"]?.value == .bool(true))
        #expect(verdict["probabilityFreemiumAhead"] != nil && verdict["medianDifference"] != nil)
        #expect(verdict["whatWouldHaveToBeTrue"]?.arrayValue?.isEmpty == true)
        #expect(verdict["searched"]?.arrayValue?.first?.stringValue == "conversion")
        #expect(verdict["calibration"]?["figures"]?.value == .number(String(Calibration.published.figures)))
        // Close to even, the levers are in words with the plan key beside them.
        let close = Run("simulate", "Examples/seven-minute-workout", "--scenario", "plan")
        #expect(
            flat(close.output).contains(
                "freemium breaks even at the median if 2.4% of new free users buy or more (conversion ≥ 2.4%; now 0.5% to 8.2%)"))
        let closeJSON = try JSONParser.parse(Run("simulate", "Examples/seven-minute-workout", "--scenario", "plan", "--format", "json").output)
        let thresholds = try #require(closeJSON["scenarios"]?.arrayValue?.first?["verdict"]?["whatWouldHaveToBeTrue"]?.arrayValue)
        #expect(thresholds.count == 3)
        #expect(
            thresholds.contains {
                $0["assumption"]?.stringValue == "conversion" && $0["direction"]?.stringValue == "atLeast" && $0["aheadNow"]?.value == .bool(false)
            })
        #expect(scenario["monteCarlo"]?["probabilityFreemiumWins"] != nil && scenario["monteCarlo"]?["probabilityTie"] != nil)
    }

    static let pointAssumptions = """
        "assumptions": { "paidDownloadsPerMonth": 1700, "launchMultiple": 30, "burstHalfLifeMonths": 1, "lastingMultiple": 10, "conversion": 0.02,
          "legacyUpgradeRate": 0.05, "monthlyChurn": 0.1, "refundRate": 0.03, "paidTrendPerMonth": 0, "priceElasticity": 1, "taxInPrice": 0.08 },
        """

    @Test("Every assumption a point: the output says no uncertainty is modelled; no paid downloads: cannot compare, not a win")
    func pointsAndTies() throws {
        let scratch = try Scratch()
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.flagship), encoding: .utf8)
        let start = try #require(text.range(of: "\"assumptions\": {"))
        let end = try #require(text.range(of: "\"scenarios\"", range: start.upperBound..<text.endIndex))
        try scratch.write("points.json", text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: Self.pointAssumptions))
        let run = Run("simulate", "points.json", "--draws", "500", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("No uncertainty is modelled: every assumption is a single value"))

        let zero = Self.pointAssumptions.replacingOccurrences(
            of: "\"paidDownloadsPerMonth\": 1700", with: "\"paidDownloadsPerMonth\": 0, \"legacyBuyers\": 0")
        try scratch.write("zero.json", text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: zero))
        let tie = Run("simulate", "zero.json", "--draws", "500", "--format", "json", directory: scratch.url)
        #expect(tie.status == .success, "\(tie.error)")
        let report = try JSONParser.parse(tie.output)
        let scenarios = try #require(report["scenarios"]?.arrayValue)
        for scenario in scenarios {
            #expect(scenario["monteCarlo"]?["probabilityFreemiumWins"]?.value == .number("0.0000"), "0 against 0 is never a win")
            #expect(scenario["monteCarlo"]?["probabilityTie"]?.value == .number("1.0000"))
            #expect(scenario["verdict"]?["comparable"]?.value == .bool(false))
        }
        let plain = Run("simulate", "zero.json", "--draws", "500", directory: scratch.url)
        #expect(plain.output.contains("Cannot compare: paidDownloadsPerMonth is 0"))
    }

    @Test("Chart: bands are outlines (nothing filled over another), staying paid has its own, and the legend has every colour drawn")
    func chartLegend() throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("chart.svg").path
        let run = Run("simulate", Self.flagship, "--draws", "1000", "--chart", path)
        #expect(run.status == .success, "\(run.error)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        let legendStart = try #require(svg.range(of: "<g class=\"legend\">"))
        let legendEnd = try #require(svg.range(of: "</g>", range: legendStart.upperBound..<svg.endIndex))
        let legend = String(svg[legendStart.lowerBound..<legendEnd.upperBound])
        let plot = String(svg[..<legendStart.lowerBound])
        func colours(_ text: String) -> Set<String> {
            var found: Set<String> = []
            for attribute in ["stroke=\"", "fill=\""] {
                var rest = Substring(text)
                while let range = rest.range(of: attribute) {
                    let value = rest[range.upperBound...].prefix { $0 != "\"" }
                    if value.hasPrefix("#") { found.insert(String(value)) }
                    rest = rest[range.upperBound...]
                }
            }
            return found
        }
        // Grid, axes, text and the background are not data.
        let structural: Set<String> = ["#ffffff", "#dddddd", "#333333", "#444444"]
        let drawn = colours(plot).subtracting(structural)
        #expect(drawn.count == 4, "three scenarios and staying paid: \(drawn)")
        #expect(drawn.isSubset(of: colours(legend)), "missing from the legend: \(drawn.subtracting(colours(legend)))")
        #expect(!svg.contains("fill-opacity"), "no translucent fills to blend into colours the legend doesn't show")
        #expect(svg.components(separatedBy: "<polygon class=\"band paid\"").count - 1 == 2, "staying paid's band in each panel")
        #expect(svg.contains(">staying paid</text>"))
    }

    @Test("A chart that cannot be written exits 73")
    func chartCannotBeWritten() throws {
        let scratch = try Scratch()
        try scratch.write("file", "not a folder")
        let run = Run("simulate", Self.flagship, "--draws", "0", "--chart", scratch.url.appendingPathComponent("file/chart.svg").path)
        #expect(run.status == .cannotCreate)
        #expect(run.error.contains("file is a file, not a folder"), "\(run.error)")
        // A folder that doesn't exist is refused too, before anything is simulated: no folder is created by a typo.
        let missing = Run("simulate", Self.flagship, "--draws", "0", "--chart", scratch.url.appendingPathComponent("nowhere/chart.svg").path)
        #expect(missing.status == .cannotCreate)
        #expect(missing.error.contains("nowhere does not exist; create it first"))
    }
}

/// The published case's README quotes `migrate simulate`'s own figures: a change to the model that moves them
/// must update the comparison with what happened.
@Suite("the 7 Minute Workout example", .timeLimit(.minutes(20)))
struct PublishedCaseTests {
    @Test("The README's scenario table and month figures are what simulate prints")
    func readmeFigures() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/seven-minute-workout/README.md"), encoding: .utf8)
        let run = Run("simulate", "Examples/seven-minute-workout")
        #expect(run.status == .success)
        for line in [
            "  plan         3,056     457   3,343  23,735   52.8%   0.0%  month 3",
            "  as-reported  3,056  11,032  13,731  16,922  100.0%   0.0%  month 1",
        ] {
            #expect(run.output.contains(line), "simulate no longer prints: \(line)")
            #expect(readme.contains(line), "the README no longer quotes: \(line)")
        }
        let plan = Run("simulate", "Examples/seven-minute-workout", "--scenario", "plan").output
        let reported = Run("simulate", "Examples/seven-minute-workout", "--scenario", "as-reported").output
        // month, staying paid, freemium (plan), freemium (as reported): the README's month-by-month table.
        for (month, paid, free, asReported) in [(1, "527", "859", "8,708"), (2, "519", "397", "1,410"), (6, "489", "331", "927")] {
            let prefix = String(repeating: " ", count: 7 - String(month).count) + "\(month) "
            #expect(plan.split(separator: "\n").contains { $0.hasPrefix(prefix) && $0.contains(" \(paid) ") && $0.contains(" \(free) ") })
            #expect(reported.split(separator: "\n").contains { $0.hasPrefix(prefix) && $0.contains(" \(asReported) ") })
            #expect(readme.contains("| month \(month) | \(paid)"), "README month \(month)")
            #expect(readme.contains(" \(free)") && readme.contains(" \(asReported)"))
        }
    }
}
