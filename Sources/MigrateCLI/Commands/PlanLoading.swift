import Foundation
import MigrateCore
import MigratePlan

/// A file the user named, read with errors that follow sysexits.
struct InputFile {
    /// The path as the user typed it: what messages show, never an absolute path.
    var displayPath: String
    var bytes: [UInt8]

    /// Reads `path`; a directory is read as its `migration.json` when `defaultName` is given.
    static func read(_ path: String, context: CommandContext, defaultName: String? = nil) throws(CommandError) -> InputFile {
        var display = path
        var absolute = context.resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw CommandError(.noInput, "\(display): no such file.")
        }
        if isDirectory.boolValue {
            guard let defaultName else { throw CommandError(.noInput, "\(display) is a folder; name a file.") }
            display = (path.hasSuffix("/") ? path : path + "/") + defaultName
            absolute = (absolute.hasSuffix("/") ? absolute : absolute + "/") + defaultName
            guard FileManager.default.fileExists(atPath: absolute) else {
                throw CommandError(.noInput, "\(path) has no \(defaultName). Create one with 'migrate init', or name the plan file.")
            }
        }
        // A FIFO would block the read forever, a folder or device can't be a plan: say what it is.
        var info = stat()
        if stat(absolute, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFDIR: kind = "a folder"
            case S_IFIFO: kind = "a FIFO (named pipe)"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a file"
            }
            throw CommandError(.noInput, "\(display) is not a regular file (it is \(kind)); name a file that holds the input.")
        }
        guard let handle = FileHandle(forReadingAtPath: absolute) else {
            let reason = errno == EACCES ? "permission denied (check its permissions)" : String(cString: strerror(errno))
            throw CommandError(.noInput, "\(display): cannot be read: \(reason).")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw CommandError(.noInput, "\(display): cannot be read: \((error as NSError).localizedDescription).")
        }
        return InputFile(displayPath: display, bytes: Array(data))
    }

    /// Where each line starts and ends in `bytes` (without its `\n` or `\r\n`), found in one pass over the bytes: a
    /// diagnostic quotes one line, and decoding a whole 50 MB file to quote it would cost more than reading it.
    var lineRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            for index in 0..<buffer.count where buffer[index] == 0x0A {
                // A CRLF line ends before its \r.
                ranges.append(start..<(index > start && buffer[index - 1] == 0x0D ? index - 1 : index))
                start = index + 1
            }
            ranges.append(start..<buffer.count)
        }
        return ranges
    }
}

/// A plan read from disk, with its file for quoting source lines in messages.
struct LoadedPlan {
    var file: InputFile
    var document: PlanDocument

    static func load(_ path: String, context: CommandContext) throws(CommandError) -> LoadedPlan {
        let file = try InputFile.read(path, context: context, defaultName: "migration.json")
        return LoadedPlan(file: file, document: PlanDecoder.decode(bytes: file.bytes))
    }

    /// The plan, or exit 65 with every error when it has any (for commands other than `check`).
    func requirePlan(context: CommandContext) throws(CommandError) -> MigrationPlan {
        guard let plan = document.plan, !document.hasErrors else {
            let renderer = DiagnosticRenderer(file: file, style: context.style(for: context.standardError))
            context.standardError.write(renderer.render(document.diagnostics.filter { $0.severity == .error }))
            let count = document.diagnostics.filter { $0.severity == .error }.count
            throw CommandError(
                .dataError, "\(file.displayPath) has \(count) error\(count == 1 ? "" : "s"); run 'migrate check \(file.displayPath)' for details.")
        }
        return plan
    }

    /// The plan, or exit 65 with every error that `migrate check` would report: decoding errors and
    /// launch-day errors alike. Every command that acts on a plan reads it through this, so none of
    /// them agrees to work with a plan that `check` rejects. `outcome` says what was not done.
    func requireCheckedPlan(context: CommandContext, outcome: String) throws(CommandError) -> MigrationPlan {
        try requireCheckedCatalog(context: context, outcome: outcome).plan
    }

    /// `requireCheckedPlan`, with the catalog the check built, for commands that go on to use it.
    func requireCheckedCatalog(context: CommandContext, outcome: String) throws(CommandError) -> PlanCatalog {
        let catalog = PlanCatalog(try requirePlan(context: context))
        let errors = PlanChecker.check(catalog, now: context.now).diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let renderer = DiagnosticRenderer(file: file, style: context.style(for: context.standardError))
            context.standardError.write(renderer.render(errors.located(in: document.root).sortedForDisplay()))
            throw CommandError(
                .dataError, "\(file.displayPath) fails 'migrate check' with \(errors.count) error\(errors.count == 1 ? "" : "s"); \(outcome).")
        }
        return catalog
    }
}
