import MigrateGenerator
import MigrateSupport

/// `migrate manual`: the man page, in mdoc, made from the command specs, so it names every command and option
/// of this version and can't drift from `--help`.
enum ManualCommand {
    static let spec = CommandSpec(
        name: "manual",
        abstract: "Print the manual page (mdoc) made from the commands themselves.",
        discussion: """
            Every command, option, value and default of this version, and the exit statuses. Read it with \
            migrate manual | man -l - (Linux) or migrate manual | mandoc | less; install it with \
            migrate manual > /usr/local/share/man/man1/migrate.1.
            """.wrappedForHelp,
        run: { _, context throws(CommandError) in
            context.standardOutput.write(ManualPage.render(root: Migrate.root, toolName: Migrate.toolName, version: Migrate.version))
            return .success
        })
}

/// Renders a command tree as an mdoc(7) page: NAME, SYNOPSIS, DESCRIPTION, one entry per command with its
/// arguments and options, ENVIRONMENT, EXIT STATUS and SEE ALSO. Free text goes on text lines, one sentence a
/// line, escaped, so nothing in a help string is read as a macro.
public enum ManualPage {
    /// The date of the version's release, which `.Dd` names (a page must not change with the day it is printed).
    static let date = ToolVersion.releaseDate

    public static func render(root: CommandSpec, toolName: String, version: String) -> String {
        var lines: [String] = [
            ".Dd \(date)",
            ".Dt \(toolName.uppercased()) 1",
            ".Os \(toolName) \(version)",
            ".Sh NAME",
            ".Nm \(toolName)",
            ".Nd \(escape(root.abstract.trimmingSuffix(".")))",
            ".Sh SYNOPSIS",
            ".Nm",
            ".Ar command",
            ".Op Ar arguments",
            ".Nm",
            ".Op Fl -help | Fl -version",
            ".Sh DESCRIPTION",
        ]
        lines += text(root.discussion ?? root.abstract)
        lines += [".Pp", "Every command takes", ".Fl h , Fl -help", "and prints its own help."]
        lines += [".Sh COMMANDS", ".Bl -tag -width Ds"]
        for command in root.subcommands {
            lines += entry(for: command, words: [command.name])
        }
        lines += [".El"]
        // ENVIRONMENT before EXIT STATUS: mdoc(7)'s order, which mandoc -T lint checks.
        lines += [
            ".Sh ENVIRONMENT", ".Bl -tag -width Ds", ".It Ev NO_COLOR",
            "When set and not empty, no colour is used; colour is used only on a terminal.", ".El",
        ]
        lines += [".Sh EXIT STATUS", "Following", ".Xr sysexits 3 :", ".Bl -tag -width Ds"]
        for (status, meaning) in ExitCode.documented {
            lines += [".It \(status.rawValue)"] + text(meaning)
        }
        lines += [".El"]
        lines += [".Sh SEE ALSO", ".Xr sysexits 3"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command's entry: its synopsis as the tag, the abstract and discussion, then its arguments and options,
    /// then its subcommands' entries in turn.
    private static func entry(for command: CommandSpec, words: [String]) -> [String] {
        var lines: [String] = []
        var tag = ".It Cm \(words.joined(separator: " "))"
        if command.run == nil && !command.subcommands.isEmpty { tag += " Ar subcommand" }
        for spec in command.arguments where spec.isPositional {
            guard case .positional(let required, let repeating) = spec.kind else { continue }
            let argument = "Ar \(spec.valueName)" + (repeating ? " ..." : "")
            tag += required ? " \(argument)" : " Op \(argument)"
        }
        if command.arguments.contains(where: { !$0.isPositional }) { tag += " Op Ar options" }
        lines.append(tag)
        lines += text(command.abstract)
        if let discussion = command.discussion {
            lines.append(".Pp")
            lines += text(discussion)
        }
        if !command.arguments.isEmpty {
            lines += [".Bl -tag -width Ds"]
            for spec in command.arguments {
                lines.append(".It \(label(spec))")
                lines += text(describe(spec))
            }
            lines += [".El"]
        }
        if !command.subcommands.isEmpty {
            lines += [".Bl -tag -width Ds"]
            for subcommand in command.subcommands { lines += entry(for: subcommand, words: words + [subcommand.name]) }
            lines += [".El"]
        }
        return lines
    }

    /// `Ar plan`, `Fl -format Ar format`, `Fl s , Fl -strict`.
    private static func label(_ spec: ArgumentSpec) -> String {
        let short = spec.short.map { "Fl \($0) , " } ?? ""
        switch spec.kind {
        case .positional(_, let repeating): return "Ar \(spec.valueName)" + (repeating ? " ..." : "")
        case .option(let repeating): return "\(short)Fl -\(spec.name) Ar \(spec.valueName)" + (repeating ? " ..." : "")
        case .flag: return "\(short)Fl -\(spec.name)"
        }
    }

    /// The help text with the allowed values, the default and whether it repeats, as `--help` shows them.
    private static func describe(_ spec: ArgumentSpec) -> String {
        var text = spec.help
        if let choices = spec.choices, !text.contains(choices.joined(separator: ", ")) { text += " (values: \(choices.joined(separator: ", ")))" }
        if let value = spec.defaultValue { text += " (default: \(value))" }
        if spec.isRepeating && !spec.isPositional { text += " (repeatable)" }
        return text
    }

    /// Free text as mdoc text lines: help's wrapping undone, one sentence a line (mdoc's rule, so sentence
    /// spacing is right), each line escaped.
    public static func text(_ paragraph: String) -> [String] {
        let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var lines: [String] = []
        var current: [Substring] = []
        for (index, word) in words.enumerated() {
            current.append(word)
            let next = index + 1 < words.count ? words[index + 1] : nil
            let endsSentence = [".", "?", "!"].contains(word.last) && word.count > 2 && (next?.first?.isUppercase ?? true)
            if endsSentence || next == nil {
                lines.append(escape(current.joined(separator: " ")))
                current = []
            }
        }
        return lines
    }

    /// Escapes a text line: a backslash is `\e`, and a line starting with `.` or `'` (a request) gets `\&` first.
    public static func escape(_ line: String) -> String {
        let escaped = line.replacingOccurrences(of: "\\", with: "\\e")
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
