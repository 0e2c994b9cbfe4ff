import Foundation
import MigrateCLI
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("migrate simulate --actuals")
struct SimulateActualsTests {
    static let plan = "Examples/tilt-to-live-hd"
    static let report = "Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt"

    @Test("The example's report: each month beside the band, months outside it flagged, the lasting multiple contradicted")
    func example() throws {
        let run = Run("simulate", Self.plan, "--actuals", Self.report)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("Forecast against the actuals: Tilt to Live HD, the plan as written"))
        #expect(run.output.contains("2011-11          49,870"))
        #expect(run.output.contains("15,420 ↓"), "January is below the band")
        #expect(run.output.contains("lastingMultiple is contradicted: the actuals imply 3, below its range 5–20"))
        #expect(run.output.contains("conversion is consistent: the actuals imply 0.026"))
        #expect(run.output.contains("triangular 0.0208–0.026–0.0312"))
        #expect(run.error.isEmpty)
        let json = try JSONParser.parse(Run("simulate", Self.plan, "--actuals", Self.report, "--format", "json").output)
        let contradicted = json["assumptions"]?.arrayValue?.filter { $0["contradicted"]?.value == .bool(true) }.compactMap {
            $0["assumption"]?.stringValue
        }
        #expect(contradicted == ["lastingMultiple"])
        #expect(json["months"]?.arrayValue?.count == 4)
        #expect(Run("simulate", Self.plan, "--actuals", Self.report).output == run.output, "the same output on every run")
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
            run.output.contains(
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
            (["--actuals", "other.txt"], .dataError, "other.txt: this report is for another app (titled 'Other App'"),
            (["--actuals", "row.txt"], .dataError, "row.txt:3:"),
            (["--update-plan"], .usage, "'--update-plan' writes the refit of '--actuals'"),
            (["--dry-run"], .usage, "'--dry-run' shows what '--update-plan' would write"),
            (["--actuals", "other.txt", "--dry-run"], .usage, "'--dry-run' shows what '--update-plan' would write; add '--update-plan'"),
            (["--actuals", "other.txt", "--sweep", "conversion=0.01:0.02:0.01"], .usage, "'--sweep' does not apply with '--actuals'"),
            (["--actuals", "other.txt", "--format", "csv"], .usage, "'--actuals' prints text or json"),
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
