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
    /// The context of an example as JSON with sorted keys: the golden's text.
    static func contextJSON(_ name: String) throws -> String {
        let context = GenerationContext(catalog: PlanCatalog(try examplePlan(name)), options: GenerationOptions())
        return JSONWriter().string(from: json(context.value)) + "\n"
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
