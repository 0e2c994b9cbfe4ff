/// A path into a JSON document, written the way people read it: `products[2].grants[0]`.
public struct JSONPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    public static func / (path: JSONPath, key: String) -> JSONPath { path.appending(key) }
    public static func / (path: JSONPath, index: Int) -> JSONPath { path.appending(index) }

    public var description: String {
        if components.isEmpty { return "(top level)" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                if plain {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONWriter.quoted(key))]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    public static func < (lhs: JSONPath, rhs: JSONPath) -> Bool {
        lhs.description < rhs.description
    }

    /// The node at this path in `root`, if there is one.
    public func node(in root: JSONNode) -> JSONNode? {
        var node = root
        for component in components {
            switch component {
            case .key(let key):
                guard let next = node[key] else { return nil }
                node = next
            case .index(let index):
                guard let items = node.arrayValue, items.indices.contains(index) else { return nil }
                node = items[index]
            }
        }
        return node
    }

    /// Where the path points in `root`: the value, or for a missing member the object that lacks it.
    public func location(in root: JSONNode) -> SourceLocation? {
        var node = root
        for component in components {
            switch component {
            case .key(let key):
                guard let next = node[key] else { return node.location }
                node = next
            case .index(let index):
                guard let items = node.arrayValue, items.indices.contains(index) else { return node.location }
                node = items[index]
            }
        }
        return node.location
    }
}
