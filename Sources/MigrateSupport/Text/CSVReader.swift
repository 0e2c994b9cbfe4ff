import Foundation

/// One record of a CSV file: its fields, the line it starts on and its bytes as the file has them.
public struct CSVRecord: Sendable, Hashable {
    public var fields: [String]
    /// The 1-based line the record starts on.
    public var line: Int
    /// The record as it is in the file, quotes and all, without the line break that ends it.
    public var raw: [UInt8]

    public init(fields: [String], line: Int, raw: [UInt8] = []) {
        self.fields = fields
        self.line = line
        self.raw = raw
    }
}

/// A record that can't be read: where it starts, the field that is wrong, why, and its bytes.
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

/// Reads CSV strictly (RFC 4180) from chunks of bytes as they arrive, so a file of any length is read in
/// constant memory.
///
/// - A quote opens a quoted field only as the field's first byte; inside it `""` is a quote. After the closing
///   quote only the separator or the end of the line may come: anything else makes the record bad.
/// - A line break inside quotes is part of the field only in a column that may hold one
///   (`lineBreakColumns`, decided from the header by `decideLineBreaks`); anywhere else the quote is taken
///   for a stray one, the record is bad and the next line is read as a record of its own. So a stray `"`
///   can't swallow the lines after it.
/// - `\n` or `\r\n` ends a record; a blank line is no record.
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
    /// The 0-based columns whose quoted fields may hold line breaks; nil: every column.
    public var lineBreakColumns: Set<Int>?
    /// Called with the first record (the header) to set `lineBreakColumns` for the records after it.
    public var decideLineBreaks: (@Sendable ([String]) -> Set<Int>?)?

    private var field: [UInt8] = []
    private var fields: [String] = []
    private var raw: [UInt8] = []
    private var recordBytes = 0
    private var inQuotes = false
    /// A quote closed the quoted part of the field; a second one right after it is a literal quote.
    private var quoteClosed = false
    private var line = 1
    private var recordLine = 1
    /// The line the open quote is on, and its column, for a quote that never closes.
    private var quoteLine = 1
    /// Reading on to the end of the line of a bad record, whose error is then reported with its bytes.
    private var skipping = false
    private var pendingError: CSVRecordError?
    private var pendingCR = false
    private var fatal = false
    private var seenHeader = false
    /// Bytes of the first line, held until its end shows which separator the file uses.
    private var firstLine: [UInt8]? = []

    public init(maxRecordBytes: Int, maxFields: Int = .max, lineBreakColumns: Set<Int>? = nil) {
        self.maxRecordBytes = maxRecordBytes
        self.maxFields = maxFields
        self.lineBreakColumns = lineBreakColumns
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
                    firstLine!.append(byte)
                    index += 1
                    if byte == UInt8(ascii: "\n") || firstLine!.count > maxRecordBytes {
                        try replayFirstLine(record: record, failure: failure)
                    }
                    continue
                }
                if !inQuotes && !skipping && !pendingCR && !quoteClosed {
                    // The common case: a run of ordinary bytes of an unquoted field, copied at once.
                    let start = index
                    while index < buffer.count, !isSpecial(buffer[index]) { index += 1 }
                    let count = index - start
                    if count > 0 && recordBytes + count <= maxRecordBytes {
                        field.append(contentsOf: buffer[start..<index])
                        raw.append(contentsOf: buffer[start..<index])
                        recordBytes += count
                        continue
                    }
                    index = start
                }
                try take(buffer[index], record: record, failure: failure)
                index += 1
            }
        }
    }

    /// Whether a quoted field of 0-based `column` may hold a line break: never in a header that decides the
    /// columns, then in the columns it chose.
    private func mayBreakLine(inColumn column: Int) -> Bool {
        guard seenHeader || decideLineBreaks == nil else { return false }
        return lineBreakColumns?.contains(column) ?? true
    }

    @inline(__always)
    private func isSpecial(_ byte: UInt8) -> Bool {
        byte == separator || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Ends the input: the last record, if the file doesn't end with a line break, and an error for a
    /// quoted field left open.
    public mutating func finish(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        if firstLine != nil { try replayFirstLine(record: record, failure: failure) }
        guard !fatal else { return }
        if pendingCR {
            pendingCR = false
            field.append(UInt8(ascii: "\r"))
        }
        if var error = pendingError {
            error.raw = raw
            try failure(error)
        } else if inQuotes {
            try failure(
                CSVRecordError(
                    line: recordLine, column: fields.count + 1,
                    message: "a quoted field opened on line \(quoteLine) never ends; add the closing '\"' or remove the stray one", raw: raw))
        } else if recordBytes > 0 || !fields.isEmpty {
            try endRecord(record: record, failure: failure)
        }
        reset()
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
        if pendingError == nil { pendingError = CSVRecordError(line: recordLine, column: column, message: message) }
        skipping = true
        inQuotes = false
    }

    private mutating func take(_ byte: UInt8, record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        let newline = UInt8(ascii: "\n")
        if skipping {
            if byte == newline {
                if var error = pendingError {
                    if raw.last == UInt8(ascii: "\r") { raw.removeLast() }
                    error.raw = raw
                    try failure(error)
                }
                line += 1
                reset()
            } else if raw.count < maxRecordBytes {
                raw.append(byte)
            }
            return
        }
        if pendingCR {
            pendingCR = false
            if byte != newline {
                field.append(UInt8(ascii: "\r"))
                raw.append(UInt8(ascii: "\r"))
            }
        }
        recordBytes += 1
        if recordBytes > maxRecordBytes {
            fail(
                "a record longer than \(maxRecordBytes) bytes, migrate's limit for one (an unbalanced '\"' can make one); skipped to the next line",
                column: nil)
            return try take(byte, record: record, failure: failure)
        }
        if inQuotes {
            if byte == UInt8(ascii: "\"") {
                raw.append(byte)
                inQuotes = false
                quoteClosed = true
            } else if byte == newline && !mayBreakLine(inColumn: fields.count) {
                // A line break where the column can't hold one: the quote was a stray one. The record ends
                // here, bad, and the next line is a record of its own.
                pendingError = CSVRecordError(
                    line: recordLine, column: fields.count + 1,
                    message:
                        "a '\"' opens a quoted field that runs past the end of the line, and this column can't hold a line break; remove the stray '\"' or close it on the same line"
                )
                skipping = true
                inQuotes = false
                return try take(byte, record: record, failure: failure)
            } else {
                if byte == newline { line += 1 }
                field.append(byte)
                raw.append(byte)
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
                quoteLine = line
            } else {
                field.append(byte)
            }
        case separator:
            raw.append(byte)
            endField()
            if fields.count >= maxFields {
                fail("more than \(maxFields) fields, migrate's limit for a record", column: nil)
            }
        case newline:
            try endRecord(record: record, failure: failure)
            line += 1
            reset()
        case UInt8(ascii: "\r"):
            pendingCR = true
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
                    line: recordLine, column: fields.count + 1,
                    message:
                        "not UTF-8 text (byte 0x\(hex)): the file was saved in another encoding; save it as \"CSV UTF-8 (Comma delimited)\" and run again"
                )
            }
            fields.append("")
        }
        field.removeAll(keepingCapacity: true)
        quoteClosed = false
    }

    private mutating func endRecord(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        endField()
        if var error = pendingError {
            error.raw = raw
            try failure(error)
            return
        }
        // A blank line is no record.
        guard !(fields.count == 1 && fields[0].isEmpty && raw.isEmpty) else {
            blankLines += 1
            return
        }
        if !seenHeader {
            seenHeader = true
            if let decide = decideLineBreaks { lineBreakColumns = decide(fields) }
        }
        try record(CSVRecord(fields: fields, line: recordLine, raw: raw))
    }

    private mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        raw.removeAll(keepingCapacity: true)
        recordBytes = 0
        inQuotes = false
        quoteClosed = false
        pendingCR = false
        skipping = false
        pendingError = nil
        recordLine = line
    }
}
