import MigrateImport

/// `--tagged-only` and `--all-versions`: which versions of a git history count as releases, declared once for
/// `import git` and `init`.
enum GitVersionsFlags {
    static let taggedOnly = Argument<Bool>.flag(
        "tagged-only", help: "Only versions seen at a tagged commit (the default when any version is tagged).")
    static let allVersions = Argument<Bool>.flag("all-versions", help: "Every version and build the history shows, tagged or not.")
    static let arguments: [any DeclaredArgument] = [taggedOnly, allVersions]

    /// How the two go together, for a command's validation step: they exclude each other.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        guard arguments[Self.taggedOnly] && arguments[Self.allVersions] else { return [] }
        return ["'--tagged-only' and '--all-versions' ask for opposite things; use one."]
    }

    /// `GitImporter.Options.taggedOnly`: true for tags only, false for every version, nil for the tagged versions
    /// when the project tags any. Both given was refused before the run (`usageProblems`).
    static func resolve(_ arguments: ParsedArguments) -> Bool? {
        if arguments[Self.taggedOnly] { return true }
        return arguments[Self.allVersions] ? false : nil
    }
}
