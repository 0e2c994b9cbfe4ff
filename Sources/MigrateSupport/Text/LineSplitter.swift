/// Splits a stream of bytes into lines, a chunk at a time: a line feed, a carriage return and line feed, or a
/// carriage return alone (Excel for Mac's line end) ends a line; a UTF-8 byte order mark on the first line is
/// dropped, and lines of only spaces and tabs are counted and passed over. A line longer than `maxLineBytes` is cut
/// there and marked, so memory stays bounded.
public struct LineSplitter: Sendable {
    public let maxLineBytes: Int
    /// Blank lines passed over so far.
    public private(set) var blankLines = 0
    /// Physical lines ended so far (all of them once `finish` has run), blank ones included.
    public private(set) var lines = 0
    private var line: [UInt8] = []
    private var number = 1
    private var tooLong = false
    /// The last chunk ended with a carriage return: a line feed first in the next one belongs to that line end.
    private var afterCR = false

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Calls `body` with each line `chunk` ends: its bytes, its number (from 1), and whether it was cut.
    public mutating func feed(_ chunk: ArraySlice<UInt8>, _ body: ([UInt8], Int, Bool) throws -> Void) rethrows {
        var start = chunk.startIndex
        if afterCR, start < chunk.endIndex {
            afterCR = false
            if chunk[start] == 10 { start += 1 }
        }
        while start < chunk.endIndex {
            let stop = chunk[start...].firstIndex { $0 == 10 || $0 == 13 } ?? chunk.endIndex
            if line.count + (stop - start) <= maxLineBytes {
                line.append(contentsOf: chunk[start..<stop])
            } else {
                tooLong = true
                line.append(contentsOf: chunk[start..<stop].prefix(max(0, maxLineBytes - line.count)))
            }
            guard stop < chunk.endIndex else { break }
            try end(body)
            start = stop + 1
            if chunk[stop] == 13 {
                if start < chunk.endIndex {
                    if chunk[start] == 10 { start += 1 }
                } else {
                    afterCR = true
                }
            }
        }
    }

    /// Calls `body` with the last line, when the bytes don't end with a line end.
    public mutating func finish(_ body: ([UInt8], Int, Bool) throws -> Void) rethrows {
        if !line.isEmpty || tooLong { try end(body) }
    }

    private mutating func end(_ body: ([UInt8], Int, Bool) throws -> Void) rethrows {
        defer {
            line.removeAll(keepingCapacity: true)
            number += 1
            lines += 1
            tooLong = false
        }
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        guard tooLong || line.contains(where: { $0 != 9 && $0 != 32 }) else {
            blankLines += 1
            return
        }
        try body(line, number, tooLong)
    }
}
