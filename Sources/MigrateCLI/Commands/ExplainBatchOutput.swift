import MigrateCore
import MigrateSupport

/// Where decisions go, a mebibyte at a time: an output the user named, or standard output.
final class BatchOutput {
    enum Sink {
        case sink(OutputSink)
        case output(TextOutput)
    }

    let sink: Sink
    private var buffer: [UInt8] = []

    init(sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(1 << 20 + 4096)
    }

    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        switch sink {
        case .sink(let file): file.write(buffer)
        case .output(let output): output.write(data: buffer)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `--rejected FILE`: every skipped row, byte for byte, with its line (or a folder's entry) and the reason,
/// as CSV (`line,reason,record`); written whole or not at all when the run ends.
final class RejectedRows {
    enum Input { case lines, folder }

    let file: OutputSink
    private var buffer: [UInt8] = []

    init(sink: OutputSink, input: Input) {
        self.file = sink
        buffer.append(contentsOf: (input == .folder ? "entry,reason\n" : "line,reason,record\n").utf8)
    }

    /// Adds a skipped row: a line of a list with the row as read, or a folder's entry.
    func add(place: BatchRowPlace, reason: String, raw: [UInt8]) {
        switch place {
        case .line(let line):
            buffer.append(contentsOf: ("\(line)," + CSVWriter.field(reason) + ",").utf8)
            buffer.append(contentsOf: CSVWriter.field(bytes: raw))
        case .name(let name):
            buffer.append(contentsOf: (CSVWriter.field(name) + "," + CSVWriter.field(reason)).utf8)
        }
        buffer.append(10)
        if buffer.count >= 1 << 20 {
            file.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    func commit() throws(FileWriteError) {
        file.write(buffer)
        buffer.removeAll()
        try file.commit()
    }

    func abandon() { file.abandon() }
}
