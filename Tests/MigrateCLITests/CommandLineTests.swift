import Foundation
import MigrateCLI
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("Command line", .timeLimit(.minutes(20)))
struct CommandLineTests {
    @Test("Help is laid out as OVERVIEW / USAGE / OPTIONS / SUBCOMMANDS, on stdout, exit 0")
    func rootHelp() {
        for arguments in [["--help"], ["-h"], ["help"], []] {
            let run = Run(arguments: arguments)
            #expect(run.status == .success)
            #expect(run.error.isEmpty)
            let headings = run.output.split(separator: "\n").filter { $0.first?.isUppercase == true }.map { String($0.prefix { $0 != ":" }) }
            #expect(headings == ["OVERVIEW", "USAGE", "OPTIONS", "SUBCOMMANDS"], "\(arguments)")
            #expect(run.output.contains("  check                   Check a migration plan for launch-day traps."))
        }
    }

    @Test("The root help names the workflow's steps and lists them in the order they are used")
    func rootHelpShowsTheWorkflow() throws {
        let run = Run("--help")
        #expect(run.status == .success)
        let listed =
            run.output.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n").compactMap {
                $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil
            } ?? []
        #expect(Array(listed.prefix(6)) == ["init", "check", "simulate", "report", "generate", "explain"], "\(listed)")
        for step in ["init", "import", "check", "simulate", "report", "generate", "explain", "matrix"] {
            #expect(run.output.contains(" \(step) "), "the overview doesn't name \(step)")
        }
    }

    @Test("Each command's help has ARGUMENTS and OPTIONS", arguments: ["check", "explain", "simulate", "schema"])
    func commandHelp(command: String) {
        let viaFlag = Run(command, "--help")
        let viaHelp = Run("help", command)
        #expect(viaFlag.status == .success)
        #expect(viaFlag.output == viaHelp.output)
        #expect(viaFlag.output.contains("USAGE: migrate \(command)"))
        #expect(viaFlag.output.contains("OPTIONS:\n"))
        #expect(viaFlag.output.contains("-h, --help"))
        if command != "schema" { #expect(viaFlag.output.contains("ARGUMENTS:\n  <plan>")) }
        for line in viaFlag.output.split(separator: "\n") { #expect(line.count <= 100, "help lines stay narrow: \(line)") }
    }

    @Test("--version prints the version")
    func version() {
        let run = Run("--version")
        #expect(run.status == .success)
        #expect(run.output == Migrate.version + "\n")
    }

    @Test(
        "Usage errors say what is wrong, suggest a fix, and exit 64",
        arguments: [
            (["chek", "x"], "Error: Unknown command 'chek'. Did you mean 'check'?"),
            (["check", "Examples/server-pal", "--formt", "json"], "Error: Unknown option '--formt'. Did you mean '--format'?"),
            (["check", "Examples/server-pal", "--format", "jsn"], "Error: The value 'jsn' is invalid for '--format <format>'. Did you mean 'json'?"),
            (["check"], "Error: Missing expected argument '<plan>'."),
            (["check", "a", "b"], "Error: Unexpected argument 'b'."),
            (["explain", "Examples/server-pal", "--owns"], "Error: Missing value for '--owns <product[@date][:state]>'."),
            (["explain", "Examples/server-pal", "--owns", "x:revokd"], "Did you mean 'revoked'?"),
            (["explain", "Examples/server-pal", "--original-purchase-date", "yesterday"], "Expected an ISO 8601 date-time"),
            (["explain", "Examples/server-pal", "--platform", "macOS"], "The app doesn't run on macOS"),
            (["explain", "Examples/server-pal", "--cache-age", "3"], "'--cache-age' applies only with '--verification failed'"),
            (["help", "nope"], "Error: Unknown command 'nope'."),
            (["check", "Examples/server-pal", "--strict=yes"], "'--strict' takes no value."),
        ])
    func usageErrors(arguments: [String], message: String) {
        let run = Run(arguments: arguments)
        #expect(run.status == .usage)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test(
        "A command's validation step reports every problem of how its options go together at once, before reading anything",
        arguments: [
            (
                ["explain", "missing.json", "--batch", "list.csv", "--platform", "iOS", "--original-version", "1", "--format", "text"],
                [
                    "Error: '--platform' describes one customer; with --batch each row of the list does.",
                    "Error: '--original-version' describes one customer; with --batch each row of the list does.",
                    "Error: --batch writes csv or jsonl, not text",
                ]
            ),
            (
                ["explain", "missing.json", "--output", "out.csv", "--strict", "--ledger", "ledger.csv"],
                [
                    "Error: '--ledger' applies only with --licenses.", "Error: '--output' applies only with --batch",
                    "Error: '--strict' applies only with --batch",
                ]
            ),
            (["matrix", "--force"], ["Error: '--force' applies only with '--exhaustive'.", "Error: Name a plan, or a model file with '--model'."]),
            (["matrix", "missing.json", "--model", "model.txt"], ["Error: Name either a plan or '--model', not both."]),
            (
                ["explain", "missing.json", "--licenses", "missing.json", "--platform", "iOS", "--strict", "--format", "json"],
                [
                    "Error: '--platform' describes an App Store customer; --licenses decides the holders of the exports.",
                    "Error: '--strict' applies only with --batch, to a customer list; --licenses alone prints the holders.",
                    "Error: --licenses writes text, or csv for a spreadsheet; not json.",
                ]
            ),
            (
                ["explain", "missing.json", "--owns", "pro@yesterday", "--owns", "pro:gone", "--cache-age", "3"],
                [
                    "Error: The date in '--owns pro@yesterday' is invalid.", "Error: The state 'gone' is invalid in '--owns pro:gone'.",
                    "Error: '--cache-age' applies only with '--verification failed'.",
                ]
            ),
            (
                [
                    "init", "--answers", "missing.json", "--project", "missing.json", "--tagged-only", "--all-versions", "--era", "1", "--era",
                    "2=keep",
                    "--era", "2=everything",
                ],
                [
                    "Error: '--tagged-only' and '--all-versions' ask for opposite things; use one.",
                    "Error: The value '1' is invalid for '--era'. Expected n=",
                    "Error: '--era 2=…' is given twice with different answers ('keep', 'everything'); it takes one. Give it once.",
                ]
            ),
            (
                ["import", "git", "missing.json", "--plan", "missing.json", "--tagged-only", "--all-versions", "--model", "free", "--price", "2.99"],
                [
                    "Error: '--tagged-only' and '--all-versions' ask for opposite things; use one.",
                    "Error: '--price' applies only to paid releases; leave it out with '--model free'.",
                ]
            ),
            (
                ["import", "asc", "missing.json", "--plan", "missing.json", "--model", "free", "--price", "2.99"],
                ["Error: '--price' applies only to paid releases; leave it out with '--model free'."]
            ),
            (
                ["simulate", "missing.json", "--update-plan", "--dry-run", "--rate", "EUR=1.08"],
                [
                    "Error: '--update-plan' writes the refit of '--actuals'; give the sales reports with '--actuals'.",
                    "Error: '--dry-run' shows what '--update-plan' would write; give '--actuals' and '--update-plan'.",
                    "Error: '--rate' converts the proceeds of '--actuals'; give the sales reports with '--actuals'.",
                ]
            ),
            (
                [
                    "simulate", "missing.json", "--actuals", "missing.json", "--sweep", "conversion=0.01:0.02:0.01", "--chart", "chart.svg",
                    "--offer-states", "--scenario", "a", "--scenario", "b", "--dry-run", "--format", "csv", "--rate", "EURO", "--rate", "EUR=-1",
                ],
                [
                    "Error: '--sweep' does not apply with '--actuals'.", "Error: '--chart' does not apply with '--actuals'.",
                    "Error: '--offer-states' shapes the cohort preview, which '--actuals' does not print",
                    "Error: '--actuals' compares one scenario; give at most one '--scenario'.",
                    "Error: '--dry-run' shows what '--update-plan' would write; add '--update-plan'.",
                    "Error: '--actuals' prints text or json; '--format csv' is not supported with it.",
                    "Error: The value 'EURO' is invalid for '--rate'. Expected CUR=rate",
                    "Error: The value 'EUR=-1' is invalid for '--rate': '-1' is not a rate above 0",
                ]
            ),
            (
                ["report", "missing.json", "--rate", "EUR=1.08", "--locale", "xx-XX", "--currency", "SEK"],
                [
                    "Error: Name the page to write with --output, such as --output report.html",
                    "Error: '--rate' converts the proceeds of '--actuals'; give the sales reports with '--actuals'.",
                    "Error: --locale: 'xx-XX' is not a supported locale", "Error: --currency: 'SEK' is not a supported currency",
                ]
            ),
            (
                [
                    "report", "missing.json", "--output", "report.html", "--actuals", "missing.json", "--rate", "EUR=1.1", "--rate", "EUR=1.2",
                    "--rate", "EURO",
                ],
                [
                    "Error: '--rate EUR' is given twice, as 1.1 and 1.2; give it once.",
                    "Error: The value 'EURO' is invalid for '--rate'. Expected CUR=rate",
                ]
            ),
            (
                ["codes", "assign", "--plan", "missing.json"],
                [
                    "Error: Give --ledger FILE", "Error: Give --output FILE", "Error: Give --codes FILE", "Error: Give --licenses FILE",
                ]
            ),
            (
                ["generate", "missing.json", "--server", "--access", "internal", "--package", "--store-layer", "dependency"],
                [
                    "Error: --server needs --access public", "Error: --package --store-layer dependency needs --store-layer-package",
                ]
            ),
        ] as [([String], [String])])
    func validationStep(arguments: [String], problems: [String]) {
        let run = Run(arguments: arguments)
        #expect(run.status == .usage)
        for problem in problems { #expect(run.error.contains(problem), "\(problem)\n\(run.error)") }
        // Every problem on its own line, and nothing read: the plan named doesn't exist, and isn't what is reported.
        #expect(run.error.components(separatedBy: "Error: ").count - 1 == problems.count, "\(run.error)")
        #expect(!run.error.contains("missing.json"), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test("`--` ends options, so a file named like an option can be checked")
    func terminator() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-terminator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(contentsOf: repositoryRoot.appendingPathComponent("Examples/server-pal/migration.json"))
            .write(to: folder.appendingPathComponent("--strict"))
        let run = Run(arguments: ["check", "--", "--strict"], directory: folder)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("No problems found"))
    }

    @Test("Colour only on a terminal, and never with NO_COLOR")
    func colour() {
        let escape = "\u{1B}["
        #expect(!Run("check", "Examples/server-pal").output.contains(escape))
        #expect(Run(arguments: ["check", "Examples/server-pal"], terminal: true).output.contains(escape))
        #expect(!Run(arguments: ["check", "Examples/server-pal"], environment: ["NO_COLOR": "1"], terminal: true).output.contains(escape))
        #expect(Run(arguments: ["chek"], terminal: true).error.contains(escape))
        #expect(!Run(arguments: ["chek"], environment: ["NO_COLOR": "1"], terminal: true).error.contains(escape))
    }
}
