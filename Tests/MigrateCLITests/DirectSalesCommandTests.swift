import Foundation
import MigrateCLI
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// Direct-sale license holders end to end: `import licenses` → `check` → `codes assign` → `explain`, reruns that change
/// nothing, and a ledger no interrupted run can break.
@Suite("Direct sales: import licenses, check, codes assign", .timeLimit(.minutes(20)))
struct DirectSalesCommandTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/licenses")
    static let moment = "2026-11-28T00:00:00Z"
    static let assign = [
        "codes", "assign", "--codes", "com.example.tally.license=codes-pro.csv", "--codes", "com.example.tally.license=codes-plain.txt",
        "--licenses", "gumroad-sales.csv", "--ledger", "ledger.json", "--output", "mail.csv", "--now", moment,
    ]

    /// A scratch folder holding the fixtures: the plan, the exports and the codes.
    static func folder() throws -> Scratch {
        let scratch = try Scratch()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: scratch.url.appendingPathComponent(name))
        }
        return scratch
    }

    static func bytes(_ scratch: Scratch, _ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: scratch.url.appendingPathComponent(name).path).map { [UInt8]($0) }
    }

    @Test(
        "Spreadsheet-safe fields: a leading formula character becomes text",
        arguments: [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+1 555", "'+1 555"), ("-2", "-2"), ("-2 apples", "'-2 apples"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tname", "'\tname"), ("Ada Lovelace", "Ada Lovelace"), ("ada@example.com", "ada@example.com"), ("", ""),
        ])
    func spreadsheetSafe(value: String, expected: String) {
        #expect(CSVWriter.spreadsheetSafe(value) == expected)
    }

    @Test("A buyer named like a formula reaches the mail merge as text, never as a formula")
    func formulaInjection() throws {
        let scratch = try Self.folder()
        let sales = scratch.url.appendingPathComponent("gumroad-sales.csv")
        let original = try String(contentsOf: sales, encoding: .utf8)
        try original.replacingOccurrences(of: "Ada Lovelace", with: "=1+2").write(to: sales, atomically: true, encoding: .utf8)
        #expect(Run(arguments: ["import", "licenses", "gumroad-sales.csv"], directory: scratch.url).status == .success)
        let assigned = Run(arguments: Self.assign, directory: scratch.url)
        #expect(assigned.status == .success, "\(assigned.error)")
        let mail = try #require(scratch.read("mail.csv")).split(separator: "\n").map(String.init)
        #expect(mail.count > 1 && mail[1].hasPrefix("'=1+2,ada@example.com,"), "\(mail.prefix(2))")
    }

    @Test("import → check → codes assign → explain, as a new user would: counts in the plan, a code per seat, nothing personal in the plan")
    func endToEnd() throws {
        let scratch = try Self.folder()
        let imported = Run(arguments: ["import", "licenses", "gumroad-sales.csv"], directory: scratch.url)
        #expect(imported.status == .success, "\(imported.error)")
        #expect(imported.output.contains("Read 9 rows: 4 holders (6 seats), 2 refunded, 1 duplicate, 2 skipped."))
        #expect(imported.output.contains("gumroad-sales.csv:10: skipped: Gumroad's totals row, not a sale"))
        let plan = try #require(scratch.read("migration.json"))
        #expect(plan.contains("\"holders\": 4") && plan.contains("\"seats\": 6") && plan.contains("\"refunded\": 2"))
        #expect(!plan.contains("@example") && !plan.contains("Lovelace"))

        let checked = Run(arguments: ["check", "migration.json", "--now", Self.moment], directory: scratch.url)
        #expect(checked.status == .success, "\(checked.output)\(checked.error)")
        #expect(checked.output.contains("each seat's code must reach a different Apple Account"))
        #expect(!checked.output.contains("direct-edition-unreached"))

        let assigned = Run(arguments: Self.assign, directory: scratch.url)
        #expect(assigned.status == .success, "\(assigned.error)")
        #expect(
            assigned.output.contains(
                "Codes: 0 given before, 6 given now, 0 missing, 1 left (com.example.tally.license: 1), 0 expiring within 30 days, 1 expired unused."))
        #expect(assigned.output.contains("codes-pro.csv:7: skipped: 'bad code!' is not an offer code"))
        #expect(assigned.output.contains("codes-pro.csv:8: skipped: code 3FJ8VZC6YBTGDQ2E is listed again (first at codes-pro.csv:3)"))
        let mail = try #require(scratch.read("mail.csv")).split(separator: "\n").map(String.init)
        #expect(mail.first == "name,email,edition,product,seat,seats,code,url,expires,store,order")
        #expect(mail.count == 7)
        #expect(mail[1].hasPrefix("Ada Lovelace,ada@example.com,Tally for Mac,com.example.tally.license,1,1,7KQ4MXN2HLPRWT9A,"))
        #expect(mail[1].contains("https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=7KQ4MXN2HLPRWT9A"))
        #expect(mail.filter { $0.contains("don@example.edu") }.count == 3, "one code per seat")
        #expect(!mail.contains { $0.contains("alan@example.net") || $0.contains("edsger@") || $0.contains("radia@") })
        let codes = mail.dropFirst().map { $0.split(separator: ",")[6] }
        #expect(Set(codes).count == codes.count, "each code once")
        #expect(!codes.contains("Q2B7NKT4WFX9HJ3M"), "an expired code is given to no one")
        let ledger = try #require(scratch.read("ledger.json"))
        #expect(!ledger.contains("@"), "the ledger holds no e-mail address")

        let explained = Run(arguments: ["explain", "migration.json", "--original-version", "3.0", "--platform", "macOS"], directory: scratch.url)
        #expect(explained.status == .success, "\(explained.error)")

        // explain --licenses decides the holders: edition, tier, product, the features it unlocks, and their codes.
        let holders = Run(
            arguments: ["explain", "migration.json", "--licenses", "gumroad-sales.csv", "--ledger", "ledger.json"], directory: scratch.url)
        #expect(holders.status == .success, "\(holders.error)")
        #expect(
            holders.output.contains(
                "gumroad-sales.csv:8  gumroad:e6UiL9pD5kFz2Wn8bR3t==/2021-04-04T04:04:04Z  Tally for Mac → edition tally-for-mac, tier paid-app, redeems com.example.tally.license (counters, sync, export); codes T6D3GJ8QZV2NBY5K, W4XLC9PH7RMK2T6F, P8LZ4KQ2WR6NXT3H"
            ), "\(holders.output)")
        #expect(
            holders.output.contains("gumroad-sales.csv:4  gumroad:r9TcM1xE7uJn4Bf2kY8s==/2020-01-20T11:11:11Z  Tally for Mac → not counted: refunded")
        )
        #expect(holders.output.contains("4 holders: 4 with a code for every seat, 0 waiting; 2 refunded, 1 duplicate, 2 skipped."))
        let csv = Run(arguments: ["explain", "migration.json", "--licenses", "gumroad-sales.csv", "--format", "csv"], directory: scratch.url)
        #expect(csv.output.split(separator: "\n").count == 10, "a line per row read, and the header")
        #expect(csv.output.contains(",holder,tally-for-mac,paid-app,com.example.tally.license,counters sync export,,1 of 1 seat without a code"))
        let mixed = Run(
            arguments: ["explain", "migration.json", "--licenses", "gumroad-sales.csv", "--original-version", "3.0"], directory: scratch.url)
        #expect(mixed.status == .usage)
    }

    @Test("Rerunning codes assign changes nothing, byte for byte; more codes only serve those still waiting")
    func rerun() throws {
        let scratch = try Self.folder()
        #expect(Run(arguments: Self.assign, directory: scratch.url).status == .success)
        let mail = Self.bytes(scratch, "mail.csv")
        let ledger = Self.bytes(scratch, "ledger.json")
        let again = Run(arguments: Self.assign, directory: scratch.url)
        #expect(again.status == .success)
        #expect(again.output.contains("6 given before, 0 given now"))
        #expect(again.output.contains("mail.csv and ledger.json are unchanged."))
        #expect(Self.bytes(scratch, "mail.csv") == mail)
        #expect(Self.bytes(scratch, "ledger.json") == ledger)

        // Fewer codes than seats: the oldest buyers are served, the rest counted missing (exit 1); a later file of codes
        // serves them without changing anyone's code.
        let short = try Self.folder()
        let first = Run(
            arguments: [
                "codes", "assign", "--codes", "com.example.tally.license=codes-plain.txt", "--licenses", "gumroad-sales.csv", "--ledger",
                "ledger.json",
                "--output", "mail.csv", "--now", Self.moment,
            ], directory: short.url)
        #expect(first.status == .checkFailed)
        #expect(first.output.contains("0 given before, 2 given now, 4 missing (com.example.tally.license: 4), 0 left"))
        #expect(first.error.contains("Not every holder has a code: 4 seats without one"))
        let firstMail = try #require(short.read("mail.csv"))
        let second = Run(arguments: Self.assign, directory: short.url)
        #expect(second.status == .success)
        #expect(second.output.contains("2 given before, 4 given now, 0 missing"))
        let secondMail = try #require(short.read("mail.csv"))
        for line in firstMail.split(separator: "\n") { #expect(secondMail.contains(line)) }
    }

    @Test("A refund after codes went out: the code stays spent in the ledger, out of the mail merge, and is given to no one else")
    func refundedAfterwards() throws {
        let scratch = try Self.folder()
        #expect(Run(arguments: Self.assign, directory: scratch.url).status == .success)
        let export = try #require(scratch.read("gumroad-sales.csv"))
        // Ada's purchase refunded since: its Fully Refunded? turns 1.
        let lines = export.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "Fully Refunded?"))
        var ada = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        ada[column] = "1"
        var changed = lines
        changed[1] = ada.joined(separator: ",")
        _ = try scratch.write("gumroad-sales.csv", changed.joined(separator: "\n"))
        let run = Run(arguments: Self.assign, directory: scratch.url)
        #expect(run.output.contains("1 code in the ledger for licenses that no longer count"))
        let mail = try #require(scratch.read("mail.csv"))
        #expect(!mail.contains("ada@example.com"))
        #expect(!mail.contains("7KQ4MXN2HLPRWT9A"), "Ada's code is spent: no one else gets it")
        #expect(try #require(scratch.read("ledger.json")).contains("7KQ4MXN2HLPRWT9A"))
    }

    /// Usage and data errors: what is wrong, the fix, and nothing written.
    static let refusals: [(arguments: [String], status: ExitCode, message: String)] = [
        (["codes", "assign", "--licenses", "gumroad-sales.csv", "--ledger", "l.json", "--output", "m.csv"], .usage, "Give --codes FILE"),
        (["codes", "assign", "--codes", "codes-pro.csv", "--licenses", "gumroad-sales.csv", "--output", "m.csv"], .usage, "Give --ledger FILE"),
        (
            ["codes", "assign", "--codes", "codes-pro.csv", "--licenses", "gumroad-sales.csv", "--ledger", "x.csv", "--output", "x.csv"], .usage,
            "name the same file"
        ),
        (
            [
                "codes", "assign", "--codes", "codes-pro.csv", "--licenses", "gumroad-sales.csv", "--ledger", "l.json", "--output",
                "gumroad-sales.csv",
            ], .usage, "--output gumroad-sales.csv names a file this run reads (--licenses gumroad-sales.csv)"
        ),
        (
            ["codes", "assign", "--codes", "codes-pro.csv", "--licenses", "gumroad-sales.csv", "--ledger", "l.json", "--output", "m.csv"], .dataError,
            "doesn't say which product"
        ),
        (
            [
                "codes", "assign", "--codes", "com.example.tally.license=codes-pro.csv", "--licenses", "unknown-store.csv", "--ledger", "l.json",
                "--output", "m.csv",
            ], .dataError, "no export migrate knows"
        ),
        (
            [
                "codes", "assign", "--codes", "com.example.tally.license=absent.csv", "--licenses", "gumroad-sales.csv", "--ledger", "l.json",
                "--output", "m.csv",
            ], .noInput, "absent.csv: no such file"
        ),
        (
            [
                "codes", "assign", "--codes", "com.example.tally.license=codes-pro.csv", "--licenses", "gumroad-sales.csv", "--ledger", "plain.csv",
                "--output", "m.csv",
            ], .dataError, "plain.csv:1:1: the ledger is not JSON"
        ),
        (["import", "licenses", "unknown-store.csv"], .dataError, "It expected one of these sets of columns"),
        (["import", "licenses", "gumroad-sales.csv", "--plan", "absent.json"], .noInput, "create it first with 'migrate init'"),
    ]

    @Test("Refusals: exit 64, 65 or 66 with what is wrong, and nothing written", arguments: 0..<refusals.count)
    func refusal(_ index: Int) throws {
        let (arguments, status, message) = Self.refusals[index]
        let scratch = try Self.folder()
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        let plan = scratch.read("migration.json")
        let run = Run(arguments: arguments, directory: scratch.url)
        #expect(run.status == status, "\(run.error)")
        #expect(run.error.contains(message), "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == before)
        #expect(scratch.read("migration.json") == plan)
    }

    @Test("A ledger that gives a code twice, or isn't one, is refused: a wrong ledger could give a spent code away")
    func untrustedLedger() throws {
        let scratch = try Self.folder()
        _ = try scratch.write(
            "ledger.json",
            """
            { "ledger": "migrate codes ledger", "version": 1, "assignments": [
              { "license": "gumroad:a", "seat": 1, "product": "com.example.tally.license", "code": "7KQ4MXN2HLPRWT9A" },
              { "license": "gumroad:b", "seat": 1, "product": "com.example.tally.license", "code": "7KQ4MXN2HLPRWT9A" },
              { "license": "gumroad:c", "seat": 0, "product": "com.example.tally.license", "code": "X" }
            ] }
            """)
        let run = Run(arguments: Self.assign, directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("assignments[1] (line 3): code 7KQ4MXN2HLPRWT9A is given twice (also assignments[0])"), "\(run.error)")
        #expect(run.error.contains("assignments[2] (line 4): needs 'license', 'seat' (1 or more)"), "\(run.error)")
        #expect(scratch.read("mail.csv") == nil)
        _ = try scratch.write("ledger.json", "{ \"name\": \"something else\" }")
        #expect(Run(arguments: Self.assign, directory: scratch.url).error.contains("not a ledger 'migrate codes assign' wrote"))
    }

    /// Steps seen and the one to fail, shared with the @Sendable hook.
    final class Faults: @unchecked Sendable {
        let lock = NSLock()
        var steps: [FileTransaction.Step] = []
        var failAt: Int?
        func hook(_ step: FileTransaction.Step) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            steps.append(step)
            return steps.count - 1 == failAt ? EIO : nil
        }
    }

    static func assign(in scratch: Scratch, faults: Faults?) -> ExitCode {
        var context = CommandContext.testing(directory: scratch.url.path)
        if let faults { context.fileTransaction = FileTransaction(fault: { faults.hook($0) }) }
        return Migrate.run(assign, context: context)
    }

    @Test("A write that fails at any step leaves the ledger and mail merge as they were, and the next run gives a clean run's bytes")
    func failureAtEachStep() throws {
        let clean = try Self.folder()
        let recorder = Faults()
        #expect(Self.assign(in: clean, faults: recorder) == .success)
        let expected = (Self.bytes(clean, "mail.csv"), Self.bytes(clean, "ledger.json"))
        #expect(recorder.steps.count >= 6)
        for step in recorder.steps.indices {
            let scratch = try Self.folder()
            let faults = Faults()
            faults.failAt = step
            let status = Self.assign(in: scratch, faults: faults)
            let renamedMail = recorder.steps[..<step].contains { if case .rename(let name) = $0 { name == "mail.csv" } else { false } }
            if !renamedMail {
                #expect(status == .ioError, "step \(step): an I/O error while writing is exit 74")
                #expect(Self.bytes(scratch, "mail.csv") == nil && Self.bytes(scratch, "ledger.json") == nil, "step \(step)")
            }
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)).contains { $0.contains(".migrate-") }, "step \(step)")
            #expect(Self.assign(in: scratch, faults: nil) == .success)
            #expect((Self.bytes(scratch, "mail.csv"), Self.bytes(scratch, "ledger.json")) == expected, "step \(step)")
        }
    }

    @Test(
        "A real process killed (SIGKILL) at each step of the write: the ledger reads or is absent, and the rerun gives a clean run's bytes",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"))
    func killedRun() throws {
        let binary = MigrateBinary.url
        let clean = try Self.folder()
        #expect(Self.assign(in: clean, faults: nil) == .success)
        let expected = (Self.bytes(clean, "mail.csv"), Self.bytes(clean, "ledger.json"))
        for step in 0..<6 {
            let scratch = try Self.folder()
            let process = Process()
            process.executableURL = binary
            process.arguments = Self.assign
            process.currentDirectoryURL = scratch.url
            process.environment = ProcessInfo.processInfo.environment.merging(["MIGRATE_TEST_KILL_AT_STEP": "\(step):KILL"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "step \(step)")
            if let ledger = Self.bytes(scratch, "ledger.json") { #expect(ledger == expected.1, "step \(step): a ledger half written") }
            #expect(Self.assign(in: scratch, faults: nil) == .success)
            #expect((Self.bytes(scratch, "mail.csv"), Self.bytes(scratch, "ledger.json")) == expected, "step \(step)")
        }
    }

    @Test("check knows the offer codes' limits: expired, expiring, too long, no product, a consumable, the quarter's quota")
    func checkLimits() throws {
        var plan = try #require(PlanDecoder.decode(bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("migration.json")))).plan)
        let now = try #require(Timestamp.parse(Self.moment))
        func codes(_ plan: MigrationPlan) -> [String] {
            PlanChecker.check(plan, now: now).diagnostics.map(\.code.rawValue).filter { $0.hasPrefix("direct-") || $0.hasPrefix("offer-codes") }
        }
        plan.directSales!.editions[0].holders = 3
        plan.directSales!.editions[0].seats = 3
        #expect(codes(plan) == ["offer-codes-redemption"])
        plan.directSales!.offerCodes!.expires = Timestamp.parse("2026-11-01T00:00:00Z")
        #expect(codes(plan).contains("offer-codes-expired"))
        plan.directSales!.offerCodes!.expires = Timestamp.parse("2026-12-10T00:00:00Z")
        #expect(codes(plan).contains("offer-codes-expiring"))
        plan.directSales!.offerCodes!.expires = Timestamp.parse("2027-12-10T00:00:00Z")
        #expect(codes(plan).contains("offer-codes-validity"))
        plan.directSales!.offerCodes = nil
        #expect(codes(plan).contains("offer-codes-app-id"))
        plan.directSales!.editions[0].seats = 2_500_000
        #expect(codes(plan).contains("offer-codes-quota"))
        let quota = PlanChecker.check(plan, now: now).diagnostics.first { $0.code.rawValue == "offer-codes-quota" }
        #expect(quota?.message.contains("takes 3 quarters") == true)
        plan.products[1].kind = .consumable
        #expect(codes(plan).contains("direct-legacy-product-kind"))
        plan.directSales!.editions[0].legacyProduct = nil
        #expect(codes(plan).contains("direct-edition-unreached"))
        plan.directSales!.editions[0].legacyProduct = "com.example.tally.lisense"
        let decoded = PlanDecoder.decode(PlanEncoder.encode(plan))
        #expect(decoded.diagnostics.contains { $0.code == .unknownReference && $0.hint == "Did you mean 'com.example.tally.license'?" })
    }
}
