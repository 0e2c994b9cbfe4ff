import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// `codeRedemptionRate` sizes the direct-sale license holders who redeem their code; set where no edition exists, it
/// would be listed among the assumptions and used by nothing.
@Suite("check: a code redemption rate needs direct-sale editions", .timeLimit(.minutes(20)))
struct RedemptionRateCheckTests {
    static let unused = DiagnosticCode(DiagnosticCode.DirectSales.redemptionRateUnused)

    static func withRate(_ plan: MigrationPlan) throws -> MigrationPlan {
        var plan = plan
        var settings = try #require(plan.simulation)
        settings.assumptions.append(
            AssumptionValue(
                name: SimulationAssumption.codeRedemptionRate.rawValue, distribution: .uniform(low: 0.2, high: 0.8),
                origin: JSONPath.root / PlanKeys.Root.simulation / PlanKeys.Simulation.assumptions / "codeRedemptionRate"))
        plan.simulation = settings
        return plan
    }

    @Test("Without direct sales: a warning at the assumption's path, naming the fix")
    func withoutDirectSales() throws {
        let plan = try Self.withRate(try examplePlan("tilt-to-live-hd"))
        let found = PlanChecker.check(plan, now: date("2026-01-01T00:00:00Z")).diagnostics.filter { $0.code == Self.unused }
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path?.description == "simulation.assumptions.codeRedemptionRate")
        #expect(found.first?.hint?.contains("migrate import licenses") == true)
    }

    @Test("With direct-sale editions, and without the assumption, nothing is said")
    func used() throws {
        let direct = try examplePlan("Examples/direct-sales/tally-direct.json")
        #expect(!PlanChecker.check(direct, now: date("2026-01-01T00:00:00Z")).diagnostics.contains { $0.code == Self.unused })
        let flagship = try examplePlan("tilt-to-live-hd")
        #expect(!PlanChecker.check(flagship, now: date("2026-01-01T00:00:00Z")).diagnostics.contains { $0.code == Self.unused })
    }
}
