import Foundation

/// Writes files so that a reader sees the old content or the new, never half of one:
/// the bytes go to a temporary file in the same folder, which is then renamed over the target.
enum AtomicFile {
    /// Writes `bytes` to `path` (absolute). `displayPath` is what messages show.
    static func write(_ bytes: [UInt8], to path: String, displayPath: String) throws(CommandError) {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CommandError(.cannotCreate, "cannot create the folder for \(displayPath): \(reason(error))")
            }
        } else if !isDirectory.boolValue {
            throw CommandError(.cannotCreate, "cannot write \(displayPath): \((displayPath as NSString).deletingLastPathComponent) is a file, not a folder")
        }
        let temporary = folder + "/." + (path as NSString).lastPathComponent + ".migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw CommandError(.cannotCreate, "cannot write \(displayPath): the folder is not writable")
        }
        // Keep the permissions of a file being replaced.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path), let permissions = attributes[.posixPermissions] {
            try? FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
        }
        if rename(temporary, path) != 0 {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandError(.cannotCreate, "cannot write \(displayPath): \(message)")
        }
    }

    static func write(_ text: String, to path: String, displayPath: String) throws(CommandError) {
        try write(Array(text.utf8), to: path, displayPath: displayPath)
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
