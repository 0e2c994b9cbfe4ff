import Foundation
import MigrateSupport

/// Decides rows and writes them as text; one per thread, each with tables of its own.
public struct BatchWorker: Sendable {
    public private(set) var decider: BatchDecider
    public let reader: BatchCustomerReader
    public let kind: BatchOutputKind
    /// The names of a CSV row's fields, for JSON Lines keys.
    public var names: [String] = []
    /// Decisions repeat across a list (a few dozen distinct ones in a million rows): each is written once.
    private var renderings: [BatchDecision: String] = [:]
    /// Keys carried through that this worker has reported.
    private var seenKeys = Set<String>()

    public init(catalog: PlanCatalog, reader: BatchCustomerReader, kind: BatchOutputKind) {
        decider = BatchDecider(catalog: catalog)
        self.reader = reader
        self.kind = kind
    }

    public mutating func process(_ row: BatchRow) -> BatchRowResult {
        switch row {
        case .skipped(let place, let message, let raw):
            return .skipped(place: place, message: message, raw: raw)
        case .csv(let fields, let index, let identity, let line, let raw):
            do {
                let customer = try reader.customer { column in index[column].map { .text(fields[$0]) } }
                let decision = decider.decide(customer)
                let id = identity.flatMap { Self.identity(fields[$0]) }
                return .decided(customer, decision, place: .line(line), bytes: Array(csvRow(fields, decision).utf8), identity: id)
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
            var keyOf: [BatchColumn: String] = [:]
            var newKeys: [String] = []
            var identity: UInt64?
            for member in members {
                if BatchOutputColumn(rawValue: member.key) != nil {
                    return .skipped(place: .line(line), message: "'\(member.key)' is a key explain --batch adds; rename it", raw: raw)
                }
                if identity == nil, BatchColumn.namesCustomer(member.key) {
                    switch member.value.value {
                    case .string(let text), .number(let text): identity = text.isEmpty ? nil : FirstSeenTable.fingerprint(text.utf8)
                    default: break
                    }
                }
                if let column = BatchColumn(key: member.key) {
                    // Two names for one fact (the server's and AppTransaction's): which one to believe is a guess.
                    if let other = keyOf[column] {
                        return .skipped(
                            place: .line(line),
                            message: "'\(other)' and '\(member.key)' name the same fact (\(column.rawValue)); keep one", raw: raw)
                    }
                    keyOf[column] = member.key
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
                return .decided(
                    customer, decision, place: .line(line), bytes: jsonRow(members, raw: raw, line: line, decision), newKeys: newKeys,
                    identity: identity)
            } catch {
                return .skipped(place: .line(line), message: error.message, raw: raw)
            }
        case .customer(let customer, let fields, let place, let doubts):
            let decision = decider.decide(customer, doubts: doubts)
            return .decided(customer, decision, place: .name(place), bytes: Array(csvRow(fields, decision).utf8))
        }
    }

    /// The fingerprint of a CSV field that names the customer, the white space around it left out; nil when it is
    /// empty. Most ids are ASCII at both ends and are trimmed byte by byte; any other goes through Foundation's
    /// white space.
    public static func identity(_ field: String) -> UInt64? {
        let bytes = field.utf8
        let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return nil }
        guard bytes[first] < 0x80 && bytes[last] < 0x80 else {
            let trimmed = field.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : FirstSeenTable.fingerprint(trimmed.utf8)
        }
        return FirstSeenTable.fingerprint(bytes[first...last])
    }

    /// The bytes of a decided row again, with a decision changed after the row was decided (a warning only the
    /// whole list can see, such as a repeated customer id).
    public mutating func render(_ row: BatchRow, _ decision: BatchDecision) -> [UInt8] {
        switch row {
        case .csv(let fields, _, _, _, _): return Array(csvRow(fields, decision).utf8)
        case .customer(_, let fields, _, _): return Array(csvRow(fields, decision).utf8)
        case .jsonLine(let raw, let line):
            let members = (try? JSONParser.parse(bytes: raw))?.objectValue ?? []
            return jsonRow(members, raw: raw, line: line, decision)
        case .skipped: return []
        }
    }

    /// The first line of a CSV output: the fields each row has, then the decision's columns. JSON Lines has none.
    public static func header(_ fields: [String], kind: BatchOutputKind) -> [UInt8] {
        guard kind == .csv else { return [] }
        return Array(CSVWriter.line(fields + BatchOutputColumn.allCases.map(\.rawValue)).utf8)
    }

    /// A row of CSV fields with the decision after them, as CSV or as a JSON Lines object keyed by `names`.
    mutating func csvRow(_ fields: [String], _ decision: BatchDecision) -> String {
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
        case .countsOnly:
            return ""
        }
    }

    /// A JSON Lines row: the line as it was read (`raw`, a JSON object that parsed as `members`) with the
    /// decision added before its closing brace, so every value is carried through byte for byte. As CSV: the
    /// line's number, then every key of the list in the header's order, then the decision.
    mutating func jsonRow(_ members: [JSONMember], raw: [UInt8], line: Int, _ decision: BatchDecision) -> [UInt8] {
        switch kind {
        case .countsOnly:
            return []
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
    private mutating func rendered(_ decision: BatchDecision) -> String {
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
        case .countsOnly:
            return ""
        }
        if renderings.count >= 4_096 { renderings.removeAll(keepingCapacity: true) }
        renderings[decision] = text
        return text
    }
}
