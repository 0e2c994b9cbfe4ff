/// One record of a CSV file: its fields and the line it starts on.
public struct CSVRecord: Sendable, Hashable {
    public var fields: [String]
    /// The 1-based line the record starts on.
    public var line: Int
}

/// A record that can't be read, with the line it starts on.
public struct CSVRecordError: Error, Sendable, Hashable {
    public var line: Int
    public var message: String
}

/// Reads CSV (RFC 4180: quoted fields may hold commas, quotes written twice and line breaks; `\n` or
/// `\r\n` ends a record) from chunks of bytes as they arrive, so a file of any length is read in constant
/// memory. A UTF-8 byte order mark, as spreadsheet apps write, is skipped.
///
/// The separator is a comma, or a tab when the first line has tabs and no comma (a spreadsheet's "tab
/// separated" export). A record longer than `maxRecordBytes` is reported and skipped to the next line
/// break outside quotes, so an unbalanced quote can't swallow the rest of the file into memory.
public struct CSVReader: Sendable {
    public let maxRecordBytes: Int
    private var separator: UInt8?
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var recordBytes = 0
    private var inQuotes = false
    /// A quote closed the quoted part of the field; a second one right after it is a literal quote.
    private var quoteClosed = false
    private var line = 1
    private var recordLine = 1
    private var skipping = false
    private var pendingCR = false
    /// Bytes of the first line, held until its end shows which separator the file uses.
    private var firstLine: [UInt8]? = []

    public init(maxRecordBytes: Int) {
        self.maxRecordBytes = maxRecordBytes
    }

    /// Reads `chunk`, calling `record` for each complete record and `failure` for each that can't be read.
    public mutating func feed(
        _ chunk: ArraySlice<UInt8>, record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void
    ) rethrows {
        try chunk.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
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

    @inline(__always)
    private func isSpecial(_ byte: UInt8) -> Bool {
        byte == separator || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Ends the input: the last record, if the file doesn't end with a line break, and an error for a
    /// quoted field left open.
    public mutating func finish(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        if firstLine != nil { try replayFirstLine(record: record, failure: failure) }
        if inQuotes && !skipping {
            try failure(CSVRecordError(line: recordLine, message: "a quoted field opened here never ends; add the closing '\"'"))
        } else if !skipping && (recordBytes > 0 || !fields.isEmpty) {
            try endRecord(record: record)
        }
        reset()
    }

    private mutating func replayFirstLine(record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        let bytes = firstLine!
        firstLine = nil
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        separator = !body.contains(UInt8(ascii: ",")) && body.contains(UInt8(ascii: "\t")) ? UInt8(ascii: "\t") : UInt8(ascii: ",")
        for byte in body { try take(byte, record: record, failure: failure) }
    }

    private mutating func take(_ byte: UInt8, record: (CSVRecord) throws -> Void, failure: (CSVRecordError) throws -> Void) rethrows {
        let newline = UInt8(ascii: "\n")
        if skipping {
            if byte == newline {
                line += 1
                skipping = false
                reset()
            }
            return
        }
        if pendingCR {
            pendingCR = false
            if byte != newline { field.append(UInt8(ascii: "\r")) }
        }
        recordBytes += 1
        if recordBytes > maxRecordBytes {
            try failure(
                CSVRecordError(
                    line: recordLine,
                    message: "a record longer than \(maxRecordBytes) bytes (an unbalanced '\"' can make one); skipped to the next line"))
            skipping = !(byte == newline && !inQuotes)
            if byte == newline { line += 1 }
            reset()
            return
        }
        if inQuotes {
            if byte == UInt8(ascii: "\"") {
                inQuotes = false
                quoteClosed = true
            } else {
                if byte == newline { line += 1 }
                field.append(byte)
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
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
            endField()
        case newline:
            try endRecord(record: record)
            line += 1
            reset()
        case UInt8(ascii: "\r"):
            quoteClosed = false
            pendingCR = true
        default:
            quoteClosed = false
            field.append(byte)
        }
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        quoteClosed = false
    }

    private mutating func endRecord(record: (CSVRecord) throws -> Void) rethrows {
        endField()
        // A blank line is no record.
        if !(fields.count == 1 && fields[0].isEmpty) {
            try record(CSVRecord(fields: fields, line: recordLine))
        }
    }

    private mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        recordBytes = 0
        inQuotes = false
        quoteClosed = false
        pendingCR = false
        recordLine = line
    }

    /// `value` as a CSV field: quoted when it holds the separator, a quote or a line break.
    public static func field(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else { return value }
        var quoted = "\""
        for character in value {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
