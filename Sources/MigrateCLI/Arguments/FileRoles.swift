import Foundation
import MigrateSupport

/// What a path-valued argument names. Declared with the argument (`Argument.naming(_:)`), so one step before any
/// command runs can see every file the run reads and writes.
public enum FileRole: Sendable, Hashable {
    /// A file the command reads; `-` is standard input.
    case input
    /// A plan: a file, or a folder holding `migration.json`.
    case plan
    /// A file the command writes: `-` and `/dev/stdout` are standard output, a device or FIFO is written through, a
    /// regular file is replaced whole.
    case output
    /// A file the command reads and writes back, and owns (a ledger).
    case inputOutput
    /// A folder the command writes files into.
    case outputFolder
}

/// The one check of a run's files, before the command runs: interrupted writes of earlier runs finished, no output
/// that is an input (or another output) of the same run, no output that is a folder, or in a folder that doesn't
/// exist, and no file given twice where each must count once.
enum FileRoles {
    struct Named {
        var label: String
        var given: String
        var absolute: String
    }

    static func check(_ specs: [ArgumentSpec], _ parsed: ParsedArguments, context: CommandContext) throws(CommandError) {
        var inputs: [Named] = []
        var outputs: [Named] = []
        var folders: [Named] = []
        for spec in specs {
            guard let role = spec.role else { continue }
            let label = spec.isPositional ? "<\(spec.valueName)>" : "--\(spec.name)"
            var texts = (parsed.values[spec.name] ?? []).compactMap { $0 as? String }
            if texts.isEmpty, let value = spec.defaultValue { texts = [value] }
            var seen: [FileIdentity: String] = [:]
            for text in texts where !text.isEmpty {
                var absolute = context.resolve(text)
                if role == .plan, OutputTarget.isFolder(absolute) { absolute = (absolute as NSString).appendingPathComponent("migration.json") }
                let named = Named(label: label, given: text, absolute: absolute)
                switch role {
                case .input, .plan:
                    if text != "-", let identity = FileIdentity(path: absolute), !OutputTarget.isFolder(absolute) {
                        // The same file twice would count its rows twice (codes, licenses, reports).
                        if let first = seen[identity] {
                            throw .usage(
                                "\(label) names \(first == text ? text : "\(first) and \(text), the same file,") twice; give each file once.")
                        }
                        seen[identity] = text
                    }
                    inputs.append(named)
                case .output: outputs.append(named)
                case .inputOutput:
                    inputs.append(named)
                    outputs.append(named)
                case .outputFolder: folders.append(named)
                }
            }
        }
        // Runs killed between the renames of one change left a journal; finish them before anything is read.
        let places = (inputs + outputs + folders).map { ($0.absolute as NSString).deletingLastPathComponent } + [context.currentDirectory]
        FileTransaction.recoverInterrupted(folders: places)
        var claimed: [(label: String, given: String, target: String, identity: FileIdentity?)] = []
        for output in outputs {
            let target = OutputTarget.resolve(output.absolute, given: output.given)
            guard case .file(let path) = target else { continue }
            if OutputTarget.isFolder(path) {
                throw CommandError(.cannotCreate, "\(output.label) \(output.given) is a folder; name a file to write.")
            }
            let folder = (path as NSString).deletingLastPathComponent
            if FileManager.default.fileExists(atPath: folder) && !OutputTarget.isFolder(folder) {
                throw CommandError(.cannotCreate, "\(output.label) \(output.given): \(folder) is a file, not a folder; name a file in a folder.")
            }
            if !OutputTarget.isFolder(folder) {
                throw CommandError(
                    .cannotCreate,
                    "\(output.label) \(output.given): the folder \(folder) does not exist; create it first, or name a file in one that does.")
            }
            let identity = FileIdentity(path: path)
            if let earlier = claimed.first(where: { $0.target == path || ($0.identity != nil && $0.identity == identity) }) {
                throw .usage("\(earlier.label) and \(output.label) name the same file (\(output.given)); give each its own.")
            }
            for input in inputs where input.given != "-" && input.label != output.label {
                let sameFile = identity.map { $0 == FileIdentity(path: input.absolute) } ?? false
                if sameFile || FileTransaction.resolvedTarget(input.absolute) == path {
                    throw .usage(
                        "\(output.label) \(output.given) names a file this run reads (\(input.label) \(input.given)); write to another file.")
                }
            }
            claimed.append((output.label, output.given, path, identity))
        }
    }
}
