import Foundation
import MigratePlan
import MigrateSupport
import Testing

@testable import MigrateSimulation

/// Where an assumption comes from is a type the engine decides on; its words are made only when it is shown, and they
/// stay the words the tables and the JSON have always had.
@Suite(.timeLimit(.minutes(20))) struct AssumptionOriginTests {
    static let origins: [(origin: AssumptionOrigin, words: String, derived: Bool, measured: Bool)] = [
        (.derivedFromPaidRate(months: 16.1), "derived: paidDownloadsPerMonth × 16.1 months the paid releases were on sale", true, true),
        (.installBasePaidDownloads, "installBase: paid downloads", false, true),
        (.releasePrice(.iOS, release: "2.0 (12)"), "plan: the price of iOS 2.0 (12)", false, true),
        (.plan(.conversion, path: nil), "plan: simulation.assumptions.conversion", false, false),
        (.scenario(id: "cheap", path: nil), "scenario: cheap", false, false),
        (
            .documentedDefault(AssumptionDefaults.of(.monthlyChurn)), "default: judgement: no published figure; set it from your own data",
            false, false
        ),
        (.sweep, "--sweep", false, false),
        (.refit, "refit from the actuals", false, false),
    ]

    @Test(arguments: origins)
    func wordsAndMeaning(_ origin: AssumptionOrigin, _ words: String, _ derived: Bool, _ measured: Bool) {
        #expect(origin.description == words)
        #expect(origin.isDerived == derived)
        #expect(origin.isMeasured == measured)
    }

    /// A plan without an install base: legacyBuyers is derived from the paid downloads a month, decided by its origin
    /// and shown in the same words as before.
    @Test func derivedLegacyBuyersKeepTheirWords() throws {
        let plan = try decode(handPlan(assumptions: #"{ "paidDownloadsPerMonth": 100 }"#))
        let legacy = try #require(try PreparedScenario.prepare(plan, scenario: nil).resolved(.legacyBuyers))
        #expect(legacy.origin.isDerived)
        #expect(legacy.source == "derived: paidDownloadsPerMonth × 12.0 months the paid releases were on sale")
        #expect(legacy.derived.map { ($0 * 10).rounded() / 10 } == 1_202.5)
    }

    /// A refit says what it replaces only when the value before it was the documented default, decided by the origin.
    @Test(arguments: [
        (AssumptionOrigin.documentedDefault(AssumptionDefaults.of(.conversion)), true), (.plan(.conversion, path: nil), false),
        (.scenario(id: "plan", path: nil), false), (.refit, false),
    ])
    func refitReplacesOnlyTheDefault(_ origin: AssumptionOrigin, _ replaces: Bool) {
        let refit = AssumptionRefit(
            assumption: .conversion, before: .point(0.02), beforeOrigin: origin, after: .point(0.03), spread: "±10%, 3 months")
        #expect(refit.replacesDefault == replaces)
        #expect(refit.beforeSource == origin.description)
    }
}
