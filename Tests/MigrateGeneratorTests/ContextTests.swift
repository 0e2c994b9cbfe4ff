import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// SwiftGen's context goldens: what the templates see, recorded beside what they make, so a change to the
/// context shows in review before it shows in the output; and Templates/CONTEXT.md, the contract for custom
/// templates, checked against the context itself.
@Suite("Template context", .timeLimit(.minutes(20)))
struct ContextTests {
    /// The context of an example as JSON with sorted keys: the golden's text. The matrix rows (`tests`)
    /// are recorded as a sample: every row is rendered in full by the TEST_MATRIX.csv, TEST_MATRIX.md and
    /// FreemiumTests.swift goldens, so a fourth full copy here would add size and no check. The sample
    /// is every row that shows some key with a kind of value no earlier kept row showed.
    static func contextJSON(_ name: String) throws -> String {
        let context = GenerationContext(catalog: PlanCatalog(try examplePlan(name)), options: GenerationOptions())
        guard case .object(var members) = context.value, case .list(let rows) = members["tests"] else {
            return JSONWriter().string(from: json(context.value)) + "\n"
        }
        let sample = sampledRows(rows)
        let left = rows.count - sample.count
        members["tests"] = .list(sample + (left > 0 ? [.string("… \(left) more of \(rows.count) rows, each in TEST_MATRIX.csv")] : []))
        return JSONWriter().string(from: json(.object(members))) + "\n"
    }

    /// The rows, in order, that each show some key path with a kind of value no earlier kept row showed.
    static func sampledRows(_ rows: [TemplateValue]) -> [TemplateValue] {
        var seen: Set<String> = []
        return rows.filter { row in
            let shapes = valueShapes(row, at: "")
            defer { seen.formUnion(shapes) }
            return !shapes.isSubset(of: seen)
        }
    }

    /// Each key path of `value` with the kind of value found there: true or false, an empty or non-empty
    /// string or list, null.
    static func valueShapes(_ value: TemplateValue, at path: String) -> Set<String> {
        switch value {
        case .string(let text): [path + (text.isEmpty ? ": empty text" : ": text")]
        case .bool(let flag): [path + ": \(flag)"]
        case .null: [path + ": null"]
        case .list(let items):
            items.reduce(into: [path + (items.isEmpty ? ": empty list" : ": list")]) { $0.formUnion(valueShapes($1, at: path + "[]")) }
        case .object(let members):
            members.reduce(into: Set<String>()) { $0.formUnion(valueShapes($1.value, at: path + "." + $1.key)) }
        }
    }

    static func json(_ value: TemplateValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .list(let items): .array(items.map(json))
        case .object(let members): .members(members.keys.sorted().map { key -> (String, JSONValue?) in (key, json(members[key]!)) })
        }
    }

    /// Every key name used anywhere in a context, at any depth.
    static func keyNames(_ value: TemplateValue) -> Set<String> {
        switch value {
        case .string, .bool, .null: []
        case .list(let items): items.reduce(into: Set<String>()) { $0.formUnion(keyNames($1)) }
        case .object(let members):
            members.reduce(into: Set(members.keys)) { $0.formUnion(keyNames($1.value)) }
        }
    }

    static var contextDocument: String {
        get throws { try String(contentsOf: repositoryRoot.appendingPathComponent("Templates/CONTEXT.md"), encoding: .utf8) }
    }

    /// The names in backticks in `text`.
    static func codeSpans(_ text: Substring) -> Set<String> {
        Set(text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    @Test("Each example's context matches its golden (MIGRATE_RECORD=1 re-records)", arguments: exampleNames)
    func golden(name: String) throws {
        try expectMatchesGolden(try Self.contextJSON(name), at: "Tests/Goldens/\(name)/context.json")
    }

    @Test(
        "The recorded sample keeps each row that shows a new kind of value, and only those",
        arguments: [
            ([["a": .bool(true)], ["a": .bool(true)], ["a": .bool(false)]], [0, 2]),
            ([["a": .string("")], ["a": .string("x")], ["a": .string("y")]], [0, 1]),
            ([["a": .list([])], ["a": .list([["b": .null]])], ["a": .list([["b": .null]])]], [0, 1]),
            ([["a": .bool(true)], ["a": .bool(true), "c": .bool(true)]], [0, 1]),
        ] as [([TemplateValue], [Int])])
    func sampleKeepsEveryShape(rows: [TemplateValue], kept: [Int]) {
        #expect(Self.sampledRows(rows) == kept.map { rows[$0] })
    }

    @Test("CONTEXT.md names every key any example's context has")
    func everyKeyDocumented() throws {
        let documented = Self.codeSpans(Substring(try Self.contextDocument))
        var undocumented: [String: String] = [:]
        for name in exampleNames {
            let context = GenerationContext(catalog: PlanCatalog(try examplePlan(name)), options: GenerationOptions())
            for key in Self.keyNames(context.value) where !documented.contains(key) { undocumented[key] = name }
        }
        #expect(undocumented.isEmpty, "not in Templates/CONTEXT.md: \(undocumented.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" })")
    }

    @Test("Every key CONTEXT.md's top-level table names is in the context, and every top-level key is in the table")
    func topLevelTableIsTheContext() throws {
        let document = try Self.contextDocument
        let section = try #require(document.components(separatedBy: "## Top level").dropFirst().first?.components(separatedBy: "\n## ").first)
        // The first cell of each row of the table: one key or several, each in backticks.
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let tableKeys = rows.reduce(into: Set<String>()) { keys, row in
            keys.formUnion(Self.codeSpans(row.dropFirst().prefix { $0 != "|" }))
        }
        for name in exampleNames {
            let context = GenerationContext(catalog: PlanCatalog(try examplePlan(name)), options: GenerationOptions())
            guard case .object(let members) = context.value else {
                Issue.record("the context is not an object")
                return
            }
            let keys = Set(members.keys)
            #expect(tableKeys.subtracting(keys).isEmpty, "\(name): documented but absent: \(tableKeys.subtracting(keys).sorted())")
            #expect(keys.subtracting(tableKeys).isEmpty, "\(name): present but not in the table: \(keys.subtracting(tableKeys).sorted())")
        }
    }
}
