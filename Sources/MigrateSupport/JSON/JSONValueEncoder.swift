import Foundation

/// Encodes an `Encodable` model as a `JSONValue` for `JSONWriter`: members in the order the model encodes them
/// (a synthesized `encode(to:)` follows the order the properties are declared in), numbers as the literals
/// `JSONNumber` holds, and a `JSONValue` inside the model as it is. Output built this way is as deterministic
/// as the writer: no dictionary order, no locale, no float printing left to chance.
public struct JSONValueEncoder: Sendable {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let node = EncodedNode()
        try EncodedNode.encode(value, into: node, codingPath: [])
        return node.value
    }
}

/// A JSON number written exactly as `literal`, such as an amount with two decimals.
public struct JSONNumber: Encodable, Sendable, Hashable {
    public var literal: String

    public init(literal: String) {
        self.literal = literal
    }

    /// `value` with `digits` digits after the point (`%.2f`).
    public init(_ value: Double, fractionDigits digits: Int) {
        literal = String(format: "%.\(digits)f", value)
    }

    /// To another encoder, the number the literal stands for.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Double(literal) ?? 0)
    }
}

/// An optional written as `null` when absent, where a synthesized `encode(to:)` leaves the key out.
public struct JSONNullable<Wrapped: Encodable>: Encodable {
    public var value: Wrapped?

    public init(_ value: Wrapped?) {
        self.value = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension JSONNullable: Sendable where Wrapped: Sendable {}

extension JSONValue: Encodable {
    /// To another encoder, the same value (numbers as `Double`); `JSONValueEncoder` keeps it as it is.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let literal):
            try JSONNumber(literal: literal).encode(to: encoder)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item.value) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONKey.self)
            for member in members { try container.encode(member.value.value, forKey: JSONKey(member.key)) }
        }
    }
}

/// A key known only when encoding, such as a sweep's assumption names.
public struct JSONKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) {
        stringValue = name
    }

    public init?(stringValue: String) {
        self.stringValue = stringValue
    }

    public init?(intValue: Int) {
        nil
    }
}

/// A value being encoded: a scalar, an object's members in order, or an array's items.
private final class EncodedNode {
    var scalar: JSONValue?
    var members: [(key: String, node: EncodedNode)]?
    var items: [EncodedNode]?

    var value: JSONValue {
        if let members {
            // A key encoded twice keeps its place and its last value, as a dictionary would.
            var order: [String] = []
            var latest: [String: EncodedNode] = [:]
            for (key, node) in members {
                if latest.updateValue(node, forKey: key) == nil { order.append(key) }
            }
            return .object(order.map { JSONMember(key: $0, value: JSONNode(latest[$0]!.value)) })
        }
        if let items { return .array(items.map { JSONNode($0.value) }) }
        return scalar ?? .object([])
    }

    static func encode<T: Encodable>(_ value: T, into node: EncodedNode, codingPath: [CodingKey]) throws {
        switch value {
        case let value as JSONValue: node.scalar = value
        case let number as JSONNumber: node.scalar = .number(number.literal)
        default: try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
        }
    }
}

private struct ValueEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [] }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if node.items == nil { node.items = [] }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [CodingKey]

    private func child(_ key: Key) -> EncodedNode {
        let child = EncodedNode()
        node.members!.append((key.stringValue, child))
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).scalar = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).scalar = .bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { child(key).scalar = .string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { child(key).scalar = .number("\(value)") }
    mutating func encode(_ value: Float, forKey key: Key) throws { child(key).scalar = .number("\(value)") }
    mutating func encode(_ value: Int, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { child(key).scalar = .number(String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).scalar = .number(String(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try EncodedNode.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        ValueEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { ValueEncoder(node: node, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder { ValueEncoder(node: child(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [CodingKey]
    var count: Int { node.items!.count }

    private func child() -> EncodedNode {
        let child = EncodedNode()
        node.items!.append(child)
        return child
    }

    mutating func encodeNil() throws { child().scalar = .null }
    mutating func encode(_ value: Bool) throws { child().scalar = .bool(value) }
    mutating func encode(_ value: String) throws { child().scalar = .string(value) }
    mutating func encode(_ value: Double) throws { child().scalar = .number("\(value)") }
    mutating func encode(_ value: Float) throws { child().scalar = .number("\(value)") }
    mutating func encode(_ value: Int) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { child().scalar = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { child().scalar = .number(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try EncodedNode.encode(value, into: child(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(node: child(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        ValueEncoder(node: child(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { ValueEncoder(node: child(), codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.scalar = .null }
    mutating func encode(_ value: Bool) throws { node.scalar = .bool(value) }
    mutating func encode(_ value: String) throws { node.scalar = .string(value) }
    mutating func encode(_ value: Double) throws { node.scalar = .number("\(value)") }
    mutating func encode(_ value: Float) throws { node.scalar = .number("\(value)") }
    mutating func encode(_ value: Int) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { node.scalar = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { node.scalar = .number(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try EncodedNode.encode(value, into: node, codingPath: codingPath)
    }
}
