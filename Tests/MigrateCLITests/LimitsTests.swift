import Foundation
import MigratePlan
import MigrateTestSupport
import Testing

@testable import MigrateCLI

/// No input crashes migrate: every input past a limit is refused with the limit in the message; nothing traps.
@Suite("Limits: no trap on huge numbers, dates, nesting or row counts", .timeLimit(.minutes(20)))
struct LimitsTests {
    static let flagship = try! String(contentsOf: repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/migration.json"), encoding: .utf8)

    /// The flagship example with one assumption replaced.
    static func plan(assumption name: String, _ value: String) -> String {
        let marker = "\"assumptions\": {\n"
        let range = flagship.range(of: marker)!
        var text = flagship
        text.replaceSubrange(range, with: marker + "      \"\(name)\": \(value),\n")
        return text
    }

    @Test(
        "check rejects paidPrice 1e16 and 1e308 downloads with the limit; simulate refuses instead of trapping",
        arguments: [
            ("paidPrice", "1e16", "999,999,999,999.9999"),
            ("paidDownloadsPerMonth", "1e308", "1,000,000,000"),
            ("legacyBuyers", "{ \"distribution\": \"uniform\", \"low\": 1, \"high\": 1e308 }", "10,000,000,000"),
        ])
    func hugeAssumptions(name: String, value: String, limit: String) throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", Self.plan(assumption: name, value))
        let check = Run("check", "migration.json", directory: scratch.url)
        #expect(check.status != .success)
        #expect(check.status == .checkFailed)
        #expect(check.output.contains("must be at most \(limit)"), "\(check.output)")
        #expect(check.output.contains("migration.json:5"), "names the file and line")
        let simulate = Run("simulate", "migration.json", "--draws", "50", directory: scratch.url)
        #expect(simulate.status == .dataError, "\(simulate.error)")
    }

    @Test("simulate runs at every limit at once and prints whole amounts past Int64")
    func atTheLimits() throws {
        let scratch = try Scratch()
        var text = Self.plan(assumption: "paidPrice", "999999999999")
        text = text.replacingOccurrences(
            of: "\"assumptions\": {\n", with: "\"assumptions\": {\n      \"paidDownloadsPerMonth\": 1e9,\n      \"legacyBuyers\": 1e10,\n")
        text = text.replacingOccurrences(
            of: "\"launchMultiple\": { \"distribution\": \"logNormal\", \"low\": 15, \"high\": 80 }", with: "\"launchMultiple\": 10000")
        text = text.replacingOccurrences(
            of: "\"lastingMultiple\": { \"distribution\": \"triangular\", \"low\": 5, \"mode\": 10, \"high\": 20 }",
            with: "\"lastingMultiple\": 10000")
        try scratch.write("migration.json", text)
        #expect(Run("check", "migration.json", directory: scratch.url).status == .success)
        for format in ["text", "json", "csv", "markdown"] {
            let run = Run("simulate", "migration.json", "--draws", "200", "--format", format, directory: scratch.url)
            #expect(run.status == .success, "\(format): \(run.error)")
        }
    }

    @Test("The money renderer prints any finite amount and a dash for infinity")
    func money() {
        #expect(SimulationRenderer.money(1e20) == "100,000,000,000,000,000,000")
        #expect(SimulationRenderer.money(-1234.4) == "−1,234")
        #expect(SimulationRenderer.money(.infinity) == "—")
        #expect(SimulationRenderer.money(.nan) == "—")
        #expect(SimulationRenderer.number(.infinity) == "—")
    }

    @Test("--sweep refuses a price past the limit and a step count that overflows")
    func sweeps() {
        let huge = Run("simulate", "Examples/tilt-to-live-hd", "--draws", "0", "--sweep", "price.com.example.tilttolivehd.turret=1:1e16:1e15")
        #expect(huge.status == .usage)
        #expect(huge.error.contains("at most 999,999,999,999.9999"), "\(huge.error)")
        let steps = Run("simulate", "Examples/tilt-to-live-hd", "--draws", "0", "--sweep", "conversion=0:1e308:1e-300")
        #expect(steps.status == .usage)
        #expect(steps.error.contains("too many"), "\(steps.error)")
    }

    @Test(
        "explain --receipt refuses dates outside 1970…9999 with the place",
        arguments: [
            (
                "{ \"receipt\": { \"original_application_version\": \"1.0\", \"original_purchase_date_ms\": \"1e22\" } }",
                "receipt.original_purchase_date_ms"
            ),
            ("{ \"originalApplicationVersion\": \"1.0\", \"receiptType\": \"Production\", \"originalPurchaseDate\": 1e300 }", "originalPurchaseDate"),
            (
                "{ \"receipt\": { \"original_application_version\": \"1.0\", \"in_app\": [{ \"product_id\": \"x\", \"expires_date_ms\": \"-1e300\" }] } }",
                "receipt.in_app[0].expires_date_ms"
            ),
        ])
    func receiptDates(receipt: String, place: String) throws {
        let scratch = try Scratch()
        try scratch.write("receipt.json", receipt)
        let plan = repositoryRoot.appendingPathComponent("Examples/server-pal").path
        let run = Run("explain", plan, "--receipt", "receipt.json", directory: scratch.url)
        #expect(run.status == .dataError, "\(run.output)\(run.error)")
        #expect(run.error.contains("is not a receipt date"), "\(run.error)")
        #expect(run.error.contains("9999-12-31"))
        #expect(run.error.contains("receipt.json:"), "\(run.error)")
        #expect(run.error.contains(place), "\(run.error)")
    }

    @Test("matrix --exhaustive --force on 3^500 rows refuses with the limit instead of allocating")
    func exhaustive() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", (0..<500).map { "F\($0): a, b, c" }.joined(separator: "\n") + "\n")
        let run = Run("matrix", "--model", "model.txt", "--exhaustive", "--force", directory: scratch.url)
        #expect(run.status == .usage, "\(run.error)")
        #expect(run.error.contains("at most 40,000 rows for 500 factors, even with --force"), "\(run.error)")
        // With a constraint the count isn't known up front: enumeration stops at the limit.
        try scratch.write("constrained.txt", (0..<500).map { "F\($0): a, b, c" }.joined(separator: "\n") + "\nIF [F0] = \"a\" THEN [F1] = \"b\";\n")
        let constrained = Run("matrix", "--model", "constrained.txt", "--exhaustive", "--force", directory: scratch.url)
        #expect(constrained.status == .usage, "\(constrained.error)")
        #expect(constrained.error.contains("has more valid rows"), "\(constrained.error)")
    }

    @Test(
        "PICT constraints nested 30,000 deep, 50,000 NOTs or 50,000 ANDs are refused at their line and column",
        arguments: [
            String(repeating: "(", count: 30_000) + "[A] = \"x\"" + String(repeating: ")", count: 30_000) + ";",
            String(repeating: "NOT ", count: 50_000) + "[A] = \"x\";",
            Array(repeating: "[A] = \"x\"", count: 50_000).joined(separator: " AND ") + ";",
        ])
    func pictNesting(constraint: String) throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", "A: x, y\nB: 1, 2\n\n" + constraint + "\n")
        let run = Run("matrix", "--model", "model.txt", directory: scratch.url)
        #expect(run.status == .dataError, "\(run.error.prefix(500))")
        #expect(run.error.contains("model.txt:4:"), "\(run.error.prefix(500))")
        #expect(run.error.contains("migrate's limit"), "\(run.error.prefix(500))")
    }
}
