import Foundation
import MigratePlan
import MigrateSupport

/// Decides every customer of a list: reads it (CSV, JSON Lines or a folder of responses), decides its rows
/// in blocks spread over the processors, and hands back each row's bytes in the order read while counting
/// the summary. What becomes of the bytes, skipped rows and warnings is the caller's.
public final class BatchRun {
    /// What a run hands back as it goes, on the thread that called it.
    public struct Events {
        /// Bytes of the output, in order: a CSV header, then one row per decided customer.
        public var write: ([UInt8]) -> Void
        /// A row that couldn't be decided: where, why, its bytes as read, and whether it is among the first
        /// `BatchSummary.listedSkips` (the ones worth naming one by one).
        public var skipped: (_ place: BatchRowPlace, _ message: String, _ raw: [UInt8], _ listed: Bool) -> Void

        public init(write: @escaping ([UInt8]) -> Void, skipped: @escaping (BatchRowPlace, String, [UInt8], Bool) -> Void) {
            self.write = write
            self.skipped = skipped
        }
    }

    public let catalog: PlanCatalog
    /// The list's name in messages (a path, or "standard input").
    public let display: String
    /// The moment subscriptions and trials are judged at, the same for every row.
    public let now: Date
    public let outputKind: BatchOutputKind
    public private(set) var summary: BatchSummary
    /// Rows read (CSV records after the header, JSON Lines lines, a folder's customers): each is decided or skipped.
    public private(set) var rowsRead = 0
    /// Every physical line of a file or standard input, accounted for (a folder's entries count as its lines).
    public private(set) var tally = LineTally()
    /// Blank lines passed over (empty lines and rows of empty fields).
    public var blankLines: Int { tally.blank }
    public private(set) var headerSeen = false
    /// Files of a folder whose JWS signatures were decoded without being verified.
    public private(set) var unverifiedFiles = 0
    /// What the reader of the summary must know about how the list was read (its separator).
    public private(set) var readingNotes: [String] = []
    /// Rows held before they are decided together. The rows of a block and their results are all in memory at once
    /// (about 2 KB a row), so a block is kept small; a thousand handovers to the workers for a million rows cost
    /// nothing next to deciding them.
    public static let blockSize = 1_024

    private let events: Events
    /// One per processor: each block is split into consecutive shares, one per worker.
    private var workers: [BatchWorker]
    private var pending: [BatchRow] = []
    /// Keys of JSON Lines rows that are carried through, each warned about (if misspelled) once.
    private var carriedKeys = Set<String>()
    /// Where each customer id was first seen, for `duplicateCustomer`.
    private var customerIDs = FirstSeenTable()
    /// Lines of rows whose every field is empty, the first few of them, and how many.
    private var blankRows: [Int] = []
    private var blankRowCount = 0

    public init(catalog: PlanCatalog, display: String, now: Date, outputKind: BatchOutputKind, events: Events) {
        self.catalog = catalog
        self.display = display
        self.now = now
        self.outputKind = outputKind
        self.events = events
        summary = BatchSummary(catalog: catalog)
        let count = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let reader = BatchCustomerReader(plan: catalog.plan, now: now)
        workers = (0..<count).map { _ in BatchWorker(catalog: catalog, reader: reader, kind: outputKind) }
    }

    /// Reads the whole list, then decides the rows still held. Throws `BatchListError` when the list can't be
    /// read at all, or the source's error when its bytes can't.
    public func read(_ input: BatchInputKind, source: ByteSource?, folder: String) throws {
        switch input {
        case .csv: try readCSV(source!)
        case .jsonLines: try readJSONLines(source!)
        case .folder: readFolder(folder)
        }
        drain()
        if blankRowCount > 0 {
            let lines =
                blankRows.map { "line \($0)" }.joined(separator: ", ")
                + (blankRowCount > blankRows.count ? " and \(blankRowCount - blankRows.count) more" : "")
            summary.warnAboutList(
                "\(display): \(blankRowCount) \(blankRowCount == 1 ? "row has" : "rows have") every field empty (\(lines)), as a spreadsheet's blank rows do: passed over as blank, no customer; delete them from the list"
            )
        }
        tally.decided = summary.decided
        tally.skipped = summary.skippedCount
    }

    /// The sentence that accounts for every line: `100,001 lines: 1 header, 99,998 customers decided, 1 skipped, 2 blank`.
    public func accounting(_ input: BatchInputKind, detail: String? = nil) -> String {
        if input == .folder {
            var entries = tally
            entries.header = 0
            return entries.sentence(records: ("customer", "customers"), detail: detail).replacingOccurrences(of: " lines:", with: " entries:")
                .replacingOccurrences(of: " line:", with: " entry:")
        }
        return tally.sentence(records: ("customer", "customers"), detail: detail)
    }

    /// Why a list gave no customer at all, for the error that says so.
    public func emptyReason(_ input: BatchInputKind) -> String {
        switch input {
        case .csv:
            return headerSeen
                ? "the header is there but no row follows it\(blankLines > 0 ? " (only \(blankLines) blank \(blankLines == 1 ? "line" : "lines"))" : "")"
                : "it is empty: expected a header line naming the columns, such as \(BatchHeader.example), then one customer per line"
        case .jsonLines:
            return blankLines > 0 ? "it holds only blank lines: expected one JSON object per line" : "it is empty: expected one JSON object per line"
        case .folder:
            return "the folder holds no files: expected App Store Server API responses or compact JWS files, one customer per file or subfolder"
        }
    }

    // MARK: - Deciding in blocks

    /// Names the fields of every row to come: the header of a CSV output, the keys of a JSON Lines one.
    func writeHeader(_ names: [String]) {
        let header = BatchWorker.header(names, kind: outputKind)
        if !header.isEmpty { events.write(header) }
        for index in workers.indices { workers[index].names = names }
    }

    func enqueue(_ row: BatchRow) {
        rowsRead += 1
        pending.append(row)
        if pending.count >= Self.blockSize { drain() }
    }

    /// Decides the rows held, a consecutive share on each worker, then counts and writes them in the order read.
    func drain() {
        guard !pending.isEmpty else { return }
        let rows = pending
        let count = workers.count
        let shares = ParallelShares.run(&workers) { share, worker in
            ParallelShares.range(ofShare: share, of: count, count: rows.count).map { worker.process(rows[$0]) }
        }
        var offset = 0
        for results in shares {
            for result in results {
                defer { offset += 1 }
                switch result {
                case .decided(let customer, var decision, let place, var bytes, let newKeys, let identity):
                    for key in newKeys where carriedKeys.insert(key).inserted {
                        if let suggestion = BatchHeader.nearMiss(key) {
                            summary.warnAboutList(
                                "\(display): \(place): the key '\(key)' is not read: it is carried through unchanged, and no row is decided by it. Did you mean '\(suggestion)'? Rename the key to read it"
                            )
                        }
                    }
                    // In the order read, so the first of two rows with one customer id is the one named.
                    if let identity, case .line(let line) = place, let first = customerIDs.insert(fingerprint: identity, line: line) {
                        decision.warnings = (decision.warnings + [.duplicateCustomer]).sorted()
                        bytes = workers[0].render(rows[offset], decision)
                        summary.add(customer, decision, at: "line \(line) repeats line \(first)")
                    } else {
                        // Read only when a warning lists the row: a million rows make no text of their place.
                        summary.add(customer, decision, at: place.description)
                    }
                    events.write(bytes)
                case .skipped(let place, let message, let raw):
                    skip(place, message, raw: raw)
                }
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    func skip(_ place: BatchRowPlace, _ message: String, raw: [UInt8]) {
        summary.skip(place.description, message)
        events.skipped(place, message, raw, summary.skippedCount <= BatchSummary.listedSkips)
    }

    // MARK: - Reading

    func readCSV(_ source: ByteSource) throws {
        // One record a line: a stray quote ends its own row instead of swallowing the customers after it.
        var csv = CSVReader(maxRecordBytes: Limits.customerListRecordBytes, maxFields: Limits.customerListColumns)
        var header: BatchHeader?
        var names: [String] = []
        var fatal: BatchListError?
        func record(_ record: CSVRecord) {
            guard fatal == nil else { return }
            guard let header else {
                do {
                    var headerWarnings: [String] = []
                    header = try BatchHeader(record.fields, display: display, warn: { headerWarnings.append($0) })
                    for warning in headerWarnings { summary.warnAboutList(warning) }
                    names = record.fields
                    headerSeen = true
                    tally.header = 1
                    writeHeader(record.fields)
                } catch {
                    fatal = error
                }
                return
            }
            if record.isBlank {
                tally.blank += 1
                blankRowCount += 1
                if blankRows.count < BatchSummary.listedPlaces { blankRows.append(record.line) }
                return
            }
            guard record.fields.count == header.count else {
                let count = record.fields.count
                enqueue(
                    .skipped(
                        place: .line(record.line),
                        message:
                            "\(count) \(count == 1 ? "field" : "fields"), but the header has \(header.count); a separator or quote too many or too few",
                        raw: record.raw))
                return
            }
            enqueue(.csv(fields: record.fields, index: header.index, identity: header.identity, line: record.line, raw: record.raw))
        }
        func failure(_ error: CSVRecordError) {
            guard fatal == nil else { return }
            if error.isFatal {
                fatal = BatchListError("\(display): \(error.message).")
                return
            }
            guard headerSeen else {
                fatal = BatchListError("\(display):\(error.line): the header can't be read: \(error.message).")
                return
            }
            let column = error.column.map { column in
                "column \(column)" + (column <= names.count ? " (\(names[column - 1].trimmingCharacters(in: .whitespaces)))" : "") + ": "
            }
            enqueue(.skipped(place: .line(error.line), message: (column ?? "") + error.message, raw: error.raw))
        }
        try source.chunks { chunk in
            csv.feed(chunk, record: record, failure: failure)
            if let fatal { throw fatal }
        }
        csv.finish(record: record, failure: failure)
        if let fatal { throw fatal }
        tally.lines = csv.lines
        tally.blank += csv.blankLines
        for stray in csv.strayQuotes {
            summary.warnAboutList(
                "\(display): \(stray.sentence); the row was skipped at line \(stray.line) instead, and the lines after it read as customers of their own"
            )
        }
        if let separator = csv.separator, separator != UInt8(ascii: ",") {
            readingNotes.append("read as \(CSVReader.name(ofSeparator: separator))-separated values (the header has no comma)")
        }
        if csv.carriageReturnLines > 0 {
            readingNotes.append(
                "\(Limits.grouped(csv.carriageReturnLines)) \(csv.carriageReturnLines == 1 ? "line ends" : "lines end") with a carriage return alone, as Excel for Mac's \"CSV (Macintosh)\" writes them"
            )
        }
    }

    /// Calls `body` with each line of a JSON Lines input (its bytes, number, and whether it was cut at the
    /// record limit), a mebibyte read at a time; blank lines are counted and passed over.
    func forEachLine(of source: ByteSource, _ body: ([UInt8], Int, Bool) -> Void) throws {
        var lines = LineSplitter(maxLineBytes: Limits.customerListRecordBytes)
        try source.chunks { chunk in lines.feed(chunk, body) }
        lines.finish(body)
        tally.lines = lines.lines
        tally.blank = lines.blankLines
    }

    func readJSONLines(_ source: ByteSource) throws {
        if ByteSniffing.isUTF16(source.head(4)) {
            throw BatchListError("\(display): the file is UTF-16 text, not UTF-8; save it as UTF-8 and run again.")
        }
        if outputKind == .csv {
            // CSV needs its columns first: every key of the list, in the order they first appear, read in a
            // first pass (lines that don't parse are reported by the second).
            var keys: [String] = []
            var seen = Set<String>()
            try forEachLine(of: source) { bytes, _, tooLong in
                guard !tooLong, seen.count <= Limits.customerListColumns, let members = try? JSONParser.parse(bytes: bytes).objectValue else {
                    return
                }
                // A line naming a column the decision adds is skipped with a message in the second pass.
                guard !members.contains(where: { BatchOutputColumn(rawValue: $0.key) != nil }) else { return }
                for member in members where seen.insert(member.key).inserted { keys.append(member.key) }
            }
            guard keys.count <= Limits.customerListColumns else {
                throw BatchListError(
                    "\(display): its lines have more than \(Limits.customerListColumns) keys in all, more than a CSV may have columns; write JSON Lines (--format jsonl)."
                )
            }
            writeHeader(["line"] + keys)
        }
        try forEachLine(of: source) { bytes, number, tooLong in
            if tooLong {
                enqueue(
                    .skipped(
                        place: .line(number), message: "longer than \(Limits.customerListRecordBytes) bytes, migrate's limit for one customer",
                        raw: bytes))
            } else {
                // Parsed by the workers, with the rest of the row.
                enqueue(.jsonLine(bytes, line: number))
            }
        }
    }

    func readFolder(_ path: String) {
        let manager = FileManager.default
        let names = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        writeHeader(BatchHeader.folderColumns)
        let folder = BatchResponseFolder(plan: catalog.plan, now: now)
        for name in names {
            let entry = path + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: entry, isDirectory: &isDirectory) else { continue }
            let files =
                isDirectory.boolValue
                ? ((try? manager.contentsOfDirectory(atPath: entry)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map {
                    (shown: name + "/" + $0, path: entry + "/" + $0)
                }
                : [(shown: name, path: entry)]
            tally.lines += 1
            let read = folder.customer(named: name, files: files)
            unverifiedFiles += read.unverifiedFiles
            switch read.outcome {
            case .problem(let message):
                enqueue(.skipped(place: .name(name), message: message, raw: Array(name.utf8)))
            case .customer(let customer, let doubts):
                let products = customer.purchases.map { ([$0.productID] + $0.stateNames).joined(separator: ":") }.joined(separator: " ")
                let fields = [
                    name, customer.originalAppVersion ?? "", customer.originalPurchaseDate.map(Timestamp.format) ?? "",
                    customer.originalPlatform?.rawValue ?? "", customer.environment.rawValue, products,
                ]
                enqueue(.customer(customer, fields: fields, place: name, doubts: doubts))
            }
        }
    }
}
