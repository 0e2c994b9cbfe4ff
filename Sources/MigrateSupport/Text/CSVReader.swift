import Foundation

/// One record of a CSV file: its fields, the line it is on and its bytes as the file has them.
public struct CSVRecord: Sendable, Hashable {
    public var fields: [String]
    /// The 1-based line the record is on.
    public var line: Int
    /// The record as it is in the file, quotes and all, without the line break that ends it.
    public var raw: [UInt8]

    public init(fields: [String], line: Int, raw: [UInt8] = []) {
        self.fields = fields
        self.line = line
        self.raw = raw
    }

    /// Every field empty or spaces only: a spreadsheet's blank row (`,,,,`), which is no record of anything.
    public var isBlank: Bool {
        fields.allSatisfy { $0.utf8.allSatisfy { $0 == 32 || $0 == 9 } }
    }
}

/// A record that can't be read: where it is, the field that is wrong, why, and its bytes.
public struct CSVRecordError: Error, Sendable, Hashable {
    public var line: Int
    /// The 1-based field the problem is in, when it is in one.
    public var column: Int?
    public var message: String
    /// The record as it is in the file (at most `maxRecordBytes` of it), for a list of rejected rows.
    public var raw: [UInt8]
    /// The whole input can't be read (another encoding): no record after it is read either.
    public var isFatal: Bool

    public init(line: Int, column: Int? = nil, message: String, raw: [UInt8] = [], isFatal: Bool = false) {
        self.line = line
        self.column = column
        self.message = message
        self.raw = raw
        self.isFatal = isFatal
    }
}

/// A `"` that opened a quoted field and didn't close it on its own line: the record was refused there, and this
/// says how much of the file a reader that let fields span lines would have swallowed into that one field.
public struct StrayQuote: Sendable, Hashable {
    /// The line the quote is on, and its 1-based field.
    public var line: Int
    public var column: Int
    /// The line a later `"` would have closed the field on; nil when none does before the end of the input.
    public var closedOn: Int?
    /// Lines the field would have taken, its own included: to `closedOn`, or to the last line of the input.
    public var linesTaken: Int

    public init(line: Int, column: Int, closedOn: Int?, linesTaken: Int) {
        self.line = line
        self.column = column
        self.closedOn = closedOn
        self.linesTaken = linesTaken
    }

    /// `a '"' at line 12, field 5, would have taken 22,546 lines (to line 22,557) into one field`.
    public var sentence: String {
        let reach = closedOn.map { "to line \(DigitGrouping.grouped($0, separator: ","))" } ?? "to the end of the input"
        return "the '\"' on line \(DigitGrouping.grouped(line, separator: ",")), field \(column), would have taken "
            + "\(DigitGrouping.grouped(linesTaken, separator: ",")) \(linesTaken == 1 ? "line" : "lines") (\(reach)) into one field"
    }
}

/// Reads CSV strictly (RFC 4180, one record a line) from chunks of bytes as they arrive, so a file of any length is
/// read in constant memory. The unit of account is the physical line: every line is the header, a record, a bad
/// record, or blank, and `lines` counts them all.
///
/// - A quote opens a quoted field only as the field's first byte; inside it `""` is a quote. After the closing
///   quote only the separator or the end of the line may come: anything else makes the record bad.
/// - No field spans lines: none of the files migrate reads (customer lists, license exports, offer codes) holds free
///   text a person wrote over several lines, so a quoted field still open at the end of its line is a stray quote.
///   The record is refused at its own line, the next line is read as a record of its own, and `strayQuotes` says
///   how many lines a reader that let the field run on would have swallowed.
/// - `\n`, `\r\n` and a lone `\r` (Excel for Mac's "CSV (Macintosh)") each end a line; a blank line is no record.
/// - A UTF-8 byte order mark is skipped; a field that isn't UTF-8 makes its record bad; UTF-16 (a byte order
///   mark or NUL bytes in the first line) makes the whole input unreadable.
/// - The separator is a comma, or a tab when the first line has tabs and no comma (a "tab separated"
///   export), or a semicolon when it has semicolons and neither (the CSV Excel writes where the comma is the
///   decimal separator). `separator` says which, once the first line is read.
/// - A record longer than `maxRecordBytes`, or with more than `maxFields` fields, is bad and skipped to the
///   next line break.
public struct CSVReader: Sendable {
    public let maxRecordBytes: Int
    public let maxFields: Int
    /// The separator the first line showed; nil before it is read.
    public private(set) var separator: UInt8?
    /// Blank lines passed over (no record).
    public private(set) var blankLines = 0
    /// Physical lines read so far (all of them once `finish` has run): header, records, bad records and blank lines.
    public private(set) var lines = 0
    /// Stray quotes found, in line order, each with the lines it would have swallowed (final once `finish` has run).
    public private(set) var strayQuotes: [StrayQuote] = []
    /// Lines that ended with a lone carriage return, as Excel for Mac's "CSV (Macintosh)" writes them.
    public private(set) var carriageReturnLines = 0

    private var field: [UInt8] = []
    private var fields: [String] = []
    private var raw: [UInt8] = []
    private var recordBytes = 0
    private var inQuotes = false
    /// A quote closed the quoted part of the field; a second one right after it is a literal quote.
    private var quoteClosed = false
    /// The 1-based line being read.
    private var line = 1
    /// Reading on to the end of the line of a bad record, whose error is then reported with its bytes.
    private var skipping = false
    private var pendingError: CSVRecordError?
    /// A carriage return ended the last line; a line feed right after it belongs to the same line end.
    private var afterCR = false
    private var fatal = false
    /// The line has bytes (a line of nothing is blank even before its end is seen).
    private var lineHasBytes = false
    /// Bytes of the first line, held until its end shows which separator the file uses.
    private var firstLine: [UInt8]? = []
    /// Quotes counted since the last stray quote while it would still be open (odd: open).
    private var shadowQuotes = 0
    private var shadowOpen = false

    public init(maxRecordBytes: Int, maxFields: Int = .max) {
        self.maxRecordBytes = maxRecordBytes
        self.maxFields = maxFields
    }

    /// The name of a separator for messages.
    public static func name(ofSeparator separator: UInt8) -> String {
        switch separator {
        case UInt8(ascii: "\t"): "tab"
        case UInt8(ascii: ";"): "semicolon"
        default: "comma"
        }
    }

    /// Reads `chunk`, calling `record` for each complete record and `failure` for each that can't be read.
    public mutating func feed(
        _ chunk: ArraySlice<UInt8>, record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void
    ) rethrows {
        guard !fatal else { return }
        try chunk.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count && !fatal {
                let byte = buffer[index]
                if firstLine != nil {
                    index += 1
                    firstLine!.append(byte)
                    if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || firstLine!.count > maxRecordBytes {
                        try replayFirstLine(record: record, failure: failure)
                    }
                    continue
                }
                if !inQuotes && !skipping && !afterCR && !quoteClosed {
                    // The common case: a run of ordinary bytes of an unquoted field, copied at once.
                    let start = index
                    while index < buffer.count, !isSpecial(buffer[index]) { index += 1 }
                    let count = index - start
                    if count > 0 && recordBytes + count <= maxRecordBytes {
                        field.append(contentsOf: buffer[start..<index])
                        raw.append(contentsOf: buffer[start..<index])
                        recordBytes += count
                        lineHasBytes = true
                        continue
                    }
                    index = start
                }
                try take(buffer[index], record: record, failure: failure)
                index += 1
            }
        }
    }

    @inline(__always)
    private func isSpecial(_ byte: UInt8) -> Bool {
        byte == separator || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Ends the input: the last record, if the file doesn't end with a line break, and the stray quotes' reach.
    public mutating func finish(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        if firstLine != nil { try replayFirstLine(record: record, failure: failure) }
        guard !fatal else { return }
        if lineHasBytes || inQuotes || skipping {
            if inQuotes { strayQuoteAtLineEnd() }
            try endLine(record: record, failure: failure)
        }
        if shadowOpen, let last = strayQuotes.indices.last {
            // No later quote closes it: a lenient reader would have run to the end of the input.
            strayQuotes[last].linesTaken = lines - strayQuotes[last].line + 1
            shadowOpen = false
        }
    }

    private mutating func replayFirstLine(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        let bytes = firstLine!
        firstLine = nil
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.contains(0) {
            fatal = true
            try failure(
                CSVRecordError(
                    line: 1,
                    message:
                        "the file is UTF-16 text (as Excel's \"Unicode Text\" writes), not UTF-8; save it as \"CSV UTF-8 (Comma delimited)\" and run again",
                    isFatal: true))
            return
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.contains(UInt8(ascii: ",")) {
            separator = UInt8(ascii: ",")
        } else if body.contains(UInt8(ascii: "\t")) {
            separator = UInt8(ascii: "\t")
        } else if body.contains(UInt8(ascii: ";")) {
            separator = UInt8(ascii: ";")
        } else {
            separator = UInt8(ascii: ",")
        }
        for byte in body where !fatal { try take(byte, record: record, failure: failure) }
    }

    /// Marks the record bad: the rest of its line is read (into `raw`) and then reported with the error.
    private mutating func fail(_ message: String, column: Int?) {
        if pendingError == nil { pendingError = CSVRecordError(line: line, column: column, message: message) }
        skipping = true
        inQuotes = false
    }

    private mutating func take(_ byte: UInt8, record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        let lineFeed = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        if afterCR {
            afterCR = false
            // `\r\n`: the line already ended at the carriage return.
            if byte == lineFeed {
                carriageReturnLines -= 1
                return
            }
        }
        if byte == lineFeed || byte == carriageReturn {
            if byte == carriageReturn {
                afterCR = true
                carriageReturnLines += 1
            }
            if inQuotes { strayQuoteAtLineEnd() }
            return try endLine(record: record, failure: failure)
        }
        lineHasBytes = true
        if byte == UInt8(ascii: "\"") && shadowOpen { shadowQuotes += 1 }
        if skipping {
            if raw.count < maxRecordBytes { raw.append(byte) }
            return
        }
        recordBytes += 1
        if recordBytes > maxRecordBytes {
            fail(
                "a record longer than \(maxRecordBytes) bytes, migrate's limit for one (an unbalanced '\"' can make one); skipped to the next line",
                column: nil)
            if raw.count < maxRecordBytes { raw.append(byte) }
            return
        }
        if inQuotes {
            raw.append(byte)
            if byte == UInt8(ascii: "\"") {
                inQuotes = false
                quoteClosed = true
            } else {
                field.append(byte)
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            raw.append(byte)
            // `""` inside a quoted field is one quote; a quote in the middle of an unquoted field is kept as it is.
            if quoteClosed {
                field.append(byte)
                inQuotes = true
                quoteClosed = false
            } else if field.isEmpty {
                inQuotes = true
            } else {
                field.append(byte)
            }
        case separator:
            raw.append(byte)
            endField()
            if fields.count >= maxFields {
                fail("more than \(maxFields) fields, migrate's limit for a record", column: nil)
            }
        default:
            raw.append(byte)
            if quoteClosed {
                fail(
                    "text after the closing '\"' of a quoted field; quote the whole field, or write a quote inside it as \"\"",
                    column: fields.count + 1)
                return
            }
            field.append(byte)
        }
    }

    /// A quoted field still open where its line ends: the quote that opened it was a stray one, since no field may run
    /// on to the next line. The record is refused, and the quotes of the lines after it are counted to see where a
    /// lenient reader's field would have closed.
    private mutating func strayQuoteAtLineEnd() {
        pendingError = CSVRecordError(
            line: line, column: fields.count + 1,
            message:
                "a '\"' opens a quoted field that doesn't close on this line, and no field may span lines; close the quote on the same line or remove the stray '\"'"
        )
        inQuotes = false
        skipping = true
        if !shadowOpen {
            strayQuotes.append(StrayQuote(line: line, column: fields.count + 1, closedOn: nil, linesTaken: 1))
            shadowOpen = true
            shadowQuotes = 1
        }
    }

    /// The end of a physical line: the record on it, its error, or a blank line; then the next line starts.
    private mutating func endLine(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        lines += 1
        defer {
            reset()
            line += 1
        }
        if shadowOpen, let last = strayQuotes.indices.last, strayQuotes[last].line < line, shadowQuotes % 2 == 0 {
            // A lenient reader's field would have closed on this line, and its record ended here.
            strayQuotes[last].closedOn = line
            strayQuotes[last].linesTaken = line - strayQuotes[last].line + 1
            shadowOpen = false
        }
        if var error = pendingError {
            error.raw = raw
            return try failure(error)
        }
        endField()
        if var error = pendingError {
            error.raw = raw
            return try failure(error)
        }
        // A blank line is no record.
        guard !(fields.count == 1 && fields[0].isEmpty && raw.isEmpty) else {
            blankLines += 1
            return
        }
        try record(CSVRecord(fields: fields, line: line, raw: raw))
    }

    private mutating func endField() {
        if field.allSatisfy({ $0 < 0x80 }) {
            fields.append(String(decoding: field, as: UTF8.self))
        } else if let text = String(bytes: field, encoding: .utf8) {
            fields.append(text)
        } else {
            let bad = field.first { $0 >= 0x80 } ?? 0
            let hex = String(bad, radix: 16, uppercase: true)
            if pendingError == nil {
                pendingError = CSVRecordError(
                    line: line, column: fields.count + 1,
                    message:
                        "not UTF-8 text (byte 0x\(hex)): the file was saved in another encoding; save it as \"CSV UTF-8 (Comma delimited)\" and run again"
                )
            }
            fields.append("")
        }
        field.removeAll(keepingCapacity: true)
        quoteClosed = false
    }

    private mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        raw.removeAll(keepingCapacity: true)
        recordBytes = 0
        inQuotes = false
        quoteClosed = false
        skipping = false
        pendingError = nil
        lineHasBytes = false
    }
}
