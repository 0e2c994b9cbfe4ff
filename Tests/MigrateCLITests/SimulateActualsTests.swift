import Foundation
import MigrateCLI
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("migrate simulate --actuals", .timeLimit(.minutes(20)))
struct SimulateActualsTests {
    static let plan = "Examples/tilt-to-live-hd"
    static let report = "Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt"

    @Test("The example's report: each month beside the band, months outside it flagged, the lasting multiple contradicted")
    func example() throws {
        let run = Run("simulate", Self.plan, "--actuals", Self.report)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("Forecast against the actuals: Tilt to Live HD, the plan as written"))
        #expect(run.output.contains("2011-11     49,870"))
        #expect(run.output.contains("15,420 ↓"), "January is below the band")
        #expect(
            flat(run.output).contains(
                "lastingMultiple is contradicted: the actuals imply 3, below its range 5–20, and the refit's band 2.21–3.78 does not overlap it"))
        #expect(run.output.contains("conversion is consistent: the actuals imply 0.026"))
        #expect(run.output.contains("triangular 0.0208–0.026–0.0312"))
        // Standard error holds only the report's lines, accounted for.
        #expect(run.error == "\(Self.report):\n  30 lines: 1 header, 29 rows counted.\n")
        let json = try JSONParser.parse(Run("simulate", Self.plan, "--actuals", Self.report, "--format", "json").output)
        let contradicted = json["assumptions"]?.arrayValue?.filter { $0["contradicted"]?.value == .bool(true) }.compactMap {
            $0["assumption"]?.stringValue
        }
        #expect(contradicted == ["lastingMultiple"])
        #expect(json["months"]?.arrayValue?.count == 4)
        #expect(Run("simulate", Self.plan, "--actuals", Self.report).output == run.output, "the same output on every run")
    }

    /// The example's November download row split into 30 daily rows (49,870 in all).
    static func dailyNovember() throws -> String {
        let lines = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.report), encoding: .utf8).split(separator: "\n")
        var fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var rows = [String(lines[0])]
        for day in 1...30 {
            fields[7] = String(49_870 / 30 + (day == 1 ? 49_870 % 30 : 0))
            fields[9] = String(format: "11/%02d/2011", day)
            fields[10] = fields[9]
            rows.append(fields.joined(separator: "\t"))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    @Test(
        "A copy of the report, or a daily report inside its monthly one: every figure as with the report alone, and a warning naming the files",
        arguments: [
            (
                ["tilt/sales-2011-11-to-2012-02.txt", "copy.txt"],
                "warning: copy.txt counts sales that tilt/sales-2011-11-to-2012-02.txt already counts"
            ),
            (
                ["copy.txt", "tilt/sales-2011-11-to-2012-02.txt"],
                "warning: tilt/sales-2011-11-to-2012-02.txt counts sales that copy.txt already counts"
            ),
            (
                ["daily.txt", "tilt/sales-2011-11-to-2012-02.txt"],
                "warning: daily.txt counts sales that tilt/sales-2011-11-to-2012-02.txt already counts: 30 groups of rows"
            ),
        ])
    func countedOnce(reports: [String], warning: String) throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.report), to: scratch.url.appendingPathComponent("copy.txt"))
        try scratch.write("daily.txt", Self.dailyNovember())
        let alone = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--format", "json", directory: scratch.url)
        let run = Run(arguments: ["simulate", "tilt", "--format", "json"] + reports.flatMap { ["--actuals", $0] }, directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.error.contains(warning), "\(run.error)")
        let once = try JSONParser.parse(alone.output)
        let combined = try JSONParser.parse(run.output)
        for key in ["headline", "months", "assumptions", "refit", "verdictWithRefit"] {
            #expect(combined[key]?.value == once[key]?.value, "\(key) as with the report alone")
        }
        let launch = combined["refit"]?.arrayValue?.first { $0["assumption"]?.stringValue == "launchMultiple" }
        #expect(launch?["after"]?["mode"]?.value == .number("29.3"), "not 58.6: the downloads are not doubled")
        if reports[0] != reports[1] {
            #expect(combined["overlaps"]?.arrayValue?.count == 1)
            #expect(
                flat(Run(arguments: ["simulate", "tilt"] + reports.flatMap { ["--actuals", $0] }, directory: scratch.url).output).contains(warning))
        }
    }

    @Test("Reports whose periods share days without one holding the other are refused, naming both files and the fix")
    func partialOverlap() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        let daily = try Self.dailyNovember().split(separator: "\n")
        let week = daily[1].replacingOccurrences(of: "11/01/2011\t11/01/2011", with: "11/28/2011\t12/04/2011")
        try scratch.write("week.txt", "\(daily[0])\n\(week)\n")
        let run = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--actuals", "week.txt", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("tilt/sales-2011-11-to-2012-02.txt and week.txt overlap in part: SKU 'tilttolivehd' (US, type 1, provider APPLE)"))
        #expect(run.error.contains("share 3 days"))
        #expect(run.error.contains("fix: Pass reports whose periods don't overlap"))
        #expect(run.output.isEmpty)
    }

    @Test(
        "Proceeds in two currencies: compared only with a rate, and the output says which were compared; every --rate is used or refused",
        arguments: [
            ([], ExitCode.success, "Proceeds not compared (980 EUR, 6,828 USD): proceeds are in EUR, USD without a rate between them"),
            (["--rate", "EUR=1.1"], .success, "Proceeds compared in USD (980 EUR, 6,828 USD), converted with EUR at 1.1 USD each"),
            (
                ["--rate", "EUR=1.1", "--rate", "USD=1"], .success,
                "Proceeds compared in the plan's currency (980 EUR, 6,828 USD), converted with EUR at 1.1, USD at 1 each."
            ),
            (["--rate", "GBP=1.2"], .usage, "'--rate GBP=…' is not used: no report has proceeds in GBP (they are in EUR, USD)."),
            (["--rate", "EUR=-1"], .usage, "The value 'EUR=-1' is invalid for '--rate': '-1' is not a rate above 0"),
            (["--rate", "EURO"], .usage, "The value 'EURO' is invalid for '--rate'. Expected CUR=rate"),
            (["--rate", "EUR=1.1", "--rate", "EUR=1.2"], .usage, "'--rate EUR' is given twice, as 1.1 and 1.2; give it once."),
        ])
    func currencies(rates: [String], status: ExitCode, message: String) throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        // The turret's rows sold in France, in euros.
        let report = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.report), encoding: .utf8).split(separator: "\n").map { line in
            line.contains("tilttolivehd.turret") ? line.replacingOccurrences(of: "\tUSD\tUS\tUSD\t", with: "\tEUR\tFR\tEUR\t") : String(line)
        }
        try scratch.write("two.txt", report.joined(separator: "\n") + "\n")
        let run = Run(arguments: ["simulate", "tilt", "--actuals", "two.txt"] + rates, directory: scratch.url)
        #expect(run.status == status, "\(run.error)")
        #expect(flat(status == .success ? run.output : run.error).contains(message), "\(run.output)\(run.error)")
        guard status == .success else { return }
        let json = try JSONParser.parse(
            Run(arguments: ["simulate", "tilt", "--actuals", "two.txt", "--format", "json"] + rates, directory: scratch.url).output)
        let months = json["months"]?.arrayValue ?? []
        // The turret's proceeds: (1,010 − 8 + 102 − 2 + 41 − 1 + 25) × 0.84.
        #expect(json["proceeds"]?["byCurrency"]?["EUR"]?.value == .number("980.28"))
        #expect(json["proceeds"]?["compared"]?.value == .bool(!rates.isEmpty))
        #expect(months.first?["proceedsByCurrency"]?["EUR"] != nil)
        if rates.isEmpty {
            #expect(!run.output.contains("proceeds USD"))
            #expect(months.allSatisfy { $0["proceeds"] == nil })
        } else {
            // November: 1,183 × 2.54 USD and 1,002 × 0.84 EUR at 1.1.
            #expect(months.first?["proceeds"]?.value == .number(String(format: "%.2f", 1_183 * 2.54 + 1_002 * 0.84 * 1.1)))
        }
        #expect(Run(arguments: ["simulate", "tilt", "--draws", "10"] + rates, directory: scratch.url).status == (rates.isEmpty ? .success : .usage))
    }

    @Test(
        "The output opens with the sentence that says what happened and what the refit makes of the verdict; the refitted verdict is simulate's on the refitted plan"
    )
    func verdict() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        let run = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--draws", "2000", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let lines = run.output.split(separator: "\n")
        #expect(lines[1].hasPrefix("  Free downloads after the launch settled at 3× the paid rate"))
        #expect(flat(run.output).contains("settled at 3× the paid rate, against the 5–20× the plan assumed;"))
        let json = try JSONParser.parse(
            Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--draws", "2000", "--format", "json", directory: scratch.url)
                .output)
        let headline = try #require(json["headline"]?.stringValue)
        #expect(flat(run.output).contains(headline), "the text and JSON say the same")
        let before = Run("simulate", "tilt", "--draws", "2000", directory: scratch.url).output
        let written = Run(
            "simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--update-plan", "--draws", "2000", directory: scratch.url)
        #expect(written.status == .success)
        let after = Run("simulate", "tilt", "--draws", "2000", directory: scratch.url).output
        func ahead(_ text: String) -> String? {
            flat(text).firstMatch(of: /ahead of staying paid in ([0-9.<>]+%)/).map { String($0.1) }
        }
        let was = try #require(ahead(before))
        let now = try #require(ahead(after))
        #expect(headline.hasSuffix("with the refit, freemium comes out ahead in \(now) of draws (was \(was))."), "\(headline)")
        #expect(json["verdict"]?["probabilityFreemiumAhead"]?.value != json["verdictWithRefit"]?["probabilityFreemiumAhead"]?.value)
        for (key, label) in [("verdict", "as planned: "), ("verdictWithRefit", "with the refit: ")] {
            let line = try #require(json[key]?["text"]?.stringValue)
            #expect(flat(run.output).contains(label + line), "the JSON's \(key) is the text's")
        }
        #expect(flat(run.output).contains("with the refit: freemium ahead of staying paid in \(now) of 2,000 draws"))
    }

    @Test("--update-plan writes the refit, keeps every other hand-written value, passes check, and a second run changes nothing")
    func updatePlan() throws {
        let scratch = try Scratch()
        let folder = scratch.url.appendingPathComponent("tilt")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: folder)
        let before = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        let run = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--update-plan", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(
            flat(run.output).contains(
                "simulation.assumptions.lastingMultiple: triangular 5–10–20 → triangular 2.21–3–3.78"))
        #expect(run.output.contains("Wrote tilt/migration.json."))
        let after = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        let changed = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }.map(\.1)
        #expect(changed.count == 3, "only the three refitted lines: \(changed)")
        #expect(after.contains(#""legacyUpgradeRate": { "distribution": "uniform", "low": 0.02, "high": 0.15 }"#), "hand-written, kept")
        #expect(after.contains(#""id": "bundle-4.99""#))
        let check = Run("check", "tilt", directory: scratch.url)
        #expect(check.status == .success, "\(check.output)\(check.error)")
        let again = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--update-plan", directory: scratch.url)
        #expect(again.status == .success)
        #expect(again.output.contains("tilt/migration.json is unchanged."))
    }

    @Test("--update-plan --dry-run shows the change as a diff and writes nothing")
    func dryRun() throws {
        let scratch = try Scratch()
        let folder = scratch.url.appendingPathComponent("tilt")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: folder)
        let before = try Data(contentsOf: folder.appendingPathComponent("migration.json"))
        let run = Run(
            "simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--update-plan", "--dry-run", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("--dry-run: tilt/migration.json was not written. It would change like this:"))
        #expect(run.output.contains(#"+       "lastingMultiple": { "distribution": "triangular", "low": 2.21, "mode": 3, "high": 3.78 },"#))
        #expect(!run.output.contains("Wrote "))
        #expect(try Data(contentsOf: folder.appendingPathComponent("migration.json")) == before)
    }

    @Test(
        "Bad input: a missing report, one that is not a sales report, another app's, unreadable rows, and misused flags",
        arguments: [
            (["--actuals", "missing.txt"], ExitCode.noInput, "missing.txt: no such file."),
            (["--actuals", "header.txt"], .dataError, "header.txt:1:1: header: missing columns"),
            (["--actuals", "other.txt"], .dataError, "other.txt: this report is for another app: it holds 'Other App' (SKU otherapp)"),
            (["--actuals", "other.txt", "--actuals", "other.txt"], .usage, "--actuals names other.txt twice; give each file once."),
            (["--actuals", "row.txt"], .dataError, "row.txt:3:"),
            (["--update-plan"], .usage, "'--update-plan' writes the refit of '--actuals'"),
            (["--dry-run"], .usage, "'--dry-run' shows what '--update-plan' would write"),
            (["--actuals", "other.txt", "--dry-run"], .usage, "'--dry-run' shows what '--update-plan' would write; add '--update-plan'"),
            (["--actuals", "other.txt", "--sweep", "conversion=0.01:0.02:0.01"], .usage, "'--sweep' does not apply with '--actuals'"),
            (["--actuals", "other.txt", "--format", "csv"], .usage, "'--actuals' prints text or json"),
            (["--actuals", "other.txt", "--offer-states"], .usage, "'--offer-states' shapes the cohort preview, which '--actuals' does not print"),
            (["--rate", "EUR=1.08"], .usage, "'--rate' converts the proceeds of '--actuals'; give the sales reports with '--actuals'."),
        ])
    func badInput(arguments: [String], status: ExitCode, message: String) throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        let good = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.report), encoding: .utf8)
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false)
        try scratch.write("header.txt", "Provider\tSKU\tTitle\nAPPLE\tx\tX\n")
        try scratch.write(
            "other.txt",
            good.replacingOccurrences(of: "com.example.tilttolivehd", with: "com.other.app").replacingOccurrences(
                of: "Tilt to Live HD", with: "Other App"
            )
            .replacingOccurrences(of: "tilttolivehd", with: "otherapp"))
        try scratch.write("row.txt", ([lines[0], lines[1], "APPLE\tUS\tbroken"] + lines[2...]).joined(separator: "\n"))
        let run = Run(arguments: ["simulate", "tilt"] + arguments, directory: scratch.url)
        #expect(run.status == status, "\(run.output)\(run.error)")
        #expect(run.error.contains(message), "\(run.error)")
        #expect(
            try String(contentsOf: scratch.url.appendingPathComponent("tilt/migration.json"), encoding: .utf8)
                == String(contentsOf: repositoryRoot.appendingPathComponent(Self.plan + "/migration.json"), encoding: .utf8), "the plan is untouched")
    }
}
