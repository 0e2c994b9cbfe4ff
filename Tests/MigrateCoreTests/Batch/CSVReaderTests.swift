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
            name: "a line break inside quotes: the quote is a stray one, refused at its line, and the next line read alone",
            text: "a,b\n\"one\ntwo\",3\n4,5\n", records: [["a", "b"], ["two\"", "3"], ["4", "5"]], lines: [1, 3, 4], errors: [2]),
        Case(name: "empty fields and blank lines", text: "a,b,c\n\n,,\n", records: [["a", "b", "c"], ["", "", ""]], lines: [1, 3]),
        Case(name: "byte order mark", text: "\u{FEFF}a,b\n1,2\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(name: "tab separated", text: "a\tb\n1,5\t2\n", records: [["a", "b"], ["1,5", "2"]], lines: [1, 2]),
        Case(name: "a quote inside an unquoted field is kept", text: "a\n5\"7\n", records: [["a"], ["5\"7"]], lines: [1, 2]),
        Case(name: "an unterminated quote", text: "a,b\n1,\"open\n2,3\n", records: [["a", "b"], ["2", "3"]], lines: [1, 3], errors: [2]),
        Case(
            name: "semicolon separated (Excel where the comma is a decimal point)", text: "a;b\n1,5;2\n", records: [["a", "b"], ["1,5", "2"]],
            lines: [1, 2]),
        Case(name: "BOM and CRLF together (Excel's CSV UTF-8)", text: "\u{FEFF}a,b\r\n1,2\r\n", records: [["a", "b"], ["1", "2"]], lines: [1, 2]),
        Case(
            name: "text after a closing quote makes the record bad", text: "a,b\n\"x\"y,1\n2,3\n", records: [["a", "b"], ["2", "3"]], lines: [1, 3],
            errors: [2]),
        Case(
            name: "a lone CR ends a line (Excel for Mac)", text: "a,b\r1,2\r3,4\r", records: [["a", "b"], ["1", "2"], ["3", "4"]], lines: [1, 2, 3]),
        Case(
            name: "mixed line ends: LF, CRLF and CR alone", text: "a,b\n1,2\r\n3,4\r5,6",
            records: [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]],
            lines: [1, 2, 3, 4]),
        Case(name: "CR-only blank lines are blank", text: "a\r\r1\r", records: [["a"], ["1"]], lines: [1, 3]),
        Case(name: "a line of only a quoted empty field is a record", text: "a\n\"\"\n", records: [["a"], [""]], lines: [1, 2]),
    ]

    /// A stray quote in any column: refused at its own line, and how many lines a lenient reader would have swallowed.
    struct StrayCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var records: [[String]]
        var errors: [Int]
        var errorColumns: [Int?]
        var strays: [StrayQuote]
        var lines: Int
        var testDescription: String { name }
    }

    static let strayCases: [StrayCase] = [
        StrayCase(
            name: "in a read column, closed by a later quote: that line is where the field would have ended",
            text: "id,version,note\nc-1,\"30,x\nc-2,14,ok\nc-3,21,fine\"\nc-4,22,y\n",
            records: [["id", "version", "note"], ["c-2", "14", "ok"], ["c-3", "21", "fine\""], ["c-4", "22", "y"]], errors: [2], errorColumns: [2],
            strays: [StrayQuote(line: 2, column: 2, closedOn: 4, linesTaken: 3)], lines: 5),
        StrayCase(
            name: "in the last column (a note): refused too, never allowed to span lines",
            text: "id,version,note\nc-1,14,\"two\nlines\"\nc-2,21,x\n",
            records: [["id", "version", "note"], ["lines\""], ["c-2", "21", "x"]], errors: [2], errorColumns: [3],
            strays: [StrayQuote(line: 2, column: 3, closedOn: 3, linesTaken: 2)], lines: 4),
        StrayCase(
            name: "never closed: it would have taken every line to the end",
            text: "id,note\nc-1,\"open\nc-2,a\nc-3,b\nc-4,c\n",
            records: [["id", "note"], ["c-2", "a"], ["c-3", "b"], ["c-4", "c"]], errors: [2], errorColumns: [2],
            strays: [StrayQuote(line: 2, column: 2, closedOn: nil, linesTaken: 4)], lines: 5),
        StrayCase(
            name: "quoted fields on the lines after it keep their quotes paired",
            text: "id,note\nc-1,\"open\nc-2,\"a, b\"\nc-3,b\n",
            records: [["id", "note"], ["c-2", "a, b"], ["c-3", "b"]], errors: [2], errorColumns: [2],
            strays: [StrayQuote(line: 2, column: 2, closedOn: nil, linesTaken: 3)], lines: 4),
        StrayCase(
            name: "a field that isn't UTF-8 makes its row bad, named by column",
            text: "id,version,note\nc-1,14,caf\u{E9}\nc-2,21,x\n", records: [["id", "version", "note"], ["c-2", "21", "x"]], errors: [2],
            errorColumns: [3], strays: [], lines: 3),
    ]

    @Test("No field spans lines: a stray quote is refused at its line, the lines after it read, its reach counted", arguments: strayCases)
    func strayQuotes(_ example: StrayCase) {
        for chunk in [1, 3, 1 << 20] {
            var reader = CSVReader(maxRecordBytes: 1 << 20)
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
            #expect(reader.strayQuotes == example.strays, "chunks of \(chunk)")
            #expect(reader.lines == example.lines, "chunks of \(chunk)")
            // Every line is a record, a bad record or blank.
            #expect(records.count + errors.count + reader.blankLines == reader.lines, "chunks of \(chunk)")
        }
    }

    @Test("A stray quote's sentence names its line, its field and the lines it would have taken")
    func strayQuoteSentence() {
        let stray = StrayQuote(line: 12, column: 5, closedOn: 22_557, linesTaken: 22_546)
        #expect(stray.sentence == "the '\"' on line 12, field 5, would have taken 22,546 lines (to line 22,557) into one field")
        #expect(StrayQuote(line: 3, column: 1, closedOn: nil, linesTaken: 9).sentence.hasSuffix("(to the end of the input) into one field"))
    }

    @Test("A row of empty fields is a blank record, not a customer; a row of one empty quoted field is not blank text")
    func blankRecords() {
        #expect(CSVRecord(fields: ["", " ", ""], line: 2).isBlank)
        #expect(!CSVRecord(fields: ["", "x"], line: 2).isBlank)
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

    @Test("Fields are quoted only when they must be, and read back the same", arguments: ["plain", "a, b", "say \"hi\"", ""])
    func fieldRoundTrip(_ value: String) {
        let line = CSVWriter.field(value) + "," + CSVWriter.field("end") + "\n"
        #expect(read(line, chunk: 3).records.map(\.fields) == [[value, "end"]])
        #expect(CSVWriter.field(value).hasPrefix("\"") == (value.contains(",") || value.contains("\"") || value.contains("\n")))
    }

    @Test(
        "Every field written is spreadsheet-safe: a formula start gets an apostrophe, a plain number doesn't",
        arguments: [
            ("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""), ("+1+1", "'+1+1"), ("-2", "-2"), ("-12.5", "-12.5"), ("+3", "+3"),
            ("@SUM(A1)", "'@SUM(A1)"), ("-", "'-"), ("-1-", "'-1-"), ("a=b", "a=b"), ("\tx", "'\tx"),
        ])
    func spreadsheetSafe(_ value: String, _ written: String) {
        #expect(CSVWriter.field(value) == written)
        #expect(String(decoding: CSVWriter.field(bytes: Array(value.utf8)), as: UTF8.self) == written)
    }
}
