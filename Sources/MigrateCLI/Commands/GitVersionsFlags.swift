import MigrateImport

/// `--tagged-only` and `--all-versions`: which versions of a git history count as releases, declared once for
/// `import git` and `init`.
enum GitVersionsFlags {
    static let specs: [ArgumentSpec] = [
        .flag("tagged-only", help: "Only versions seen at a tagged commit (the default when any version is tagged)."),
        .flag("all-versions", help: "Every version and build the history shows, tagged or not."),
    ]

    /// `GitImporter.Options.taggedOnly`: true for tags only, false for every version, nil for the tagged versions
    /// when the project tags any.
    static func taggedOnly(_ arguments: ParsedArguments) throws(CommandError) -> Bool? {
        switch (arguments.flag("tagged-only"), arguments.flag("all-versions")) {
        case (true, true): throw .usage("'--tagged-only' and '--all-versions' ask for opposite things; use one.")
        case (true, false): return true
        case (false, true): return false
        case (false, false): return nil
        }
    }
}
