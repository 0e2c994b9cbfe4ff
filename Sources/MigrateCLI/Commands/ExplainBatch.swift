import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// `migrate explain PLAN --batch FILE`: a decision for every customer of a list, streamed, then a
/// summary of the cohorts and warnings that catch a wrong cutoff.
final class ExplainBatch {
    enum InputKind { case csv, jsonLines, folder }
    enum OutputKind { case csv, jsonLines }

    let catalog: PlanCatalog
    let context: CommandContext
    let display: String
    /// The moment subscriptions and trials are judged at, the same for every row.
    let now: Date
    var summary: BatchSummary
    let output: BatchOutput
    /// One per processor: rows are decided in blocks, a share of each block on each worker, and written in order.
    let workers: [BatchWorker]
    private var pending: [PendingRow] = []
    /// Keys of JSON Lines rows that are carried through, each warned about (if misspelled) once.
    private var carriedKeys = Set<String>()
    /// Rows held before they are decided together.
    static let blockSize = 8_192
    /// Files of a folder whose JWS signatures were decoded without being verified.
    var unverifiedFiles = 0
    /// Where skipped rows are copied, byte for byte, with their line and reason (`--rejected`).
    let rejected: RejectedRows?
    /// Rows read (CSV records after the header, JSON Lines lines, a folder's customers): each is decided or skipped.
    private(set) var rowsRead = 0
    /// Blank lines passed over, and rows that span several lines (a quoted line break in a carried column).
    private(set) var blankLines = 0
    private(set) var multiLineRows = 0
    private(set) var headerSeen = false
    /// What the reader of the summary must know about how the list was read (its separator).
    private(set) var readingNotes: [String] = []

    init(catalog: PlanCatalog, context: CommandContext, display: String, now: Date, output: BatchOutput, rejected: RejectedRows?) {
        self.rejected = rejected
        self.catalog = catalog
        self.context = context
        self.display = display
        self.output = output
        self.now = now
        summary = BatchSummary(catalog: catalog)
        let count = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let reader = BatchCustomerReader(plan: catalog.plan, now: now)
        workers = (0..<count).map { _ in BatchWorker(catalog: catalog, reader: reader, kind: output.kind) }
    }

    /// The folder's columns, in the order written: what was read from each response.
    static let folderColumns =
        ["file"] + [BatchColumn.originalAppVersion, .originalPurchaseDate, .originalPlatform, .environment, .products].map(\.rawValue)

    /// How `explain --batch` was asked to read and what to write besides the decisions.
    struct Options {
        var format: ExplainCommand.Format = .text
        var inputFormat: ExplainCommand.InputFormat?
        var outputPath: String?
        var rejectedPath: String?
        var strict = false
        /// With `--licenses`: the direct-sale holders' summary, said after the list's.
        var licenses: String?
    }

    static func run(_ path: String, catalog: PlanCatalog, options: Options, now: Date, context: CommandContext) throws(CommandError) -> ExitCode {
        let display = path == "-" ? "standard input" : path
        let absolute = path == "-" ? path : context.resolve(path)
        var isDirectory: ObjCBool = false
        if path != "-" && !FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
            throw CommandError(.noInput, "\(path): no such file or folder.")
        }
        // Two outputs on one file, or an output over the list itself, would lose one of them.
        let targets = [("--output", options.outputPath), ("--rejected", options.rejectedPath)].compactMap { name, path in
            path.map { (name, FileTransaction.resolvedTarget(context.resolve($0))) }
        }
        if targets.count == 2 && targets[0].1 == targets[1].1 {
            throw .usage("--output and --rejected name the same file; give each its own.")
        }
        if path != "-", let clash = targets.first(where: { $0.1 == FileTransaction.resolvedTarget(absolute) }) {
            throw .usage("\(clash.0) names the list being read (\(path)); write to another file.")
        }
        // The outputs first: a run killed while it reads leaves a temporary file the next run removes.
        var file: StreamedFile?
        var rejected: RejectedRows?
        do {
            if let outputPath = options.outputPath {
                file = try StreamedFile(path: context.resolve(outputPath), display: outputPath)
            }
            if let rejectedPath = options.rejectedPath {
                rejected = RejectedRows(
                    file: try StreamedFile(path: context.resolve(rejectedPath), display: rejectedPath),
                    input: isDirectory.boolValue ? .folder : .lines)
            }
        } catch {
            file?.abandon()
            throw CommandError(.cannotCreate, error.description + ".")
        }
        var source: ByteSource?
        let input: InputKind
        if isDirectory.boolValue {
            if let given = options.inputFormat {
                file?.abandon()
                rejected?.abandon()
                throw .usage(
                    "--input-format \(given.rawValue) is for a file or standard input; \(path) is a folder, read as App Store Server API responses.")
            }
            input = .folder
        } else {
            do {
                source = try ByteSource(path: absolute, display: display)
            } catch {
                file?.abandon()
                rejected?.abandon()
                throw CommandError(.noInput, error.description + ".")
            }
            if let given = options.inputFormat {
                input = given == .csv ? .csv : .jsonLines
            } else {
                switch path == "-" ? "" : (path as NSString).pathExtension.lowercased() {
                case "jsonl", "ndjson", "json": input = .jsonLines
                case "csv", "tsv", "txt": input = .csv
                default: input = Self.sniff(source!.head(4096)) ?? .csv
                }
            }
        }
        let outputKind: OutputKind
        switch options.format {
        case .csv: outputKind = .csv
        case .jsonl, .json: outputKind = .jsonLines
        case .text: outputKind = input == .jsonLines ? .jsonLines : .csv
        }
        let sink: BatchOutput.Sink = file.map { file in .file(file) } ?? .output(context.standardOutput)
        let batch = ExplainBatch(
            catalog: catalog, context: context, display: display, now: now, output: BatchOutput(kind: outputKind, sink: sink), rejected: rejected)
        do {
            switch input {
            case .csv: try batch.readCSV(source!)
            case .jsonLines: try batch.readJSONLines(source!)
            case .folder: try batch.readFolder(absolute)
            }
            batch.drain()
            if batch.summary.decided + batch.summary.skippedCount == 0 {
                throw CommandError(.dataError, "\(display): \(batch.emptyReason(input)); nothing was decided.")
            }
            batch.output.flush()
            try file?.commit()
            try rejected?.commit()
        } catch let error as CommandError {
            file?.abandon()
            rejected?.abandon()
            throw error
        } catch let error as FileWriteError {
            file?.abandon()
            rejected?.abandon()
            throw CommandError(.cannotCreate, error.description + ".")
        } catch {
            file?.abandon()
            rejected?.abandon()
            throw CommandError(.noInput, "\(display): \(error).")
        }
        let report =
            batch.summaryText(outputPath: options.outputPath, rejectedPath: options.rejectedPath, strict: options.strict) + (options.licenses ?? "")
        // The decisions own standard output unless they went to a file.
        (options.outputPath == nil ? context.standardError : context.standardOutput).write(report)
        if batch.summary.skippedCount > 0 { return .dataError }
        if options.strict && (batch.summary.rowsWithWarnings > 0 || !batch.summary.warnings.isEmpty) { return .checkFailed }
        return .success
    }

    /// Why a list gave no customer at all, for the error that says so.
    func emptyReason(_ input: InputKind) -> String {
        switch input {
        case .csv:
            return headerSeen
                ? "the header is there but no row follows it\(blankLines > 0 ? " (only \(blankLines) blank \(blankLines == 1 ? "line" : "lines"))" : "")"
                : "it is empty: expected a header line naming the columns, such as \(Self.exampleHeader), then one customer per line"
        case .jsonLines:
            return blankLines > 0 ? "it holds only blank lines: expected one JSON object per line" : "it is empty: expected one JSON object per line"
        case .folder:
            return "the folder holds no files: expected App Store Server API responses or compact JWS files, one customer per file or subfolder"
        }
    }

    // MARK: - Deciding in blocks

    /// A block split between the workers. Share `n` uses only worker `n` and writes only its own range of
    /// `results`, and `concurrentPerform` returns when every share has: nothing is touched by two threads.
    private struct Shares: @unchecked Sendable {
        let workers: [BatchWorker]
        let rows: [PendingRow]
        let results: UnsafeMutableBufferPointer<RowResult>

        func run(_ share: Int) {
            let range = (rows.count * share / workers.count)..<(rows.count * (share + 1) / workers.count)
            for index in range { results[index] = workers[share].process(rows[index]) }
        }
    }

    /// Names the fields of every row to come: the header of a CSV output, the keys of a JSON Lines one.
    func writeHeader(_ names: [String]) {
        output.writeHeader(names)
        for worker in workers { worker.names = names }
    }

    func enqueue(_ row: PendingRow) {
        rowsRead += 1
        pending.append(row)
        if pending.count >= Self.blockSize { drain() }
    }

    /// Decides the rows held, a share on each worker, then counts and writes them in the order read.
    func drain() {
        guard !pending.isEmpty else { return }
        let rows = pending
        var results = [RowResult](repeating: .skipped(place: .name(""), message: "", raw: []), count: rows.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let shares = Shares(workers: workers, rows: rows, results: buffer)
            DispatchQueue.concurrentPerform(iterations: workers.count) { share in shares.run(share) }
        }
        for result in results {
            switch result {
            case .decided(let customer, let decision, let place, let bytes, let newKeys):
                for key in newKeys where carriedKeys.insert(key).inserted {
                    if let suggestion = CSVHeader.nearMiss(key) {
                        warn("\(display): \(place): the key '\(key)' is carried through unchanged. Did you mean '\(suggestion)'?")
                    }
                }
                summary.add(customer, decision, at: place.description)
                output.append(bytes)
            case .skipped(let place, let message, let raw):
                skip(place, message, raw: raw)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// JSON Lines when the first byte that isn't white space opens an object.
    static func sniff(_ head: [UInt8]) -> InputKind? {
        guard let first = head.first(where: { ![9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) }) else { return nil }
        return first == UInt8(ascii: "{") ? .jsonLines : .csv
    }

    func readCSV(_ source: ByteSource) throws {
        var csv = CSVReader(maxRecordBytes: Limits.customerListRecordBytes, maxFields: Limits.customerListColumns)
        // Only a carried column (an id, a note) may hold a quoted line break: a stray quote in a read column
        // ends its own row instead of swallowing the customers after it.
        csv.decideLineBreaks = { names in Set(names.indices.filter { BatchColumn.mayHoldLineBreak(header: names[$0]) }) }
        var header: CSVHeader?
        var names: [String] = []
        var fatal: CommandError?
        func record(_ record: CSVRecord) {
            guard fatal == nil else { return }
            guard let header else {
                do {
                    header = try CSVHeader(record.fields, display: display, warn: warn)
                    names = record.fields
                    headerSeen = true
                    writeHeader(record.fields)
                } catch {
                    fatal = error
                }
                return
            }
            if record.raw.contains(10) { multiLineRows += 1 }
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
            enqueue(.csv(fields: record.fields, index: header.index, line: record.line, raw: record.raw))
        }
        func failure(_ error: CSVRecordError) {
            guard fatal == nil else { return }
            if error.isFatal {
                fatal = CommandError(.dataError, "\(display): \(error.message).")
                return
            }
            guard headerSeen else {
                fatal = CommandError(.dataError, "\(display):\(error.line): the header can't be read: \(error.message).")
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
        blankLines = csv.blankLines
        if let separator = csv.separator, separator != UInt8(ascii: ",") {
            readingNotes.append("read as \(CSVReader.name(ofSeparator: separator))-separated values (the header has no comma)")
        }
    }

    static let exampleHeader = (["customerID"] + folderColumns.dropFirst()).joined(separator: ",")

    /// Calls `body` with each line of a JSON Lines input (its bytes, number, and whether it was cut at the
    /// record limit), a mebibyte read at a time; blank lines are counted and passed over.
    func forEachLine(of source: ByteSource, _ body: ([UInt8], Int, Bool) -> Void) throws {
        var line: [UInt8] = []
        var number = 1
        var tooLong = false
        var blank = 0
        func end() {
            defer {
                line.removeAll(keepingCapacity: true)
                number += 1
                tooLong = false
            }
            if line.last == 13 { line.removeLast() }
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            guard tooLong || line.contains(where: { $0 != 9 && $0 != 32 }) else {
                blank += 1
                return
            }
            body(line, number, tooLong)
        }
        try source.chunks { chunk in
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let stop = chunk[start...].firstIndex(of: 10) ?? chunk.endIndex
                if line.count + (stop - start) <= Limits.customerListRecordBytes {
                    line.append(contentsOf: chunk[start..<stop])
                } else {
                    tooLong = true
                    line.append(contentsOf: chunk[start..<stop].prefix(max(0, Limits.customerListRecordBytes - line.count)))
                }
                if stop < chunk.endIndex { end() }
                start = stop + 1
            }
        }
        if !line.isEmpty || tooLong { end() }
        blankLines = blank
    }

    func readJSONLines(_ source: ByteSource) throws {
        let head = source.head(4)
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || (head.count > 1 && head.contains(0)) {
            throw CommandError(.dataError, "\(display): the file is UTF-16 text, not UTF-8; save it as UTF-8 and run again.")
        }
        if output.kind == .csv {
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
                throw CommandError(
                    .dataError,
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

    func readFolder(_ path: String) throws {
        let manager = FileManager.default
        let names = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        writeHeader(Self.folderColumns)
        for name in names {
            let entry = path + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: entry, isDirectory: &isDirectory) else { continue }
            let files =
                isDirectory.boolValue
                ? ((try? manager.contentsOfDirectory(atPath: entry)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map {
                    (name + "/" + $0, entry + "/" + $0)
                }
                : [(name, entry)]
            var facts: ReceiptFacts?
            var problem: String?
            for (shown, file) in files {
                var read = Self.readResponse(file, now: now)
                // Another app's response is refused, as `explain --receipt` refuses it.
                if case .success(let facts) = read,
                    let doubt = facts.doubts(forBundleID: catalog.plan.app.bundleID).first(where: \.refuses)
                {
                    read = .failure(doubt.message)
                }
                switch read {
                case .failure(let message):
                    problem = problem ?? (shown == name ? message : "\(shown): \(message)")
                case .success(let read):
                    unverifiedFiles += read.unverifiedSignatures > 0 ? 1 : 0
                    facts = facts.map { Self.merge($0, read) } ?? read
                }
            }
            if let problem {
                enqueue(.skipped(place: .name(name), message: problem, raw: Array(name.utf8)))
                continue
            }
            guard let facts else {
                enqueue(
                    .skipped(
                        place: .name(name), message: "an empty folder: expected App Store Server API responses or compact JWS files",
                        raw: Array(name.utf8)))
                continue
            }
            let doubts: [BatchRowWarning] =
                facts.doubts(forBundleID: catalog.plan.app.bundleID).contains(.incompleteHistory) ? [.incompleteHistory] : []
            let customer = customer(from: facts)
            let products = customer.purchases.map { ([$0.productID] + $0.stateNames).joined(separator: ":") }.joined(separator: " ")
            let fields = [
                name, customer.originalAppVersion ?? "", customer.originalPurchaseDate.map(Timestamp.format) ?? "",
                customer.originalPlatform?.rawValue ?? "", customer.environment.rawValue, products,
            ]
            enqueue(.customer(customer, fields: fields, place: name, doubts: doubts))
        }
    }

    enum ResponseRead {
        case success(ReceiptFacts)
        case failure(String)
    }

    static func readResponse(_ path: String, now: Date) -> ResponseRead {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure("not a regular file") }
        guard Int(info.st_size) <= Limits.customerResponseBytes else {
            return .failure("\(info.st_size) bytes, more than the \(Limits.customerResponseBytes) a response may have")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure("cannot be read") }
        do {
            let read = try ReceiptReader.read(bytes: Array(data), now: now)
            if let error = read.diagnostics.first(where: { $0.severity == .error }) {
                let place = error.path.flatMap { $0 == .root ? nil : "\($0): " } ?? ""
                return .failure(place + error.message)
            }
            guard let facts = read.facts else { return .failure("not a response migrate can read") }
            return .success(facts)
        } catch {
            return .failure(error.message)
        }
    }

    /// One customer's responses together: the app's purchase from the one that describes it, every product.
    static func merge(_ first: ReceiptFacts, _ second: ReceiptFacts) -> ReceiptFacts {
        var merged = first.source.describesAppPurchase || !second.source.describesAppPurchase ? first : second
        let other = merged == first ? second : first
        merged.environment = merged.environment ?? other.environment
        merged.bundleID = merged.bundleID ?? other.bundleID
        var purchases = merged.purchases
        for purchase in other.purchases where !purchases.contains(where: { $0.productID == purchase.productID }) { purchases.append(purchase) }
        merged.purchases = purchases.sorted { $0.productID < $1.productID }
        merged.unverifiedSignatures = first.unverifiedSignatures + second.unverifiedSignatures
        // Complete once any page says there is no more; incomplete while every page given says there is.
        switch (first.historyHasMore, second.historyHasMore) {
        case (false?, _), (_, false?): merged.historyHasMore = false
        case (true?, _), (_, true?): merged.historyHasMore = true
        default: merged.historyHasMore = nil
        }
        return merged
    }

    func customer(from facts: ReceiptFacts) -> Customer {
        let plan = catalog.plan
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        customer.now = now
        customer.take(facts)
        if let original = customer.originalPlatform, plan.app.platforms.contains(original) { customer.platform = original }
        return customer
    }

    // MARK: - Reporting

    func skip(_ place: RowPlace, _ message: String, raw: [UInt8]) {
        summary.skip(place.description, message)
        rejected?.add(place: place, reason: message, raw: raw)
        if summary.skippedCount <= BatchSummary.listedSkips {
            context.standardError.write("\(display): \(place): skipped: \(message)\n")
        }
    }

    func warn(_ message: String) {
        context.standardError.write("warning: \(message)\n")
    }
}

extension ExplainBatch {
    /// The summary: counts per cohort with the rules that decided them, skipped rows, warnings.
    func summaryText(outputPath: String?, rejectedPath: String?, strict: Bool) -> String {
        let style = context.style(for: outputPath == nil ? context.standardError : context.standardOutput)
        let environments = StoreEnvironment.allCases.compactMap { environment in
            summary.environments[environment].map { "\(Limits.grouped($0)) \(environment.rawValue)" }
        }
        // Every row read is decided or skipped: the counts add up, and say so.
        var extras: [String] = []
        if blankLines > 0 { extras.append("\(Limits.grouped(blankLines)) blank \(blankLines == 1 ? "line" : "lines") passed over") }
        if multiLineRows > 0 {
            extras.append(
                "\(Limits.grouped(multiLineRows)) \(multiLineRows == 1 ? "row spans" : "rows span") several lines (a quoted line break in a carried column)"
            )
        }
        extras += readingNotes
        var text =
            style.bold(
                "Read \(Limits.grouped(rowsRead)) \(rowsRead == 1 ? "row" : "rows") from \(display): \(Limits.grouped(summary.decided)) decided")
            + (environments.isEmpty ? "" : " (\(environments.joined(separator: ", ")))") + ", \(Limits.grouped(summary.skippedCount)) skipped"
            + (outputPath.map { "; decisions in \($0)" } ?? "") + (extras.isEmpty ? "" : "; " + extras.joined(separator: "; ")) + ".\n"
        if summary.skippedCount > 0 {
            let more = summary.skippedCount > summary.skipped.count ? " (the first \(summary.skipped.count) listed above)" : " (listed above)"
            text +=
                style.red(
                    "Skipped \(Limits.grouped(summary.skippedCount)) \(summary.skippedCount == 1 ? "row" : "rows") that could not be read\(more)")
                + (rejectedPath.map { ", each copied to \($0) with its line and reason" } ?? "")
                + "; fix them and run again (exit status 65 while any are skipped).\n"
        }
        if summary.rowsWithWarnings > 0 {
            let counts = BatchRowWarning.allCases.compactMap { warning in
                summary.warningCounts[warning].map { "\(warning.rawValue) \(Limits.grouped($0))" }
            }
            text +=
                style.yellow(
                    "\(Limits.grouped(summary.rowsWithWarnings)) decided \(summary.rowsWithWarnings == 1 ? "row carries" : "rows carry") warnings in the warnings column"
                )
                + " (\(counts.joined(separator: ", ")))" + (strict ? "; exit status 1 with --strict" : "") + ".\n"
        }
        if unverifiedFiles > 0 {
            text +=
                style.dim(
                    "note  \(unverifiedFiles) \(unverifiedFiles == 1 ? "file's" : "files'") JWS signatures were decoded without being verified; verify them before trusting them on a server"
                ) + "\n"
        }
        let total = max(1, summary.decided)
        // The plan's tiers in its order, then new customers.
        let position = Dictionary(catalog.tiers.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = summary.groups.values.sorted { left, right in
            let a = left.tierID.map { (position[$0] ?? .max - 1, $0) } ?? (.max, "")
            let b = right.tierID.map { (position[$0] ?? .max - 1, $0) } ?? (.max, "")
            return a < b
        }
        if !ordered.isEmpty {
            // The rules that decided each cohort go under its row: beside a tier's name they would pass 80 columns.
            var rows = [["cohort", "customers", "share", "offered"]]
            var decidedBy: [String] = []
            for group in ordered {
                let name = group.tierID.map { id in "legacy: \(id)" + (catalog.tier(withID: id).map { " (\($0.name))" } ?? "") } ?? "new customers"
                let rules = group.rules.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \(Limits.grouped($0.value))" }.joined(separator: ", ")
                let share = String(format: "%.1f%%", Double(group.count) * 100 / Double(total))
                rows.append([name, Limits.grouped(group.count), share, Limits.grouped(group.offered)])
                decidedBy.append(rules)
            }
            text += "\n"
            for (index, line) in TextTable(rows: rows, rightAligned: [1, 2, 3]).lines().enumerated() {
                text += "  " + line + "\n"
                if index > 0 {
                    for (position, piece) in TextTable.wrap("decided by " + decidedBy[index - 1], width: TerminalWidth.columns - 6).enumerated() {
                        text += (position == 0 ? "    " : "      ") + style.dim(piece) + "\n"
                    }
                }
            }
            let legend = "offered: customers the upsell offers at least one product; the others own everything they can buy"
            for (index, line) in TextTable.wrap(legend, width: TerminalWidth.columns - 4).enumerated() {
                text += (index == 0 ? "  " : "    ") + style.dim(line) + "\n"
            }
        }
        let warnings = summary.warnings
        if !warnings.isEmpty { text += "\n" }
        // Wrapped at the terminal's width, its later lines indented under the first.
        for warning in warnings {
            for (index, line) in TextTable.wrap("warning: " + warning, width: TerminalWidth.columns - 2).enumerated() {
                text += index == 0 ? style.yellow("warning: ") + line.dropFirst("warning: ".count) + "\n" : "  " + line + "\n"
            }
        }
        return text
    }
}
