import Foundation

/// A project shaped like many older paid apps: an Xcode project whose Info.plist says
/// `$(PRODUCT_BUNDLE_IDENTIFIER)` and holds no version keys (the versions are build settings), a
/// `.storekit` with only a consumable tip jar, and a git history of `builds` builds (a new marketing
/// version every 40, a patch every 9, a tag on every 40th build and the last), made with one
/// `git fast-import` from the fixtures in Tests/Fixtures/import.
enum TipsterProject {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    static func file(_ path: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(path), encoding: .utf8)
    }

    /// The marketing version of build `index` (0-based).
    static func version(_ index: Int) -> String {
        let minor = index / 40
        let patch = (index % 40) / 9
        return "\(1 + minor / 10).\(minor % 10)" + (patch > 0 ? ".\(patch)" : "")
    }

    /// A fresh folder with the project; git history only when `builds` > 0.
    static func make(builds: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-tipster-\(UUID().uuidString)")
        let project = try file("xcode/Tipster/Tipster.xcodeproj/project.pbxproj")
        let files = [
            "Tipster/Info.plist": try file("xcode/Tipster/Tipster/Info.plist"),
            "Tipster/TipJar.storekit": try file("storekit/tip-jar-consumable-only.storekit"),
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let projectFile = folder.appendingPathComponent("Tipster.xcodeproj/project.pbxproj")
        try FileManager.default.createDirectory(at: projectFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard builds > 0 else {
            try project.write(to: projectFile, atomically: true, encoding: .utf8)
            return folder
        }
        // The project cut once at each setting that changes, so each build's text is joined, not searched:
        // a thousand searches through Foundation were a sixth of these tests' time.
        let marketing = project.components(separatedBy: "MARKETING_VERSION = 2.3;")
        let parts = marketing.map { $0.components(separatedBy: "CURRENT_PROJECT_VERSION = 14;") }
        var stream = ""
        for index in 0..<builds {
            let text = parts.map { $0.joined(separator: "CURRENT_PROJECT_VERSION = \(index + 1);") }
                .joined(separator: "MARKETING_VERSION = \(version(index));")
            let message = "Build \(index + 1)\n"
            let time = 1_420_000_000 + index * 3 * 86_400
            stream += "commit refs/heads/main\nmark :\(index + 1)\n"
            stream += "author Dev <dev@example.com> \(time) +0000\ncommitter Dev <dev@example.com> \(time) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)"
            if index > 0 { stream += "from :\(index)\n" }
            stream += "M 100644 inline Tipster.xcodeproj/project.pbxproj\ndata \(text.utf8.count)\n\(text)\n"
            if index == 0 {
                for (path, text) in files.sorted(by: { $0.key < $1.key }) { stream += "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n" }
            }
            if (index + 1) % 40 == 0 || index == builds - 1 { stream += "reset refs/tags/v\(version(index))\nfrom :\(index + 1)\n\n" }
        }
        try DemoProject.git(["init", "-q", "-b", "main"], in: folder)
        try git(["fast-import", "--quiet"], in: folder, input: stream)
        try DemoProject.git(["checkout", "-q", "-f", "main"], in: folder)
        return folder
    }

    static func git(_ arguments: [String], in folder: URL, input: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path] + arguments
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
