import Foundation
import MigrateCLI

/// One in-process run of `migrate`, by default from the repository root, with what it printed and its exit status.
public struct Run: Sendable {
    public var status: ExitCode
    public var output: String
    public var error: String

    /// The environment a run sees unless a test gives another: only the machine's PATH, so tools such as git are
    /// found and nothing else of the machine (colours, terminal width, home) changes what is printed.
    public static let defaultEnvironment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    public init(
        _ arguments: String..., directory: URL = repositoryRoot, environment: [String: String] = defaultEnvironment, terminal: Bool = false
    ) {
        self.init(arguments: arguments, directory: directory, environment: environment, terminal: terminal)
    }

    public init(
        arguments: [String], directory: URL = repositoryRoot, environment: [String: String] = defaultEnvironment, terminal: Bool = false
    ) {
        let context = CommandContext.testing(directory: directory.path, environment: environment, terminal: terminal)
        status = Migrate.run(arguments, context: context)
        output = context.standardOutput.text
        error = context.standardError.text
    }
}
