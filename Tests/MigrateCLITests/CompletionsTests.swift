import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// `migrate completions`: scripts made from the command tree, tried in a real bash.
@Suite("Shell completions", .timeLimit(.minutes(20)))
struct CompletionsTests {
    /// What bash completes for `words` (the last one being typed), with the script loaded.
    static func complete(_ words: [String], script: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("migrate.bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let command = "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _migrate; printf '%s\\n' \"${COMPREPLY[@]}\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", "--norc", "--noprofile", "-c", command]
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(
        "bash completes commands, subcommands, options and allowed values",
        arguments: [
            (["migrate", "gen"], ["generate"]),
            (["migrate", "import", "st"], ["storekit"]),
            (["migrate", "generate", "--mo"], ["--module"]),
            (["migrate", "generate", "--only", ""], ["swift", "tests", "docs", "storekit", "server"]),
            (["migrate", "check", "--format", "j"], ["json"]),
            (["migrate", "completions", "z"], ["zsh"]),
            (["migrate", "--ver"], ["--version"]),
        ])
    func bash(words: [String], expected: [String]) throws {
        let run = Run("completions", "bash")
        #expect(run.status == .success)
        #expect(try Self.complete(words, script: run.output) == expected)
    }

    @Test("Every command and option of the tree is in every script, so they never drift")
    func coversTheTree() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = Run("completions", shell).output
            var missing: [String] = []
            func visit(_ spec: CommandSpec) {
                for child in spec.subcommands {
                    if !script.contains(child.name) { missing.append(child.name) }
                    visit(child)
                }
                for argument in spec.arguments
                where !argument.isPositional && !script.contains("--\(argument.name)") && !script.contains("-l \(argument.name)") {
                    missing.append(argument.name)
                }
            }
            visit(Migrate.root)
            #expect(missing.isEmpty, "\(shell) lacks \(missing)")
        }
        #expect(Run("completions", "zsh").output.hasPrefix("#compdef migrate\n"))
        #expect(Run("completions", "fish").output.contains("complete -c migrate -n '__fish_use_subcommand' -a generate -d "))
    }

    @Test("An unknown shell is a usage error with a suggestion")
    func unknownShell() {
        let run = Run("completions", "zhs")
        #expect(run.status == .usage)
        #expect(run.error.contains("Did you mean 'zsh'?"))
    }
}
