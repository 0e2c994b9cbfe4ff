import Foundation
import MigrateCLI
import MigrateGenerator
import MigrateSupport
import MigrateTestSupport
import Testing

/// The man page is made from the command specs: every command, argument and option of this version is in it,
/// with its help, and every exit status.
@Suite("migrate manual", .timeLimit(.minutes(20)))
struct ManualTests {
    /// Every command below the root with the words that name it (`templates show`).
    static func commands(_ command: CommandSpec = Migrate.root, words: [String] = []) -> [(words: [String], spec: CommandSpec)] {
        command.subcommands.flatMap { subcommand in
            [(words + [subcommand.name], subcommand)] + commands(subcommand, words: words + [subcommand.name])
        }
    }

    static let page = Run("manual").output

    /// The path of an installed `mandoc`, or nil.
    static let mandoc: String? = ["/usr/bin/mandoc", "/usr/local/bin/mandoc", "/opt/homebrew/bin/mandoc"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test("The page's date is the release's: the CHANGELOG's heading for this version names the same day")
    func releaseDate() throws {
        let changelog = try String(contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## [\(ToolVersion.current)] - ") })
        let day = try #require(heading.split(separator: " ").last)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = try #require(formatter.date(from: String(day)))
        formatter.dateFormat = "MMMM d, yyyy"
        #expect(formatter.string(from: date) == ToolVersion.releaseDate)
        #expect(Self.page.hasPrefix(".Dd \(ToolVersion.releaseDate)\n"))
    }

    @Test("migrate manual prints an mdoc page, the same every time, and exits 0")
    func prints() {
        let run = Run("manual")
        #expect(run.status == .success)
        #expect(run.error.isEmpty)
        #expect(run.output.hasPrefix(".Dd "))
        #expect(run.output.contains(".Dt MIGRATE 1\n"))
        #expect(run.output.contains(".Os migrate \(Migrate.version)\n"))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "SEE ALSO"] {
            #expect(run.output.contains("\n.Sh \(section)\n"), "no \(section) section")
        }
        #expect(Run("manual").output == run.output)
    }

    @Test("Every command has an entry with its abstract", arguments: commands().map { $0.words.joined(separator: " ") })
    func everyCommand(name: String) throws {
        let command = try #require(Self.commands().first { $0.words.joined(separator: " ") == name }).spec
        #expect(Self.page.contains("\n.It Cm \(name)"), "no entry for \(name)")
        #expect(Self.page.contains(ManualPage.text(command.abstract)[0]), "\(name)'s abstract")
    }

    @Test("Every argument and option is listed with its value name and help", arguments: commands().map { $0.words.joined(separator: " ") })
    func everyOption(name: String) throws {
        let command = try #require(Self.commands().first { $0.words.joined(separator: " ") == name }).spec
        for spec in command.arguments {
            let label: String
            switch spec.kind {
            case .positional: label = "Ar \(spec.valueName)"
            case .option: label = "Fl -\(spec.name) Ar \(spec.valueName)"
            case .flag: label = "Fl -\(spec.name)"
            }
            #expect(Self.page.contains(label), "\(name): \(label)")
            for line in ManualPage.text(spec.help) { #expect(Self.page.contains("\n\(line)"), "\(name) \(spec.name): \(line)") }
            if let choices = spec.choices { #expect(Self.page.contains(choices.joined(separator: ", ")), "\(name) \(spec.name)'s values") }
            if let value = spec.defaultValue { #expect(Self.page.contains("(default: \(value))"), "\(name) \(spec.name)'s default") }
        }
    }

    @Test("Every exit status is listed with its meaning")
    func exitStatuses() {
        let section = Self.page.components(separatedBy: ".Sh EXIT STATUS").last ?? ""
        for (status, meaning) in ExitCode.documented {
            #expect(section.contains(".It \(status.rawValue)\n"), "exit \(status)")
            #expect(section.contains(ManualPage.text(meaning)[0]))
        }
        #expect(ExitCode.documented.map(\.status.rawValue) == [0, 1, 64, 65, 66, 70, 73, 74])
    }

    @Test("No text line of the page starts with a request character or holds a raw backslash")
    func escaped() {
        let macros = Set(Self.page.split(separator: "\n").filter { $0.hasPrefix(".") }.map { $0.split(separator: " ")[0] })
        #expect(macros.isSubset(of: [".Dd", ".Dt", ".Os", ".Sh", ".Nm", ".Nd", ".Ar", ".Op", ".Pp", ".Bl", ".El", ".It", ".Xr", ".Fl"]), "\(macros)")
        for line in Self.page.split(separator: "\n") where line.contains("\\") {
            #expect(line.contains("\\e") || line.hasPrefix("\\&"), "\(line)")
        }
    }

    @Test("mandoc -T lint finds nothing to say", .enabled(if: mandoc != nil, "mandoc is not installed"))
    func lint() throws {
        let scratch = try Scratch()
        let file = try scratch.write("migrate.1", Self.page)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.mandoc))
        process.arguments = ["-T", "lint", "-W", "warning", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.isEmpty, "\(output)")
    }
}
