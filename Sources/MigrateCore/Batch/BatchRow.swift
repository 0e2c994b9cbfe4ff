import MigrateSupport

/// How a customer list is read: CSV with a header, JSON Lines, or a folder of App Store Server API responses.
public enum BatchInputKind: Sendable, Hashable {
    case csv, jsonLines, folder

    /// JSON Lines when the first byte that isn't white space opens an object; nil when `head` is blank.
    public static func sniff(_ head: [UInt8]) -> BatchInputKind? {
        ByteSniffing.firstSignificantByte(head).map { $0 == UInt8(ascii: "{") ? .jsonLines : .csv }
    }

    /// The kind a file's extension names, nil when it names none.
    public static func named(byExtension pathExtension: String) -> BatchInputKind? {
        switch pathExtension.lowercased() {
        case "jsonl", "ndjson", "json": .jsonLines
        case "csv", "tsv", "txt": .csv
        default: nil
        }
    }
}

/// How decisions are written: CSV with a header, or one JSON object per line; or not at all, when only the
/// summary's counts are wanted.
public enum BatchOutputKind: Sendable, Hashable {
    case csv, jsonLines
    /// Every row decided and counted, none written.
    case countsOnly
}

/// A row read from a list, waiting to be decided with the rest of its block.
public enum BatchRow: Sendable {
    /// A CSV record, with the header's column of customer ids and its bytes as read (for `--rejected`, should it
    /// be skipped).
    case csv(fields: [String], index: [BatchColumn: Int], identity: Int?, line: Int, raw: [UInt8])
    /// A JSON Lines line, parsed by the worker that decides it.
    case jsonLine([UInt8], line: Int)
    /// A customer read from a folder's responses, with the columns written for it and what the responses
    /// leave in doubt (an incomplete history).
    case customer(Customer, fields: [String], place: String, doubts: [BatchRowWarning])
    /// A row that couldn't be read, kept in its place so messages come in the order of the list.
    case skipped(place: BatchRowPlace, message: String, raw: [UInt8])
}

/// Where a row is: a line of a file, or a file or folder's name.
public enum BatchRowPlace: Sendable, Hashable, CustomStringConvertible {
    case line(Int)
    case name(String)

    public var description: String {
        switch self {
        case .line(let number): "line \(number)"
        case .name(let name): name
        }
    }
}

/// A row decided: the customer and decision to count, and the bytes to write.
public enum BatchRowResult: Sendable {
    /// `newKeys`: keys carried through that this worker had not seen before (to warn about misspellings);
    /// `identity`: the `FirstSeenTable.fingerprint(_:)` of the row's customer id, when the list has a column of them
    /// (taken by the worker, so the thread that keeps the order only looks it up).
    case decided(Customer, BatchDecision, place: BatchRowPlace, bytes: [UInt8], newKeys: [String] = [], identity: UInt64? = nil)
    case skipped(place: BatchRowPlace, message: String, raw: [UInt8])
}

/// A list that can't be read at all (a header naming no fact, UTF-16 text), said as `FILE:LINE: reason.`
public struct BatchListError: Error, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
