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

    init(catalog: PlanCatalog, context: CommandContext, display: String, now: Date, output: BatchOutput) {
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

    static func run(
        _ path: String, catalog: PlanCatalog, format: ExplainCommand.Format, outputPath: String?, now: Date, context: CommandContext
    ) throws(CommandError) -> ExitCode {
        let absolute = context.resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw CommandError(.noInput, "\(path): no such file or folder.")
        }
        let input: InputKind
        if isDirectory.boolValue {
            input = .folder
        } else {
            switch (path as NSString).pathExtension.lowercased() {
            case "jsonl", "ndjson", "json": input = .jsonLines
            case "csv", "tsv", "txt": input = .csv
            default: input = Self.sniff(absolute) ?? .csv
            }
        }
        let outputKind: OutputKind
        switch format {
        case .csv: outputKind = .csv
        case .jsonl, .json: outputKind = .jsonLines
        case .text: outputKind = input == .jsonLines ? .jsonLines : .csv
        }
        var file: StreamedFile?
        if let outputPath {
            do {
                file = try StreamedFile(path: context.resolve(outputPath), display: outputPath)
            } catch {
                throw CommandError(.cannotCreate, error.description + ".")
            }
        }
        let sink: BatchOutput.Sink = file.map { file in .file(file) } ?? .output(context.standardOutput)
        let batch = ExplainBatch(catalog: catalog, context: context, display: path, now: now, output: BatchOutput(kind: outputKind, sink: sink))
        do {
            switch input {
            case .csv: try batch.readCSV(absolute)
            case .jsonLines: try batch.readJSONLines(absolute)
            case .folder: try batch.readFolder(absolute)
            }
            batch.drain()
            batch.output.flush()
            try file?.commit()
        } catch let error as CommandError {
            file?.abandon()
            throw error
        } catch let error as FileWriteError {
            file?.abandon()
            throw CommandError(.cannotCreate, error.description + ".")
        } catch {
            file?.abandon()
            throw CommandError(.noInput, "\(path): \(error).")
        }
        let report = batch.summaryText(outputPath: outputPath)
        // The decisions own standard output unless they went to a file.
        (outputPath == nil ? context.standardError : context.standardOutput).write(report)
        return batch.summary.skippedCount > 0 ? .dataError : .success
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
        pending.append(row)
        if pending.count >= Self.blockSize { drain() }
    }

    /// Decides the rows held, a share on each worker, then counts and writes them in the order read.
    func drain() {
        guard !pending.isEmpty else { return }
        let rows = pending
        var results = [RowResult](repeating: .skipped(place: "", message: ""), count: rows.count)
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
            case .skipped(let place, let message):
                skip(place, message)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// JSON Lines when the first byte that isn't white space opens an object.
    static func sniff(_ path: String) -> InputKind? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)).map { Array($0) } ?? []
        guard let first = head.first(where: { ![9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) }) else { return nil }
        return first == UInt8(ascii: "{") ? .jsonLines : .csv
    }

    // MARK: - Reading

    /// Calls `body` with each chunk of the file, a mebibyte at a time.
    static func chunks(of path: String, display: String, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = errno == EACCES ? "permission denied (check its permissions)" : String(cString: strerror(errno))
            throw CommandError(.noInput, "\(display): cannot be read: \(reason).")
        }
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            try body(Array(data)[...])
        }
    }

    func readCSV(_ path: String) throws {
        var csv = CSVReader(maxRecordBytes: Limits.customerListRecordBytes)
        var header: CSVHeader?
        var fatal: CommandError?
        func record(_ record: CSVRecord) {
            guard fatal == nil else { return }
            guard let header else {
                do {
                    header = try CSVHeader(record.fields, display: display, warn: warn)
                    writeHeader(record.fields)
                } catch {
                    fatal = error
                }
                return
            }
            guard record.fields.count == header.count else {
                let count = record.fields.count
                enqueue(
                    .skipped(place: "line \(record.line)", message: "\(count) \(count == 1 ? "field" : "fields"), but the header has \(header.count)")
                )
                return
            }
            enqueue(.csv(fields: record.fields, index: header.index, line: record.line))
        }
        func failure(_ error: CSVRecordError) { enqueue(.skipped(place: "line \(error.line)", message: error.message)) }
        try Self.chunks(of: path, display: display) { chunk in
            csv.feed(chunk, record: record, failure: failure)
            if let fatal { throw fatal }
        }
        csv.finish(record: record, failure: failure)
        if let fatal { throw fatal }
        if header == nil {
            throw CommandError(.dataError, "\(display) is empty: expected a header line naming the columns, such as \(Self.exampleHeader).")
        }
    }

    static let exampleHeader = (["customerID"] + folderColumns.dropFirst()).joined(separator: ",")

    /// Calls `body` with each line of a JSON Lines file (its bytes, number, and whether it was cut at the
    /// record limit), a mebibyte read at a time; blank lines are passed over.
    static func forEachLine(of path: String, display: String, _ body: ([UInt8], Int, Bool) -> Void) throws {
        var line: [UInt8] = []
        var number = 1
        var tooLong = false
        func end() {
            defer {
                line.removeAll(keepingCapacity: true)
                number += 1
                tooLong = false
            }
            if line.last == 13 { line.removeLast() }
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            guard tooLong || line.contains(where: { $0 != 9 && $0 != 32 }) else { return }
            body(line, number, tooLong)
        }
        try chunks(of: path, display: display) { chunk in
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let stop = chunk[start...].firstIndex(of: 10) ?? chunk.endIndex
                if line.count + (stop - start) <= Limits.customerListRecordBytes {
                    line.append(contentsOf: chunk[start..<stop])
                } else {
                    tooLong = true
                }
                if stop < chunk.endIndex { end() }
                start = stop + 1
            }
        }
        if !line.isEmpty || tooLong { end() }
    }

    func readJSONLines(_ path: String) throws {
        if output.kind == .csv {
            // CSV needs its columns first: every key of the list, in the order they first appear, read in a
            // first pass (lines that don't parse are reported by the second).
            var keys: [String] = []
            var seen = Set<String>()
            try Self.forEachLine(of: path, display: display) { bytes, _, tooLong in
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
        try Self.forEachLine(of: path, display: display) { bytes, number, tooLong in
            if tooLong {
                enqueue(.skipped(place: "line \(number)", message: "longer than \(Limits.customerListRecordBytes) bytes"))
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
                switch Self.readResponse(file, now: now) {
                case .failure(let message):
                    problem = problem ?? (shown == name ? message : "\(shown): \(message)")
                case .success(let read):
                    unverifiedFiles += read.unverifiedSignatures > 0 ? 1 : 0
                    facts = facts.map { Self.merge($0, read) } ?? read
                }
            }
            if let problem {
                enqueue(.skipped(place: name, message: problem))
                continue
            }
            guard let facts else {
                enqueue(.skipped(place: name, message: "an empty folder: expected App Store Server API responses or compact JWS files"))
                continue
            }
            let customer = customer(from: facts)
            let products = customer.purchases.map { ([$0.productID] + $0.stateNames).joined(separator: ":") }.joined(separator: " ")
            let fields = [
                name, customer.originalAppVersion ?? "", customer.originalPurchaseDate.map(Timestamp.format) ?? "",
                customer.originalPlatform?.rawValue ?? "", customer.environment.rawValue, products,
            ]
            enqueue(.customer(customer, fields: fields, place: name))
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

    func skip(_ place: String, _ message: String) {
        summary.skip(place, message)
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
    func summaryText(outputPath: String?) -> String {
        let style = context.style(for: outputPath == nil ? context.standardError : context.standardOutput)
        let environments = StoreEnvironment.allCases.compactMap { environment in
            summary.environments[environment].map { "\(Limits.grouped($0)) \(environment.rawValue)" }
        }
        var text =
            style.bold("Decided \(Limits.grouped(summary.decided)) \(summary.decided == 1 ? "customer" : "customers") from \(display)")
            + (environments.isEmpty ? "" : " (\(environments.joined(separator: ", ")))")
            + (outputPath.map { "; decisions in \($0)" } ?? "") + ".\n"
        if summary.skippedCount > 0 {
            let more = summary.skippedCount > summary.skipped.count ? " (the first \(summary.skipped.count) listed above)" : " (listed above)"
            text +=
                style.red(
                    "Skipped \(Limits.grouped(summary.skippedCount)) \(summary.skippedCount == 1 ? "row" : "rows") that could not be read\(more)")
                + "; fix them and run again (exit status 65 while any are skipped).\n"
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
            var rows = [["cohort", "customers", "share", "offered", "decided by"]]
            for group in ordered {
                let name = group.tierID.map { id in "legacy: \(id)" + (catalog.tier(withID: id).map { " (\($0.name))" } ?? "") } ?? "new customers"
                let rules = group.rules.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \(Limits.grouped($0.value))" }.joined(separator: ", ")
                let share = String(format: "%.1f%%", Double(group.count) * 100 / Double(total))
                rows.append([name, Limits.grouped(group.count), share, Limits.grouped(group.offered), rules])
            }
            text += "\n" + TextTable(rows: rows, rightAligned: [1, 2, 3]).lines().map { "  " + $0 }.joined(separator: "\n") + "\n"
            text += style.dim("  offered: customers the upsell offers at least one product; the others own everything they can buy") + "\n"
        }
        let warnings = summary.warnings
        if !warnings.isEmpty { text += "\n" }
        for warning in warnings { text += style.yellow("warning: ") + warning + "\n" }
        return text
    }
}
