import Foundation
import MigrateCore
import MigrateGenerator
import MigrateImport
import MigratePlan
import MigrateSimulation
import MigrateSupport
import MigrateTestSupport
import Testing

/// Every diagnostic code is declared once, as a `DiagnosticCode` constant beside the module that reports it; the
/// codes are what `--format json` and GitHub annotations print, so they must stay unique and kebab-case.
@Suite("Diagnostic codes")
struct DiagnosticCodeTests {
    static let declared: [DiagnosticCode] =
        DiagnosticCode.plan + DiagnosticCode.engine + DiagnosticCode.importer + DiagnosticCode.simulator + DiagnosticCode.generator

    @Test("Codes are unique and kebab-case")
    func unique() {
        #expect(Set(Self.declared).count == Self.declared.count)
        for code in Self.declared {
            #expect(code.rawValue.range(of: "^[a-z][a-z0-9]*(-[a-z0-9]+)*$", options: .regularExpression) != nil, "\(code)")
        }
    }

    /// The lists the uniqueness test reads hold every constant declared in the files that declare codes, and the
    /// sources declare codes nowhere else.
    @Test("Every declared code is listed, and codes are declared only in the codes files")
    func listsAreComplete() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [String] = []
        var elsewhere: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            let declarations = text.matches(of: /DiagnosticCode\("([a-z0-9-]+)"\)/).map { String($0.output.1) }
            if file.lastPathComponent.hasSuffix("DiagnosticCodes.swift") {
                found += declarations
            } else if !declarations.isEmpty {
                elsewhere.append(file.lastPathComponent)
            }
        }
        #expect(found.sorted() == Self.declared.map(\.rawValue).sorted())
        #expect(elsewhere.isEmpty)
    }
}
