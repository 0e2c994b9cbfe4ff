/// Shell completion scripts made from the command tree, so they never drift from the commands.
enum CompletionScript {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// One command of the tree, with what can follow it.
    struct Node {
        /// The words after the tool's name, such as `["import", "storekit"]`.
        var path: [String]
        var spec: CommandSpec

        var subcommands: [String] { spec.subcommands.map(\.name) }
        /// Words that can come next: subcommands, and the allowed values of a positional argument.
        var words: [String] { subcommands + spec.arguments.filter(\.isPositional).flatMap { $0.choices ?? [] } }
        /// A positional argument that takes any value: a file.
        var takesFiles: Bool { spec.arguments.contains { $0.isPositional && $0.choices == nil } }
        var options: [ArgumentSpec] { spec.arguments.filter { !$0.isPositional } }

        /// Every spelling of every option and flag, with `--help` (and `--version` at the top).
        var optionWords: [String] {
            var words: [String] = []
            for option in options {
                words.append("--\(option.name)")
                if let short = option.short { words.append("-\(short)") }
            }
            words += ["--help", "-h"]
            if path.isEmpty { words.append("--version") }
            return words
        }

        /// Options that take a value, with their allowed values (empty: any file).
        var valueOptions: [(words: [String], choices: [String])] {
            options.compactMap { option in
                guard case .option = option.kind else { return nil }
                return (["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []), option.choices ?? [])
            }
        }
    }

    static func nodes(_ root: CommandSpec) -> [Node] {
        var result: [Node] = []
        func visit(_ spec: CommandSpec, path: [String]) {
            result.append(Node(path: path, spec: spec))
            for child in spec.subcommands { visit(child, path: path + [child.name]) }
        }
        visit(root, path: [])
        return result
    }

    static func script(for shell: Shell, root: CommandSpec, toolName: String) -> String {
        switch shell {
        case .bash: bash(root: root, toolName: toolName)
        case .zsh: zsh(root: root, toolName: toolName)
        case .fish: fish(root: root, toolName: toolName)
        }
    }

    static func bash(root: CommandSpec, toolName: String) -> String {
        let function = "_" + toolName.replacingOccurrences(of: "-", with: "_")
        let nodes = nodes(root)
        let paths = nodes.dropFirst().map { "/" + $0.path.joined(separator: "/") }
        var lines = [
            "# bash completion for \(toolName), made by `\(toolName) completions bash` from its commands.",
            "# Load it with: source <(\(toolName) completions bash)",
            "\(function)() {",
            "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" path=\"\" word i",
            "  (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "  for ((i = 1; i < COMP_CWORD; i++)); do",
            "    word=\"${COMP_WORDS[i]}\"",
            "    case \"$path/$word\" in",
            "      \(paths.joined(separator: "|"))) path=\"$path/$word\" ;;",
            "    esac",
            "  done",
            "  local commands=\"\" options=\"\" files=0",
            "  case \"$path\" in",
        ]
        for node in nodes {
            lines.append("    \"\(node.path.isEmpty ? "" : "/" + node.path.joined(separator: "/"))\")")
            lines.append("      commands=\"\(node.words.joined(separator: " "))\"")
            lines.append("      options=\"\(node.optionWords.joined(separator: " "))\"")
            if node.takesFiles { lines.append("      files=1") }
            if !node.valueOptions.isEmpty {
                lines.append("      case \"$prev\" in")
                for option in node.valueOptions {
                    let completion =
                        option.choices.isEmpty
                        ? "COMPREPLY=($(compgen -f -- \"$cur\"))"
                        : "COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\"))"
                    lines.append("        \(option.words.joined(separator: "|"))) \(completion); return ;;")
                }
                lines.append("      esac")
            }
            lines.append("      ;;")
        }
        lines += [
            "  esac",
            "  if [[ \"$cur\" == -* ]]; then",
            "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "  else",
            "    COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))",
            "    (( files )) && COMPREPLY+=($(compgen -f -- \"$cur\"))",
            "  fi",
            "}",
            "complete -o filenames -F \(function) \(toolName)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// zsh runs the bash function through `bashcompinit`, so both shells complete the same words.
    static func zsh(root: CommandSpec, toolName: String) -> String {
        "#compdef \(toolName)\n# zsh completion for \(toolName), made by `\(toolName) completions zsh` from its commands.\n"
            + "# Load it with: source <(\(toolName) completions zsh)\n"
            + "autoload -U +X bashcompinit && bashcompinit\n"
            + bash(root: root, toolName: toolName).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
    }

    static func fish(root: CommandSpec, toolName: String) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var lines = [
            "# fish completion for \(toolName), made by `\(toolName) completions fish` from its commands.",
            "# Load it with: \(toolName) completions fish | source",
            "complete -c \(toolName) -f",
        ]
        for node in nodes(root) {
            // The command path must have been typed, and none of its subcommands yet.
            var conditions = node.path.map { "__fish_seen_subcommand_from \($0)" }
            if node.path.isEmpty { conditions = ["__fish_use_subcommand"] }
            if !node.subcommands.isEmpty && !node.path.isEmpty {
                conditions.append("not __fish_seen_subcommand_from \(node.subcommands.joined(separator: " "))")
            }
            let condition = "-n " + quoted(conditions.joined(separator: "; and "))
            for child in node.spec.subcommands {
                lines.append("complete -c \(toolName) \(condition) -a \(child.name) -d \(quoted(child.abstract))")
            }
            for option in node.options {
                var line = "complete -c \(toolName) \(condition) -l \(option.name)"
                if let short = option.short { line += " -s \(short)" }
                if case .option = option.kind {
                    line += option.choices.map { " -x -a " + quoted($0.joined(separator: " ")) } ?? " -r -F"
                }
                lines.append(line + " -d " + quoted(option.help))
            }
            for choice in node.words where !node.subcommands.contains(choice) {
                lines.append("complete -c \(toolName) \(condition) -a \(choice)")
            }
            if node.takesFiles && node.subcommands.isEmpty {
                lines.append("complete -c \(toolName) \(condition) -F")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `migrate completions bash|zsh|fish`.
enum CompletionsCommand {
    static let shell = Argument<CompletionScript.Shell>.positionalChoice("shell", help: "bash, zsh or fish.")

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            Made from the commands themselves, so it completes every command, option and allowed value \
            of this version. bash and zsh: source <(migrate completions bash). fish: migrate completions \
            fish | source.
            """.wrappedForHelp,
        arguments: [shell],
        run: { arguments, context throws(CommandError) in
            context.standardOutput.write(CompletionScript.script(for: arguments[Self.shell], root: Migrate.root, toolName: Migrate.toolName))
            return .success
        })
}
