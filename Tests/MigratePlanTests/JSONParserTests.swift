import MigratePlan
import MigrateSupport
import Testing

@Suite("JSON parser", .timeLimit(.minutes(20)))
struct JSONParserTests {
    @Test("Parses values and keeps number literals exactly")
    func values() throws {
        let node = try JSONParser.parse(#"{"a": [1, 2.50, -3e2, true, false, null, "x\u00e9\n"], "b": {}}"#)
        guard case .array(let items)? = node["a"]?.value else {
            Issue.record("expected an array")
            return
        }
        #expect(items.map(\.value) == [.number("1"), .number("2.50"), .number("-3e2"), .bool(true), .bool(false), .null, .string("xé\n")])
        #expect(node["b"]?.value == .object([]))
    }

    @Test("Records line and column of every value, counting characters")
    func positions() throws {
        let text = "{\n  \"é\": \"ü\",\n  \"n\": [10,\n    20]\n}"
        let node = try JSONParser.parse(text)
        #expect(node.location == SourceLocation(line: 1, column: 1))
        #expect(node["é"]?.location == SourceLocation(line: 2, column: 8))
        #expect(node["n"]?.arrayValue?[1].location == SourceLocation(line: 4, column: 5))
        #expect(JSONPath.root.appending("n").appending(1).location(in: node) == SourceLocation(line: 4, column: 5))
    }

    @Test("Decodes surrogate pairs")
    func surrogates() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#).stringValue == "😀")
    }

    @Test(
        "Syntax errors name the place and what is wrong",
        arguments: [
            ("", 1, 1, "the file is empty"),
            ("{\"a\": 1,}", 1, 9, "trailing comma"),
            ("[1, 2,]", 1, 7, "trailing comma"),
            ("{\"a\" 1}", 1, 6, "expected ':'"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
            ("{'a': 1}", 1, 2, "expected a member name in double quotes"),
            ("\"abc", 1, 5, "unterminated string"),
            ("{\n  \"a\": tru\n}", 2, 8, "expected 'true'"),
            ("[01]", 1, 2, "leading zeros"),
            ("{\"a\": 1} x", 1, 10, "after the end of the JSON value"),
            ("{\"a\": \"\\q\"}", 1, 9, "invalid escape"),
            ("{\"a\":", 1, 6, "unexpected end of file"),
            ("[\"\\ud800\"]", 1, 9, "unpaired UTF-16 surrogate"),
        ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.location == SourceLocation(line: line, column: column) && error.message.contains(message)
        }
    }

    @Test("Deep nesting is an error, not a stack overflow")
    func depthLimit() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("The writer is deterministic and round-trips")
    func writerRoundTrip() throws {
        let text = #"{"b": [1, {"z": "q\"\\", "a": null}], "a": true, "c": []}"#
        let node = try JSONParser.parse(text)
        let written = JSONWriter().string(from: node)
        #expect(try JSONParser.parse(written).value.withoutLocations == node.value.withoutLocations)
        let sorted = JSONWriter.xcode.string(from: node)
        #expect(sorted.hasPrefix("{\n  \"a\" : true,\n  \"b\" : ["))
        #expect(sorted.hasSuffix("}\n"))
    }

    @Test("Paths read the way people write them")
    func pathDescription() {
        #expect((JSONPath.root / "products" / 2 / "grants" / 0).description == "products[2].grants[0]")
        #expect((JSONPath.root / "odd key").description == #"["odd key"]"#)
        #expect(JSONPath.root.description == "(top level)")
    }
}

extension JSONValue {
    /// The same value with every location zeroed, for comparing parsed and built values.
    var withoutLocations: JSONValue {
        switch self {
        case .array(let items): .array(items.map { JSONNode($0.value.withoutLocations) })
        case .object(let members): .object(members.map { JSONMember(key: $0.key, value: JSONNode($0.value.value.withoutLocations)) })
        default: self
        }
    }
}
