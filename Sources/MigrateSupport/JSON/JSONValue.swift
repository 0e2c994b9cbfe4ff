/// A position in a text file, 1-based, counted in characters (not bytes) so that editors agree.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A parsed JSON value that remembers where it came from.
///
/// Numbers keep their literal text: money and build numbers must never take a
/// round trip through binary floating point.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// A short name of the kind of value, for messages such as "expected a string, found a number".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON value and the position of its first character.
public struct JSONNode: Sendable, Hashable {
    public var value: JSONValue
    public var location: SourceLocation

    public init(_ value: JSONValue, at location: SourceLocation = SourceLocation(line: 0, column: 0)) {
        self.value = value
        self.location = location
    }

    /// The member value for `key` if this is an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var arrayValue: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var objectValue: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }
}

/// One `"key": value` pair of an object, in source order.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: JSONNode

    public init(key: String, keyLocation: SourceLocation = SourceLocation(line: 0, column: 0), value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
