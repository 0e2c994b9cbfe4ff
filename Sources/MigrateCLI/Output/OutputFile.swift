import Foundation
import MigrateGenerator
import MigratePlan
import MigrateSupport

/// The one way a command writes a file the user named. `-` and `/dev/stdout` are standard output; a device, a FIFO
/// or a process substitution's pipe is written through in place (renaming over `/dev/null` as root would replace the
/// machine's `/dev/null`); a regular file is written beside itself and renamed over, so a reader sees the old
/// content or the new, never half of one; a symbolic link is written through to its target.
enum OutputFile {
    /// Writes `bytes` to the output `given` (as the user typed it). `ending` ends a failure's message (what was left).
    /// - Returns: what to call the output in a message: `given`, `link → target` for a symlink, or "standard output".
    @discardableResult
    static func write(_ bytes: [UInt8], to given: String, context: CommandContext, ending: String = ".") throws(CommandError) -> String {
        let absolute = given == "-" ? given : context.resolve(given)
        switch OutputTarget.resolve(absolute, given: given) {
        case .standardOutput:
            context.standardOutput.write(data: bytes)
            return "standard output"
        case .stream(let path):
            do {
                let stream = try StreamOutput(path: path, display: given)
                stream.write(bytes)
                try stream.commit()
            } catch {
                throw .writing(error, ending)
            }
            return given
        case .file(let path):
            do {
                let target = try (context.fileTransaction ?? FileTransaction.standard()).commit(
                    [FileTransaction.Entry(path: path, display: given, bytes: bytes)])[0]
                return target == absolute ? given : "\(given) → \(target)"
            } catch {
                throw .writing(error, ending)
            }
        }
    }

    @discardableResult
    static func write(_ text: String, to given: String, context: CommandContext) throws(CommandError) -> String {
        try write(Array(text.utf8), to: given, context: context)
    }

    /// Writes a new plan and, when its folder has none, the schema its `"$schema"` points at, all or nothing.
    /// - Returns: what to call the plan in a message, and the schema's name when it was written.
    static func writeNewPlan(_ bytes: [UInt8], to given: String, context: CommandContext) throws(CommandError) -> (plan: String, schema: String?) {
        let absolute = context.resolve(given)
        guard case .file(let path) = OutputTarget.resolve(absolute, given: given) else {
            // A plan is a file migrate reads back: a device or standard output gets it without a schema beside it.
            return (try write(bytes, to: given, context: context), nil)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let schemaPath = (folder as NSString).appendingPathComponent(PlanSchema.fileName)
        let schemaDisplay = ((given as NSString).deletingLastPathComponent as NSString).appendingPathComponent(PlanSchema.fileName)
        var entries = [FileTransaction.Entry(path: path, display: given, bytes: bytes)]
        let writesSchema = !FileManager.default.fileExists(atPath: schemaPath)
        if writesSchema { entries.append(FileTransaction.Entry(path: schemaPath, display: schemaDisplay, bytes: Array(PlanSchema.text.utf8))) }
        do {
            let target = try (context.fileTransaction ?? FileTransaction.standard()).commit(entries)[0]
            return (target == absolute ? given : "\(given) → \(target)", writesSchema ? schemaDisplay : nil)
        } catch {
            throw .writing(error)
        }
    }
}

/// An output written piece by piece (a million decisions): a file that appears whole or not at all, a stream written
/// through, or standard output.
final class OutputSink {
    enum Kind {
        case file(StreamedFile)
        case stream(StreamOutput)
        case standardOutput(TextOutput)
    }

    let kind: Kind
    let display: String

    /// Opens the output `given` names (as the user typed it).
    init(_ given: String, context: CommandContext) throws(CommandError) {
        display = given
        let absolute = given == "-" ? given : context.resolve(given)
        do {
            switch OutputTarget.resolve(absolute, given: given) {
            case .standardOutput: kind = .standardOutput(context.standardOutput)
            case .stream(let path): kind = .stream(try StreamOutput(path: path, display: given))
            case .file(let path): kind = .file(try StreamedFile(path: path, display: given))
            }
        } catch {
            throw .writing(error)
        }
    }

    /// Whether the output is standard output (so the summary goes to standard error).
    var isStandardOutput: Bool {
        if case .standardOutput = kind { return true }
        return false
    }

    func write(_ bytes: [UInt8]) {
        switch kind {
        case .file(let file): file.write(bytes)
        case .stream(let stream): stream.write(bytes)
        case .standardOutput(let output): output.write(data: bytes)
        }
    }

    func commit() throws(FileWriteError) {
        switch kind {
        case .file(let file): try file.commit()
        case .stream(let stream): try stream.commit()
        case .standardOutput(let output):
            if output.failure != 0 {
                throw FileTransaction.error(output.failure, FileTransaction.Entry(path: "-", display: "standard output", bytes: []))
            }
        }
    }

    func abandon() {
        switch kind {
        case .file(let file): file.abandon()
        case .stream(let stream): stream.abandon()
        case .standardOutput: break
        }
    }
}
