import MigrateSupport

/// Exit statuses, following sysexits(3).
public struct ExitCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let success = ExitCode(rawValue: 0)
    /// A check ran and found problems.
    public static let checkFailed = ExitCode(rawValue: 1)
    /// EX_USAGE: the command line is wrong.
    public static let usage = ExitCode(rawValue: 64)
    /// EX_DATAERR: an input file is malformed.
    public static let dataError = ExitCode(rawValue: 65)
    /// EX_NOINPUT: an input file is missing or unreadable.
    public static let noInput = ExitCode(rawValue: 66)
    /// EX_SOFTWARE: a bug in migrate.
    public static let software = ExitCode(rawValue: 70)
    /// EX_CANTCREAT: an output file cannot be created.
    public static let cannotCreate = ExitCode(rawValue: 73)
    /// EX_IOERR: an output could not be written (a full disk, a device that fails), standard output included.
    public static let ioError = ExitCode(rawValue: 74)

    public var description: String { String(rawValue) }

    /// Every status `migrate` ends with and what it means, for the manual page; anything else is a bug.
    public static let documented: [(status: ExitCode, meaning: String)] = [
        (.success, "Success, also for --help and --version."),
        (
            .checkFailed,
            "check found errors, or warnings with --strict; explain --batch --strict decided a row with a warning; codes assign left a license holder without a code."
        ),
        (.usage, "The command line is wrong: an unknown command or option, a missing or malformed argument."),
        (
            .dataError,
            "An input is malformed: a file that is not JSON, a plan check rejects given to a command that needs a valid one, "
                + "an unreadable receipt, a source import cannot read, a customer list with a skipped row or no customer."
        ),
        (.noInput, "An input is missing or is not a regular file; for import git, a folder that is no repository or no git on PATH."),
        (.software, "A bug in migrate."),
        (
            .cannotCreate,
            "An output cannot be created: an unwritable or missing folder, an output that names an input, or generated files edited by hand (without --force)."
        ),
        (.ioError, "An output could not be written: a full disk or a device error, standard output included. Nothing half written is left."),
    ]
}

/// An error that ends a command with a message on stderr and an exit status.
public struct CommandError: Error, Sendable {
    public var exitCode: ExitCode
    public var message: String
    /// Show the command's usage line after the message.
    public var showsUsage: Bool
    /// More problems found at the same time (a command's validation step reports every one), each on its own line.
    public var more: [String] = []

    public init(_ exitCode: ExitCode, _ message: String, showsUsage: Bool = false) {
        self.exitCode = exitCode
        self.message = message
        self.showsUsage = showsUsage
    }

    public static func usage(_ message: String) -> CommandError {
        CommandError(.usage, message, showsUsage: true)
    }

    /// Every usage problem of a command line at once, or nil when there is none.
    public static func usage(_ problems: [String]) -> CommandError? {
        guard let first = problems.first else { return nil }
        var error = usage(first)
        error.more = Array(problems.dropFirst())
        return error
    }

    /// A write that failed: exit 74 when the bytes couldn't be written (a full disk, a device error), 73 when the
    /// file couldn't be created (permissions, a file where a folder should be). `ending` ends the message: what was
    /// left as it was.
    public static func writing(_ error: FileWriteError, _ ending: String = ".") -> CommandError {
        switch error.kind {
        case .noSpace, .io: CommandError(.ioError, error.description + ending)
        case .permission, .notAFolder, .other: CommandError(.cannotCreate, error.description + ending)
        }
    }
}
