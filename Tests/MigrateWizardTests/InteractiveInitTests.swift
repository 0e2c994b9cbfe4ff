import Foundation
import MigrateCLI
import MigratePlan
import MigrateTestSupport
import Testing

/// `migrate init` on a (scripted) terminal: typos, going back, EOF, declining, and a real pseudo-terminal.
@Suite("migrate init, interactive", .timeLimit(.minutes(20)))
struct InteractiveInitTests {
    static let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    func run(_ input: [String], in folder: URL, arguments: [String] = []) -> (ExitCode, CommandContext) {
        let context = CommandContext.testing(input: input, directory: folder.path, environment: Self.environment, terminal: true)
        return (Migrate.run(["init"] + arguments, context: context), context)
    }

    @Test("Return to every question writes a plan that checks and simulates", .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func acceptingDefaults() throws {
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Return to every question but the price, which has no default without a sales report: it is typed.
        let (status, context) = run(Array(repeating: "", count: 5) + ["4.99"] + Array(repeating: "", count: 12), in: folder)
        let output = context.standardOutput.text
        #expect(status == .success, "\(output)\(context.standardError.text)")
        #expect(output.contains("Which release is the first free one?\n  1. iOS 1.0 (1)  2019-03-01"))
        #expect(output.contains("> [5] "), "the default first free release is one not listed yet")
        #expect(output.contains("Summary\n  App        Tally (com.example.tally) on iOS"))
        #expect(output.contains("migrate simulate migration.json"))
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
        #expect(Migrate.run(["simulate", "migration.json", "--draws", "100"], context: .testing(directory: folder.path)) == .success)
    }

    @Test("typos are re-asked, '<' goes back, and the answers end up in the plan", .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func typosAndBack() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = [
            "Tally Counter",  // app name
            "com example",  // bundle id: typo
            "com.example.counter",
            "iSO",  // platform: typo → did you mean
            "<",  // back to the bundle id
            "com.example.tallycounter",
            "ios",
            "7",  // first free: out of range
            "3.0",
            "",  // go-live: a commit date is no default
            "June 1",  // not a date
            "2021-06-01",  // a date alone: the end of that day everywhere
            "1.49",  // price
            "Themes, Sync",
            "", "2.0",  // themes since 1.0, sync since 2.0
            "none",  // went free in 2021 with the unlock on sale: the free releases gave nothing away
            "", "",  // grants
            "", "2",  // eras: keep, everything
            "", "keep 3", "no", "250",
            "yes",
        ]
        let (status, context) = run(input, in: folder)
        let output = context.standardOutput.text
        #expect(status == .success, "\(output)\(context.standardError.text)")
        #expect(output.contains("Sorry: 'com example' is not a bundle id"))
        #expect(output.contains("Sorry: 'iSO' is not a platform. Did you mean 'iOS'?"))
        #expect(output.contains("(back)"))
        #expect(output.contains("Sorry: choose a number from 1 to 5"))
        #expect(output.contains("Sorry: an answer is needed here"))
        #expect(output.contains("Sorry: 'June 1' is not a date-time"))
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"released\": \"2021-06-02T12:00:00Z\", \"releasedSource\": \"appStore\""), "\(plan)")
        #expect(plan.contains("\"bundleID\": \"com.example.tallycounter\""))
        #expect(plan.contains("\"days\": 3") || plan.contains("3"))
        #expect(plan.contains("\"familySharing\": \"ignored\""))
    }

    /// The manual's session (`InitCommand.md`): a typo, a missing answer, going back, changing an answer at the summary.
    static let manualSession = [
        "", "", "iSO", "", "4", "", "2021-06-01T17:00:00Z", "4.99", "", "", "2.0", "none", "", "", "<", "", "", "", "", "", "", "250", "14", "2",
        "yes",
    ]

    @Test(
        "every line of a session fits 80 columns, in colour too, and wrapping loses no word",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"), arguments: [false, true])
    func sessionFitsTheTerminal(colour: Bool) throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment =
            colour ? ProcessInfo.processInfo.environment.filter { $0.key != "NO_COLOR" }.merging(["TERM": "xterm"]) { $1 } : Self.environment
        let context = CommandContext.testing(input: Self.manualSession, directory: folder.path, environment: environment, terminal: true)
        let status = Migrate.run(["init"], context: context)
        let output = context.standardOutput.text
        #expect(status == .success, "\(output)\(context.standardError.text)")
        #expect(output.contains("\u{1B}[") == colour)
        // What a terminal shows: the colour codes take no columns, and the Return typed after `> [default] ` ends its line.
        let shown = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .replacingOccurrences(of: "(?m)^(> (\\[[^\\]\\n]*\\] )?)", with: "$1\n", options: .regularExpression)
        for line in shown.split(separator: "\n") {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        // Joined again, the wrapped lines read as the wizard's whole sentences.
        let joined = shown.replacingOccurrences(of: "\n +", with: " ", options: .regularExpression)
        for sentence in [
            "the list only has a git commit date, which is when code was written, not when Apple released it: anyone who paid in between",
            "→ Cutoff rule on iOS: build number 1 is used by 1.0 (1) and by 3.0 (1), whose buyers are treated differently, so purchases are dated",
            "Policies   testers as new customers; unverified: keep last verified for 7 days; family sharing entitles",
            "4. only what their own releases included (themes): sync came in a paid upgrade they never got",
            "warning: releases[0].build: the first paid iOS release has build number 1, the value the sandbox and TestFlight report",
        ] {
            #expect(joined.contains(sentence), "\(sentence)")
        }
        // Continuations stand under their text: a summary value under its column, a choice under its words.
        let lines = shown.components(separatedBy: "\n")
        let policies = try #require(lines.firstIndex { $0.hasPrefix("  Policies   testers") })
        #expect(lines[policies + 1].hasPrefix(String(repeating: " ", count: 13)) && lines[policies + 1].dropFirst(13).first?.isLetter == true)
        #expect(shown.contains("\n  4. only what their own releases included (themes): sync came in a paid upgrade\n     they never got"))
        #expect(shown.contains("Era 2      buyers of 2.0 get everything"), "the session changed an answer at the summary")
        // What a person types follows the default on its own line, whole.
        #expect(shown.contains("\n> [com.example.tally] \n"))
    }

    @Test("input ending mid-way writes nothing and exits 1")
    func endOfInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-init-eof-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, context) = run(["Tally", "com.example.tally", "iOS"], in: folder)
        #expect(status == .checkFailed)
        #expect(context.standardOutput.text.contains("Input ended before the plan was complete; nothing was written."))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("answering no at the summary writes nothing", .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func declining() throws {
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, context) = run(Array(repeating: "", count: 5) + ["4.99"] + Array(repeating: "", count: 10) + ["no"], in: folder)
        #expect(status == .checkFailed)
        #expect(context.standardOutput.text.contains("Nothing was written."))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))
    }

    /// util-linux's `script`, which gives the real binary a pseudo-terminal, or nil when it is not installed.
    static let script = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/script" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "the real binary works on a pseudo-terminal (util-linux script)",
        .enabled(if: InteractiveInitTests.script != nil, "'script' (util-linux) is not installed, so no pseudo-terminal test"),
        .enabled(if: DemoProject.gitAvailable, "git is not installed"),
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"))
    func pseudoTerminal() throws {
        let script = try #require(Self.script)
        let binary = MigrateBinary.url
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", "\(binary.path) init --price 4.99", "/dev/null"]
        process.currentDirectoryURL = folder
        process.environment = Self.environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A wizard waiting for input it will never get must fail the test, not hang it.
        // `script` may outlive a SIGTERM while its child waits on the terminal, and our end of its input keeps the
        // output open: close that, then kill it outright.
        let writer = input.fileHandleForWriting
        let watchdog = DispatchWorkItem {
            guard process.isRunning else { return }
            try? writer.close()
            process.terminate()
            Thread.sleep(forTimeInterval: 2)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        // One typo, then Return for every default; the terminal echoes what is typed.
        input.fileHandleForWriting.write(Data(("\n\niSO\n" + String(repeating: "\n", count: 17)).utf8))
        // Closing stdin would end the session early; the wizard finishes on its own.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("Which release is the first free one?"))
        #expect(text.contains("Created migration.json and migration.schema.json."))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))
        // The schema the plan's "$schema" names, byte for byte what `migrate schema` prints.
        let schema = try String(contentsOf: folder.appendingPathComponent("migration.schema.json"), encoding: .utf8)
        #expect(schema == PlanSchema.text)
    }
}
