import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an output the user named goes, decided once before anything is written: standard output, a stream that is
/// written through (a device, a FIFO, a process substitution's pipe), or a regular file that is replaced whole.
///
/// Renaming a temporary file over `/dev/null` as root replaces the machine's `/dev/null` with a regular file, so a
/// path that names anything but a regular file (or nothing yet) is never renamed over.
public enum OutputTarget: Sendable, Hashable {
    /// `-`, `/dev/stdout`, `/dev/fd/1`: this process's standard output.
    case standardOutput
    /// A device, FIFO or socket, opened and written in place: `/dev/null`, `/dev/full`, `>(gzip > out.gz)`.
    case stream(path: String)
    /// A regular file, or a path where none exists yet: written beside its target and renamed over it, whole or not at
    /// all. `path` is the final target (a symbolic link followed to the end).
    case file(path: String)

    /// Paths that name this process's standard output.
    static let standardOutputPaths: Set<String> = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]

    /// What `absolute` (a path resolved against the working directory) names; `given` is the text the user typed.
    public static func resolve(_ absolute: String, given: String) -> OutputTarget {
        if given == "-" || standardOutputPaths.contains(absolute) || standardOutputPaths.contains(given) { return .standardOutput }
        var info = stat()
        if stat(absolute, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind != S_IFREG && kind != S_IFDIR { return .stream(path: absolute) }
        }
        return .file(path: FileTransaction.resolvedTarget(absolute))
    }

    /// Whether the path names a folder (an output that is a folder is refused, not replaced).
    public static func isFolder(_ absolute: String) -> Bool {
        var info = stat()
        return stat(absolute, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}

/// A file's identity on its disk (device and inode), which two paths share when they name the same file: a link, a
/// `..` path, a bind mount. Nil for a path that doesn't exist.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Writes to a stream in place (a device, a FIFO, a pipe), reporting the first error instead of trapping.
public final class StreamOutput {
    public let display: String
    private var descriptor: Int32
    public private(set) var failure: Int32 = 0

    /// Opens `path` for writing without creating or truncating it (a device or FIFO is not a file to truncate).
    public init(path: String, display: String) throws(FileWriteError) {
        self.display = display
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileTransaction.error(errno, FileTransaction.Entry(path: path, display: display, bytes: [])) }
    }

    /// Appends bytes; the first error is kept, and nothing more is written after it.
    public func write(_ bytes: [UInt8]) {
        guard failure == 0, descriptor >= 0 else { return }
        failure = Self.writeAll(bytes, to: descriptor)
    }

    /// Closes the stream. - Throws: the first error a write or the close met.
    public func commit() throws(FileWriteError) {
        if descriptor >= 0 {
            if close(descriptor) != 0 && failure == 0 && errno != EINTR { failure = errno }
            descriptor = -1
        }
        if failure != 0 { throw FileTransaction.error(failure, FileTransaction.Entry(path: display, display: display, bytes: [])) }
    }

    public func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Writes every byte to `descriptor`, retrying after a signal; returns 0, or the errno that stopped it.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return 0
        }
    }
}
