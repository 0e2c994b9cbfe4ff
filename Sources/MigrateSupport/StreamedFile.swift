import Foundation

/// A file written piece by piece that appears whole or not at all: the bytes go to a temporary file
/// beside the target (through a symbolic link, to its target), which `commit()` renames over it. For
/// output too large to hold in memory, such as a million decisions; `FileTransaction` writes small files.
public final class StreamedFile {
    public let display: String
    private let target: String
    private let temporary: String
    private var descriptor: Int32
    private var failure: Int32 = 0

    /// Creates the temporary file for `path` (absolute); `display` is what messages call it.
    public init(path: String, display: String) throws(FileWriteError) {
        self.display = display
        target = FileTransaction.resolvedTarget(path)
        // A run killed with SIGKILL (which no handler catches) left its temporary file beside the target, and perhaps
        // a journal of renames to finish first.
        FileTransaction.recoverInterrupted(folders: [(target as NSString).deletingLastPathComponent])
        FileTransaction.removeStaleTemporaries(targets: [target])
        PendingTemporaries.installHandlers()
        let (descriptor, temporary, modeFailure) = try FileTransaction.createTemporary(
            beside: target, for: FileTransaction.Entry(path: path, display: display, bytes: []))
        self.descriptor = descriptor
        self.temporary = temporary
        failure = modeFailure
    }

    /// Appends bytes; an error is kept and thrown by `commit()`.
    public func write(_ bytes: [UInt8]) {
        guard failure == 0 else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while failure == 0 && offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno != EINTR { failure = errno }
                } else {
                    offset += count
                }
            }
        }
    }

    /// Renames the finished file over the target. - Returns: the target, which differs from the path for a link.
    @discardableResult
    public func commit() throws(FileWriteError) -> String {
        if failure == 0 && fsync(descriptor) != 0 && errno != EINVAL { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        descriptor = -1
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            PendingTemporaries.remove([temporary])
            throw FileTransaction.error(failure, FileTransaction.Entry(path: target, display: display, bytes: []))
        }
        PendingTemporaries.remove([temporary])
        return target
    }

    /// Removes the temporary file, leaving the target as it was.
    public func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporary)
        PendingTemporaries.remove([temporary])
    }
}
