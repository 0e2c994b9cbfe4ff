import MigratePlan
import MigrateSimulation
import Testing

@Suite("Simulation section: decoding and errors", .timeLimit(.minutes(20)))
struct AssumptionDecodingTests {
    static func errors(_ assumptions: String, scenarios: String = "[]") -> [String] {
        PlanDecoder.decode(handPlan(assumptions: assumptions, scenarios: scenarios)).diagnostics.filter { $0.severity == .error }
            .map { "\($0.path?.description ?? ""): \($0.message)\($0.hint.map { " [\($0)]" } ?? "")" }
    }

    @Test(
        "Bad assumptions name their path, all at once",
        arguments: [
            (
                #"{ "conversion": 2 }"#,
                "simulation.assumptions.conversion: 'conversion' is a probability and must be from 0 to 1, found 2 [Write a share from 0 to 1: 2% is 0.02.]"
            ),
            (
                #"{ "monthlyChurn": -0.1 }"#,
                "simulation.assumptions.monthlyChurn: 'monthlyChurn' is a probability and must be from 0 to 1, found -0.1"
            ),
            (
                #"{ "paidDownloadsPerMonth": -5 }"#,
                "simulation.assumptions.paidDownloadsPerMonth: 'paidDownloadsPerMonth' must not be negative, found -5"
            ),
            (#"{ "burstHalfLifeMonths": 0 }"#, "simulation.assumptions.burstHalfLifeMonths: 'burstHalfLifeMonths' must be above zero, found 0"),
            (
                #"{ "refundRate": { "distribution": "uniform", "low": 0.01, "high": 1.5 } }"#,
                "simulation.assumptions.refundRate.high: 'refundRate' is a probability"
            ),
            (#"{ "convresion": 0.02 }"#, "simulation.assumptions.convresion: unknown key 'convresion' [Did you mean 'conversion'?]"),
            (
                #"{ "conversion": { "distribution": "normal", "low": 0.01, "high": 0.05 } }"#,
                "simulation.assumptions.conversion.distribution: 'normal' is not a valid value"
            ),
            (
                #"{ "conversion": { "distribution": "triangular", "low": 0.01, "high": 0.05 } }"#,
                "simulation.assumptions.conversion.mode: missing 'mode'"
            ),
            (
                #"{ "conversion": { "distribution": "uniform", "low": 0.05, "high": 0.01 } }"#,
                "simulation.assumptions.conversion.low: 'low' (0.05) must not be above 'high' (0.01)"
            ),
            (
                #"{ "conversion": { "distribution": "point", "value": 0.02, "low": 0 } }"#,
                "simulation.assumptions.conversion.low: 'low' does not apply to a point distribution"
            ),
            (
                #"{ "conversion": "2%" }"#,
                "simulation.assumptions.conversion: an assumption must be a number or a distribution object, found a string"
            ),
            (
                #"{ "lastingMultiple": { "distribution": "logNormal", "low": 0, "high": 20 } }"#,
                "simulation.assumptions.lastingMultiple.low: a logNormal distribution needs 0 < low <= high"
            ),
        ])
    func badAssumption(assumptions: String, expected: String) {
        let found = Self.errors(assumptions)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test("Scenario problems: paths inside the scenario, unknown products, duplicate ids")
    func scenarioErrors() {
        let scenarios = """
            [ { "id": "a", "assumptions": { "refundRate": 7 }, "prices": [ { "product": "com.example.demo.pr", "price": "9.99" } ] },
              { "id": "a" } ]
            """
        let found = Self.errors("{}", scenarios: scenarios)
        #expect(found.contains { $0.hasPrefix("simulation.scenarios[0].assumptions.refundRate: 'refundRate' is a probability") }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix(
                    "simulation.scenarios[0].prices[0].product: unknown product 'com.example.demo.pr' [Did you mean 'com.example.demo.pro'?]")
            }, "\(found)")
        #expect(found.contains { $0.hasPrefix("simulation.scenarios[1].id: scenario 'a' is defined twice") }, "\(found)")
    }

    /// A scenario's tiers are checked like the plan's: the same references, the same message.
    @Test("A scenario's tiers name only declared features and products")
    func scenarioTierReferences() {
        let scenarios = """
            [ { "id": "s", "tiers": [ { "id": "t", "grants": ["pr"], "discounts": [ { "product": "com.example.demo.pr", "price": "0.99",
                "legacyProduct": "com.example.demo.gone" } ] } ] } ]
            """
        let found = Self.errors("{}", scenarios: scenarios)
        for expected in [
            "simulation.scenarios[0].tiers[0].grants[0]: unknown feature 'pr' [Did you mean 'pro'?]",
            "simulation.scenarios[0].tiers[0].discounts[0].product: unknown product 'com.example.demo.pr' [Did you mean 'com.example.demo.pro'?]",
            "simulation.scenarios[0].tiers[0].discounts[0].legacyProduct: unknown product 'com.example.demo.gone'",
        ] {
            #expect(found.contains { $0.hasPrefix(expected) }, "\(expected) not in \(found)")
        }
    }

    @Test("Every form of assumption round-trips through the encoder")
    func roundTrip() throws {
        let assumptions = """
            { "paidDownloadsPerMonth": 900, "launchMultiple": { "distribution": "logNormal", "low": 15, "high": 80 },
              "lastingMultiple": { "distribution": "triangular", "low": 5, "mode": 10, "high": 20 },
              "conversion": { "distribution": "uniform", "low": 0.01, "high": 0.05 }, "refundRate": { "distribution": "point", "value": 0.03 } }
            """
        let scenarios =
            #"[ { "id": "s", "name": "S", "commission": "smallBusiness", "assumptions": { "conversion": 0.03 }, "tiers": [ { "id": "t", "grants": ["pro"] } ] } ]"#
        let plan = try decode(handPlan(assumptions: assumptions, scenarios: scenarios))
        let again = try decode(PlanEncoder.encode(plan))
        #expect(again.simulation?.assumptions.map(\.distribution) == plan.simulation?.assumptions.map(\.distribution))
        #expect(again.simulation?.scenarios.first?.tiers?.first?.grants == ["pro"])
        #expect(again.simulation?.scenarios.first?.commission == .smallBusiness)
        #expect(PlanEncoder.encode(again) == PlanEncoder.encode(plan))
    }
}
