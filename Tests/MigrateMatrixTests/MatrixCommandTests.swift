import Foundation
import MigrateCLI
import MigrateMatrix
import MigrateTestSupport
import Testing

@Suite("migrate matrix", .timeLimit(.minutes(20)))
struct MatrixCommandTests {
    let modelText = "OS: iOS, macOS, tvOS\nInput: touch, mouse, remote\nNetwork: wifi, cellular\nIF [OS] = \"tvOS\" THEN [Input] = \"remote\";\n"

    @Test("Each format is deterministic, and CSV output verifies against the plan", arguments: ["text", "csv", "json", "markdown"])
    func formats(format: String) throws {
        let first = Run(arguments: ["matrix", "Examples/server-pal", "--format", format])
        #expect(first.status == .success, "\(first.error)")
        #expect(first.output == Run(arguments: ["matrix", "Examples/server-pal", "--format", format]).output)
        #expect(!first.output.contains("/work/"))
        if format == "csv" {
            let scratch = try Scratch()
            try scratch.write("matrix.csv", first.output)
            let plan = repositoryRoot.appendingPathComponent("Examples/server-pal").path
            let verify = Run(arguments: ["matrix", plan, "--verify", "matrix.csv"], directory: scratch.url)
            #expect(verify.status == .success, "\(verify.output)\(verify.error)")
            #expect(verify.output.contains("✓ Every valid pair is covered and every row is valid."))
        }
        if format == "json" {
            #expect(first.output.contains("\"explain\": ["))
            #expect(first.output.contains("\"restoreMessage\": "))
        }
    }

    @Test("A PICT model: generation, strength, seed, and verification with holes")
    func model() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", modelText)
        let run = Run(arguments: ["matrix", "--model", "model.txt", "--format", "csv", "--seed", "3"], directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.hasPrefix("OS,Input,Network\n"))
        #expect(!run.output.contains("tvOS,touch") && !run.output.contains("tvOS,mouse"))

        let triples = Run(arguments: ["matrix", "--model", "model.txt", "--strength", "3"], directory: scratch.url)
        #expect(triples.output.hasPrefix("14 rows (optimal) cover all 14 valid triples of 3 factors (strength 3, seed 0)."))

        try scratch.write("holes.csv", "OS,Input,Network\niOS,touch,wifi\ntvOS,touch,cellular\n")
        let verify = Run(arguments: ["matrix", "--model", "model.txt", "--verify", "holes.csv"], directory: scratch.url)
        #expect(verify.status == .checkFailed)
        #expect(verify.output.contains("  missing  OS=iOS, Input=mouse"))
        #expect(verify.output.contains("  row 2 is invalid: line 4: IF [OS] = \"tvOS\" THEN [Input] = \"remote\"\n"))

        try scratch.write("typo.csv", "OS,Input,Network\niOS,tuch,wifi\n")
        let typo = Run(arguments: ["matrix", "--model", "model.txt", "--verify", "typo.csv"], directory: scratch.url)
        #expect(typo.status == .dataError)
        #expect(typo.error.contains("typo.csv:2:5: error: 'tuch' is not a value of 'Input'. Did you mean 'touch'?"))
    }

    @Test("The size is printed with its lower bound, or as optimal, in text and JSON; --verbose names what made the rows")
    func lowerBound() throws {
        let scratch = try Scratch()
        try scratch.write("three.txt", (1...4).map { "F\($0): a, b, c" }.joined(separator: "\n") + "\n")
        try scratch.write("wide.txt", (1...13).map { "F\($0): a, b, c" }.joined(separator: "\n") + "\n")
        let optimal = Run(arguments: ["matrix", "--model", "three.txt", "--verbose"], directory: scratch.url)
        #expect(optimal.status == .success, "\(optimal.error)")
        #expect(optimal.output.hasPrefix("9 rows (optimal) cover all 54 valid pairs of 4 factors (strength 2, seed 0)."))
        #expect(optimal.error == "matrix: 9 rows from construction: Bush's orthogonal array over GF(3); lower bound 9.\n")
        let json = Run(arguments: ["matrix", "--model", "three.txt", "--format", "json"], directory: scratch.url)
        #expect(json.output.contains("\"lowerBound\": 9,") && json.output.contains("\"optimal\": true,"))

        let wide = Run(arguments: ["matrix", "--model", "wide.txt", "--verbose"], directory: scratch.url)
        #expect(wide.status == .success, "\(wide.error)")
        #expect(wide.output.range(of: #"^\d+ rows \(lower bound 10\) cover all 702 valid pairs of 13 factors"#, options: .regularExpression) != nil)
        #expect(wide.error.hasPrefix("matrix: ") && wide.error.contains("search: greedy"))
        let wideJSON = Run(arguments: ["matrix", "--model", "wide.txt", "--format", "json"], directory: scratch.url)
        #expect(wideJSON.output.contains("\"lowerBound\": 10,") && wideJSON.output.contains("\"optimal\": false,"))
        // Without --verbose nothing goes to standard error.
        #expect(Run(arguments: ["matrix", "--model", "three.txt"], directory: scratch.url).error.isEmpty)
    }

    @Test("Seed rows come first")
    func seedRows() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", modelText)
        try scratch.write("seeds.csv", "OS,Input,Network\ntvOS,,cellular\n")
        let run = Run(arguments: ["matrix", "--model", "model.txt", "--seed-rows", "seeds.csv", "--format", "csv"], directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.split(separator: "\n")[1] == "tvOS,remote,cellular")
    }

    @Test("PICT's own tab-separated output and seed files are read; aliases and ~ round-trip")
    func pictFiles() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", "A: ~-1, 0, 1\nB: ~-1, 0, 1\nSKU: Pro, Server | Datacenter\n")
        let run = Run(arguments: ["matrix", "--model", "model.txt", "--format", "csv"], directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("~-1"))
        #expect(run.output.contains("Server") && run.output.contains("Datacenter"))
        // The same rows tab-separated, as PICT prints them, verify.
        try scratch.write("pict.tsv", run.output.replacingOccurrences(of: ",", with: "\t"))
        let verify = Run(arguments: ["matrix", "--model", "model.txt", "--verify", "pict.tsv"], directory: scratch.url)
        #expect(verify.status == .success, "\(verify.output)\(verify.error)")
        #expect(verify.output.contains("✓ Every valid pair is covered and every row is valid."))
        // Two negative values in a row are invalid.
        try scratch.write("two.tsv", "A\tB\tSKU\n~-1\t~-1\tPro\n")
        let two = Run(arguments: ["matrix", "--model", "model.txt", "--verify", "two.tsv"], directory: scratch.url)
        #expect(two.status == .checkFailed)
        #expect(two.output.contains("row 1 is invalid: 2 negative values (A=~-1, B=~-1); a row may hold at most one"), "\(two.output)")
        // PICT's seed format: tab-separated, an empty cell for any value, names in any case.
        try scratch.write("seeds.tsv", "a\tb\tsku\n~-1\t\tdatacenter\n")
        let seeded = Run(arguments: ["matrix", "--model", "model.txt", "--seed-rows", "seeds.tsv", "--format", "csv"], directory: scratch.url)
        #expect(seeded.status == .success, "\(seeded.error)")
        #expect(
            seeded.output.contains("\n~-1,0,Server\n") || seeded.output.contains("\n~-1,1,Server\n") || seeded.output.contains("\n~-1,0,Datacenter\n")
                || seeded.output.contains("\n~-1,1,Datacenter\n"), "\(seeded.output)")
    }

    @Test("Seed rows that break a constraint, contradictions, warnings and bad bytes name file and line")
    func pictDiagnostics() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", modelText)
        try scratch.write("seeds.csv", "OS,Input,Network\niOS,,\ntvOS,touch,\n")
        let seeds = Run(arguments: ["matrix", "--model", "model.txt", "--seed-rows", "seeds.csv"], directory: scratch.url)
        #expect(seeds.status == .dataError)
        #expect(
            seeds.error.contains(
                "seeds.csv:3:1: error: seed row 2 can't be part of the matrix: it breaks the constraint at model.txt line 4: IF [OS] = \"tvOS\" THEN [Input] = \"remote\"; change or remove it"
            ),
            "\(seeds.error)")

        try scratch.write("contradiction.txt", modelText + "[Input] = \"remote\";\n[OS] = \"tvOS\" AND [Input] <> \"remote\";\n")
        let contradiction = Run(arguments: ["matrix", "--model", "contradiction.txt"], directory: scratch.url)
        #expect(contradiction.status == .dataError)
        #expect(
            contradiction.error.contains(
                "contradiction.txt:6:1: error: no row satisfies this constraint together with the constraints on lines 4 and 5"),
            "\(contradiction.error)")

        try scratch.write("restrictive.txt", modelText + "[Input] <> \"mouse\";\n")
        let restrictive = Run(arguments: ["matrix", "--model", "restrictive.txt"], directory: scratch.url)
        #expect(restrictive.status == .success)
        #expect(restrictive.error.contains("restrictive.txt:2:15: warning: no valid row can contain [Input] = mouse"), "\(restrictive.error)")

        try (Data("A: x, y\nB: ".utf8) + Data([0xFF, 0x0A])).write(to: scratch.url.appendingPathComponent("latin.txt"))
        let latin = Run(arguments: ["matrix", "--model", "latin.txt"], directory: scratch.url)
        #expect(latin.status == .dataError)
        #expect(latin.error.contains("latin.txt:2:4: error: byte 11 is not valid UTF-8"), "\(latin.error)")

        try scratch.write("quote.csv", "OS,Input,Network\n\"iOS,touch,wifi\n")
        let quote = Run(arguments: ["matrix", "--model", "model.txt", "--verify", "quote.csv"], directory: scratch.url)
        #expect(quote.status == .dataError)
        #expect(quote.error.contains("quote.csv:2:1: error: the quoted field that starts here never ends"), "\(quote.error)")
    }

    @Test("Exhaustive: the full valid product, refused above the limit without --force")
    func exhaustive() throws {
        let scratch = try Scratch()
        try scratch.write("model.txt", modelText)
        let run = Run(arguments: ["matrix", "--model", "model.txt", "--exhaustive"], directory: scratch.url)
        #expect(run.output.hasPrefix("14 rows: every valid combination of 3 factors."))
        try scratch.write("big.txt", (1...8).map { "F\($0): 0, 1, 2, 3" }.joined(separator: "\n"))
        let refused = Run(arguments: ["matrix", "--model", "big.txt", "--exhaustive"], directory: scratch.url)
        #expect(refused.status == .usage)
        #expect(refused.error.contains("more than 10000 valid rows (65536 without constraints)"))
        let forced = Run(arguments: ["matrix", "--model", "big.txt", "--exhaustive", "--force", "--format", "csv"], directory: scratch.url)
        #expect(forced.status == .success)
        #expect(forced.output.split(separator: "\n").count == 65_537)
    }

    @Test(
        "Usage and data errors",
        arguments: [
            (["matrix"], ExitCode.usage, "Name a plan, or a model file with '--model'."),
            (["matrix", "Examples/server-pal", "--model", "x.txt"], .usage, "Name either a plan or '--model', not both."),
            (["matrix", "Examples/server-pal", "--strength", "5"], .usage, "Expected a whole number from 1 to 4."),
            (["matrix", "Examples/server-pal", "--force"], .usage, "'--force' applies only with '--exhaustive'."),
            (["matrix", "--model", "missing.txt"], .noInput, "missing.txt: no such file."),
            (["matrix", "Examples/server-pal", "--seed", "-1"], .usage, "invalid for '--seed <n>'"),
        ])
    func errors(arguments: [String], status: ExitCode, message: String) {
        let run = Run(arguments: arguments)
        #expect(run.status == status)
        #expect(run.error.contains(message), "\(run.error)")
    }

    @Test("A bad model file reports every problem with file:line:column and exits 65")
    func badModel() throws {
        let scratch = try Scratch()
        try scratch.write("bad.txt", "OS: iOS, macOS\nOS: tvOS\nIF [Os] = \"iOS\" THEN [Net] = \"x\";\n")
        let run = Run(arguments: ["matrix", "--model", "bad.txt"], directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("bad.txt:2:1: error: parameter 'OS' is defined twice"))
        #expect(run.error.contains("bad.txt:3:22: error: unknown parameter [Net]."))
    }
}
