import Foundation
import MigrateCore
import MigrateGenerator
import MigrateImport
import MigratePlan
import MigrateSimulation
import MigrateSupport
import MigrateTestSupport
import MigrateWizard
import Testing

/// Facts the documentation shows are rendered from the code that holds them, each in a marked section that
/// `MIGRATE_RECORD=1 swift test` rewrites: the diagnostic codes from their enums, the plan's keys from the JSON
/// Schema, `init`'s flags and answers-file keys from its questions, the module table from the package graph
/// (`swift package describe`).
@Suite("Documentation derived from the code", .timeLimit(.minutes(20)))
struct DerivedDocsTests {
    // MARK: - Diagnostic codes

    static let codeGroups: [(reporter: String, codes: [String])] = [
        ("reading the plan (every command)", DiagnosticCode.Plan.allCases.map(\.rawValue)),
        ("`check` and the receipt reader", DiagnosticCode.Check.allCases.map(\.rawValue)),
        ("`import` and `init`", DiagnosticCode.Import.allCases.map(\.rawValue)),
        ("`simulate`", DiagnosticCode.Simulation.allCases.map(\.rawValue)),
        ("`check`, about generated code beside the plan", DiagnosticCode.Generator.allCases.map(\.rawValue)),
        ("`check`, about direct sales and offer codes", DiagnosticCode.DirectSales.allCases.map(\.rawValue)),
        ("`check`, about the platforms a plan declares", DiagnosticCode.Platforms.allCases.map(\.rawValue)),
        ("`check`, about an app's free era", DiagnosticCode.FreeEra.allCases.map(\.rawValue)),
    ]

    @Test("The traps page lists every diagnostic code, by what reports it")
    func diagnosticCodes() throws {
        var text = "| code | reported by |\n|---|---|\n"
        for (reporter, codes) in Self.codeGroups {
            for code in codes.sorted() { text += "| `\(code)` | \(reporter) |\n" }
        }
        try expectGeneratedSection(text, named: "codes", in: "Documentation/Migrate.docc/Traps.md")
    }

    // MARK: - The plan's keys

    /// One row per key of the schema, depth first, with its type, whether it is required and its description.
    static func keyRows(_ node: [String: Any], path: String, definitions: [String: Any]) -> [String] {
        let properties = node["properties"] as? [String: Any] ?? [:]
        let required = Set(node["required"] as? [String] ?? [])
        var rows: [String] = []
        for key in properties.keys.sorted() {
            guard let value = properties[key] as? [String: Any] else { continue }
            let keyPath = path + key
            let description = (value["description"] as? String ?? "").replacingOccurrences(of: "|", with: "\\|")
            rows.append("| `\(keyPath)` | \(typeName(value)) | \(required.contains(key) ? "yes" : "") | \(description) |")
            if value["type"] as? String == "object" {
                rows += keyRows(value, path: keyPath + ".", definitions: definitions)
            }
            if value["type"] as? String == "array", let items = value["items"] as? [String: Any], items["type"] as? String == "object" {
                rows += keyRows(items, path: keyPath + "[].", definitions: definitions)
            }
        }
        return rows
    }

    static func typeName(_ value: [String: Any]) -> String {
        if let reference = value["$ref"] as? String { return "`\(reference.split(separator: "/").last ?? "")` (see Types)" }
        if let constant = value["const"] { return "`\(constant)`" }
        if let cases = value["enum"] as? [Any] { return "one of " + cases.map { "`\($0)`" }.joined(separator: ", ") }
        if value["oneOf"] != nil { return "a number or a distribution" }
        switch value["type"] as? String {
        case "array": return "array of " + typeName(value["items"] as? [String: Any] ?? [:])
        case let type?: return type
        case nil: return "any"
        }
    }

    @Test("The plan keys page lists every key of the JSON Schema")
    func planKeys() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(PlanSchema.text.utf8)) as? [String: Any])
        let definitions = schema["$defs"] as? [String: Any] ?? [:]
        var text = "| key | type | required | meaning |\n|---|---|---|---|\n"
        text += Self.keyRows(schema, path: "", definitions: definitions).joined(separator: "\n") + "\n"
        text += "\n### Types\n\n| type | meaning |\n|---|---|\n"
        for name in definitions.keys.sorted() {
            let definition = definitions[name] as? [String: Any] ?? [:]
            var meaning = definition["description"] as? String ?? ""
            if let cases = definition["enum"] as? [Any] { meaning += " One of " + cases.map { "`\($0)`" }.joined(separator: ", ") + "." }
            if meaning.isEmpty { meaning = Self.typeName(definition) }
            text += "| `\(name)` | \(meaning.trimmingCharacters(in: .whitespaces)) |\n"
        }
        try expectGeneratedSection(text, named: "keys", in: "Documentation/Migrate.docc/PlanKeys.md")
    }

    // MARK: - init's answers

    @Test("The init page lists every question's flag and answers-file key")
    func initAnswers() throws {
        var text = "| flag | `--answers` key | answer |\n|---|---|---|\n"
        for kind in QuestionKind.all {
            let repeatable: Bool
            switch kind.form {
            case .single: repeatable = false
            case .list, .perItem: repeatable = true
            }
            let value = kind.valueName.hasPrefix("<") ? kind.valueName : "<\(kind.valueName)>"
            let flag = "`--\(kind.flag) \(value)`".replacingOccurrences(of: "|", with: "\\|") + (repeatable ? " (repeatable)" : "")
            text += "| \(flag) | `\(kind.key)` | \(kind.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        try expectGeneratedSection(text, named: "answers", in: "Documentation/Migrate.docc/InitCommand.md")
    }

    // MARK: - The module table

    /// `swift package describe --type json` of this package, in a scratch build folder of its own so it never
    /// waits for the build that runs the tests.
    static func packageDescription() async throws -> [String: Any] {
        let scratch = try Scratch()
        let result = try await shell(
            ["swift", "package", "--package-path", repositoryRoot.path, "--scratch-path", scratch.url.path, "describe", "--type", "json"],
            in: repositoryRoot)
        #expect(result.status == 0, "\(result.output.suffix(2_000))")
        let json = result.output.drop { $0 != "{" }
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("ARCHITECTURE.md's module table is the package graph")
    func moduleTable() async throws {
        let package = try await Self.packageDescription()
        let targets = (package["targets"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "test" }
        let dependencies = Dictionary(
            uniqueKeysWithValues: targets.map { ($0["name"] as? String ?? "", $0["target_dependencies"] as? [String] ?? []) })
        // Each target after what it depends on; among those ready at once, by name.
        var order: [String] = []
        var remaining = Set(dependencies.keys)
        while !remaining.isEmpty {
            let ready = remaining.filter { Set(dependencies[$0] ?? []).isSubset(of: Set(order)) }.sorted()
            let next = ready.first ?? remaining.sorted()[0]
            order.append(next)
            remaining.remove(next)
        }
        // The toolchain the manual names: the manifest's tools version, as the package graph reports it.
        #expect(package["tools_version"] as? String == "6.0")
        let installing = try String(contentsOf: repositoryRoot.appendingPathComponent("Documentation/Migrate.docc/Installing.md"), encoding: .utf8)
        #expect(installing.contains("declares tools version \(package["tools_version"] as? String ?? "?")"))
        let jobs = try Self.jobs(in: "ARCHITECTURE.md")
        var text = "| module | kind | depends on | job |\n|---|---|---|---|\n"
        for name in order {
            let kind = targets.first { $0["name"] as? String == name }?["type"] as? String ?? ""
            let needs = (dependencies[name] ?? []).sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
            text += "| `\(name)` | \(kind) | \(needs.isEmpty ? "—" : needs.joined(separator: ", ")) | \(jobs[name] ?? "—") |\n"
        }
        try expectGeneratedSection(text, named: "modules", in: "ARCHITECTURE.md")
    }

    /// The job column of the module table as written: prose that no manifest holds, kept when the rest of the
    /// table is rendered again.
    static func jobs(in relativePath: String) throws -> [String: String] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
        var jobs: [String: String] = [:]
        for row in text.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6 else { continue }
            jobs[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[4]
        }
        return jobs
    }
}
