import Foundation
import MigrateCore
import MigrateGenerator
import MigrateImport
import MigratePlan
import MigrateSimulation
import MigrateSupport
import MigrateTestSupport
import Testing

/// Every diagnostic code is declared once, as a case of its module's `DiagnosticCodes` enum; the codes are what
/// `--format json` and GitHub annotations print, so they must stay unique across modules and kebab-case.
@Suite("Diagnostic codes", .timeLimit(.minutes(20)))
struct DiagnosticCodeTests {
    static let declared: [DiagnosticCode] =
        DiagnosticCode.Plan.allCases.map(DiagnosticCode.init) + DiagnosticCode.Check.allCases.map(DiagnosticCode.init)
        + DiagnosticCode.Import.allCases.map(DiagnosticCode.init) + DiagnosticCode.Simulation.allCases.map(DiagnosticCode.init)
        + DiagnosticCode.Generator.allCases.map(DiagnosticCode.init) + DiagnosticCode.DirectSales.allCases.map(DiagnosticCode.init)
        + DiagnosticCode.Platforms.allCases.map(DiagnosticCode.init) + DiagnosticCode.FreeEra.allCases.map(DiagnosticCode.init)

    @Test("Codes are unique across modules and kebab-case")
    func unique() {
        #expect(Self.declared.count > 80)
        #expect(Set(Self.declared).count == Self.declared.count)
        for code in Self.declared {
            #expect(code.rawValue.range(of: "^[a-z][a-z0-9]*(-[a-z0-9]+)*$", options: .regularExpression) != nil, "\(code)")
        }
    }
}
