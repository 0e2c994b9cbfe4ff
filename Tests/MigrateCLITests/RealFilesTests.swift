import Foundation
import MigrateCLI
import MigrateSupport
import MigrateTestSupport
import Testing

/// Real-shaped files on every reader: a vendor-wide sales report, shop exports that reuse order numbers, an Excel for
/// Mac CSV, a long list with one stray quote. Every line is accounted for, nothing of another app is counted, and no
/// customer is lost into a "row".
@Suite("Real files: every line accounted for", .timeLimit(.minutes(20)))
struct RealFilesTests {
    static let plan = "Examples/tilt-to-live-hd"
    static let report = "Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt"

    /// The example's report with a second app's rows beside each of its own: another SKU, title, Apple Identifier and
    /// in-app products, in the same months, as App Store Connect's Summary Sales report lists every app of an account.
    static func twoAppReport() throws -> String {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(report), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let other = lines.dropFirst().map { line in
            line.replacingOccurrences(of: "tilttolivehd", with: "otherapp").replacingOccurrences(of: "Tilt to Live HD", with: "Other App")
                .replacingOccurrences(of: "4200001", with: "5200001").replacingOccurrences(of: "4200000", with: "5200000")
        }
        // Interleaved, the way a report sorted by country or date mixes the apps.
        var mixed = [lines[0]]
        for (own, foreign) in zip(lines.dropFirst(), other) { mixed += [foreign, own] }
        return mixed.joined(separator: "\n") + "\n"
    }

    @Test("A two-app Summary Sales report: the other app's rows are set aside and counted, and every figure is this app's alone")
    func twoAppSalesReport() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        _ = try scratch.write("both.txt", try Self.twoAppReport())
        let alone = Run("simulate", "tilt", "--actuals", "tilt/sales-2011-11-to-2012-02.txt", "--format", "json", directory: scratch.url)
        let both = Run("simulate", "tilt", "--actuals", "both.txt", "--format", "json", directory: scratch.url)
        #expect(both.status == .success, "\(both.error)")
        let once = try JSONParser.parse(alone.output)
        let combined = try JSONParser.parse(both.output)
        for key in ["headline", "months", "assumptions", "refit", "verdictWithRefit"] {
            #expect(combined[key]?.value == once[key]?.value, "\(key) is this app's alone")
        }
        // 59 lines: the header, this app's 29 rows counted, the other app's 29 set aside.
        #expect(both.error.contains("both.txt: 59 lines: 1 header, 29 rows counted, 29 set aside."), "\(both.error)")
        #expect(both.error.contains("set aside 29 rows of 1 other app ('Other App' (SKU otherapp): 29 rows"), "\(both.error)")
        #expect(!both.error.contains("are not compared"))

        // import sales: the install base counts this app's downloads only, as the report of this app alone does.
        let text = Run("simulate", "tilt", "--actuals", "both.txt", directory: scratch.url)
        #expect(text.output.contains("2011-11     49,870"), "the month's free downloads are this app's, not doubled")
        let importAlone = try Self.importedBase("tilt/sales-2011-11-to-2012-02.txt", scratch: scratch)
        let importBoth = try Self.importedBase("both.txt", scratch: scratch)
        #expect(importBoth == importAlone)
    }

    /// The install base `import sales` writes into a copy of the flagship plan from `report`.
    static func importedBase(_ report: String, scratch: Scratch) throws -> String {
        let folder = "copy-\(UUID().uuidString)"
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent(plan), to: scratch.url.appendingPathComponent(folder))
        let run = Run("import", "sales", report, "--plan", "\(folder)/migration.json", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let plan = try JSONParser.parse(try #require(scratch.read("\(folder)/migration.json")))
        return JSONWriter.line(plan["installBase"]?.value ?? .null)
    }

    @Test("A report none of whose apps is the plan's is refused, naming the apps it holds and how to name this one")
    func foreignReport() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        let only = try Self.twoAppReport().split(separator: "\n").enumerated().filter { $0.offset == 0 || $0.element.contains("otherapp") }
            .map(\.element).joined(separator: "\n")
        _ = try scratch.write("other.txt", only + "\n")
        let run = Run("simulate", "tilt", "--actuals", "other.txt", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("it holds 'Other App' (SKU otherapp)"))
        #expect(run.error.contains("write its SKU in the plan's app (\"sku\": \"…\") or its Apple ID (\"appleID\": \"…\")"))
    }

    /// A plain license export, as a shop writes it, numbering its orders from #1001.
    static func shopExport(_ buyers: [(name: String, email: String, date: String, seats: Int)]) -> String {
        var text = "order,email,name,product,purchased,seats\n"
        for (index, buyer) in buyers.enumerated() {
            text += "#\(1001 + index),\(buyer.email),\(buyer.name),Tally for Mac,\(buyer.date),\(buyer.seats)\n"
        }
        return text
    }

    @Test(
        "Two shop exports that both number from #1001: different buyers are different orders, each with a code; the same order twice is named in both places"
    )
    func reusedOrderNumbers() throws {
        let scratch = try DirectSalesCommandTests.folder()
        _ = try scratch.write(
            "shop1.csv", Self.shopExport([("Ada", "ada@one.example", "2019-03-14", 1), ("Grace", "grace@one.example", "2019-04-02", 1)]))
        _ = try scratch.write(
            "shop2.csv", Self.shopExport([("Edsger", "edsger@two.example", "2020-01-02", 2), ("Ada", "ada@one.example", "2019-03-14", 1)]))
        let imported = Run("import", "licenses", "shop1.csv", "shop2.csv", directory: scratch.url)
        #expect(imported.status == .success, "\(imported.error)")
        #expect(imported.output.contains("shop2.csv:2: order #1001 has the id of shop1.csv:2's, for another buyer: read as another order"))
        // shop2's #1002 is Ada's #1001 of shop1? No: another id, the same buyer and product: a duplicate license, named.
        #expect(
            imported.output.contains(
                "shop2.csv:3: not counted: a duplicate license: the same e-mail address already holds this edition (shop1.csv:2)"))
        #expect(imported.output.contains("3 holders (4 seats)"), "\(imported.output)")
    }

    @Test("An Excel for Mac CSV (carriage returns alone) is read line by line, with no did-you-mean for a header that is right")
    func excelForMac() throws {
        let scratch = try Scratch()
        let list =
            "customerID,originalAppVersion,originalPurchaseDate,environment,products\rc-1,14,2011-05-20T18:02:00Z,Production,\rc-2,40,2012-02-01T10:00:00Z,Production,\r"
        let file = try scratch.write("mac.csv", list)
        let run = Run("explain", Self.plan, "--batch", file.path)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.error.contains("mac.csv: 3 lines: 1 header, 2 customers decided (2 production)"))
        #expect(run.error.contains("3 lines end with a carriage return alone, as Excel for Mac's \"CSV (Macintosh)\" writes them"))
        #expect(!run.error.contains("Did you mean"))
        #expect(run.output.split(separator: "\n").count == 3)
    }

    @Test(
        "A 100,000-row list with one stray quote in its last column: that row alone is skipped, every other customer decided, and the quote's reach said"
    )
    func strayQuoteInLongList() throws {
        let scratch = try Scratch()
        var text = "customerID,originalAppVersion,originalPurchaseDate,note\n"
        for index in 1...100_000 {
            let note = index == 11 ? "\"called about sync" : index == 22_556 ? "said \"thanks" : "ok"
            text += "c-\(index),\(index % 2 == 0 ? "14" : "40"),2011-06-01T10:00:00Z,\(note)\n"
        }
        let file = try scratch.write("long.csv", text)
        let run = Run("explain", Self.plan, "--batch", file.path, "--output", scratch.url.appendingPathComponent("out.csv").path)
        #expect(run.status == .dataError)
        #expect(run.output.contains("long.csv: 100,001 lines: 1 header, 99,999 customers decided (99,999 production), 1 skipped"), "\(run.output)")
        #expect(run.error.contains("long.csv: line 12: skipped: column 4 (note): a '\"' opens a quoted field that doesn't close on this line"))
        let said = run.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(said.contains("the '\"' on line 12, field 4, would have taken 22,546 lines (to line 22,557) into one field"), "\(run.output)")
        let decided = try #require(scratch.read("out.csv")).split(separator: "\n").count
        #expect(decided == 100_000, "the header and 99,999 decisions")
    }

    @Test(
        "Unknown is loud in a list: a product not in the plan, two ids joined by a comma, a header in another case, a repeated customer, blank rows")
    func unknownIsLoud() throws {
        let scratch = try Scratch()
        let turret = "com.example.tilttolivehd.turret"
        let cases: [(text: String, warning: String, column: String?)] = [
            (
                "customerID,originalAppVersion,products\nc-1,14,com.example.nope\n", "names a product the plan doesn't list: 'com.example.nope' (1)",
                "unknownProduct"
            ),
            ("customerID,originalAppVersion,products\nc-1,14,\"\(turret),com.x\"\n", "separated by spaces, not commas", "unknownProduct"),
            ("customerID,OriginalAppVersion,originalPurchaseDate\nc-1,14,2011-06-01\n", "the column 'OriginalAppVersion' is not read", nil),
            (
                "customerID,originalAppVersion\nc-1,14\nc-1,40\n", "1 row repeats the customer id of an earlier row (line 3 repeats line 2)",
                "duplicateCustomer"
            ),
            ("customerID,originalAppVersion\nc-1,14\n,,\n,\n", "2 rows have every field empty (line 3, line 4)", nil),
        ]
        for (index, item) in cases.enumerated() {
            let file = try scratch.write("list\(index).csv", item.text)
            let run = Run("explain", Self.plan, "--batch", file.path)
            let said = run.error.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(said.contains(item.warning), "case \(index): \(run.error)")
            if let column = item.column { #expect(run.output.contains(column), "case \(index): the row's warnings column") }
            #expect(Run("explain", Self.plan, "--batch", file.path, "--strict").status == .checkFailed, "case \(index): --strict fails")
        }
    }

    @Test("JSON Lines: a key given twice, or two names for one fact, skips the row with both named; an answers file's twice-given key is refused")
    func duplicateKeys() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "list.jsonl",
            """
            {"customerID":"c-1","originalAppVersion":"10","originalAppVersion":"40"}
            {"customerID":"c-2","originalApplicationVersion":"10","originalAppVersion":"40"}
            {"customerID":"c-3","originalAppVersion":"14"}

            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        #expect(
            run.error.contains("line 1: skipped: column 47: \"originalAppVersion\" is given twice in this object (first at 1:21)"), "\(run.error)")
        #expect(run.error.contains("line 2: skipped: 'originalApplicationVersion' and 'originalAppVersion' name the same fact"))
        #expect(run.error.contains("3 lines: 1 customer decided (1 production), 2 skipped"))
        let answers = try scratch.write("answers.json", #"{ "appName": "Shelf", "appName": "Shelve" }"#)
        let refused = Run("init", "--answers", answers.path, "--yes", directory: scratch.url)
        #expect(refused.status == .dataError)
        #expect(refused.error.contains("\"appName\" is given twice in this object (first at 1:3)"), "\(refused.error)")
    }

    @Test("No output destroys an input: --output naming the plan or the list is refused and both stay as they were")
    func outputNeverAnInput() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(Self.plan), to: scratch.url.appendingPathComponent("tilt"))
        let plan = try #require(scratch.read("tilt/migration.json"))
        for (flag, target) in [("--output", "tilt/migration.json"), ("--rejected", "tilt/migration.json"), ("--output", "tilt/customers.csv")] {
            let run = Run("explain", "tilt", "--batch", "tilt/customers.csv", flag, target, directory: scratch.url)
            #expect(run.status == .usage, "\(flag) \(target)")
            #expect(run.error.contains("\(flag) \(target) names a file this run reads"), "\(run.error)")
        }
        // The plan named through its folder is the same file.
        let folder = Run("report", "tilt", "--output", "tilt/migration.json", directory: scratch.url)
        #expect(folder.status == .usage)
        #expect(scratch.read("tilt/migration.json") == plan)
        #expect(scratch.read("tilt/customers.csv")?.hasPrefix("customerID,") == true)
    }

    @Test("A device or a FIFO is written through, never replaced; '-' and /dev/stdout are standard output")
    func devicesAndStandardOutput() throws {
        #expect(OutputTarget.resolve("/dev/null", given: "/dev/null") == .stream(path: "/dev/null"))
        #expect(OutputTarget.resolve("/dev/full", given: "/dev/full") == .stream(path: "/dev/full"))
        #expect(OutputTarget.resolve("/x/-", given: "-") == .standardOutput)
        #expect(OutputTarget.resolve("/dev/stdout", given: "/dev/stdout") == .standardOutput)
        let scratch = try Scratch()
        let fifo = scratch.url.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(OutputTarget.resolve(fifo, given: "pipe") == .stream(path: fifo))
        // A reader on the other end, as `>(gzip > out.gz)` has: the decisions arrive, and the FIFO stays a FIFO.
        final class Box: @unchecked Sendable { var bytes = Data() }
        let received = Box()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.bytes = handle.readDataToEndOfFile() }
        }
        reader.start()
        let run = Run("explain", Self.plan, "--batch", repositoryRoot.appendingPathComponent("\(Self.plan)/customers.csv").path, "--output", fifo)
        #expect(run.status == .success, "\(run.error)")
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(String(decoding: received.bytes, as: UTF8.self).hasPrefix("customerID,originalAppVersion"))
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        let dash = Run("explain", Self.plan, "--batch", repositoryRoot.appendingPathComponent("\(Self.plan)/customers.csv").path, "--output", "-")
        #expect(dash.output.hasPrefix("customerID,originalAppVersion"))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"), "no file named '-'")
    }

    @Test("A full standard output is exit 74 with a message, never a trap")
    func fullOutput() throws {
        var context = CommandContext.testing()
        context.standardOutput.failsWith = ENOSPC
        #expect(Migrate.run(["schema"], context: context) == .ioError)
        #expect(context.standardError.text.contains("cannot write to standard output: No space left on device"))
    }

    @Test(
        "The real process writing to /dev/full: an error and exit 74, not `Fatal error: 'try!'`",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"),
        .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "this system has no /dev/full"))
    func fullOutputRealProcess() throws {
        let binary = MigrateBinary.url
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["schema"], ["explain", Self.plan, "--batch", "\(Self.plan)/customers.csv"]] {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = repositoryRoot
            process.standardOutput = full
            let error = Pipe()
            process.standardError = error
            try process.run()
            let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 74, "\(arguments): \(said)")
            #expect(said.contains("cannot write to standard output"), "\(arguments): \(said)")
        }
    }

    @Test("An exchange rate outside its stated limit is a usage error, never '— ↑'")
    func absurdRate() throws {
        let run = Run("simulate", Self.plan, "--actuals", Self.report, "--rate", "EUR=1e308")
        #expect(run.status == .usage)
        #expect(run.error.contains("outside 0.000001 to 1,000,000"))
    }

    @Test("explain --licenses --format csv writes an order id written like a formula as text")
    func licensesCSVIsSpreadsheetSafe() throws {
        let scratch = try DirectSalesCommandTests.folder()
        _ = try scratch.write(
            "shop.csv", "order,email,name,product,purchased,seats\n\"=HYPERLINK(\"\"http://x\"\")\",eve@example.com,Eve,Tally for Mac,2019-03-14,1\n")
        let run = Run(arguments: ["explain", "migration.json", "--licenses", "shop.csv", "--format", "csv"], directory: scratch.url)
        #expect(run.output.contains("\"'=HYPERLINK(\"\"http://x\"\")\""), "\(run.output)")
        #expect(!run.output.contains(",=HYPERLINK"))
    }

    @Test("codes assign killed between its two renames: the next run, with one more and earlier export, never gives a mailed code to anyone else")
    func killedBetweenRenames() throws {
        let binary = MigrateBinary.url
        try #require(MigrateBinary.isBuilt, "\(binary.path) is not built: swift build first")
        // Steps: create ×2, write ×2, rename mail.csv, rename ledger.json. SIGKILL at the ledger's rename: the mail merge is
        // new, the ledger old, and a journal of the renames is left beside them.
        let scratch = try DirectSalesCommandTests.folder()
        let process = Process()
        process.executableURL = binary
        process.arguments = DirectSalesCommandTests.assign
        process.currentDirectoryURL = scratch.url
        process.environment = ProcessInfo.processInfo.environment.merging(["MIGRATE_TEST_KILL_AT_STEP": "5:KILL"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let mailed = try #require(scratch.read("mail.csv"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).contains { $0.hasPrefix(".migrate-journal-") })
        // One more export, of buyers who bought before everyone else: served first, oldest purchase first.
        _ = try scratch.write("early.csv", Self.shopExport([("Early Bird", "early@shop.example", "2010-01-01", 2)]))
        let next = Run(
            arguments: DirectSalesCommandTests.assign.map { $0 == "gumroad-sales.csv" ? "gumroad-sales.csv" : $0 } + ["--licenses", "early.csv"],
            directory: scratch.url)
        #expect(next.status == .success || next.status == .checkFailed, "\(next.error)")
        let ledger = try #require(scratch.read("ledger.json"))
        let mail = try #require(scratch.read("mail.csv")).split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let codes = mail.map { $0[6] }
        #expect(Set(codes).count == codes.count, "no code twice in the mail merge")
        for code in codes { #expect(ledger.contains(code), "\(code) is mailed and in the ledger") }
        // Every code the killed run mailed goes to the same holder now.
        for line in mailed.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            #expect(mail.contains { $0[1] == fields[1] && $0[6] == fields[6] }, "\(fields[1]) keeps \(fields[6])")
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: scratch.url.path).contains { $0.contains(".migrate-") })
    }
}
