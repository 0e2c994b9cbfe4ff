import MigrateSupport
import Testing

@Suite("CSV reader", .timeLimit(.minutes(20)))
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
        Case(
            name: "semicolon separated (Excel where the comma is a decimal point)", text: "a;b\n1,5;2\n", records: [["a", "b"], ["1,5", "2"]],
            lines: [1, 2]),
        Case(name: "BOM and CRLF together (Excel's CSV UTF-8)", text: "\u{FEFF}a,b\r\n1,2\r\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(
            name: "text after a closing quote makes the record bad", text: "a,b\n\"x\"y,1\n2,3\n", records: [["a", "b"], ["2", "3"]], lines: [1, 3],
            errors: [2]),
        Case(name: "a lone CR inside a field is kept", text: "a\nx\ry\n", records: [["a"], ["x\ry"]], lines: [1, 2]),
        Case(name: "a line of only a quoted empty field is a record", text: "a\n\"\"\n", records: [["a"], [""]], lines: [1, 2]),
    ]

    /// Where each kind of column may hold a quoted line break.
    struct LineBreakCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var records: [[String]]
        var errors: [Int]
        var errorColumns: [Int?]
        var testDescription: String { name }
    }

    static let lineBreakCases: [LineBreakCase] = [
        LineBreakCase(
            name: "a stray quote in a column that can't hold a line break ends its own row",
            text: "id,version,note\nc-1,\"30,x\nc-2,14,ok\nc-3,21,fine\n",
            records: [["id", "version", "note"], ["c-2", "14", "ok"], ["c-3", "21", "fine"]],
            errors: [2], errorColumns: [2]),
        LineBreakCase(
            name: "a free-text column holds a quoted line break",
            text: "id,version,note\nc-1,14,\"two\nlines\"\nc-2,21,x\n",
            records: [["id", "version", "note"], ["c-1", "14", "two\nlines"], ["c-2", "21", "x"]],
            errors: [], errorColumns: []),
        LineBreakCase(
            name: "the header itself never holds a line break",
            text: "id,\"version\nnote\"\nc-1,14\n", records: [["note\""], ["c-1", "14"]], errors: [1], errorColumns: [2]),
        LineBreakCase(
            name: "a field that isn't UTF-8 makes its row bad, named by column",
            text: "id,version,note\nc-1,14,caf\u{E9}\nc-2,21,x\n", records: [["id", "version", "note"], ["c-2", "21", "x"]], errors: [2],
            errorColumns: [3]),
    ]

    @Test("A quoted line break only where the header allows one", arguments: lineBreakCases)
    func lineBreaks(_ example: LineBreakCase) {
        for chunk in [1, 3, 1 << 20] {
            var reader = CSVReader(maxRecordBytes: 1 << 20)
            reader.decideLineBreaks = { names in Set(names.indices.filter { names[$0] == "note" }) }
            var records: [CSVRecord] = []
            var errors: [CSVRecordError] = []
            var bytes = Array(example.text.utf8)
            if example.name.contains("UTF-8") {
                // Latin-1's é, as a file saved in another encoding has it.
                bytes = Array(example.text.replacingOccurrences(of: "\u{E9}", with: "#").utf8).map { $0 == UInt8(ascii: "#") ? 0xE9 : $0 }
            }
            var offset = 0
            while offset < bytes.count {
                reader.feed(bytes[offset..<min(bytes.count, offset + chunk)], record: { records.append($0) }, failure: { errors.append($0) })
                offset += chunk
            }
            reader.finish(record: { records.append($0) }, failure: { errors.append($0) })
            #expect(records.map(\.fields) == example.records, "chunks of \(chunk)")
            #expect(errors.map(\.line) == example.errors, "chunks of \(chunk)")
            #expect(errors.map(\.column) == example.errorColumns, "chunks of \(chunk)")
        }
    }

    @Test("A bad record keeps its bytes as the file has them, for --rejected")
    func rawBytes() {
        let text = "a,b\r\n\"x\" y,1\r\n\"q\"\"z\",2\r\n"
        let (records, errors) = read(text, chunk: 2)
        #expect(errors.map(\.raw) == [Array("\"x\" y,1".utf8)])
        #expect(records.last?.raw == Array("\"q\"\"z\",2".utf8))
        #expect(records.last?.fields == ["q\"z", "2"])
    }

    @Test(
        "UTF-16 is refused whole, before any record",
        arguments: [[0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00], [0x61, 0x00, 0x2C, 0x00, 0x0A, 0x00]] as [[UInt8]])
    func utf16(_ bytes: [UInt8]) {
        var reader = CSVReader(maxRecordBytes: 1 << 20)
        var records: [CSVRecord] = []
        var errors: [CSVRecordError] = []
        reader.feed(bytes[...], record: { records.append($0) }, failure: { errors.append($0) })
        reader.feed(Array("1,2\n".utf8)[...], record: { records.append($0) }, failure: { errors.append($0) })
        reader.finish(record: { records.append($0) }, failure: { errors.append($0) })
        #expect(records.isEmpty)
        #expect(errors.count == 1)
        #expect(errors.first?.isFatal == true)
        #expect(errors.first?.message.contains("UTF-16") == true)
    }

    @Test("More fields than the limit make the record bad; blank lines are counted")
    func fieldLimitAndBlankLines() {
        var reader = CSVReader(maxRecordBytes: 1 << 20, maxFields: 3)
        var records: [CSVRecord] = []
        var errors: [CSVRecordError] = []
        reader.feed(Array("a,b\n\n1,2,3,4,5\n\n6,7\n".utf8)[...], record: { records.append($0) }, failure: { errors.append($0) })
        reader.finish(record: { records.append($0) }, failure: { errors.append($0) })
        #expect(records.map(\.fields) == [["a", "b"], ["6", "7"]])
        #expect(errors.map(\.line) == [3])
        #expect(errors.first?.message.contains("more than 3 fields") == true)
        #expect(reader.blankLines == 2)
    }

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
        let line = CSVWriter.field(value) + "," + CSVWriter.field("end") + "\n"
        #expect(read(line, chunk: 3).records.map(\.fields) == [[value, "end"]])
        #expect(CSVWriter.field(value).hasPrefix("\"") == (value.contains(",") || value.contains("\"") || value.contains("\n")))
    }
}
