import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

/// A customer list's header: which column holds which fact. Every other column is carried through.
struct CSVHeader {
    let count: Int
    let index: [BatchColumn: Int]

    init(_ fields: [String], display: String, warn: (String) -> Void) throws(CommandError) {
        guard fields.count <= Limits.customerListColumns else {
            throw CommandError(.dataError, "\(display):1: \(fields.count) columns; a customer list may have at most \(Limits.customerListColumns).")
        }
        var index: [BatchColumn: Int] = [:]
        var problems: [String] = []
        for (offset, raw) in fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces)
            if BatchOutputColumn(rawValue: name) != nil {
                problems.append("the column '\(name)' is one explain --batch adds; rename it (such as to '\(name)Before')")
            } else if let column = BatchColumn(key: name) {
                if let earlier = index[column] {
                    problems.append("'\(name)' (column \(offset + 1)) names the same fact as '\(fields[earlier])' (column \(earlier + 1)); keep one")
                } else {
                    index[column] = offset
                }
            } else if let suggestion = Self.nearMiss(name) {
                warn("\(display):1: the column '\(name)' is carried through unchanged. Did you mean '\(suggestion)'?")
            }
        }
        if index[.originalAppVersion] == nil && index[.originalPurchaseDate] == nil {
            problems.append(
                "no column names originalAppVersion or originalPurchaseDate, so no customer's cohort can be decided; the header reads '\(fields.joined(separator: ","))'. Name the columns like AppTransaction's properties: \(ExplainBatch.exampleHeader)"
            )
        }
        guard problems.isEmpty else {
            throw CommandError(.dataError, "\(display):1: " + problems.joined(separator: "\n\(display):1: ") + ".")
        }
        count = fields.count
        self.index = index
    }

    /// The column a misspelled name most likely meant.
    static func nearMiss(_ name: String) -> String? {
        Suggestions.closest(to: name, in: BatchColumn.allCases.map(\.rawValue) + BatchColumn.serverNames.keys.sorted())
    }
}

/// A row read from a list, waiting to be decided with the rest of its block.
enum PendingRow {
    /// A CSV record, with its bytes as read (for `--rejected`, should it be skipped).
    case csv(fields: [String], index: [BatchColumn: Int], line: Int, raw: [UInt8])
    /// A JSON Lines line, parsed by the worker that decides it.
    case jsonLine([UInt8], line: Int)
    /// A customer read from a folder's responses, with the columns written for it and what the responses
    /// leave in doubt (an incomplete history).
    case customer(Customer, fields: [String], place: String, doubts: [BatchRowWarning])
    /// A row that couldn't be read, kept in its place so messages come in the order of the list.
    case skipped(place: RowPlace, message: String, raw: [UInt8])
}

/// Where a row is: a line of a file, or a file or folder's name.
enum RowPlace: CustomStringConvertible {
    case line(Int)
    case name(String)

    var description: String {
        switch self {
        case .line(let number): "line \(number)"
        case .name(let name): name
        }
    }
}

/// A row decided: the customer and decision to count, and the bytes to write.
enum RowResult {
    /// `newKeys`: keys carried through that this worker had not seen before (to warn about misspellings).
    case decided(Customer, BatchDecision, place: RowPlace, bytes: [UInt8], newKeys: [String] = [])
    case skipped(place: RowPlace, message: String, raw: [UInt8])
}

/// Decides rows and writes them as text; one per thread, each with tables of its own.
final class BatchWorker {
    let decider: BatchDecider
    let reader: BatchCustomerReader
    let kind: ExplainBatch.OutputKind
    /// The names of a CSV row's fields, for JSON Lines keys.
    var names: [String] = []
    /// Decisions repeat across a list (a few dozen distinct ones in a million rows): each is written once.
    private var renderings: [BatchDecision: String] = [:]
    /// Keys carried through that this worker has reported.
    private var seenKeys = Set<String>()

    init(catalog: PlanCatalog, reader: BatchCustomerReader, kind: ExplainBatch.OutputKind) {
        decider = BatchDecider(catalog: catalog)
        self.reader = reader
        self.kind = kind
    }

    func process(_ row: PendingRow) -> RowResult {
        switch row {
        case .skipped(let place, let message, let raw):
            return .skipped(place: place, message: message, raw: raw)
        case .csv(let fields, let index, let line, let raw):
            do {
                let customer = try reader.customer { column in index[column].map { .text(fields[$0]) } }
                let decision = decider.decide(customer)
                return .decided(customer, decision, place: .line(line), bytes: Array(csvRow(fields, decision).utf8))
            } catch {
                return .skipped(place: .line(line), message: error.message, raw: raw)
            }
        case .jsonLine(let raw, let line):
            let root: JSONNode
            do {
                root = try JSONParser.parse(bytes: raw)
            } catch {
                return .skipped(place: .line(line), message: "column \(error.location.column): \(error.message)", raw: raw)
            }
            guard let members = root.objectValue else {
                return .skipped(
                    place: .line(line), message: "expected a JSON object, one customer per line, found \(root.value.kindName)", raw: raw)
            }
            var values: [BatchColumn: BatchValue] = [:]
            var newKeys: [String] = []
            for member in members {
                if BatchOutputColumn(rawValue: member.key) != nil {
                    return .skipped(place: .line(line), message: "'\(member.key)' is a key explain --batch adds; rename it", raw: raw)
                }
                guard let column = BatchColumn(key: member.key) else {
                    // Bounded, so a list with a new key on every line can't grow it without end.
                    if seenKeys.count < 1_000, seenKeys.insert(member.key).inserted { newKeys.append(member.key) }
                    continue
                }
                switch member.value.value {
                case .string(let text): values[column] = .text(text)
                case .number(let literal): values[column] = .number(literal)
                case .null: values[column] = .null
                case .array(let items):
                    let strings = items.compactMap(\.stringValue)
                    values[column] =
                        strings.count == items.count ? .list(strings) : .unsupported(kind: "an array holding something other than strings")
                case .bool, .object: values[column] = .unsupported(kind: member.value.value.kindName)
                }
            }
            do {
                let customer = try reader.customer { values[$0] }
                let decision = decider.decide(customer)
                return .decided(customer, decision, place: .line(line), bytes: jsonRow(members, raw: raw, line: line, decision), newKeys: newKeys)
            } catch {
                return .skipped(place: .line(line), message: error.message, raw: raw)
            }
        case .customer(let customer, let fields, let place, let doubts):
            let decision = decider.decide(customer, doubts: doubts)
            return .decided(customer, decision, place: .name(place), bytes: Array(csvRow(fields, decision).utf8))
        }
    }

    /// A row of CSV fields with the decision after them, as CSV or as a JSON Lines object keyed by `names`.
    func csvRow(_ fields: [String], _ decision: BatchDecision) -> String {
        switch kind {
        case .csv:
            var line = ""
            for field in fields {
                line += CSVWriter.field(field)
                line += ","
            }
            return line + rendered(decision) + "\n"
        case .jsonLines:
            let members = zip(names, fields).map { JSONMember(key: $0, value: JSONNode(.string($1))) }
            return JSONWriter.line(.object(members)).dropLast() + (members.isEmpty ? "" : ",") + rendered(decision) + "}\n"
        }
    }

    /// A JSON Lines row: the line as it was read (`raw`, a JSON object that parsed as `members`) with the
    /// decision added before its closing brace, so every value is carried through byte for byte. As CSV: the
    /// line's number, then every key of the list in the header's order, then the decision.
    func jsonRow(_ members: [JSONMember], raw: [UInt8], line: Int, _ decision: BatchDecision) -> [UInt8] {
        switch kind {
        case .jsonLines:
            var bytes = raw
            while let last = bytes.last, last == 32 || last == 9 || last == 13 { bytes.removeLast() }
            bytes.removeLast()  // the closing brace
            bytes.append(contentsOf: ((members.isEmpty ? "" : ",") + rendered(decision) + "}\n").utf8)
            return bytes
        case .csv:
            // The line's number, then every key of the list (the header `names` after "line"), then the decision.
            var values: [String: JSONValue] = [:]
            for member in members { values[member.key] = member.value.value }
            func text(_ key: String) -> String {
                switch values[key] {
                case .string(let text), .number(let text): return text
                case .bool(let flag): return flag ? "true" : "false"
                case .null, nil: return ""
                case .array(let items) where items.allSatisfy({ $0.stringValue != nil }):
                    return items.compactMap(\.stringValue).joined(separator: " ")
                case let value?: return JSONWriter.line(value)
                }
            }
            return Array(csvRow([String(line)] + names.dropFirst().map(text), decision).utf8)
        }
    }

    /// The decision's members, `"cohort":…` to `"withheld":[…]`, without braces.
    static func members(_ decision: BatchDecision) -> String {
        func list(_ ids: [String]) -> String { "[" + ids.map(JSONWriter.quoted).joined(separator: ",") + "]" }
        let keys = BatchOutputColumn.self
        return "\"\(keys.cohort.rawValue)\":\"\(decision.cohortName)\",\"\(keys.tier.rawValue)\":\(decision.tierID.map(JSONWriter.quoted) ?? "null")"
            + ",\"\(keys.rule.rawValue)\":\"\(decision.rule.rawValue)\",\"\(keys.features.rawValue)\":\(list(decision.features))"
            + ",\"\(keys.offers.rawValue)\":\(list(decision.offers)),\"\(keys.withheld.rawValue)\":\(list(decision.withheld))"
            + ",\"\(keys.warnings.rawValue)\":\(list(decision.warnings.map(\.rawValue)))"
    }

    /// The decision's columns (CSV) or members (JSON Lines).
    private func rendered(_ decision: BatchDecision) -> String {
        if let text = renderings[decision] { return text }
        let text: String
        switch kind {
        case .csv:
            text = [
                decision.cohortName, decision.tierID ?? "", decision.rule.rawValue, decision.features.joined(separator: " "),
                decision.offers.joined(separator: " "), decision.withheld.joined(separator: " "),
                decision.warnings.map(\.rawValue).joined(separator: " "),
            ].map(CSVWriter.field).joined(separator: ",")
        case .jsonLines:
            text = Self.members(decision)
        }
        if renderings.count >= 4_096 { renderings.removeAll(keepingCapacity: true) }
        renderings[decision] = text
        return text
    }
}

/// Where decisions go, a mebibyte at a time: a file that appears whole, or standard output.
final class BatchOutput {
    enum Sink {
        case file(StreamedFile)
        case output(TextOutput)
    }

    let kind: ExplainBatch.OutputKind
    let sink: Sink
    private var buffer: [UInt8] = []

    init(kind: ExplainBatch.OutputKind, sink: Sink) {
        self.kind = kind
        self.sink = sink
        buffer.reserveCapacity(1 << 20 + 4096)
    }

    /// Writes the header of a CSV output: the fields each row has, then the decision's columns.
    func writeHeader(_ fields: [String]) {
        guard kind == .csv else { return }
        let names = fields + BatchOutputColumn.allCases.map(\.rawValue)
        append(Array((names.map(CSVWriter.field).joined(separator: ",") + "\n").utf8))
    }

    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        switch sink {
        case .file(let file): file.write(buffer)
        case .output(let output): output.write(data: buffer)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `--rejected FILE`: every skipped row, byte for byte, with its line (or a folder's entry) and the reason,
/// as CSV (`line,reason,record`); written whole or not at all when the run ends.
final class RejectedRows {
    enum Input { case lines, folder }

    let file: StreamedFile
    private var buffer: [UInt8] = []

    init(file: StreamedFile, input: Input) {
        self.file = file
        buffer.append(contentsOf: (input == .folder ? "entry,reason\n" : "line,reason,record\n").utf8)
    }

    /// Adds a skipped row: a line of a list with the row as read, or a folder's entry.
    func add(place: RowPlace, reason: String, raw: [UInt8]) {
        switch place {
        case .line(let line):
            buffer.append(contentsOf: ("\(line)," + CSVWriter.field(reason) + ",").utf8)
            buffer.append(contentsOf: CSVWriter.field(bytes: raw))
        case .name(let name):
            buffer.append(contentsOf: (CSVWriter.field(name) + "," + CSVWriter.field(reason)).utf8)
        }
        buffer.append(10)
        if buffer.count >= 1 << 20 {
            file.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    func commit() throws(FileWriteError) {
        file.write(buffer)
        buffer.removeAll()
        try file.commit()
    }

    func abandon() { file.abandon() }
}
