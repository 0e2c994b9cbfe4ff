import Foundation
import MigrateCLI
import MigrateReport
import MigrateTestSupport
import Testing

/// `migrate report`: its figures are the ones `simulate`, `explain --batch` and `simulate --actuals` print for
/// the same inputs, plan text is escaped, and the same inputs give the same bytes.
@Suite struct ReportCommandTests {
    static let flagship = "Examples/tilt-to-live-hd"
    static let sales = "Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt"

    /// The page for `arguments` on standard output.
    static func report(_ arguments: String...) throws -> String {
        let run = Run(arguments: ["report"] + arguments + ["--output", "-"])
        #expect(run.status == .success, "\(run.error)")
        return run.output
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    @Test(arguments: Examples.names)
    func monthlyFiguresAndVerdictEqualSimulate(_ example: String) throws {
        let plan = "Examples/\(example)"
        let simulate = Run("simulate", plan, "--scenario", "plan", "--draws", "500", "--seed", "7")
        let html = try Self.report(plan, "--draws", "500", "--seed", "7")
        // A plan simulate refuses gets a page that says why, in simulate's words.
        #expect(simulate.status == (Examples.withoutForecast.contains(example) ? .dataError : .success), "\(example): \(simulate.error)")
        if Examples.withoutForecast.contains(example) {
            let reason = try #require(simulate.error.firstMatch(of: /error: [^\s:]+: (.*)\n/)?.1, "\(example)")
            #expect(html.contains(Self.escaped("No forecast yet: \(reason).")), "\(example)")
            return
        }
        // Every row of simulate's what-if table is in the report's two tables, figure for figure: the middle values in the
        // first, the simulated futures in the second (with staying paid's median, which the chart draws, beside them).
        let page = ReportPage(html: html)
        let middle = Dictionary(page.rows(in: "forecast", caption: "Proceeds by month").map { ($0[0], $0) }, uniquingKeysWith: { a, _ in a })
        let simulated = Dictionary(
            page.rows(in: "forecast", caption: "Cumulative proceeds over").map { ($0[0], $0) }, uniquingKeysWith: { a, _ in a })
        var rows = 0
        for line in simulate.output.split(separator: "\n") {
            let cells = line.split(separator: " ").map(String.init)
            guard cells.count >= 5, Int(cells[0]) != nil, cells.dropFirst().allSatisfy({ $0.first?.isNumber == true || $0.first == "−" }) else {
                continue
            }
            let money = cells.dropFirst().map(ReportPage.money)
            #expect(middle[cells[0]].map { Array($0.dropFirst()) } == Array(money.prefix(4)), "\(example): month \(cells[0]) differs from simulate's")
            if cells.count == 10 {
                let row = simulated[cells[0]] ?? []
                #expect(row.count == 7 && [row[1], row[3], row[4], row[5], row[6]] == Array(money.suffix(5)), "\(example): month \(cells[0])")
            }
            rows += 1
        }
        #expect(rows > 0, "\(example): no month read from simulate")
        // Every figure the chart's description names is in the tables' last row.
        let description = try #require(html.firstMatch(of: /<desc id="chart-desc">(.*?)<\/desc>/).map { ReportPage.text(String($0.1)) })
        let last = (simulated[String(rows)] ?? middle[String(rows)] ?? [])
        for figure in description.matches(of: /−?¤\d[\d,]*\d/) {
            #expect(last.contains(String(figure.0)), "\(example): the chart says \(figure.0), the table's month \(rows) \(last)")
        }
        #expect(description.contains("in the plan's currency (¤)"), "\(example): the chart's unit")
        // The verdict's share of draws ahead and median difference, as simulate's verdict line prints them, with their unit
        // and the difference's P10–P90.
        let verdict = simulate.output.replacingOccurrences(of: "\n  ", with: " ")
        if let ahead = verdict.firstMatch(of: /ahead of staying paid in (\S+) of/) {
            #expect(html.contains("ends ahead in \(ahead.1) of"), "\(example)")
            #expect(html.contains("P10–P90 of the difference"), "\(example)")
        }
        if let difference = verdict.firstMatch(of: /median difference (\S+?);/) {
            #expect(html.contains("median difference \(ReportPage.money(difference.1))"), "\(example)")
        }
    }

    /// A value the simulation works out (legacyBuyers from the paid downloads, in plans without an install base) is on the
    /// page as `simulate` computed it, with the same source: the page reads it, never works it out again. Quill Writer is
    /// the example without an install base.
    @Test func derivedLegacyBuyersEqualSimulate() throws {
        let example = "quill-writer"
        let plan = "Examples/\(example)"
        let simulate = Run("simulate", plan, "--format", "json", "--draws", "200", "--seed", "7")
        #expect(simulate.status == .success, "\(simulate.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(simulate.output.utf8)) as? [String: Any])
        let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
        let assumptions = try #require(scenario["assumptions"] as? [[String: String]])
        let legacy = try #require(assumptions.first { $0["name"] == "legacyBuyers" })
        let source = try #require(legacy["source"])
        #expect(source.hasPrefix("derived: paidDownloadsPerMonth × "), "\(example): \(source)")
        let page = ReportPage(html: try Self.report(plan, "--draws", "200", "--seed", "7"))
        let row = try #require(page.rows(in: "assumptions", caption: "The assumptions").first { $0.first == "legacyBuyers" })
        #expect(row[1].hasPrefix("derived, ") && row[1].hasSuffix(" at the middle values"), "\(row[1])")
        #expect(row[1].filter(\.isNumber) == legacy["value"], "\(example): \(row[1]) against \(legacy["value"] ?? "")")
        #expect(row[2] == source)
    }

    @Test func cohortCountsEqualExplainBatch() throws {
        let list = "\(Self.flagship)/customers.csv"
        let explain = Run("explain", Self.flagship, "--batch", list)
        let html = try Self.report(Self.flagship, "--batch", list, "--draws", "200")
        var checked = 0
        for match in explain.error.matches(of: /legacy: (\S+) \(.*?\)\s+(\d[\d,]*)\s/) {
            let row = html.components(separatedBy: "<tr>").first { $0.contains("(tier <bdi>\(match.1)</bdi>)") } ?? ""
            #expect(
                row.contains("<td class=\"num\" data-label=\"people in the list\">\(match.2)</td>"),
                "tier \(match.1): \(match.2) customers in explain --batch")
            checked += 1
        }
        #expect(checked > 0, "no tier read from explain --batch: \(explain.error)")
        if let decided = explain.error.firstMatch(of: /: (\d[\d,]*) decided/) {
            #expect(html.contains("(\(decided.1) decided,"))
        }
    }

    @Test func actualsEqualSimulateActuals() throws {
        let simulate = Run("simulate", Self.flagship, "--actuals", Self.sales, "--draws", "500", "--format", "json")
        #expect(simulate.status == .success, "\(simulate.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(simulate.output.utf8)) as? [String: Any])
        let html = try Self.report(Self.flagship, "--actuals", Self.sales, "--draws", "500")
        // simulate's words, amounts marked with the page's sign for the plan's currency.
        let page = html.replacingOccurrences(of: "¤", with: "")
        let headline = try #require(json["headline"] as? String)
        #expect(page.contains(Self.escaped(headline)))
        let before = try #require((json["verdict"] as? [String: Any])?["text"] as? String)
        #expect(page.contains(Self.escaped(before)))
        if let after = (json["verdictWithRefit"] as? [String: Any])?["text"] as? String {
            #expect(page.contains(Self.escaped(after)))
        }
        #expect(html.contains("Bottom line:"))
    }

    @Test func planTextIsEscaped() throws {
        let scratch = try Scratch()
        let original = try String(contentsOf: repositoryRoot.appendingPathComponent("\(Self.flagship)/migration.json"), encoding: .utf8)
        let hostile = #"<script>alert(\"x\")</script> & 'Turret'"#
        let plan = original.replacingOccurrences(of: #""name": "Viva la Turret""#, with: #""name": "\#(hostile)""#)
            .replacingOccurrences(of: #""name": "Tilt to Live HD""#, with: #""name": "Tilt <b>HD</b> & \"Co\"""#)
        #expect(plan != original)
        try scratch.write("migration.json", plan)
        let run = Run("report", scratch.url.path, "--draws", "100", "--output", "-")
        #expect(run.status == .success, "\(run.error)")
        #expect(!run.output.contains("<script"))
        #expect(!run.output.contains("<b>HD"))
        #expect(run.output.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Turret&#39;"))
        #expect(run.output.contains("Tilt &lt;b&gt;HD&lt;/b&gt; &amp; &quot;Co&quot;"))
    }

    @Test(arguments: Examples.names)
    func selfContainedAndDeterministic(_ example: String) throws {
        let first = try Self.report("Examples/\(example)", "--draws", "200")
        let second = try Self.report("Examples/\(example)", "--draws", "200")
        #expect(first == second)
        for fetched in ["<script", "src=", "href=\"http", "url(", "@import"] {
            #expect(!first.contains(fetched), "\(example): \(fetched)")
        }
        for id in HTMLReport.sectionIDs {
            #expect(first.contains("<section id=\"\(id)\""), "\(example): section \(id)")
        }
    }

    @Test func skippedRowsAreListedCountedAndExit65() throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", "customerID,originalAppVersion,originalPurchaseDate\na,20,2011-01-02T00:00:00Z\nb,21\n")
        let page = scratch.url.appendingPathComponent("report.html").path
        let run = Run("report", Self.flagship, "--batch", list.path, "--draws", "100", "--output", page)
        #expect(run.status == .dataError)
        #expect(run.output.contains("\(list.path): 1 decided, 1 skipped."), "\(run.output)")
        #expect(run.error.contains("line 3: skipped:"), "\(run.error)")
        #expect(run.error.contains("not counted in the report"))
        #expect(scratch.read("report.html")?.contains("(1 decided, 1 skipped)") == true)
    }

    @Test func writesTheFileAndRefusesWhatItCannotUse() throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("report.html").path
        let run = Run("report", Self.flagship, "--draws", "100", "--output", path)
        #expect(run.status == .success)
        #expect(run.output.contains("Wrote \(path)"))
        #expect(scratch.read("report.html")?.hasPrefix("<!DOCTYPE html>") == true)
        #expect(Run("report", Self.flagship).status == .usage)
        #expect(Run("report", Self.flagship, "--rate", "EUR=1.1", "--output", "-").status == .usage)
        #expect(Run("report", Self.flagship, "--batch", "no-such.csv", "--output", "-").status == .noInput)
        #expect(Run("report", Self.flagship, "--scenario", "nope", "--output", "-").status == .usage)
        let list = "\(Self.flagship)/customers.csv"
        let over = Run("report", Self.flagship, "--batch", list, "--output", list)
        #expect(over.status == .usage)
        #expect(over.error.contains("--output \(list) names a file this run reads (--batch \(list)); write to another file."))
    }
}
