import Foundation

/// The real public files in ../shared/fixtures, beside the developers' checkout; a user's clone has none. Tests that
/// read them carry `.enabled(if: SharedFixtures.has(…), …)`, so Swift Testing reports them skipped, never passed.
public enum SharedFixtures {
    /// ../shared/fixtures, beside the repository.
    public static let folder = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// The file or folder at `path` under ../shared/fixtures.
    public static func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

    /// Whether ../shared/fixtures is beside the repository.
    public static var isPresent: Bool { has("") }

    /// Whether ../shared/fixtures holds `path` (a file or a folder).
    public static func has(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }
}

/// The `migrate` binary `swift build` makes: tests that start a real process carry
/// `.enabled(if: MigrateBinary.isBuilt, …)`.
public enum MigrateBinary {
    public static let url = repositoryRoot.appendingPathComponent(".build/debug/migrate")

    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: url.path) }
}
