import Foundation
import MigrateCLI
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("migrate explain --batch", .timeLimit(.minutes(20)))
struct ExplainBatchTests {
    static let plan = "Examples/tilt-to-live-hd/migration.json"
    static let full = "com.example.tilttolivehd.full"
    static let turret = "com.example.tilttolivehd.turret"
    static let bundle = "com.example.tilttolivehd.fullturret"

    @Test("CSV in, CSV out: every column carried through, the decision appended, the summary on stderr")
    func csv() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.csv",
            """
            customerID,originalAppVersion,originalPurchaseDate,originalPlatform,environment,products,note
            c1,14,2011-06-01T10:00:00Z,iOS,Production,\(Self.turret),"says ""hi"", twice"
            c2,40,2012-03-01T10:00:00Z,,,,
            c3,1.0,2013-08-01,,Sandbox,,

            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .success, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "customerID,originalAppVersion,originalPurchaseDate,originalPlatform,environment,products,note,cohort,tier,rule,features,offers,withheld,warnings"
        )
        #expect(
            lines[1]
                == "c1,14,2011-06-01T10:00:00Z,iOS,Production,\(Self.turret),\"says \"\"hi\"\", twice\",legacy,paid-1.0,buildNumber,classic code-red frostbite viva-la-turret,,\(Self.bundle),"
        )
        #expect(lines[2] == "c2,40,2012-03-01T10:00:00Z,,,,,newCustomer,,buildNumber,classic,\(Self.bundle),\(Self.turret),")
        #expect(lines[3].hasPrefix("c3,1.0,2013-08-01,,Sandbox,,,newCustomer,,environmentPolicy,"))
        #expect(lines[3].hasSuffix(",notProduction"))
        #expect(lines.count == 4)
        #expect(run.error.contains("\(list.path): 4 lines: 1 header, 3 customers decided (2 production, 1 sandbox)."))
        #expect(run.error.contains("legacy: paid-1.0"))
        #expect(run.error.contains("buildNumber 1, environmentPolicy 1"))
    }

    @Test("JSON Lines in, JSON Lines out, with keys the server uses and dates in milliseconds")
    func jsonLines() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.jsonl",
            """
            {"id":7,"originalApplicationVersion":"14","originalPurchaseDate":1306000000000,"receiptType":"Production","products":["\(Self.turret)"]}
            {"id":8,"originalAppVersion":"40","extra":{"kept":[1,2]}}

            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .success, "\(run.error)")
        let rows = try run.output.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(rows.count == 2)
        #expect(rows[0]["id"]?.value == .number("7"))
        #expect(rows[0]["cohort"]?.stringValue == "legacy")
        #expect(rows[0]["tier"]?.stringValue == "paid-1.0")
        #expect(rows[0]["withheld"]?.arrayValue?.compactMap(\.stringValue) == [Self.bundle])
        #expect(rows[1]["extra"]?["kept"]?.arrayValue?.count == 2)
        #expect(rows[1]["cohort"]?.stringValue == "newCustomer")
        #expect(rows[1]["offers"]?.arrayValue?.compactMap(\.stringValue) == [Self.bundle])
    }

    @Test("JSON Lines in, CSV out: a column for every key of the list, each row's value or empty")
    func jsonLinesToCSV() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.jsonl",
            """
            {"id":7,"originalAppVersion":"14","products":["\(Self.turret)"]}
            {"originalAppVersion":"40","note":"a, b","extra":{"kept":true}}
            {"originalAppVersion":"40","cohort":"mine"}

            """)
        let run = Run("explain", Self.plan, "--batch", list.path, "--format", "csv")
        #expect(run.status == .dataError)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "line,id,originalAppVersion,products,note,extra,cohort,tier,rule,features,offers,withheld,warnings")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("1,7,14,\(Self.turret),,,legacy,paid-1.0,"))
        #expect(lines[2].hasPrefix(#"2,,40,,"a, b","{""kept"":true}",newCustomer,"#))
        #expect(run.error.contains("line 3: skipped: 'cohort' is a key explain --batch adds"))
    }

    @Test("A folder of App Store Server API responses and JWS files: one customer per file, a subfolder's files merged")
    func folder() throws {
        let scratch = try Scratch()
        let receipts = repositoryRoot.appendingPathComponent("Tests/Fixtures/receipts")
        let jws = try String(contentsOf: receipts.appendingPathComponent("app-transaction-production.jws"), encoding: .utf8)
        try scratch.write("list/a.jws", jws)
        try scratch.write("list/b.json", "{\"signedAppTransactionInfo\": \"\(jws.trimmingCharacters(in: .whitespacesAndNewlines))\"}")
        for name in ["app-transaction-refunded.json", "transaction-history-response.json"] {
            try scratch.write("list/c/\(name)", try String(contentsOf: receipts.appendingPathComponent(name), encoding: .utf8))
        }
        try scratch.write("list/d.json", "{\"hello\": 1}")
        let run = Run("explain", "Examples/server-pal/migration.json", "--batch", scratch.url.appendingPathComponent("list").path)
        #expect(run.status == .dataError)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "file,originalAppVersion,originalPurchaseDate,originalPlatform,environment,products,cohort,tier,rule,features,offers,withheld,warnings"
        )
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[0] } == ["a.jws", "b.json", "c"])
        #expect(lines[3].contains(",refunded,"))
        #expect(run.error.contains("d.json: skipped: not a receipt migrate knows"))
        #expect(run.error.contains("JWS signatures were decoded without being verified"))
    }

    @Test("Bad rows are reported with their line, skipped, and the exit status says so")
    func badRows() throws {
        let scratch = try Scratch()
        let list = try scratch.write(
            "customers.csv",
            """
            originalAppVersion,originalPurchaseDate,products
            14,2011-06-01,
            40,someday,
            40,,x:stolen
            40,2012-03-01
            "open
            """)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        #expect(run.output.split(separator: "\n").count == 2)
        #expect(run.error.contains("customers.csv: line 3: skipped: originalPurchaseDate: 'someday' is not a date"))
        #expect(run.error.contains("customers.csv: line 4: skipped: products: The state 'stolen' is invalid"))
        #expect(run.error.contains("customers.csv: line 5: skipped: 2 fields, but the header has 3"))
        #expect(
            run.error.contains(
                "customers.csv: line 6: skipped: column 1 (originalAppVersion): a '\"' opens a quoted field that doesn't close on this line"))
        #expect(run.error.contains("customers.csv: 6 lines: 1 header, 1 customer decided (1 production), 4 skipped."))
        #expect(run.error.contains("Skipped 4 rows that could not be read"))
    }

    @Test(
        "A header migrate can't use is refused before any row, naming the column",
        arguments: [
            ("customer,version\n1,14\n", "no column names originalAppVersion or originalPurchaseDate"),
            ("originalAppVersion,cohort\n14,x\n", "the column 'cohort' is one explain --batch adds"),
            ("originalAppVersion,originalApplicationVersion\n14,14\n", "names the same fact as 'originalAppVersion' (column 1)"),
            ("", "is empty: expected a header line"),
        ])
    func badHeader(_ text: String, _ message: String) throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", text)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test("A misspelled column is carried through with a did-you-mean")
    func misspelledColumn() throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", "originalAppVersion,prodcts\n14,\(Self.turret)\n")
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .success)
        let said = run.error.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(said.contains("the column 'prodcts' is not read: it is carried through unchanged, and no row is decided by it."))
        #expect(said.contains("Did you mean 'products'? Rename the column to read it"))
        // Unknown is loud: with --strict the column nobody reads fails the run.
        #expect(Run("explain", Self.plan, "--batch", list.path, "--strict").status == .checkFailed)
    }

    @Test("--output writes the decisions whole, through a symbolic link, and the summary to standard output")
    func outputFile() throws {
        let scratch = try Scratch()
        let list = try scratch.write("customers.csv", "originalAppVersion\n14\n40\n")
        let target = try scratch.write("real/decisions.csv", "old\n")
        let link = scratch.url.appendingPathComponent("decisions.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = Run("explain", Self.plan, "--batch", list.path, "--output", link.path, "--format", "jsonl")
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("\(list.path): 3 lines: 1 header, 2 customers decided (2 production); decisions in \(link.path)."))
        #expect(run.output.contains("decisions in \(link.path)"))
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 2)
        #expect(written.hasPrefix("{\"originalAppVersion\":\"14\",\"cohort\":\"legacy\""))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path) == ["decisions.csv"])
    }

    @Test(
        "Options that describe one customer, or only a list, are usage errors in the other mode",
        arguments: [
            (["--batch", "x.csv", "--owns", "a"], "'--owns' describes one customer"),
            (["--output", "x.csv"], "'--output' applies only with --batch"),
            (["--format", "csv"], "--format csv is for --batch"),
            (["--batch", "x.csv", "--format", "text"], "--batch writes csv or jsonl"),
        ])
    func usage(_ arguments: [String], _ message: String) {
        let run = Run(arguments: ["explain", Self.plan] + arguments)
        #expect(run.status == .usage)
        #expect(run.error.contains(message), "\(run.error)")
    }

    @Test("A list longer than a block keeps its order, and each row's decision is the one explain gives it alone")
    func manyBlocks() throws {
        let scratch = try Scratch()
        let builds = ["10", "14", "21", "30", "40"]
        var text = "id,originalAppVersion\n"
        for index in 0..<20_000 { text += index == 12_345 ? "bad,14,extra\n" : "\(index),\(builds[index % builds.count])\n" }
        let list = try scratch.write("customers.csv", text)
        let run = Run("explain", Self.plan, "--batch", list.path)
        #expect(run.status == .dataError)
        let rows = run.output.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 19_999)
        let inOrder = rows.map { $0[0] } == (0..<20_000).filter { $0 != 12_345 }.map(String.init)
        #expect(inOrder)
        for build in builds {
            let alone = Run("explain", Self.plan, "--original-version", build, "--format", "json")
            let cohort = try JSONParser.parse(alone.output)["cohort"]?["kind"]?.stringValue
            #expect(rows.filter { $0[1] == build }.allSatisfy { $0[2] == cohort }, "build \(build)")
        }
        #expect(run.error.contains("line 12347: skipped: 3 fields, but the header has 2"))
    }

    @Test("A list that doesn't exist is missing input")
    func missing() {
        let run = Run("explain", Self.plan, "--batch", "no-such-list.csv")
        #expect(run.status == .noInput)
        #expect(run.error.contains("no-such-list.csv: no such file or folder"))
    }
}
