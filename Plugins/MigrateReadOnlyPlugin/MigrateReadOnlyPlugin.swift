import Foundation
import PackagePlugin

/// Runs the `migrate` commands that only read, from SwiftPM, without asking for any permission:
///
///     swift package plugin migrate-read check migration.json
///     swift package plugin migrate-read simulate migration.json
///
/// `check`, `explain` and `simulate` read the plan and print; anything else is refused with the
/// writing plugin's command line (`migrate`, which asks to write into the package). Arguments go to
/// `migrate` unchanged, run in the package's folder; a failing `migrate` fails the plugin.
@main
struct MigrateReadOnlyPlugin: CommandPlugin {
    /// The commands that never write into the package.
    static let readingCommands = ["check", "explain", "simulate"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let command = arguments.first, Self.readingCommands.contains(command) || ["help", "--help", "-h", "--version"].contains(command)
        else {
            throw NotReadOnly(command: arguments.first)
        }
        let tool = try context.tool(named: "migrate")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw MigrateFailed(arguments: arguments, status: process.terminationStatus)
        }
    }
}

/// A command this plugin doesn't run, because it may write into the package.
struct NotReadOnly: Error, CustomStringConvertible {
    var command: String?

    var description: String {
        let named = command.map { "'\($0)' may write into the package" } ?? "no command given"
        return "migrate-read runs only \(MigrateReadOnlyPlugin.readingCommands.joined(separator: ", ")): \(named). "
            + "Use the writing plugin: swift package plugin --allow-writing-to-package-directory migrate \(command ?? "<command>") …"
    }
}

/// `migrate` said no: its own message is already on standard error.
struct MigrateFailed: Error, CustomStringConvertible {
    var arguments: [String]
    var status: Int32

    var description: String {
        "migrate \(arguments.joined(separator: " ")) exited with status \(status)"
    }
}
