import MigrateSupport
import Testing

@Suite("CSV reader")
struct CSVReaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var records: [[String]]
        var lines: [Int]
        var errors: [Int] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain", text: "a,b\n1,2\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(name: "no final line break", text: "a,b\n1,2", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(name: "CRLF", text: "a,b\r\n1,2\r\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(
            name: "quoted separator and doubled quote", text: "a,b\n\"x, y\",\"say \"\"hi\"\"\"\n", records: [["a", "b"], ["x, y", "say \"hi\""]],
            lines: [1, 2]),
        Case(
            name: "a line break inside quotes", text: "a,b\n\"one\ntwo\",3\n4,5\n", records: [["a", "b"], ["one\ntwo", "3"], ["4", "5"]],
            lines: [1, 2, 4]),
        Case(name: "empty fields and blank lines", text: "a,b,c\n\n,,\n", records: [["a", "b", "c"], ["", "", ""]], lines: [1, 3]),
        Case(name: "byte order mark", text: "\u{FEFF}a,b\n1,2\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(name: "tab separated", text: "a\tb\n1,5\t2\n", records: [["a", "b"], ["1,5", "2"]], lines: [1, 2]),
        Case(name: "a quote inside an unquoted field is kept", text: "a\n5\"7\n", records: [["a"], ["5\"7"]], lines: [1, 2]),
        Case(name: "an unterminated quote", text: "a,b\n1,\"open\n2,3\n", records: [["a", "b"]], lines: [1], errors: [2]),
    ]

    func read(_ text: String, chunk: Int, max: Int = 1 << 20) -> (records: [CSVRecord], errors: [CSVRecordError]) {
        var reader = CSVReader(maxRecordBytes: max)
        var records: [CSVRecord] = []
        var errors: [CSVRecordError] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            reader.feed(bytes[offset..<min(bytes.count, offset + chunk)], record: { records.append($0) }, failure: { errors.append($0) })
            offset += chunk
        }
        reader.finish(record: { records.append($0) }, failure: { errors.append($0) })
        return (records, errors)
    }

    @Test("Records, fields and line numbers, however the bytes arrive", arguments: cases)
    func records(_ example: Case) {
        for chunk in [1, 2, 3, 7, 1 << 20] {
            let (records, errors) = read(example.text, chunk: chunk)
            #expect(records.map(\.fields) == example.records, "chunks of \(chunk)")
            #expect(records.map(\.line) == example.lines, "chunks of \(chunk)")
            #expect(errors.map(\.line) == example.errors, "chunks of \(chunk)")
        }
    }

    @Test("A record past the limit is reported at its line and reading goes on at the next line")
    func overLongRecord() {
        let text = "a,b\n" + String(repeating: "x", count: 100) + ",1\n2,3\n"
        let (records, errors) = read(text, chunk: 5, max: 50)
        #expect(records.map(\.fields) == [["a", "b"], ["2", "3"]])
        #expect(records.map(\.line) == [1, 3])
        #expect(errors.map(\.line) == [2])
        #expect(errors.first?.message.contains("longer than 50 bytes") == true)
    }

    @Test("Fields are quoted only when they must be, and read back the same", arguments: ["plain", "a, b", "say \"hi\"", "two\nlines", ""])
    func fieldRoundTrip(_ value: String) {
        let line = CSVReader.field(value) + "," + CSVReader.field("end") + "\n"
        #expect(read(line, chunk: 3).records.map(\.fields) == [[value, "end"]])
        #expect(CSVReader.field(value).hasPrefix("\"") == (value.contains(",") || value.contains("\"") || value.contains("\n")))
    }
}
