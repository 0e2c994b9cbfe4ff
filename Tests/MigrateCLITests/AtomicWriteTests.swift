import Foundation
import MigrateCLI
import MigrateGenerator
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A write never leaves half a package: `generate` writes all of its files or none, the manifest last, and through symlinks.
@Suite("generate: all-or-nothing writes, faults at every step, symlinks", .timeLimit(.minutes(20)))
struct AtomicWriteTests {
    static let flagship = repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/migration.json").path
    static let changedPlan = try! String(contentsOfFile: flagship, encoding: .utf8).replacingOccurrences(of: "\"0.99\"", with: "\"1.99\"")

    static func files(in folder: URL) -> [String: String] { textFiles(in: folder) }

    static func dataFiles(in folder: URL) -> [String: String] { files(in: folder).filter { $0.key != ".migrate-generated.json" } }

    /// Steps seen and the one to fail, shared with the @Sendable hook.
    final class Faults: @unchecked Sendable {
        let lock = NSLock()
        var steps: [FileTransaction.Step] = []
        var failAt: Int?
        var code: Int32 = EIO
        func hook(_ step: FileTransaction.Step) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            steps.append(step)
            return steps.count - 1 == failAt ? code : nil
        }
    }

    static func generate(_ plan: String, in directory: URL, faults: Faults? = nil, extra: [String] = []) -> (
        status: ExitCode, output: String, error: String
    ) {
        var context = CommandContext.testing(directory: directory.path)
        if let faults { context.fileTransaction = FileTransaction(fault: { faults.hook($0) }) }
        let status = Migrate.run(["generate", plan, "-o", "out"] + extra, context: context)
        return (status, context.standardOutput.text, context.standardError.text)
    }

    /// Scratch with the flagship generated into out/ and the changed plan in plan.json.
    static func oldGeneration() throws -> (Scratch, [String: String]) {
        let scratch = try Scratch()
        #expect(generate(flagship, in: scratch.url).status == .success)
        try scratch.write("plan.json", changedPlan)
        return (scratch, files(in: scratch.url.appendingPathComponent("out")))
    }

    @Test("The manifest is renamed last, after every data file")
    func manifestLast() throws {
        let (scratch, _) = try Self.oldGeneration()
        let faults = Faults()
        #expect(Self.generate("plan.json", in: scratch.url, faults: faults).status == .success)
        let renames = faults.steps.compactMap { step -> String? in if case .rename(let path) = step { return path } else { return nil } }
        #expect(renames.count > 2)
        #expect(renames.last == "out/.migrate-generated.json")
        let creates = faults.steps.firstIndex { if case .rename = $0 { return true } else { return false } }!
        #expect(
            !faults.steps[creates...].contains { if case .create = $0 { return true } else { return false } },
            "every file is written before the first rename")
    }

    @Test("A failure at each rename (and while writing) leaves each file old or new, no temporary file, and the next generate works")
    func faultAtEachRename() throws {
        let recorder = Faults()
        let (template, oldFiles) = try Self.oldGeneration()
        let pristine = try Scratch()
        try FileManager.default.copyItem(at: template.url.appendingPathComponent("out"), to: pristine.url.appendingPathComponent("out"))
        _ = Self.generate("plan.json", in: template.url, faults: recorder)
        let newFiles = Self.files(in: template.url.appendingPathComponent("out"))
        let renames = recorder.steps.indices.filter { if case .rename = recorder.steps[$0] { return true } else { return false } }
        #expect(renames.count >= 10)
        // Every rename; the first create and a write in the middle; the next run after three of them.
        let chosen = renames + [0, recorder.steps.count / 3]
        let rerun: Set<Int> = [renames.first!, renames[renames.count / 2], renames.last!, 0]
        for index in chosen {
            let scratch = try Scratch()
            try FileManager.default.copyItem(at: pristine.url.appendingPathComponent("out"), to: scratch.url.appendingPathComponent("out"))
            try scratch.write("plan.json", Self.changedPlan)
            let faults = Faults()
            faults.failAt = index
            let run = Self.generate("plan.json", in: scratch.url, faults: faults)
            let step = recorder.steps[index]
            #expect(run.status == .ioError, "\(step): an I/O error while writing is exit 74")
            let now = Self.files(in: scratch.url.appendingPathComponent("out"))
            #expect(Set(now.keys) == Set(oldFiles.keys), "\(step): no stray file: \(Set(now.keys).symmetricDifference(oldFiles.keys))")
            for (path, content) in now {
                #expect(content == oldFiles[path] || content == newFiles[path], "\(step): \(path) is neither old nor new")
            }
            if case .rename = step {
                #expect(run.error.contains("already hold their new content") || index == renames.first!, "\(run.error)")
            } else {
                let unchanged = now == oldFiles
                #expect(unchanged, "\(step): a failure before the renames changes nothing")
                #expect(run.error.contains("nothing was written"), "\(run.error)")
            }
            let manifestKept = now[".migrate-generated.json"] == oldFiles[".migrate-generated.json"]
            #expect(manifestKept, "\(step): the manifest is never newer than its files")
            if rerun.contains(index) {
                let again = Self.generate("plan.json", in: scratch.url)
                #expect(again.status == .success, "\(step): \(again.error)")
                let same = Self.dataFiles(in: scratch.url.appendingPathComponent("out")) == newFiles.filter { $0.key != ".migrate-generated.json" }
                #expect(same, "\(step): the next generate writes the new files")
            }
        }
    }

    @Test("Temporary files are registered for the SIGINT/SIGTERM/SIGHUP handler while they exist, and only then")
    func temporariesRegisteredForSignals() throws {
        let (scratch, _) = try Self.oldGeneration()
        let folder = scratch.url.appendingPathComponent("out").path
        final class Seen: @unchecked Sendable {
            var registered: [String] = []
        }
        let seen = Seen()
        var context = CommandContext.testing(directory: scratch.url.path)
        context.fileTransaction = FileTransaction(fault: { step in
            if case .rename = step, seen.registered.isEmpty {
                seen.registered = PendingTemporaries.paths.filter { $0.hasPrefix(folder) }
            }
            return nil
        })
        #expect(Migrate.run(["generate", "plan.json", "-o", "out"], context: context) == .success)
        #expect(seen.registered.count >= 10, "every temporary is registered before the first rename")
        #expect(seen.registered.allSatisfy { ($0 as NSString).lastPathComponent.contains(".migrate-") })
        #expect(!PendingTemporaries.paths.contains { $0.hasPrefix(folder) }, "none left registered")
    }

    @Test("A full disk says 'no space left', changes nothing and creates no folder")
    func fullDisk() throws {
        let scratch = try Scratch()
        let faults = Faults()
        faults.failAt = 7
        faults.code = ENOSPC
        let run = Self.generate(Self.flagship, in: scratch.url, faults: faults)
        #expect(run.status == .ioError)
        #expect(run.error.contains("no space left on the disk"), "\(run.error)")
        #expect(run.error.contains("nothing was written"))
        #expect(!run.error.contains("not writable"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [], "out/ and its subfolders were removed")
    }

    @Test("A manifest newer than its files (an old migrate stopped mid-write) is not read as 'edited by hand'")
    func manifestNewerThanFiles() throws {
        let (scratch, _) = try Self.oldGeneration()
        let copy = try Scratch()
        try FileManager.default.copyItem(at: scratch.url.appendingPathComponent("out"), to: copy.url.appendingPathComponent("out"))
        try copy.write("plan.json", Self.changedPlan)
        #expect(Self.generate("plan.json", in: copy.url).status == .success)
        let newManifest = try String(contentsOf: copy.url.appendingPathComponent("out/.migrate-generated.json"), encoding: .utf8)
        #expect(newManifest.contains("\"previous\""))
        try newManifest.write(to: scratch.url.appendingPathComponent("out/.migrate-generated.json"), atomically: true, encoding: .utf8)
        let run = Self.generate("plan.json", in: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let same = Self.dataFiles(in: scratch.url.appendingPathComponent("out")) == Self.dataFiles(in: copy.url.appendingPathComponent("out"))
        #expect(same)
    }

    @Test("A generated file that is a symlink is written through to its target, which keeps its permissions")
    func symlinkThrough() throws {
        let (scratch, oldFiles) = try Self.oldGeneration()
        let out = scratch.url.appendingPathComponent("out")
        let target = scratch.url.appendingPathComponent("kept/Products.storekit")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try oldFiles["Products.storekit"]!.write(to: target, atomically: true, encoding: .utf8)
        chmod(target.path, 0o600)
        try FileManager.default.removeItem(at: out.appendingPathComponent("Products.storekit"))
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("Products.storekit").path, withDestinationPath: "../kept/Products.storekit")
        let run = Self.generate("plan.json", in: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("out/Products.storekit → "), "\(run.output)")
        #expect(run.output.contains("kept/Products.storekit"), "the message names the target")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: out.appendingPathComponent("Products.storekit").path)
                == "../kept/Products.storekit")
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written != oldFiles["Products.storekit"])
        #expect(written.contains("1.99"))
        var info = stat()
        #expect(stat(target.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path) == ["Products.storekit"], "no temporary file"
        )
    }

    @Test("import writes a plan through a symlink and names the target")
    func importThroughSymlink() throws {
        let scratch = try Scratch()
        try FileManager.default.createSymbolicLink(
            atPath: scratch.url.appendingPathComponent("plan-link.json").path, withDestinationPath: "plan.json")
        let shelf = repositoryRoot.appendingPathComponent("Tests/Fixtures/import/xcode/Shelf").path
        let run = Run("import", "xcode", shelf, "--plan", "plan-link.json", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("plan-link.json → "), "\(run.output)")
        #expect(run.output.contains("plan.json and migration.schema.json."), "\(run.output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.url.appendingPathComponent("plan-link.json").path) == "plan.json")
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("plan.json").path))
    }

    /// The debug `migrate` that `swift build` made, for tests that kill a real process.
    static let binary = MigrateBinary.url

    /// Runs `migrate generate plan.json -o out` in its own process, killed at `step` with `signal`.
    static func killedGenerate(in directory: URL, step: Int, signal: String) throws -> Int32 {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["generate", "plan.json", "-o", "out"]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(["MIGRATE_TEST_KILL_AT_STEP": "\(step):\(signal)"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? process.terminationStatus : -1
    }

    @Test(
        "A real process killed at each rename (SIGTERM or SIGKILL) leaves each file old or new; SIGTERM leaves no temporary, and the next generate removes what SIGKILL left",
        .enabled(if: MigrateBinary.isBuilt, ".build/debug/migrate is not built: swift build first"), arguments: ["TERM", "KILL"])
    func killedAtEachRename(signal: String) throws {
        let recorder = Faults()
        let (template, oldFiles) = try Self.oldGeneration()
        let pristine = try Scratch()
        try FileManager.default.copyItem(at: template.url.appendingPathComponent("out"), to: pristine.url.appendingPathComponent("out"))
        _ = Self.generate("plan.json", in: template.url, faults: recorder)
        let newFiles = Self.files(in: template.url.appendingPathComponent("out"))
        let renames = recorder.steps.indices.filter { if case .rename = recorder.steps[$0] { return true } else { return false } }
        #expect(renames.count >= 10)
        // SIGKILL at the first, a middle and the last rename and while writing; SIGTERM (handled) at a middle rename.
        // (faultAtEachRename fails every rename in-process; a real process costs seconds in a debug build.)
        let middle = renames[renames.count / 2]
        let chosen = signal == "KILL" ? [renames.first!, middle, renames.last!, recorder.steps.count / 3] : [middle]
        for index in chosen {
            let scratch = try Scratch()
            try FileManager.default.copyItem(at: pristine.url.appendingPathComponent("out"), to: scratch.url.appendingPathComponent("out"))
            try scratch.write("plan.json", Self.changedPlan)
            let received = try Self.killedGenerate(in: scratch.url, step: index, signal: signal)
            #expect(received == (signal == "KILL" ? SIGKILL : SIGTERM), "step \(index): ended by signal \(received)")
            let now = Self.files(in: scratch.url.appendingPathComponent("out"))
            let temporaries = now.keys.filter { $0.contains(".migrate-") && !$0.hasSuffix(".migrate-generated.json") }
            if signal == "TERM" {
                #expect(temporaries.isEmpty, "step \(index): temporaries left: \(temporaries)")
            }
            for (path, content) in now where !temporaries.contains(path) {
                #expect(content == oldFiles[path] || content == newFiles[path], "step \(index): \(path) is neither old nor new")
            }
            if signal == "TERM" {
                // The files were whole and journalled before the first rename: the handler finishes the change.
                #expect(now == newFiles, "step \(index): SIGTERM during the renames finishes them")
            } else {
                #expect(
                    now[".migrate-generated.json"] == oldFiles[".migrate-generated.json"], "step \(index): the manifest is never newer than its files"
                )
            }
            let again = Self.generate("plan.json", in: scratch.url)
            #expect(again.status == .success, "step \(index): \(again.error)")
            let after = Self.files(in: scratch.url.appendingPathComponent("out"))
            #expect(Set(after.keys) == Set(newFiles.keys), "step \(index): stray files: \(Set(after.keys).symmetricDifference(newFiles.keys))")
            #expect(Self.dataFiles(in: scratch.url.appendingPathComponent("out")) == newFiles.filter { $0.key != ".migrate-generated.json" })
        }
    }
}
