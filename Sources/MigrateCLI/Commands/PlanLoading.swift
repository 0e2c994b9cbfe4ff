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
        guard let data = FileManager.default.contents(atPath: absolute) else {
            throw CommandError(.noInput, "\(display): cannot be read (check its permissions).")
        }
        return InputFile(displayPath: display, bytes: Array(data))
    }

    var lines: [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
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
            throw CommandError(.dataError, "\(file.displayPath) has \(count) error\(count == 1 ? "" : "s"); run 'migrate check \(file.displayPath)' for details.")
        }
        return plan
    }

    /// The plan, or exit 65 with every error that `migrate check` would report: decoding errors and
    /// launch-day errors alike. Every command that acts on a plan reads it through this, so none of
    /// them agrees to work with a plan that `check` rejects. `outcome` says what was not done.
    func requireCheckedPlan(context: CommandContext, outcome: String) throws(CommandError) -> MigrationPlan {
        let plan = try requirePlan(context: context)
        let errors = PlanChecker.check(plan, now: context.now).diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let renderer = DiagnosticRenderer(file: file, style: context.style(for: context.standardError))
            context.standardError.write(renderer.render(errors.located(in: document.root).sortedForDisplay()))
            throw CommandError(.dataError, "\(file.displayPath) fails 'migrate check' with \(errors.count) error\(errors.count == 1 ? "" : "s"); \(outcome).")
        }
        return plan
    }
}
