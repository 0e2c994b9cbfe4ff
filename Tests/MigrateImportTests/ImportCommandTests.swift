import Foundation
import MigrateCLI
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("migrate import: bad input, new plans, --dry-run", .timeLimit(.minutes(20)))
struct ImportCommandTests {
    static let badInputs: [(arguments: [String], status: Int32, message: String)] = [
        (["storekit", "storekit/truncated.storekit"], 65, "truncated.storekit:"),
        (["asc", "asc/truncated.json"], 65, "truncated.json:"),
        (["sales", "sales/missing-columns.txt"], 65, "missing-columns.txt:1:1: header: missing columns"),
        (["xcode", "xcode/not-a-plist.plist"], 65, "not-a-plist.plist: not a property list"),
        (["storekit", "storekit/absent.storekit"], 66, "storekit/absent.storekit: no such file."),
        (["git", "SCRATCH"], 66, ": not a git repository"),
    ]

    @Test("Bad input: exit 65 or 66, a message naming file and place, and the plan on disk unchanged", arguments: 0..<badInputs.count)
    func badInput(index: Int) throws {
        let (arguments, status, message) = Self.badInputs[index]
        let scratch = try Scratch()
        try scratch.write("migration.json", handWrittenPlan)
        let plan = scratch.url.appendingPathComponent("migration.json").path
        // The fixtures live inside this repository, so a folder that is no repository must be elsewhere.
        let resolved = arguments.map { $0 == "SCRATCH" ? scratch.url.path : $0 }
        let run = Run(arguments: ["import"] + resolved + ["--plan", plan], directory: fixtures)
        #expect(run.status.rawValue == status, "\(run.error)")
        #expect(run.error.contains(message), "\(run.error)")
        #expect(scratch.read("migration.json") == handWrittenPlan)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["migration.json"], "no temporary files left")
    }

    @Test("A new plan takes the app from the source, else asks for every missing flag (exit 64)")
    func newPlan() throws {
        let scratch = try Scratch()
        let storekit = fixtures.appendingPathComponent("storekit/format-1.0-numeric-ids.storekit").path
        let missing = Run("import", "storekit", storekit, "--bundle-id", "com.example.shelf", directory: scratch.url)
        #expect(missing.status == .usage)
        #expect(missing.error.contains("Give '--app-name' and '--platform'."))
        #expect(scratch.read("migration.json") == nil)

        // A plan in a folder that doesn't exist is refused (a typo would create folders); in one that does, created.
        let noFolder = Run("import", "xcode", fixtures.appendingPathComponent("xcode/Shelf").path, "--plan", "new/plan.json", directory: scratch.url)
        #expect(noFolder.status == ExitCode.cannotCreate)
        #expect(noFolder.error.contains("--plan new/plan.json: the folder"))
        #expect(noFolder.error.contains("does not exist; create it first"))
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("new"), withIntermediateDirectories: false)
        let xcode = Run("import", "xcode", fixtures.appendingPathComponent("xcode/Shelf").path, "--plan", "new/plan.json", directory: scratch.url)
        #expect(xcode.status == .success, "\(xcode.error)")
        #expect(xcode.output.contains("Current version (target Shelf): 2.4 (57)"))
        let created = try #require(scratch.read("new/plan.json"))
        #expect(created.contains(#""app": { "name": "Shelf", "bundleID": "com.example.shelf", "platforms": ["iOS"], "universalPurchase": false }"#))
        // The schema its "$schema" names is written beside it, byte for byte what `migrate schema` prints.
        #expect(xcode.output.contains("Created new/plan.json and new/migration.schema.json."))
        #expect(created.contains(#""$schema": "migration.schema.json""#))
        #expect(scratch.read("new/migration.schema.json") == Run("schema", directory: scratch.url).output)

        let noPrice = Run(
            "import", "xcode", fixtures.appendingPathComponent("xcode/Shelf").path, "--plan", "new/plan.json", "--released", "2024-05-01T17:00:00Z",
            directory: scratch.url)
        #expect(noPrice.status == .usage)
        #expect(noPrice.error.contains("Give '--price' (such as --price 2.99), or '--model free'."))
        #expect(scratch.read("new/plan.json") == created)
    }

    @Test("--dry-run shows the change and writes nothing; --overwrite takes the source's values")
    func dryRunAndOverwrite() throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", handWrittenPlan)
        let storekit = fixtures.appendingPathComponent("storekit/format-1.0-numeric-ids.storekit").path
        let dry = Run("import", "storekit", storekit, "--dry-run", directory: scratch.url)
        #expect(dry.status == .success)
        #expect(flat(dry.output).contains("! product com.example.shelf.pro: price: the plan says 3.99, the source says 4.99; kept the plan's"))
        #expect(dry.output.contains("--dry-run: migration.json was not written."))
        #expect(dry.output.contains(#"+     { "id": "com.example.shelf.tip", "name": "Tip", "type": "consumable", "price": "0.99" },"#))
        #expect(scratch.read("migration.json") == handWrittenPlan)

        let overwrite = Run("import", "storekit", storekit, "--overwrite", directory: scratch.url)
        #expect(overwrite.status == .success)
        #expect(overwrite.output.contains("~ product com.example.shelf.pro: price: 3.99 → 4.99"))
        let written = try #require(scratch.read("migration.json"))
        #expect(written.contains(#""price": "4.99", "grants": ["export"]"#), "grants written by hand survive --overwrite")
    }

    @Test("Sales reports into the plan's install base, plain and gzipped together")
    func sales() throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", handWrittenPlan)
        let run = Run(
            "import", "sales", fixtures.appendingPathComponent("sales/summary-20-columns.txt").path,
            fixtures.appendingPathComponent("sales/summary-28-columns.txt.gz").path, directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(flat(run.output).contains("+ installBase: 31 paid and 40 free downloads, 3 in-app units, 2018-12-31 to 2019-01-12"))
        #expect(run.error.contains("summary-20-columns.txt:3:"))
        let text = try #require(scratch.read("migration.json"))
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.installBase?.products.map(\.product) == ["com.example.shelf.pro"])
    }
}
