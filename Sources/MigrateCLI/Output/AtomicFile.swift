import Foundation
import MigrateGenerator
import MigratePlan
import MigrateSupport

/// Writes files so that a reader sees the old content or the new, never half of one:
/// the bytes go to a temporary file in the same folder, which is then renamed over the target.
/// A symbolic link is written through to its target, which keeps its permissions.
enum AtomicFile {
    /// Writes `bytes` to `path` (absolute). `displayPath` is what messages show.
    /// - Returns: what to call the file in a message: `displayPath`, or `link → target` for a symlink.
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String, displayPath: String) throws(CommandError) -> String {
        do {
            let target = try FileTransaction().commit([FileTransaction.Entry(path: path, display: displayPath, bytes: bytes)])[0]
            return target == path ? displayPath : "\(displayPath) → \(target)"
        } catch {
            throw CommandError(.cannotCreate, error.description + ".")
        }
    }

    /// Writes a new plan and, when its folder has none, the schema its `"$schema"` points at, all or
    /// nothing. - Returns: what to call the plan in a message, and whether the schema was written.
    static func writeNewPlan(_ bytes: [UInt8], to path: String, displayPath: String) throws(CommandError) -> (plan: String, schema: String?) {
        let folder = (path as NSString).deletingLastPathComponent
        let schemaPath = (folder as NSString).appendingPathComponent(PlanSchema.fileName)
        let schemaDisplay = ((displayPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(PlanSchema.fileName)
        var entries = [FileTransaction.Entry(path: path, display: displayPath, bytes: bytes)]
        let writesSchema = !FileManager.default.fileExists(atPath: schemaPath)
        if writesSchema { entries.append(FileTransaction.Entry(path: schemaPath, display: schemaDisplay, bytes: Array(PlanSchema.text.utf8))) }
        do {
            let target = try FileTransaction().commit(entries)[0]
            return (target == path ? displayPath : "\(displayPath) → \(target)", writesSchema ? schemaDisplay : nil)
        } catch {
            throw CommandError(.cannotCreate, error.description + ".")
        }
    }

    @discardableResult
    static func write(_ text: String, to path: String, displayPath: String) throws(CommandError) -> String {
        try write(Array(text.utf8), to: path, displayPath: displayPath)
    }
}
