/// Renders help in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS layout.
public enum HelpFormatter {
    static let labelWidth = 24
    static let lineWidth = TerminalWidth.columns

    public static func help(for path: [CommandSpec], toolName: String) -> String {
        let command = path.last!
        // A long abstract goes on under itself, so the line fits and only headings start at the margin.
        let overview = wrap(command.abstract, width: lineWidth - "OVERVIEW: ".count)
        var text = "OVERVIEW: " + overview.joined(separator: "\n" + String(repeating: " ", count: "OVERVIEW: ".count)) + "\n"
        if let discussion = command.discussion {
            text += "\n" + discussion + "\n"
        }
        text += "\nUSAGE: \(usage(for: path, toolName: toolName))\n"

        let positionals = command.arguments.filter(\.isPositional)
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for spec in positionals { text += row(spec.label, describe(spec)) }
        }
        text += "\nOPTIONS:\n"
        for spec in command.arguments where !spec.isPositional { text += row(spec.label, describe(spec)) }
        if path.count == 1 { text += row("--version", "Show the version.") }
        text += row(ArgumentParser.helpSpec.label, ArgumentParser.helpSpec.help)

        if !command.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for subcommand in command.subcommands { text += row(subcommand.name, subcommand.abstract) }
            text += "\n  See '\(toolName) help <subcommand>' for detailed help.\n"
        }
        return text
    }

    public static func usage(for path: [CommandSpec], toolName: String) -> String {
        let command = path.last!
        let words = [toolName] + path.dropFirst().map(\.name)
        if command.run == nil && !command.subcommands.isEmpty {
            return (words + ["<subcommand>"]).joined(separator: " ")
        }
        var parts = words
        var positionals = words
        for spec in command.arguments {
            switch spec.kind {
            case .positional(let required, _):
                let text = required ? spec.synopsis : "[\(spec.synopsis)]"
                parts.append(text)
                positionals.append(text)
            case .option, .flag:
                parts.append("[\(spec.synopsis)]")
            }
        }
        let full = parts.joined(separator: " ")
        // Like swift-argument-parser, a long usage line folds its options into [<options>].
        if full.count + "USAGE: ".count > lineWidth {
            return (positionals + ["[<options>]"]).joined(separator: " ")
        }
        return full
    }

    private static func describe(_ spec: ArgumentSpec) -> String {
        var text = spec.help
        if let choices = spec.choices, !text.contains("\(choices.joined(separator: ", "))") {
            text += " (values: \(choices.joined(separator: ", ")))"
        }
        if let value = spec.defaultValue { text += " (default: \(value))" }
        return text
    }

    private static func row(_ label: String, _ description: String) -> String {
        let indent = String(repeating: " ", count: labelWidth + 2)
        let lines = wrap(description, width: lineWidth - labelWidth - 2)
        var text = "  " + label
        if label.count <= labelWidth - 2 {
            text += String(repeating: " ", count: labelWidth - label.count) + (lines.first ?? "") + "\n"
        } else {
            text += "\n" + indent + (lines.first ?? "") + "\n"
        }
        for line in lines.dropFirst() { text += indent + line + "\n" }
        return text
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        // The characters in `current`, kept rather than counted again for every word.
        var currentCount = 0
        for word in text.split(separator: " ") {
            let wordCount = word.count
            if current.isEmpty {
                current = String(word)
                currentCount = wordCount
            } else if currentCount + 1 + wordCount <= width {
                current += " "
                current += word
                currentCount += 1 + wordCount
            } else {
                lines.append(current)
                current = String(word)
                currentCount = wordCount
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
