import Foundation
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@testable import MigrateCLI

let examplePlanText = try! String(contentsOf: repositoryRoot.appendingPathComponent("Examples/server-pal/migration.json"), encoding: .utf8)

@Suite("migrate check", .timeLimit(.minutes(20)))
struct CheckCommandTests {
    @Test("Every example checks with exit 0", arguments: Examples.names)
    func examples(name: String) {
        let run = Run("check", "Examples/\(name)/migration.json", "--now", "2026-01-01T00:00:00Z")
        #expect(run.status == .success, "\(run.output)")
        #expect(run.output.contains("Cutoff rules"))
        #expect(!run.output.contains(repositoryRoot.path), "no absolute paths")
    }

    @Test("A folder is read as its migration.json")
    func folder() {
        let run = Run("check", "Examples/tilt-to-live-hd")
        #expect(run.status == .success)
        #expect(run.output.contains("✓ No problems found."))
    }

    @Test("Exit codes: 66 missing, 65 not JSON, 1 errors, 0 warnings, 1 warnings with --strict")
    func exitCodes() throws {
        let scratch = try Scratch()
        #expect(Run("check", "missing.json", directory: scratch.url).status == .noInput)
        #expect(Run("check", "missing.json", directory: scratch.url).error.contains("Error: missing.json: no such file."))

        try scratch.write("syntax.json", "{\n  \"app\": {\n    \"name\": \"X\",\n  }\n}\n")
        let syntax = Run("check", "syntax.json", directory: scratch.url)
        #expect(syntax.status == .dataError)
        #expect(syntax.output.contains("syntax.json:4:3: error: trailing comma before '}'"))
        #expect(syntax.output.contains(" 4 |   }\n   |   ^"))

        try scratch.write(
            "typo.json", examplePlanText.replacingOccurrences(of: "\"many-servers\", \"live-graphs\"]", with: "\"many-server\", \"live-graphs\"]"))
        let typo = Run("check", "typo.json", directory: scratch.url)
        #expect(typo.status == .checkFailed)
        #expect(typo.output.contains("error: products[0].grants[0]: unknown feature 'many-server'"))
        #expect(typo.output.contains("fix: Did you mean 'many-servers'?"))

        try scratch.write("sandbox.json", examplePlanText.replacingOccurrences(of: "\"build\": \"12\"", with: "\"build\": \"1\""))
        #expect(Run("check", "sandbox.json", directory: scratch.url).status == .success)
        let strict = Run("check", "sandbox.json", "--strict", directory: scratch.url)
        #expect(strict.status == .checkFailed)
        #expect(strict.output.contains("warning: releases[0].build:"))
        #expect(strict.output.contains("(--strict)"))
    }

    /// The example with a misspelled model, a malformed price and an unknown key: three errors.
    static var threeErrors: String {
        examplePlanText
            .replacingOccurrences(of: "\"model\": \"free\", \"includes\"", with: "\"model\": \"fre\", \"includes\"")
            .replacingOccurrences(of: "\"price\": \"1.99\", \"grants\"", with: "\"price\": \"1,99\", \"grant\"")
    }

    @Test("All problems at once, and the JSON report carries them with places")
    func jsonReport() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.threeErrors)
        let run = Run("check", "plan.json", "--format", "json", directory: scratch.url)
        #expect(run.status == .checkFailed)
        let report = try JSONParser.parse(run.output)
        #expect(report["errors"]?.value == .number("3"))
        let codes = report["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
        // The unknown 'grant' also leaves the product granting nothing, which is worth a warning of its own.
        #expect(codes == ["invalid-value", "product-grants-nothing", "invalid-price", "unknown-key"])
        let first = try #require(report["diagnostics"]?.arrayValue?.first)
        #expect(first["path"]?.stringValue == "releases[3].model")
        #expect(first["line"] != nil && first["column"] != nil)
        #expect(first["hint"]?.stringValue == "Did you mean 'free'?")
    }

    @Test("--format github prints one GitHub Actions annotation per problem, at its line and column")
    func githubAnnotations() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.threeErrors)
        let run = Run("check", "plan.json", "--format", "github", directory: scratch.url)
        #expect(run.status == .checkFailed)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("::error file=plan.json,line=") }.count == 3, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("::warning file=plan.json,line=") }.count == 1, "\(lines)")
        let model = try #require(lines.first { $0.contains("title=invalid-value") })
        #expect(model.hasSuffix("(at releases[3].model)%0ADid you mean 'free'?"), "\(model)")
        #expect(lines.last == "✗ 3 errors, 1 warning.")
    }

    @Test("GitHub annotations escape what would end or split them")
    func githubEscaping() {
        #expect(GitHubAnnotations.escapeData("50% off\nnext") == "50%25 off%0Anext")
        #expect(GitHubAnnotations.escapeProperty("a:b,c") == "a%3Ab%2Cc")
    }

    @Test("A cutoff in the future is a warning judged against --now")
    func futureCutoff() {
        let run = Run("check", "Examples/server-pal", "--now", "2017-09-01T00:00:00Z")
        #expect(run.status == .success)
        #expect(
            run.output.contains("warning: releases[3].released: the first free iOS release, 2.0 (40), goes live 2017-10-01T16:00:00Z, in the future"))
    }

    @Test("Output is byte-identical across runs")
    func deterministic() {
        let first = Run("check", "Examples/inkwell-universal", "--format", "json", "--now", "2026-01-01T00:00:00Z").output
        let second = Run("check", "Examples/inkwell-universal", "--format", "json", "--now", "2026-01-01T00:00:00Z").output
        #expect(first == second)
        #expect(!first.contains("\r"))
    }

    @Test("schema prints a JSON Schema that parses")
    func schema() throws {
        let run = Run("schema")
        #expect(run.status == .success)
        let schema = try JSONParser.parse(run.output)
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["properties"]?["releases"] != nil)
    }
}

@Suite("Shipped schema", .timeLimit(.minutes(20)))
struct ShippedSchemaTests {
    @Test("Examples/migration.schema.json is what `migrate schema` prints")
    func inSync() throws {
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/migration.schema.json"), encoding: .utf8)
        #expect(shipped == Run("schema").output, "re-create it with: swift run migrate schema > Examples/migration.schema.json")
    }
}
