import Foundation
import MigrateSupport

/// Collects diagnostics while a document is decoded, so that every problem is reported at once.
public final class DiagnosticSink {
    public init() {}

    public private(set) var diagnostics: [Diagnostic] = []

    public func add(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    public func error(_ code: DiagnosticCode, _ message: String, at path: JSONPath, hint: String? = nil) {
        add(.error(code, message, at: path, hint: hint))
    }

    public func warning(_ code: DiagnosticCode, _ message: String, at path: JSONPath, hint: String? = nil) {
        add(.warning(code, message, at: path, hint: hint))
    }
}

/// Reads the members of one JSON object whose keys are the cases of `Key`, reporting wrong types, missing keys,
/// unknown keys (with a suggestion) and keys given twice. Every read names its key by its case, so the decoder
/// can't read a key the object doesn't declare.
public struct ObjectReader<Key: PlanObjectKeys> {
    public let node: JSONNode
    public let path: JSONPath
    public let sink: DiagnosticSink
    private let members: [JSONMember]

    /// Nil (with an error reported) when `node` is not an object; otherwise its keys are checked against `Key`.
    public init?(_ node: JSONNode, at path: JSONPath, sink: DiagnosticSink, describing what: String, keys: Key.Type = Key.self) {
        guard let members = node.objectValue else {
            sink.error(.wrongType, "\(what) must be an object, found \(node.value.kindName)", at: path)
            return nil
        }
        self.node = node
        self.path = path
        self.sink = sink
        self.members = members
        checkKeys()
    }

    /// Where a member is, for messages about it.
    public func path(_ key: Key) -> JSONPath {
        path / key.rawValue
    }

    /// Reports keys that are not cases of `Key` (with a suggestion) and keys given twice.
    private func checkKeys() {
        let allowed = Key.names
        var seen = Set<String>()
        for member in members {
            if !seen.insert(member.key).inserted {
                sink.error(.duplicateKey, "'\(member.key)' is given twice; the second would silently win", at: path / member.key)
            }
            if Key(rawValue: member.key) == nil {
                let suggestion = Suggestions.closest(to: member.key, in: allowed)
                let hint = suggestion.map { "Did you mean '\($0)'?" } ?? "Known keys here: \(allowed.joined(separator: ", "))."
                sink.error(.unknownKey, "unknown key '\(member.key)'", at: path / member.key, hint: hint)
            }
        }
    }

    public func has(_ key: Key) -> Bool { node[key.rawValue] != nil }

    public func value(_ key: Key) -> JSONNode? {
        guard let value = node[key.rawValue] else { return nil }
        if case .null = value.value { return nil }
        return value
    }

    private func missing(_ key: Key, _ expectation: String) {
        sink.error(.missingKey, "missing '\(key)' (\(expectation))", at: self.path(key))
    }

    private func wrongType(_ key: Key, _ node: JSONNode, _ expectation: String) {
        sink.error(.wrongType, "'\(key)' must be \(expectation), found \(node.value.kindName)", at: self.path(key))
    }

    public func string(_ key: Key, required: Bool = false) -> String? {
        guard let node = value(key) else {
            if required { missing(key, "a string") }
            return nil
        }
        guard let text = node.stringValue else {
            wrongType(key, node, "a string")
            return nil
        }
        return text
    }

    /// A non-empty string.
    public func identifier(_ key: Key, required: Bool = true) -> String? {
        guard let text = string(key, required: required) else { return nil }
        // Only the ends are looked at (Foundation's trimming copies the whole string, twice): a 50 MB name costs nothing.
        let scalars = text.unicodeScalars
        if scalars.allSatisfy(Self.isSpace) {
            sink.error(.emptyValue, "'\(key)' must not be empty", at: self.path(key))
            return nil
        }
        if let first = scalars.first, let last = scalars.last, Self.isSpace(first) || Self.isSpace(last) {
            sink.error(.invalidValue, "'\(key)' has leading or trailing spaces: \"\(Self.excerpt(text))\"", at: self.path(key))
        }
        // Names and ids are copied into every generated file and message: a 50 MB name would cost
        // minutes and hundreds of megabytes downstream, so it is refused here.
        let isName = key.rawValue == "name"
        let limit = isName ? Limits.planNameCharacters : Limits.planIdentifierCharacters
        // Characters are at most bytes: only a long string is counted, and only up to the limit.
        if text.utf8.count > limit && scalars.dropFirst(limit).first != nil {
            sink.error(
                .invalidValue,
                "'\(key)' is \(Limits.grouped(scalars.count)) characters long; migrate's limit for \(isName ? "a name" : "an id") is \(Limits.grouped(limit)) characters: \"\(Self.excerpt(text))\"",
                at: self.path(key))
            return nil
        }
        return text
    }

    /// What `CharacterSet.whitespaces` holds: a tab, or a space separator (U+0020, U+00A0, U+2000…).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// The text, or its first and last 40 characters around "…" when it is longer than 100, for messages.
    static func excerpt(_ text: String) -> String {
        guard text.utf8.count > 100, let hundredth = text.index(text.startIndex, offsetBy: 100, limitedBy: text.endIndex), hundredth != text.endIndex
        else { return text }
        return String(text.prefix(40)) + "…" + String(text.suffix(40))
    }

    public func bool(_ key: Key) -> Bool? {
        guard let node = value(key) else { return nil }
        guard case .bool(let flag) = node.value else {
            wrongType(key, node, "true or false")
            return nil
        }
        return flag
    }

    public func integer(_ key: Key, required: Bool = false) -> Int? {
        guard let node = value(key) else {
            if required { missing(key, "a whole number") }
            return nil
        }
        guard case .number(let literal) = node.value, let number = Int(literal) else {
            wrongType(key, node, "a whole number")
            return nil
        }
        return number
    }

    public func array(_ key: Key, required: Bool = false) -> [(node: JSONNode, path: JSONPath)]? {
        guard let node = value(key) else {
            if required { missing(key, "an array") }
            return nil
        }
        guard let items = node.arrayValue else {
            wrongType(key, node, "an array")
            return nil
        }
        return items.enumerated().map { (node: $0.element, path: path / key.rawValue / $0.offset) }
    }

    /// The object at `key`, read with its own keys.
    public func object<Nested>(_ key: Key, as keys: Nested.Type, required: Bool = false, describing what: String? = nil) -> ObjectReader<Nested>? {
        guard let node = value(key) else {
            if required { missing(key, "an object") }
            return nil
        }
        return ObjectReader<Nested>(node, at: self.path(key), sink: sink, describing: what ?? "'\(key)'")
    }

    /// An array of strings; elements of other types are reported and skipped.
    public func strings(_ key: Key, required: Bool = false) -> [String]? {
        guard let items = array(key, required: required) else { return nil }
        return items.compactMap { item in
            guard let text = item.node.stringValue else {
                sink.error(.wrongType, "expected a string, found \(item.node.value.kindName)", at: item.path)
                return nil
            }
            return text
        }
    }

    /// A string that must be one of `choices`; anything else is reported with a suggestion.
    public func choice(_ key: Key, from choices: [String], required: Bool = false) -> String? {
        guard let text = string(key, required: required) else { return nil }
        guard choices.contains(text) else {
            let hint =
                Suggestions.closest(to: text, in: choices).map { "Did you mean '\($0)'?" }
                ?? "Use one of: \(choices.joined(separator: ", "))."
            sink.error(.invalidValue, "'\(text)' is not a valid value for '\(key)'", at: self.path(key), hint: hint)
            return nil
        }
        return text
    }

    /// The location of the member's key, for messages about the member as a whole.
    public func keyLocation(_ key: Key) -> SourceLocation? {
        members.first { $0.key == key.rawValue }?.keyLocation
    }
}
