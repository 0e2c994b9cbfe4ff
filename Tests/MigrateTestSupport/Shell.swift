import Foundation

/// Runs a command and returns its status and combined output.
///
/// The wait happens on a thread of its own, never on one of Swift concurrency's cooperative threads:
/// a test blocked there for a minutes-long build would hold up every other test on this 2-core machine.
public func shell(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = arguments
                process.currentDirectoryURL = directory
                process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": ChildTemporaryDirectory.path]) { $1 }
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                try process.run()
                // Read before waiting, so a chatty build can't fill the pipe and stall.
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}

/// `$TMPDIR` for the commands tests run, removed when the test process exits: on Linux swift-driver leaves a
/// `TemporaryDirectory.*` folder in `$TMPDIR` for every compile, which was more than a hundred left in /tmp by each
/// `swift test` (the availability checks alone run about a hundred `swiftc`).
public enum ChildTemporaryDirectory {
    public static let path: String = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("migrate-test-children-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ChildTemporaryDirectory.path) }
        return path
    }()
}

/// How tests build the packages they make (the scratch app, generated packages, the plugin's consumer):
/// built only to run, so without debug info, a fifth less of a cold build. (The index store stays: on
/// Linux `swift build --build-tests` discovers tests through it.) Every `swift` command on one package
/// passes the same flags, or SwiftPM builds it again.
public enum ScratchBuild {
    public static let flags = ["-Xswiftc", "-gnone"]

    /// `swift <subcommand> …` with the flags.
    public static func swift(_ subcommand: String, _ arguments: [String] = []) -> [String] {
        ["swift", subcommand] + flags + arguments
    }

    /// Prefixed to the compilers `swift test` runs beside the scratch package's build (the availability checks, the
    /// plugin's consumer, the library-dependent package): the scratch build is the suite's longest job, and the rest
    /// fill the cores it leaves idle instead of holding it back. Cold, that is several seconds off `swift test`.
    public static let yielding = ["nice", "-n", "10"]

    /// Runs the built tests of a scratch package named `package` that match `filter`. On Linux the test binary is run
    /// directly: `swift test --skip-build` first loads the package graph again, which took as long as the tests of one
    /// mutant (about 2 s of the 5 each took). Elsewhere, and when the binary isn't where SwiftPM puts it, `swift test`.
    public static func runTests(filter: String, package: String, in root: URL) async throws -> (status: Int32, output: String) {
        #if os(Linux)
            let binary = root.appendingPathComponent(".build/debug/\(package)PackageTests.xctest")
            if FileManager.default.isExecutableFile(atPath: binary.path) {
                return try await shell([binary.path, "--testing-library", "swift-testing", "--filter", filter], in: root)
            }
        #endif
        return try await shell(swift("test", ["--skip-build", "--filter", filter]), in: root)
    }

    /// The same for a package that builds no tests (the plugin's consumer): nothing needs its index store,
    /// and building without one takes a sixth less CPU.
    public static func swiftWithoutTests(_ subcommand: String, _ arguments: [String] = []) -> [String] {
        ["swift", subcommand] + flags + ["--disable-index-store"] + arguments
    }
}
