import Foundation

/// A real git repository built by a test (or the benchmark's twin), with commits at chosen dates.
final class GitRepository {
    let url: URL
    let project: String
    let xcconfig: String

    init(in folder: URL) throws {
        url = folder.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("Shelf.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("Config"), withIntermediateDirectories: true)
        project = try String(contentsOf: fixtures.appendingPathComponent("xcode/Shelf/Shelf.xcodeproj/project.pbxproj"), encoding: .utf8)
        xcconfig = try String(contentsOf: fixtures.appendingPathComponent("xcode/Shelf/Config/Shelf.xcconfig"), encoding: .utf8)
        try git("init", "-q", "-b", "main")
    }

    @discardableResult
    func git(_ arguments: String..., date: String? = nil, authorDate: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "git", "-C", url.path, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "-c",
                "tag.gpgsign=false",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        if let date {
            environment["GIT_COMMITTER_DATE"] = date
            environment["GIT_AUTHOR_DATE"] = authorDate ?? date
        }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw GitFailure(message: "git \(arguments.joined(separator: " ")): \(text)") }
        return text
    }

    struct GitFailure: Error { var message: String }

    /// Sets the app target's version and build (the framework and test targets keep theirs) and commits.
    func commitVersion(_ version: String, build: String, date: String, authorDate: String? = nil, message: String? = nil) throws {
        let pbxproj = project.replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 57;", with: "CURRENT_PROJECT_VERSION = \(build);")
        try pbxproj.write(to: url.appendingPathComponent("Shelf.xcodeproj/project.pbxproj"), atomically: true, encoding: .utf8)
        try xcconfig.replacingOccurrences(of: "SHELF_VERSION = 2.4\n", with: "SHELF_VERSION = \(version)\n")
            .write(to: url.appendingPathComponent("Config/Shelf.xcconfig"), atomically: true, encoding: .utf8)
        try git("add", "-A")
        try git("commit", "-q", "-m", message ?? "\(version) (\(build))", date: date, authorDate: authorDate)
    }

    func commitOther(_ name: String, date: String) throws {
        try name.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        try git("add", "-A")
        try git("commit", "-q", "-m", "touch \(name)", date: date)
    }
}
