import Foundation
import MigrateGenerator
import MigrateSupport

/// The `migrate` command line, runnable in-process: `main.swift` only forwards to `run`.
public enum Migrate {
    public static let toolName = "migrate"
    public static let version = ToolVersion.current

    /// The top-level commands, in the order a user runs them, then the helpers; each made only when asked for.
    static let commands: [(name: String, spec: @Sendable () -> CommandSpec)] = [
        ("init", { InitCommand.spec }), ("check", { CheckCommand.spec }), ("simulate", { SimulateCommand.spec }),
        ("report", { ReportCommand.spec }), ("generate", { GenerateCommand.spec }), ("explain", { ExplainCommand.spec }),
        ("matrix", { MatrixCommand.spec }), ("import", { ImportCommand.spec }), ("codes", { CodesCommand.spec }),
        ("templates", { TemplatesCommand.spec }), ("schema", { SchemaCommand.spec }), ("completions", { CompletionsCommand.spec }),
        ("manual", { ManualCommand.spec }),
    ]

    /// The command tree.
    public static var root: CommandSpec { tree(commands.map { $0.spec() }) }

    /// The tree a command line needs: when its first word names a command, that command alone (running `matrix`
    /// needn't make every other command's arguments, a good part of a short run's start); else every command.
    static func root(for arguments: [String]) -> CommandSpec {
        guard let first = arguments.first, let command = commands.first(where: { $0.name == first }) else { return root }
        return tree([command.spec()])
    }

    private static func tree(_ subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(
            name: toolName,
            abstract: "Move a paid app to freemium without taking anything away from the people who paid.",
            discussion: """
                migrate works from a migration plan (migration.json): your releases, features, products and \
                legacy tiers. The steps, in order: init writes the plan from your project's files and a few \
                answers (import adds more sources later); check finds launch-day traps; simulate compares \
                staying paid with freemium, and report writes it as one HTML page for whoever decides; generate writes the Swift, tests and StoreKit configuration; \
                explain says what any one customer gets, and matrix lists the customers to test.
                """.wrappedForHelp,
            subcommands: subcommands)
    }

    /// Runs one command line and returns the exit status. Nothing here calls `exit`.
    public static func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        let request: ArgumentParser.Request
        do {
            request = try ArgumentParser.parse(arguments, root: { root(for: arguments) })
        } catch {
            report(error.error, path: error.path, context: context)
            return error.error.exitCode
        }
        var status = ExitCode.success
        // Empty for --version, which answers before the tree is built.
        var commandPath: [CommandSpec] = []
        switch request {
        case .version:
            context.standardOutput.write("\(version)\n")
        case .help(let path):
            commandPath = path
            context.standardOutput.write(HelpFormatter.help(for: path, toolName: toolName))
        case .run(let path, let parsed):
            commandPath = path
            guard let run = path.last!.run else {
                context.standardOutput.write(HelpFormatter.help(for: path, toolName: toolName))
                break
            }
            do throws(CommandError) {
                // How the arguments go together, every problem at once, before anything is read.
                if let validate = path.last!.validate, let problems = CommandError.usage(validate(parsed)) { throw problems }
                try FileRoles.check(path.last!.arguments, parsed, context: context)
                status = try run(parsed, context)
            } catch {
                report(error, path: path, context: context)
                status = error.exitCode
            }
        }
        // Output that never reached standard output (a full disk, /dev/full) is a failure, whatever the command said.
        if context.standardOutput.failure != 0 {
            let reason = String(cString: strerror(context.standardOutput.failure))
            report(
                CommandError(.ioError, "cannot write to standard output: \(reason); what it received is incomplete."),
                path: commandPath.isEmpty ? [root] : commandPath,
                context: context)
            status = .ioError
        }
        return status
    }

    static func report(_ error: CommandError, path: [CommandSpec], context: CommandContext) {
        let style = context.style(for: context.standardError)
        var text = "\(style.red(style.bold("Error:"))) \(error.message)\n"
        for problem in error.more { text += "\(style.red(style.bold("Error:"))) \(problem)\n" }
        if error.showsUsage {
            text += "Usage: \(HelpFormatter.usage(for: path, toolName: toolName))\n"
            text += "  See '\(([toolName] + path.dropFirst().map(\.name)).joined(separator: " ")) --help' for more information.\n"
        }
        context.standardError.write(text)
    }
}

extension String {
    /// Joins a multi-line literal's lines into paragraphs wrapped for help output.
    var wrappedForHelp: String {
        HelpFormatter.wrap(self, width: HelpFormatter.lineWidth).joined(separator: "\n")
    }
}
