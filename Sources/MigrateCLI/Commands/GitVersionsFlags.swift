import MigrateImport

/// `--tagged-only` and `--all-versions`: which versions of a git history count as releases, declared once for
/// `import git` and `init`.
enum GitVersionsFlags {
    static let taggedOnly = Argument<Bool>.flag(
        "tagged-only", help: "Only versions seen at a tagged commit (the default when any version is tagged).")
    static let allVersions = Argument<Bool>.flag("all-versions", help: "Every version and build the history shows, tagged or not.")
    static let arguments: [any DeclaredArgument] = [taggedOnly, allVersions]

    /// `GitImporter.Options.taggedOnly`: true for tags only, false for every version, nil for the tagged versions
    /// when the project tags any.
    static func resolve(_ arguments: ParsedArguments) throws(CommandError) -> Bool? {
        switch (arguments[Self.taggedOnly], arguments[Self.allVersions]) {
        case (true, true): throw .usage("'--tagged-only' and '--all-versions' ask for opposite things; use one.")
        case (true, false): return true
        case (false, true): return false
        case (false, false): return nil
        }
    }
}
