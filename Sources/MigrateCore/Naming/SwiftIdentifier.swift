import Foundation
import MigratePlan

/// Turns plan ids (`code-red`, `com.example.app.full`, `paid-1.0`) into Swift identifiers
/// (`codeRed`, `full`, `paid1Dot0`) that are unique within their enum.
///
/// The one home of the generated names: `migrate check` reports collisions from here, and the
/// generator names cases from here. A product's or feature's name comes from its own id alone, so
/// adding, removing or reordering other products never renames it.
public enum SwiftIdentifier {
    /// Two ids whose Swift names would be the same.
    public struct Collision: Sendable, Hashable {
        public var first: String
        public var second: String
        public var name: String
    }

    /// A product's case name: its id without the app's bundle id and the period after it
    /// (`com.example.app.pro` in `com.example.app` is `pro`), which never changes for an app on
    /// the store, or the whole id when it doesn't start with the bundle id.
    public static func productName(_ id: String, bundleID: String) -> String {
        let prefix = bundleID + "."
        return make(id.hasPrefix(prefix) && id.count > prefix.count ? String(id.dropFirst(prefix.count)) : id)
    }

    /// A feature's case name: its id.
    public static func featureName(_ id: String) -> String { make(id) }

    /// The products' case names by id, and the ids whose names collide (which `check` rejects;
    /// the later of two is numbered so that code generated anyway still compiles).
    public static func productCases(_ plan: MigrationPlan) -> (cases: [String: String], collisions: [Collision]) {
        cases(plan.products.map(\.id)) { productName($0, bundleID: plan.app.bundleID) }
    }

    /// The features' case names by id, and the ids whose names collide.
    public static func featureCases(_ plan: MigrationPlan) -> (cases: [String: String], collisions: [Collision]) {
        cases(plan.features.map(\.id), name: featureName)
    }

    static func cases(_ ids: [String], name: (String) -> String) -> (cases: [String: String], collisions: [Collision]) {
        var result: [String: String] = [:]
        var owner: [String: String] = [:]
        var collisions: [Collision] = []
        for id in ids where result[id] == nil {
            let base = name(id)
            if let first = owner[base] { collisions.append(Collision(first: first, second: id, name: base)) }
            var unique = base
            var counter = 2
            while owner[unique] != nil {
                unique = base.hasSuffix("`") ? "`\(base.dropFirst().dropLast())\(counter)`" : "\(base)\(counter)"
                counter += 1
            }
            owner[unique] = id
            result[id] = unique
        }
        return (result, collisions)
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false",
        "is", "nil", "self", "super", "throws", "true", "try", "some", "any", "await", "async", "Type", "Self",
    ]

    /// A lower camel case identifier for one id.
    public static func make(_ id: String) -> String {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for (offset, character) in id.enumerated() {
            defer { previous = character }
            // A period between digits (`1.0`) is spelled out, so `paid-1.0` and `paid-10` stay apart.
            if character == ".", previous?.isNumber == true, id.dropFirst(offset + 1).first?.isNumber == true {
                if !current.isEmpty { words.append(current) }
                words.append("Dot")
                current = ""
                continue
            }
            if character.isLetter || character.isNumber {
                if character.isASCII {
                    current.append(character)
                } else if let ascii = character.unicodeScalars.first.flatMap({ $0.properties.isAlphabetic ? "x" : nil }) {
                    current += ascii
                }
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else { return "unnamed" }
        var result = ""
        for (index, word) in words.enumerated() {
            result += index == 0 ? lowercasedFirst(word) : uppercasedFirst(word)
        }
        if result.first?.isNumber == true { result = "v" + result }
        if keywords.contains(result) { result = "`\(result)`" }
        return result
    }

    /// Identifiers for several ids, made unique by numbering collisions in order.
    public static func unique(_ ids: [String], stripping prefix: String? = nil) -> [String: String] {
        var result: [String: String] = [:]
        var used = Set<String>()
        for id in ids {
            var source = id
            if let prefix, id.hasPrefix(prefix), id.count > prefix.count { source = String(id.dropFirst(prefix.count)) }
            let base = make(source)
            var name = base
            var counter = 2
            while used.contains(name) {
                name = base.hasSuffix("`") ? "`\(base.dropFirst().dropLast())\(counter)`" : "\(base)\(counter)"
                counter += 1
            }
            used.insert(name)
            result[id] = name
        }
        return result
    }

    /// An upper camel case type name for a display name: `Tilt to Live HD` → `TiltToLiveHD`.
    public static func typeName(_ name: String) -> String {
        let identifier = make(name).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        let upper = identifier.prefix(1).uppercased() + identifier.dropFirst()
        return upper.first?.isNumber == true ? "App" + upper : upper
    }

    private static func lowercasedFirst(_ word: String) -> String {
        // An all-caps word such as "VPN" reads better as "vpn" than "vPN".
        if word == word.uppercased() { return word.lowercased() }
        return word.prefix(1).lowercased() + word.dropFirst()
    }

    private static func uppercasedFirst(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// A Swift string literal for arbitrary text.
    public static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
