import Foundation
import MigrateCore
import MigrateSupport

/// A list of customers to read (`explain --batch`, `report --batch`): its name in messages, its path, and whether it
/// is a folder (of responses).
struct CustomerListInput {
    let display: String
    let absolute: String
    let isFolder: Bool

    init(_ path: String, context: CommandContext) throws(CommandError) {
        display = path == "-" ? "standard input" : path
        absolute = path == "-" ? path : context.resolve(path)
        var isDirectory: ObjCBool = false
        if path != "-" && !FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
            throw CommandError(.noInput, "\(path): no such file or folder.")
        }
        isFolder = isDirectory.boolValue
    }

    /// The bytes of a file or standard input, and how to read them: as `given`, else as the file's extension
    /// says, else as its first bytes look.
    func open(_ path: String, as given: BatchInputKind?) throws(CommandError) -> (BatchInputKind, ByteSource) {
        let source: ByteSource
        do {
            source = try ByteSource(path: absolute, display: display)
        } catch {
            throw CommandError(.noInput, error.description + ".")
        }
        if let given { return (given, source) }
        let named = path == "-" ? nil : BatchInputKind.named(byExtension: (path as NSString).pathExtension)
        return (named ?? BatchInputKind.sniff(source.head(4096)) ?? .csv, source)
    }
}
