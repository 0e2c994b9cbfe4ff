import Foundation

/// An input read in chunks, as many times as a reader needs: a regular file, or standard input, a named pipe
/// or a device (`-`, `/dev/stdin`), whose bytes are first copied to a temporary file that is removed at
/// once, so nothing is left behind even if the process is killed.
public final class ByteSource {
    /// What messages call the input.
    public let display: String
    private let descriptor: Int32
    /// Bytes read per chunk.
    public static let chunkSize = 1 << 20

    /// Why an input can't be opened.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// No such file, as opposed to one that can't be read.
        public var isMissing: Bool
    }

    /// Opens `path` (absolute, or `-` for standard input).
    public init(path: String, display: String) throws(OpenError) {
        self.display = display
        let input: Int32
        if path == "-" {
            input = dup(STDIN_FILENO)
        } else {
            input = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard input >= 0 else {
            let missing = errno == ENOENT
            let reason = errno == EACCES ? "permission denied (check its permissions)" : String(cString: strerror(errno))
            throw OpenError(description: missing ? "\(display): no such file" : "\(display): cannot be read: \(reason)", isMissing: missing)
        }
        var info = stat()
        if fstat(input, &info) == 0 && info.st_mode & S_IFMT == S_IFREG {
            descriptor = input
            return
        }
        // A pipe can be read once: keep its bytes where they can be read again.
        defer { close(input) }
        descriptor = try Self.spool(input, display: display)
    }

    deinit { close(descriptor) }

    /// Copies everything `input` gives into a temporary file that is unlinked before a byte is written.
    private static func spool(_ input: Int32, display: String) throws(OpenError) -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/migrate-input-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else {
            throw OpenError(description: "\(display): cannot keep standard input to read it: \(String(cString: strerror(errno)))", isMissing: false)
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, chunkSize) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let reason = String(cString: strerror(errno))
                close(file)
                throw OpenError(description: "\(display): cannot be read: \(reason)", isMissing: false)
            }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(file, $0.baseAddress! + offset, count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    let reason = String(cString: strerror(errno))
                    close(file)
                    throw OpenError(description: "\(display): cannot keep standard input to read it: \(reason)", isMissing: false)
                }
                offset += written
            }
        }
        return file
    }

    /// Up to `count` bytes from the start, for sniffing the format.
    public func head(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, 0) }
        return Array(bytes.prefix(max(0, read)))
    }

    /// Calls `body` with each chunk, from the start.
    public func chunks(_ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var offset: off_t = 0
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, Self.chunkSize, offset) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw OpenError(description: "\(display): cannot be read: \(String(cString: strerror(errno)))", isMissing: false) }
            if count == 0 { return }
            offset += off_t(count)
            try body(buffer[0..<count])
        }
    }
}
