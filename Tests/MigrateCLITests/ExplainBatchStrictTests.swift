import Foundation
import MigrateCLI
import MigrateSupport
import MigrateTestSupport
import Testing

/// `explain --batch` never invents or loses a customer: every row read is decided or skipped with its line and
/// reason, the counts add up, and each row's doubts travel with it.
@Suite("migrate explain --batch: every row accounted for", .timeLimit(.minutes(20)))
struct ExplainBatchStrictTests {
    static let plan = "Examples/tilt-to-live-hd/migration.json"
    static let header = "customerID,originalAppVersion,originalPurchaseDate,environment,products"

    /// The rows of a CSV output, without its header, split on commas (the tests' values hold none).
    static func rows(_ output: String) -> [[String]] {
        output.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("A stray quote at the start of the version column skips that row alone: no customer after it is swallowed or invented")
    func strayQuote() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.csv",
            """
            \(Self.header)
            c-1,"30,2011-12-01T00:00:00Z,Production,
            c-2,14,2011-06-01T00:00:00Z,Production,
            c-3,40,2012-03-01T00:00:00Z,Production,
            c-4,21,2011-09-02T07:45:00Z,Production,
            c-5,"34",2012-01-09T12:00:00Z,Production,

            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        let rows = Self.rows(run.output)
        #expect(rows.map { $0[0] } == ["c-2", "c-3", "c-4", "c-5"])
        #expect(rows.map { $0[5] } == ["legacy", "newCustomer", "legacy", "newCustomer"])
        #expect(rows.allSatisfy { $0[7] == "buildNumber" }, "no row is decided by its purchase date")
        #expect(run.error.contains("line 2: skipped: column 2 (originalAppVersion): a '\"' opens a quoted field that doesn't close on this line"))
        #expect(run.error.contains("\(list.path): 6 lines: 1 header, 4 customers decided (4 production), 1 skipped."), "\(run.error)")
    }

    @Test(
        "A value that doesn't parse as its column's type is a bad row, never decided by a fallback",
        arguments: [
            ("c-1,30x,2011-12-01T00:00:00Z,Production,", "originalAppVersion: '30x' is not a bundle version"),
            ("c-1,\"30,2011\",2011-12-01T00:00:00Z,Production,", "originalAppVersion: '30,2011' is not a bundle version"),
            ("c-1,30,tomorrow,Production,", "originalPurchaseDate: 'tomorrow' is not a date"),
            ("c-1,30,2011-12-01T00:00:00Z,Live,", "environment: 'Live' is not an App Store environment"),
            ("c-1,30,2011-12-01T00:00:00Z,Production,a:b:c", "products:"),
            ("c-1,30,2011-12-01T00:00:00Z,Production", "4 fields, but the header has 5"),
            ("c-1,\"30\"x,2011-12-01T00:00:00Z,Production,", "column 2 (originalAppVersion): text after the closing '\"'"),
        ])
    func badValue(_ row: String, _ message: String) throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", "\(Self.header)\n\(row)\nc-2,14,,,\n")
        let rejected = scratch.url.appendingPathComponent("rejected.csv")
        let run = Run("explain", Self.plan, "--batch", list.path, "--rejected", rejected.path)
        #expect(run.status == .dataError)
        #expect(Self.rows(run.output).map { $0[0] } == ["c-2"])
        #expect(run.error.contains("line 2: skipped: \(message)"), "\(run.error)")
        #expect(run.error.contains("\(list.path): 3 lines: 1 header, 1 customer decided (1 production), 1 skipped"), "\(run.error)")
        // The rejected row, byte for byte, with its line and reason.
        var reader = CSVReader(maxRecordBytes: 1 << 20)
        var records: [CSVRecord] = []
        reader.feed(Array(try Data(contentsOf: rejected))[...], record: { records.append($0) }, failure: { _ in })
        reader.finish(record: { records.append($0) }, failure: { _ in })
        #expect(records.map(\.fields.count) == [3, 3])
        #expect(records.first?.fields == ["line", "reason", "record"])
        #expect(records.last?.fields[0] == "2")
        #expect(records.last?.fields[1].contains(message) == true)
        #expect(records.last?.fields[2] == row)
    }

    @Test("No field spans lines, a note's neither: the quote is refused at its line, the next line is a row of its own, and the lines add up")
    func multiLineNote() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.csv", "customerID,originalAppVersion,note\nc-1,14,\"first line\nsecond line\"\n\nc-2,40,plain\n")
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError, "\(run.error)")
        #expect(run.error.contains("line 2: skipped: column 3 (note): a '\"' opens a quoted field that doesn't close on this line"))
        #expect(run.error.contains("line 3: skipped: 1 field, but the header has 3"))
        #expect(run.error.contains("\(list.path): 5 lines: 1 header, 1 customer decided (1 production), 2 skipped, 1 blank"), "\(run.error)")
        #expect(Self.rows(run.output).map { $0[0] } == ["c-2"])
    }

    @Test(
        "Excel's exports are read whole or refused whole",
        arguments: [
            ("\u{FEFF}customerID,originalAppVersion\r\nc-1,14\r\nc-2,40\r\n", ExitCode.success, "2 customers decided"),
            ("customerID,originalAppVersion\rc-1,14\rc-2,40\r", ExitCode.success, "as Excel for Mac's \"CSV (Macintosh)\" writes them"),
            ("customerID;originalAppVersion;note\nc-1;14;a, b\nc-2;40;x\n", ExitCode.success, "read as semicolon-separated values"),
            ("customerID\toriginalAppVersion\nc-1\t14\n", ExitCode.success, "read as tab-separated values"),
        ])
    func excel(_ text: String, _ status: ExitCode, _ message: String) throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", text)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == status, "\(run.error)")
        #expect(run.error.contains(message), "\(run.error)")
        #expect(Self.rows(run.output).allSatisfy { $0.last == "" })
    }

    @Test("UTF-16 (Excel's Unicode Text) is refused whole, with the fix")
    func utf16() throws {
        let scratch = try Scratch()
        let url = scratch.url.appendingPathComponent("customers.csv")
        let text = "customerID\toriginalAppVersion\nc-1\t14\n"
        try Data([0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: url)
        let run = Run("explain", Self.plan, "--batch", url.path)
        #expect(run.status == .dataError)
        #expect(run.error.contains("UTF-16"), "\(run.error)")
        #expect(run.error.contains("CSV UTF-8"), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test("Each decided row carries its own doubts in the warnings column, and --strict makes them a failed check")
    func warningsColumn() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.csv",
            """
            \(Self.header)
            ok,14,2011-06-01T10:00:00Z,Production,
            paid-but-new,30,2011-10-28T08:00:00Z,Production,
            tester,1.0,2013-08-01T07:00:00Z,Sandbox,
            unknown,17,2011-07-01T00:00:00Z,Production,
            early,10,2001-01-01T00:00:00Z,Production,
            nothing,,,Production,

            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .success, "\(run.error)")
        let warnings = Dictionary(uniqueKeysWithValues: Self.rows(run.output).map { ($0[0], $0.last!) })
        #expect(warnings["ok"] == "")
        #expect(warnings["paid-but-new"] == "paidButNew")
        #expect(warnings["tester"] == "notProduction")
        #expect(warnings["unknown"] == "unknownVersion")
        #expect(warnings["early"] == "beforeFirstRelease")
        #expect(warnings["nothing"] == "undetermined")
        #expect(run.error.contains("5 decided rows carry warnings"), "\(run.error)")
        let strict = Run("explain", Self.plan, "--batch", list.path, "--strict")
        #expect(strict.status == .checkFailed)
        #expect(strict.error.contains("exit status 1 with --strict"))
        let clean = try scratch.write("clean.csv", "\(Self.header)\nok,14,2011-06-01T10:00:00Z,Production,\n")
        #expect(Run("explain", Self.plan, "--batch", clean.path, "--strict").status == .success)
    }

    @Test("JSON Lines rows carry warnings as an array")
    func warningsKey() throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.jsonl", "{\"originalAppVersion\":\"17\"}\n{\"originalAppVersion\":\"14\"}\n")
        let run = Run("explain", Self.plan, "--batch", list.path)
        let rows = try run.output.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(rows.map { $0["warnings"]?.arrayValue?.compactMap(\.stringValue) } == [["unknownVersion"], []])
    }

    @Test(
        "A list that gives no customer is an error that says why",
        arguments: [
            ("customers.csv", "\(header)\n", "the header is there but no row follows it"),
            ("customers.csv", "\(header)\n\n\n", "only 2 blank lines"),
            ("customers.jsonl", "\n  \n", "it holds only blank lines"),
            ("customers.jsonl", "", "it is empty"),
        ])
    func noCustomers(_ name: String, _ text: String, _ message: String) throws {
        let scratch = try Scratch()
        let list = try scratch.write(name, text)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.error.contains("nothing was decided"))
    }

    @Test(
        "Flags for a list are refused without one, and outputs may not clash",
        arguments: [
            (["--rejected", "r.csv"], "'--rejected' applies only with --batch"),
            (["--strict"], "'--strict' applies only with --batch"),
            (["--input-format", "csv"], "'--input-format' applies only with --batch"),
            (["--batch", "Examples/tilt-to-live-hd/customers.csv", "--output", "x.csv", "--rejected", "x.csv"], "name the same file"),
            (
                ["--batch", "Examples/tilt-to-live-hd/customers.csv", "--output", "Examples/tilt-to-live-hd/customers.csv"],
                "names a file this run reads (--batch Examples/tilt-to-live-hd/customers.csv)"
            ),
            (["--batch", "Examples/tilt-to-live-hd", "--input-format", "csv"], "is for a file or standard input"),
        ])
    func usage(_ arguments: [String], _ message: String) {
        let run = Run(arguments: ["explain", Self.plan] + arguments)
        #expect(run.status == .usage)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("x.csv").path))
    }

    @Test("A folder: another app's response is a bad row naming both ids; a history with more pages is decided with a warning")
    func folderDoubts() throws {
        let scratch = try Scratch()
        let receipts = repositoryRoot.appendingPathComponent("Tests/Fixtures/receipts")
        let history = try String(contentsOf: receipts.appendingPathComponent("transaction-history-response.json"), encoding: .utf8)
        try scratch.write("list/complete/history.json", history)
        try scratch.write("list/partial/history.json", history.replacingOccurrences(of: "\"hasMore\": false", with: "\"hasMore\": true"))
        try scratch.write(
            "list/paged/page1.json", history.replacingOccurrences(of: "\"hasMore\": false", with: "\"hasMore\": true"))
        try scratch.write("list/paged/page2.json", history)
        try scratch.write("list/other/history.json", history.replacingOccurrences(of: "com.example.serverpal", with: "com.example.other"))
        let folder = scratch.url.appendingPathComponent("list").path
        let run = Run("explain", "Examples/server-pal/migration.json", "--batch", folder, "--strict")
        #expect(run.status == .dataError)
        let rows = Dictionary(uniqueKeysWithValues: Self.rows(run.output).map { ($0[0], $0.last!) })
        #expect(rows.keys.sorted() == ["complete", "paged", "partial"])
        #expect(rows["partial"]?.contains("incompleteHistory") == true)
        #expect(rows["complete"]?.contains("incompleteHistory") == false)
        #expect(rows["paged"]?.contains("incompleteHistory") == false)
        #expect(
            run.error.contains(
                "other: skipped: other/history.json: it is for the app 'com.example.other', but the plan is for 'com.example.serverpal'"))
        #expect(flat(run.error).contains("more pages than given (hasMore: true) (partial)"), "\(run.error)")
    }

    @Test("A CSV row for another app is skipped, naming both ids")
    func bundleColumn() throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", "originalAppVersion,bundleId\n14,com.example.tilttolivehd\n14,com.example.other\n")
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        #expect(Self.rows(run.output).count == 1)
        #expect(
            run.error.contains(
                "line 3: skipped: bundleID: the row is for the app 'com.example.other', but the plan is for 'com.example.tilttolivehd'"))
    }

    @Test("explain --receipt refuses another app's response and notes an incomplete history")
    func receiptDoubts() throws {
        let scratch = try Scratch()
        let receipts = repositoryRoot.appendingPathComponent("Tests/Fixtures/receipts")
        let history = try String(contentsOf: receipts.appendingPathComponent("transaction-history-response.json"), encoding: .utf8)
        let partial = try scratch.write("partial.json", history.replacingOccurrences(of: "\"hasMore\": false", with: "\"hasMore\": true"))
        let noted = Run("explain", "Examples/server-pal/migration.json", "--receipt", partial.path, "--original-version", "1")
        #expect(noted.status == .success, "\(noted.error)")
        #expect(noted.output.contains("the transaction history has more pages (hasMore: true)"))
        let other = Run("explain", Self.plan, "--receipt", partial.path)
        #expect(other.status == .dataError)
        #expect(other.error.contains("it is for the app 'com.example.serverpal', but the plan is for 'com.example.tilttolivehd'"))
    }

    // MARK: - Real processes: standard input, pipes, a kill

    /// The debug `migrate` that `swift build` made.
    static let binary = MigrateBinary.url

    /// Runs `migrate` with `input` written to its standard input through a pipe.
    static func piped(_ arguments: [String], input: String) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = Box()
        let reader = Thread { errorData.data = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorData.data == nil { usleep(1_000) }
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errorData.data!, as: UTF8.self))
    }

    final class Box: @unchecked Sendable {
        var data: Data?
    }

    @Test(
        "Standard input: '-', /dev/stdin, CSV or JSON Lines sniffed from the first line or named with --input-format",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"),
        arguments: [
            (["-"], "originalAppVersion\n14\n40\n", 2),
            (["/dev/stdin"], "{\"originalAppVersion\":\"14\"}\n{\"originalAppVersion\":\"40\"}\n", 2),
            (["-", "--input-format", "jsonl"], "{\"originalAppVersion\":\"14\"}\n", 1),
            (["-", "--format", "csv"], "{\"originalAppVersion\":\"14\"}\n{\"originalAppVersion\":\"40\",\"id\":3}\n", 2),
            (["/dev/stdin", "--input-format", "csv"], "originalAppVersion\n14\n40\n21\n", 3),
        ] as [([String], String, Int)])
    func standardInput(_ arguments: [String], _ input: String, _ decided: Int) throws {
        let run = try Self.piped(["explain", Self.plan, "--batch"] + arguments, input: input)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("\(decided) \(decided == 1 ? "customer" : "customers") decided"), "\(run.error)")
        #expect(run.output.split(separator: "\n").count == decided + (run.output.hasPrefix("{") ? 0 : 1))
    }

    @Test(
        "Empty standard input is an error, not zero customers decided",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"))
    func emptyStandardInput() throws {
        let run = try Self.piped(["explain", Self.plan, "--batch", "-"], input: "")
        #expect(run.status == 65)
        #expect(run.error.contains("standard input: it is empty"), "\(run.error)")
    }

    @Test(
        "A run killed with SIGKILL while it writes leaves a temporary file the next run removes",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"))
    func killedRunCleanedUp() throws {
        let scratch = try Scratch()
        // Standard input that never ends: the run has made its temporary outputs and waits for the list.
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = [
            "explain", repositoryRoot.appendingPathComponent(Self.plan).path, "--batch", "-", "--output", "decisions.csv", "--rejected",
            "rejected.csv",
        ]
        process.currentDirectoryURL = scratch.url
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data("originalAppVersion\n14\n".utf8))
        var temporaries: [String] = []
        for _ in 0..<500 where temporaries.count < 2 {
            temporaries = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains(".migrate-") }
            usleep(10_000)
        }
        #expect(temporaries.count == 2, "\(temporaries)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let list = try scratch.write("customers.csv", "originalAppVersion\n14\n")
        let run = Run(
            "explain", repositoryRoot.appendingPathComponent(Self.plan).path, "--batch", list.path, "--output", "decisions.csv", "--rejected",
            "rejected.csv", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        #expect(left == ["customers.csv", "decisions.csv", "rejected.csv"])
    }
}
