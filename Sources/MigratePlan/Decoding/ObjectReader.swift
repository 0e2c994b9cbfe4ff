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

/// Reads the members of one JSON object, reporting wrong types, missing keys and unknown keys.
public struct ObjectReader {
    public let node: JSONNode
    public let path: JSONPath
    public let sink: DiagnosticSink
    private let members: [JSONMember]

    /// Nil (with an error reported) when `node` is not an object.
    public init?(_ node: JSONNode, at path: JSONPath, sink: DiagnosticSink, describing what: String) {
        guard let members = node.objectValue else {
            sink.error(.wrongType, "\(what) must be an object, found \(node.value.kindName)", at: path)
            return nil
        }
        self.node = node
        self.path = path
        self.sink = sink
        self.members = members
    }

    /// Reports keys that are not in `allowed` (with a suggestion) and keys given twice.
    public func checkKeys(_ allowed: [String]) {
        var seen = Set<String>()
        for member in members {
            if !seen.insert(member.key).inserted {
                sink.error(.duplicateKey, "'\(member.key)' is given twice; the second would silently win", at: path / member.key)
            }
            if !allowed.contains(member.key) {
                let suggestion = Suggestions.closest(to: member.key, in: allowed)
                let hint = suggestion.map { "Did you mean '\($0)'?" } ?? "Known keys here: \(allowed.joined(separator: ", "))."
                sink.error(.unknownKey, "unknown key '\(member.key)'", at: path / member.key, hint: hint)
            }
        }
    }

    public func has(_ key: String) -> Bool { node[key] != nil }

    public func value(_ key: String) -> JSONNode? {
        guard let value = node[key] else { return nil }
        if case .null = value.value { return nil }
        return value
    }

    private func missing(_ key: String, _ expectation: String) {
        sink.error(.missingKey, "missing '\(key)' (\(expectation))", at: path / key)
    }

    private func wrongType(_ key: String, _ node: JSONNode, _ expectation: String) {
        sink.error(.wrongType, "'\(key)' must be \(expectation), found \(node.value.kindName)", at: path / key)
    }

    public func string(_ key: String, required: Bool = false) -> String? {
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
    public func identifier(_ key: String, required: Bool = true) -> String? {
        guard let text = string(key, required: required) else { return nil }
        // Only the ends are looked at (Foundation's trimming copies the whole string, twice): a 50 MB name costs nothing.
        let scalars = text.unicodeScalars
        if scalars.allSatisfy(Self.isSpace) {
            sink.error(.emptyValue, "'\(key)' must not be empty", at: path / key)
            return nil
        }
        if let first = scalars.first, let last = scalars.last, Self.isSpace(first) || Self.isSpace(last) {
            sink.error(.invalidValue, "'\(key)' has leading or trailing spaces: \"\(Self.excerpt(text))\"", at: path / key)
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

    public func bool(_ key: String) -> Bool? {
        guard let node = value(key) else { return nil }
        guard case .bool(let flag) = node.value else {
            wrongType(key, node, "true or false")
            return nil
        }
        return flag
    }

    public func integer(_ key: String, required: Bool = false) -> Int? {
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

    public func array(_ key: String, required: Bool = false) -> [(node: JSONNode, path: JSONPath)]? {
        guard let node = value(key) else {
            if required { missing(key, "an array") }
            return nil
        }
        guard let items = node.arrayValue else {
            wrongType(key, node, "an array")
            return nil
        }
        return items.enumerated().map { (node: $0.element, path: path / key / $0.offset) }
    }

    public func object(_ key: String, required: Bool = false, describing what: String? = nil) -> ObjectReader? {
        guard let node = value(key) else {
            if required { missing(key, "an object") }
            return nil
        }
        return ObjectReader(node, at: path / key, sink: sink, describing: what ?? "'\(key)'")
    }

    /// An array of strings; elements of other types are reported and skipped.
    public func strings(_ key: String, required: Bool = false) -> [String]? {
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
    public func choice(_ key: String, from choices: [String], required: Bool = false) -> String? {
        guard let text = string(key, required: required) else { return nil }
        guard choices.contains(text) else {
            let hint =
                Suggestions.closest(to: text, in: choices).map { "Did you mean '\($0)'?" }
                ?? "Use one of: \(choices.joined(separator: ", "))."
            sink.error(.invalidValue, "'\(text)' is not a valid value for '\(key)'", at: path / key, hint: hint)
            return nil
        }
        return text
    }

    /// The location of the member's key, for messages about the member as a whole.
    public func keyLocation(_ key: String) -> SourceLocation? {
        members.first { $0.key == key }?.keyLocation
    }
}
