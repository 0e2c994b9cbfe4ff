import Foundation
import Testing

@testable import MigrateCLI

/// A command line builds only the command it names; what it parses to is what the whole tree parses it to.
@Suite("The command tree, made as a line needs it", .timeLimit(.minutes(20)))
struct CommandTreeTests {
    @Test("Each top-level command is listed once, under its own name, in the tree's order")
    func commandsNamed() {
        let names = Migrate.commands.map(\.name)
        #expect(Migrate.commands.map { $0.spec().name } == names)
        #expect(Migrate.root.subcommands.map(\.name) == names)
        #expect(Set(names).count == names.count)
    }

    @Test(
        "A line that names a command parses as it does against every command",
        arguments: [
            ["matrix", "--model", "model.txt"], ["import", "storekit", "Products.storekit", "--plan", "migration.json"],
            ["check", "--help"], ["explain", "migration.json", "--original-version", "31"], ["help", "matrix"], ["--help"],
            ["matrx"], ["generate", "--no-such-option"], ["codes"], [],
        ])
    func narrowedTreeParsesAlike(_ line: [String]) {
        #expect(outcome(line, root: Migrate.root(for: line)) == outcome(line, root: Migrate.root))
    }

    /// What a parse decided, told apart: the command path, and the error's words.
    private func outcome(_ line: [String], root: CommandSpec) -> String {
        do {
            switch try ArgumentParser.parse(line, root: { root }) {
            case .version: return "version"
            case .help(let path): return "help " + path.map(\.name).joined(separator: " ")
            case .run(let path, _): return "run " + path.map(\.name).joined(separator: " ")
            }
        } catch {
            return "error at \(error.path.map(\.name).joined(separator: " ")): \(error.error.message)"
        }
    }
}
