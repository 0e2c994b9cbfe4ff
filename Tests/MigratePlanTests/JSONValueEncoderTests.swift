import MigrateSupport
import Testing

/// `Encodable` models to `JSONValue`: the writer gets exactly what a hand-built value would give it.
@Suite("JSON value encoder", .timeLimit(.minutes(20)))
struct JSONValueEncoderTests {
    struct Inner: Encodable {
        var p10: JSONNumber
        var month: JSONNullable<Int>
    }

    struct Model: Encodable {
        var zebra: String
        var apple: Int
        var omitted: String?
        var present: String?
        var explicitNull: JSONNullable<JSONNumber>
        var amount: JSONNumber
        var seed: UInt64
        var flag: Bool
        var items: [Inner]
        var raw: JSONValue
        var names: [String]
    }

    struct Dynamic: Encodable {
        var settings: [(String, Int)]

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            for (name, value) in settings { try container.encode(value, forKey: JSONKey(name)) }
        }
    }

    @Test("Members in declaration order, optionals left out, nullable written as null, literals kept")
    func model() throws {
        let model = Model(
            zebra: "z", apple: -3, omitted: nil, present: "yes", explicitNull: JSONNullable(nil), amount: JSONNumber(1.005, fractionDigits: 2),
            seed: .max, flag: true,
            items: [
                Inner(p10: JSONNumber(literal: "1e3"), month: JSONNullable(4)), Inner(p10: JSONNumber(literal: "0.50"), month: JSONNullable(nil)),
            ],
            raw: .object(["type": .string("offerCode")]), names: [])
        let expected: JSONValue = .members([
            ("zebra", .string("z")), ("apple", .integer(-3)), ("present", .string("yes")), ("explicitNull", .null),
            ("amount", .number(String(format: "%.2f", 1.005))), ("seed", .number("18446744073709551615")), ("flag", .bool(true)),
            (
                "items",
                .array([
                    .members([("p10", .number("1e3")), ("month", .integer(4))]), .members([("p10", .number("0.50")), ("month", .null)]),
                ])
            ),
            ("raw", .object(["type": .string("offerCode")])), ("names", .array([JSONNode]())),
        ])
        let encoded = try JSONValueEncoder().encode(model)
        #expect(encoded == expected)
        #expect(JSONWriter().string(from: encoded) == JSONWriter().string(from: expected))
    }

    @Test("Keys known only when encoding keep their order")
    func dynamicKeys() throws {
        let encoded = try JSONValueEncoder().encode(Dynamic(settings: [("b", 1), ("a", 2)]))
        #expect(encoded == .members([("b", .integer(1)), ("a", .integer(2))]))
    }
}
