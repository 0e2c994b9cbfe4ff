/// Writes JSON deterministically: fixed indentation, `\n` line endings, a final newline,
/// keys in the order given (or sorted), and number literals exactly as stored.
public struct JSONWriter: Sendable {
    /// `": "` for ordinary JSON; `" : "` is how Xcode writes `.storekit` files.
    public var keySeparator: String
    public var sortsKeys: Bool
    public var indent: String
    /// When set, objects and arrays holding only scalars (or arrays of scalars) are written on one line
    /// if the line stays within this width, as people write plans by hand.
    public var inlineWidth: Int?
    /// Xcode writes an empty array as `[`, an empty line, then `]`.
    public var opensEmptyArrays: Bool

    public init(
        keySeparator: String = ": ", sortsKeys: Bool = false, indent: String = "  ", inlineWidth: Int? = nil,
        opensEmptyArrays: Bool = false
    ) {
        self.keySeparator = keySeparator
        self.sortsKeys = sortsKeys
        self.indent = indent
        self.inlineWidth = inlineWidth
        self.opensEmptyArrays = opensEmptyArrays
    }

    /// The style of `migration.json`: plain JSON, with rows such as releases on one line each.
    public static let plan = JSONWriter(inlineWidth: 200)

    /// The Xcode style for StoreKit configuration files: sorted keys and `"key" : value`.
    public static let xcode = JSONWriter(keySeparator: " : ", sortsKeys: true, indent: "  ", opensEmptyArrays: true)

    public func string(from node: JSONNode) -> String {
        var output = ""
        write(node.value, level: 0, into: &output)
        output += "\n"
        return output
    }

    public func string(from value: JSONValue) -> String {
        string(from: JSONNode(value))
    }

    /// `value` on one line with no spaces and no final newline, as a JSON Lines record is written.
    public static func line(_ value: JSONValue) -> String {
        var output = ""
        writeLine(value, into: &output)
        return output
    }

    private static func writeLine(_ value: JSONValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let literal): output += literal
        case .string(let text): output += quoted(text)
        case .array(let items):
            output += "["
            for (offset, item) in items.enumerated() {
                if offset > 0 { output += "," }
                writeLine(item.value, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += "," }
                output += quoted(member.key) + ":"
                writeLine(member.value.value, into: &output)
            }
            output += "}"
        }
    }

    private func write(_ value: JSONValue, level: Int, into output: inout String, prefixWidth: Int = 0) {
        if let inlineWidth, let inline = inlined(value), level * indent.count + prefixWidth + inline.count <= inlineWidth {
            output += inline
            return
        }
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let literal): output += literal
        case .string(let text): output += Self.quoted(text)
        case .array(let items):
            if items.isEmpty {
                output += opensEmptyArrays ? "[\n\n" + String(repeating: indent, count: level) + "]" : "[]"
                return
            }
            output += "[\n"
            for (offset, item) in items.enumerated() {
                output += String(repeating: indent, count: level + 1)
                write(item.value, level: level + 1, into: &output, prefixWidth: 1)
                output += offset == items.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: indent, count: level) + "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            let ordered = sortsKeys ? members.sorted { Self.keyPrecedes($0.key, $1.key) } : members
            output += "{\n"
            for (offset, member) in ordered.enumerated() {
                let key = Self.quoted(member.key) + keySeparator
                output += String(repeating: indent, count: level + 1) + key
                write(member.value.value, level: level + 1, into: &output, prefixWidth: key.count + 1)
                output += offset == ordered.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: indent, count: level) + "}"
        }
    }

    /// Key order when sorting: case-insensitive first, as Xcode writes `.storekit` files
    /// (`_storefront` before `_storeKitErrors`), then by bytes so the order is total.
    static func keyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.lowercased()
        let right = rhs.lowercased()
        if left != right { return left.utf8.lexicographicallyPrecedes(right.utf8) }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// The one-line form of a value made only of scalars and arrays of scalars; nil otherwise.
    private func inlined(_ value: JSONValue, nested: Bool = false) -> String? {
        switch value {
        case .null, .bool, .number, .string:
            return nested ? scalar(value) : nil
        case .array(let items):
            if items.isEmpty { return nested ? "[]" : nil }
            var parts: [String] = []
            for item in items {
                guard let part = scalar(item.value) else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .object(let members):
            if members.isEmpty { return nil }
            guard !nested else { return nil }
            let ordered = sortsKeys ? members.sorted { Self.keyPrecedes($0.key, $1.key) } : members
            var parts: [String] = []
            for member in ordered {
                guard let part = inlined(member.value.value, nested: true) else { return nil }
                parts.append(Self.quoted(member.key) + keySeparator + part)
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
    }

    private func scalar(_ value: JSONValue) -> String? {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): Self.quoted(text)
        default: nil
        }
    }

    /// A JSON string literal; only what RFC 8259 requires is escaped, so non-ASCII text stays readable.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    let digits = String(scalar.value, radix: 16, uppercase: false)
                    result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

// MARK: - Building values in code

extension JSONValue {
    /// An object from key-value pairs, in the given order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, value: JSONNode($0.value)) })
    }

    /// An object from an ordered list of pairs; pairs whose value is nil are left out.
    public static func members(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        .object(pairs.compactMap { key, value in value.map { JSONMember(key: key, value: JSONNode($0)) } })
    }

    public static func array(_ values: [JSONValue]) -> JSONValue {
        .array(values.map { JSONNode($0) })
    }

    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    public static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
