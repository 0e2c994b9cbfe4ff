import Foundation
import PackagePlugin

/// Runs `migrate` from SwiftPM in the app's own repository, so a team pins its version in
/// Package.resolved like SwiftGen's or SwiftLint's. It asks to write into the package, for the
/// commands that write (`generate`, `import`, `init`); `migrate-read` runs the ones that only read
/// without asking:
///
///     swift package plugin --allow-writing-to-package-directory migrate generate migration.json
///
/// Arguments go to `migrate` unchanged, run in the package's folder; a failing `migrate` fails the
/// plugin (SwiftPM then exits with 1), its own message already on standard error.
@main
struct MigratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
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

/// `migrate` said no: its own message is already on standard error.
struct MigrateFailed: Error, CustomStringConvertible {
    var arguments: [String]
    var status: Int32

    var description: String {
        "migrate \(arguments.joined(separator: " ")) exited with status \(status)"
    }
}
