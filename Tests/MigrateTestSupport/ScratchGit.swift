import Foundation

/// git as the tests that build a repository run it: in a scratch folder, with a fixed author and no signing, dated
/// when `date` is given, its output discarded.
public enum ScratchGit {
    /// Whether git is on PATH.
    public static var isAvailable: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/git")
        }
    }

    /// Runs `git arguments` in `folder` as `author` (`<author>@example.com`), committer and author dated `date`.
    public static func run(_ arguments: [String], in folder: URL, date: String? = nil, author: String = "Test") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "git", "-C", folder.path, "-c", "user.name=\(author)", "-c", "user.email=\(author.lowercased())@example.com", "-c",
                "commit.gpgsign=false", "-c", "tag.gpgsign=false",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        if let date {
            environment["GIT_COMMITTER_DATE"] = date
            environment["GIT_AUTHOR_DATE"] = date
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["git": arguments.joined(separator: " ")]) }
    }
}
