import Foundation
import MigrateCore
import MigrateSupport
import Testing

/// The generic pieces `BatchRun` reads and decides with: lines, first bytes, shares run at once.
@Suite("Batch support", .timeLimit(.minutes(20)))
struct BatchSupportTests {
    struct LineCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: [UInt8]
        var maxLineBytes = 1_000
        /// Each line as (text, number, cut).
        var lines: [(String, Int, Bool)]
        var blank = 0
        var testDescription: String { name }
    }

    static let lineCases: [LineCase] = [
        LineCase(name: "plain", text: Array("a\nb\n".utf8), lines: [("a", 1, false), ("b", 2, false)]),
        LineCase(name: "no final line feed", text: Array("a\nb".utf8), lines: [("a", 1, false), ("b", 2, false)]),
        LineCase(name: "CRLF", text: Array("a\r\nb\r\n".utf8), lines: [("a", 1, false), ("b", 2, false)]),
        LineCase(name: "a byte order mark on the first line", text: [0xEF, 0xBB, 0xBF] + Array("a\n".utf8), lines: [("a", 1, false)]),
        LineCase(name: "blank lines counted, numbers kept", text: Array("a\n \t\n\nb\n".utf8), lines: [("a", 1, false), ("b", 4, false)], blank: 2),
        LineCase(
            name: "a long line cut and marked", text: Array("abcdef\nxy\n".utf8), maxLineBytes: 4, lines: [("abcd", 1, true), ("xy", 2, false)]),
        LineCase(name: "a long last line without a line feed", text: Array("abcdef".utf8), maxLineBytes: 4, lines: [("abcd", 1, true)]),
    ]

    @Test("Lines split across chunks", arguments: lineCases)
    func lines(_ test: LineCase) {
        // Every chunk size, so a line or a CRLF split between chunks is joined again.
        for chunkSize in 1...max(1, test.text.count) {
            var splitter = LineSplitter(maxLineBytes: test.maxLineBytes)
            var lines: [(String, Int, Bool)] = []
            var start = 0
            while start < test.text.count {
                let end = min(test.text.count, start + chunkSize)
                splitter.feed(test.text[start..<end]) { lines.append((String(decoding: $0, as: UTF8.self), $1, $2)) }
                start = end
            }
            splitter.finish { lines.append((String(decoding: $0, as: UTF8.self), $1, $2)) }
            #expect(lines.map(\.0) == test.lines.map(\.0), "chunks of \(chunkSize)")
            #expect(lines.map(\.1) == test.lines.map(\.1), "chunks of \(chunkSize)")
            #expect(lines.map(\.2) == test.lines.map(\.2), "chunks of \(chunkSize)")
            #expect(splitter.blankLines == test.blank, "chunks of \(chunkSize)")
        }
    }

    @Test(
        "A list's kind from its first bytes",
        arguments: [
            ("{\"a\":1}", BatchInputKind.jsonLines), ("\u{FEFF} \n{}", .jsonLines), ("customerID,originalAppVersion", .csv), ("[1]", .csv),
            (" \n\t", nil),
        ] as [(String, BatchInputKind?)])
    func sniff(_ text: String, _ kind: BatchInputKind?) {
        #expect(BatchInputKind.sniff(Array(text.utf8)) == kind)
    }

    @Test(
        "UTF-16 is told from UTF-8",
        arguments: [([0xFF, 0xFE, 0x7B, 0], true), ([0xFE, 0xFF], true), ([0x7B, 0, 0x22, 0], true), ([0x7B, 0x22], false)])
    func utf16(_ head: [UInt8], _ isUTF16: Bool) {
        #expect(ByteSniffing.isUTF16(head) == isUTF16)
    }

    @Test("Shares run with their own state, results in order", arguments: [1, 2, 3, 8])
    func shares(_ count: Int) {
        var states = (0..<count).map { [$0] }
        let items = Array(0..<1_000)
        let results = ParallelShares.run(&states) { share, state in
            let range = ParallelShares.range(ofShare: share, of: count, count: items.count)
            state.append(range.count)
            return range.map { items[$0] * 2 }
        }
        #expect(results.flatMap { $0 } == items.map { $0 * 2 })
        // Each state comes back to its own place, changed by its own share.
        #expect(states.map(\.first) == (0..<count).map { Optional($0) })
        #expect(states.map { $0.last! }.reduce(0, +) == items.count)
    }

    @Test("Shares cover every item once, consecutively", arguments: [(1, 0), (3, 2), (8, 8_192), (7, 100)])
    func ranges(_ shares: Int, _ count: Int) {
        let ranges = (0..<shares).map { ParallelShares.range(ofShare: $0, of: shares, count: count) }
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.map(\.count).max()! - ranges.map(\.count).min()! <= 1)
    }

    @Test("Where each key was first seen, across the growth of every shard", arguments: [1, 1_000, 200_000])
    func firstSeen(_ count: Int) {
        var table = FirstSeenTable()
        for index in 0..<count { #expect(table.insert(Array("cust-\(index)".utf8), line: index + 2) == nil) }
        #expect(table.count == count)
        // Each key again, later: the line it was first seen on, and nothing added.
        for index in stride(from: 0, to: count, by: max(1, count / 997)) {
            #expect(table.insert(Array("cust-\(index)".utf8), line: count + 2 + index) == index + 2)
        }
        #expect(table.count == count)
        #expect(table.insert(Array("cust-\(count)".utf8), line: 1) == nil)
    }

    @Test(
        "A CSV customer id is the field without the white space around it",
        arguments: [("cust-1", "cust-1"), ("  cust-1\t", "cust-1"), ("\u{00A0}cust-1", "cust-1"), ("ü-1 ", "ü-1"), (" \t ", nil)])
    func customerID(_ field: String, _ key: String?) {
        #expect(BatchWorker.identity(field) == key.map { FirstSeenTable.fingerprint($0.utf8) })
    }
}
