/// One argument, option or flag a command accepts.
public struct ArgumentSpec: Sendable {
    public enum Kind: Sendable {
        /// A positional argument such as `<plan>`.
        case positional(required: Bool, repeating: Bool)
        /// `--name value`, `--name=value` or `-n value`.
        case option(repeating: Bool)
        /// `--name` alone.
        case flag
    }

    public var name: String
    public var kind: Kind
    public var short: Character?
    public var valueName: String
    public var help: String
    public var defaultValue: String?
    /// Allowed values; anything else is a usage error with a suggestion.
    public var choices: [String]?
    /// Turns the text into the typed value a command reads (`Argument`), or refuses it with a usage error
    /// before the command runs. Nil keeps the text.
    public var conversion: (@Sendable (String) -> Conversion)?
    /// What a path-valued argument names (a file read, a file written…), checked by `FileRoles` before the command
    /// runs: no output may be an input of the same run.
    public var role: FileRole?

    public static func positional(_ name: String, help: String, required: Bool = true, repeating: Bool = false) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .positional(required: required, repeating: repeating), short: nil, valueName: name, help: help)
    }

    public static func option(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, defaultValue: String? = nil,
        choices: [String]? = nil, repeating: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(
            name: name, kind: .option(repeating: repeating), short: short, valueName: valueName ?? name, help: help,
            defaultValue: defaultValue, choices: choices)
    }

    public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .flag, short: short, valueName: name, help: help)
    }

    public var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    var isRepeating: Bool {
        switch kind {
        case .positional(_, let repeating), .option(let repeating): repeating
        case .flag: false
        }
    }

    /// `<plan>`, `--format <format>` or `--strict`, as usage lines show it.
    var synopsis: String {
        switch kind {
        case .positional(_, let repeating): "<\(valueName)>" + (repeating ? " ..." : "")
        case .option(let repeating): "--\(name) <\(valueName)>" + (repeating ? " ..." : "")
        case .flag: "--\(name)"
        }
    }

    /// `<shell>` or `--format <format>`, as an error about a value names it.
    var valueLabel: String {
        isPositional ? "<\(valueName)>" : "--\(name) <\(valueName)>"
    }

    /// The label in the ARGUMENTS or OPTIONS column.
    var label: String {
        let shortPrefix = short.map { "-\($0), " } ?? ""
        switch kind {
        case .positional: return "<\(valueName)>"
        case .option: return "\(shortPrefix)--\(name) <\(valueName)>"
        case .flag: return "\(shortPrefix)--\(name)"
        }
    }
}

/// A command: its arguments, its help text and how it runs.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    /// Paragraphs after the overview: made when help or the manual shows them, never while a command line is
    /// parsed (wrapping every command's text took most of a run's start).
    public var discussion: String? { makeDiscussion() }
    private let makeDiscussion: @Sendable () -> String?
    public var arguments: [ArgumentSpec]
    public var subcommands: [CommandSpec]
    /// Nil for a group whose subcommands do the work.
    public var run: (@Sendable (ParsedArguments, CommandContext) throws(CommandError) -> ExitCode)?
    /// The command's validation step: every problem of how its arguments go together (an option that applies only
    /// with another, two that exclude each other), found before anything is read and reported all at once.
    public var validate: (@Sendable (ParsedArguments) -> [String])?

    public init(
        name: String, abstract: String, discussion: @autoclosure @escaping @Sendable () -> String? = nil, arguments: [any DeclaredArgument] = [],
        subcommands: [CommandSpec] = [], validate: (@Sendable (ParsedArguments) -> [String])? = nil,
        run: (@Sendable (ParsedArguments, CommandContext) throws(CommandError) -> ExitCode)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.makeDiscussion = discussion
        self.arguments = arguments.map(\.spec)
        self.subcommands = subcommands
        self.validate = validate
        self.run = run
    }

    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
