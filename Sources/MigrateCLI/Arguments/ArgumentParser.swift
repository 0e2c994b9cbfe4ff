import MigrateSupport

/// Parses a command line against a command tree, the way swift-argument-parser does:
/// subcommands first, then options anywhere, `--` ends options.
public enum ArgumentParser {
    /// What the command line asks for.
    public enum Request: Sendable {
        case run(path: [CommandSpec], arguments: ParsedArguments)
        case help(path: [CommandSpec])
        case version
    }

    static let helpSpec = ArgumentSpec.flag("help", short: "h", help: "Show help information.")

    /// `root` is made only when the line asks for more than the version: building every command's spec is most
    /// of what `migrate --version` would do.
    public static func parse(_ arguments: [String], root makeRoot: () -> CommandSpec) throws(ParseFailure) -> Request {
        // The version is the root's own option, before any subcommand.
        if arguments.first == "--version" { return .version }
        let root = makeRoot()
        var path = [root]
        var remaining = arguments[...]

        // Subcommand words come first; `help` is a subcommand of its own.
        while let word = remaining.first, !path.last!.subcommands.isEmpty {
            if word == "--help" || word == "-h" { return .help(path: path) }
            if word == "help" {
                var target = path
                for name in remaining.dropFirst() where !name.hasPrefix("-") {
                    guard let next = target.last!.subcommand(named: name) else {
                        throw ParseFailure(path: target, error: unknownCommand(name, in: target.last!))
                    }
                    target.append(next)
                }
                return .help(path: target)
            }
            if word.hasPrefix("-") {
                if path.last!.run != nil { break }
                throw ParseFailure(path: path, error: .usage("Unknown option '\(word)'. A subcommand is expected first."))
            }
            guard let next = path.last!.subcommand(named: word) else {
                if path.last!.run != nil { break }
                throw ParseFailure(path: path, error: unknownCommand(word, in: path.last!))
            }
            path.append(next)
            remaining = remaining.dropFirst()
        }

        let command = path.last!
        // Help wins over everything else on the line, even a missing argument (but not after `--`).
        let beforeTerminator = remaining.prefix { $0 != "--" }
        if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") { return .help(path: path) }
        if command.run == nil {
            if remaining.contains("--help") || remaining.contains("-h") || remaining.isEmpty { return .help(path: path) }
        }
        do {
            let parsed = try parseArguments(Array(remaining), for: command)
            if parsed.flags.contains(helpSpec.name) { return .help(path: path) }
            return .run(path: path, arguments: parsed)
        } catch {
            throw ParseFailure(path: path, error: error)
        }
    }

    private static func unknownCommand(_ word: String, in command: CommandSpec) -> CommandError {
        let names = command.subcommands.map(\.name) + ["help"]
        let suggestion = Suggestions.didYouMean(word, in: names)
        return .usage("Unknown command '\(word)'.\(suggestion)")
    }

    static func parseArguments(_ words: [String], for command: CommandSpec) throws(CommandError) -> ParsedArguments {
        let specs = command.arguments + [helpSpec]
        var parsed = ParsedArguments()
        let positionals = specs.filter(\.isPositional)
        var positionalValues: [String] = []
        var index = 0
        var optionsEnded = false

        func store(_ spec: ArgumentSpec, _ value: String) throws(CommandError) {
            if let choices = spec.choices, !choices.contains(value) {
                let suggestion = Suggestions.didYouMean(value, in: choices)
                throw .usage(
                    "The value '\(value)' is invalid for '\(spec.valueLabel)'.\(suggestion) Choose one of: \(choices.joined(separator: ", "))."
                )
            }
            if !spec.isRepeating, parsed.values[spec.name] != nil, !spec.isPositional {
                throw .usage("'--\(spec.name)' is given more than once.")
            }
            var converted: any Sendable = value
            if let conversion = spec.conversion {
                switch conversion(value) {
                case .value(let typed): converted = typed
                case .invalid(let expected):
                    throw .usage("The value '\(value)' is invalid for '\(spec.valueLabel)'. \(expected)")
                }
            }
            parsed.values[spec.name, default: []].append(converted)
        }

        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positionalValues.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inlineValue: String?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                // A short option: `-h`, `-f json`, or `-fjson`.
                let letters = Array(word.dropFirst())
                guard let letter = letters.first, let spec = specs.first(where: { $0.short == letter }) else {
                    throw unknownOption(word, specs: specs)
                }
                name = spec.name
                if letters.count > 1 { inlineValue = String(letters.dropFirst()) }
            }
            guard let spec = specs.first(where: { $0.name == name && !$0.isPositional }) else {
                throw unknownOption(word.split(separator: "=").first.map(String.init) ?? word, specs: specs)
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw .usage("'--\(spec.name)' takes no value.") }
                parsed.flags.insert(spec.name)
            case .option:
                if let inlineValue {
                    try store(spec, inlineValue)
                } else {
                    guard index < words.count, !(words[index].hasPrefix("-") && words[index].count > 1 && spec.choices != nil) else {
                        throw .usage("Missing value for '--\(spec.name) <\(spec.valueName)>'.")
                    }
                    try store(spec, words[index])
                    index += 1
                }
            case .positional:
                break
            }
        }

        var queue = positionalValues[...]
        for spec in positionals {
            guard case .positional(let required, let repeating) = spec.kind else { continue }
            if repeating {
                for value in queue { try store(spec, value) }
                if required && queue.isEmpty { throw .usage("Missing expected argument '<\(spec.valueName)>'.") }
                queue = []
            } else if let value = queue.popFirst() {
                try store(spec, value)
            } else if required {
                throw .usage("Missing expected argument '<\(spec.valueName)>'.")
            }
        }
        if let extra = queue.first {
            throw .usage("Unexpected argument '\(extra)'.")
        }
        return parsed
    }

    private static func unknownOption(_ word: String, specs: [ArgumentSpec]) -> CommandError {
        let names = specs.filter { !$0.isPositional }.map { "--\($0.name)" }
        let suggestion = Suggestions.didYouMean(word.hasPrefix("--") ? word : "-" + word, in: names)
        return .usage("Unknown option '\(word)'.\(suggestion)")
    }
}

/// A parse error, with the command it happened in (for the usage line).
public struct ParseFailure: Error, Sendable {
    public var path: [CommandSpec]
    public var error: CommandError
}
