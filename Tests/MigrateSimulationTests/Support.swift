import Foundation
import MigratePlan
import MigrateSimulation
import MigrateTestSupport
import Testing

/// A small plan whose revenue can be worked out on paper: 1.0 sold at 2.99 with 'pro'; 2.0 is free
/// with nothing; 'pro' sells at 4.99 and 'extra' at 1.99. Unless `neutral` is false, no tax is in the price and
/// every offer sells as at the paid price (`taxInPrice` and `priceElasticity` 0) where the assumptions don't say.
func handPlan(
    assumptions: String, horizon: Int = 3, commission: String = "standard", products: String? = nil, scenarios: String = "[]", neutral: Bool = true
) -> String {
    var assumptions = assumptions
    if neutral, let brace = assumptions.firstIndex(of: "{") {
        for key in ["taxInPrice", "priceElasticity"] where !assumptions.contains("\"\(key)\"") {
            let rest = assumptions[assumptions.index(after: brace)...].trimmingCharacters(in: .whitespacesAndNewlines)
            assumptions.insert(contentsOf: " \"\(key)\": 0" + (rest.hasPrefix("}") ? "" : ","), at: assumptions.index(after: brace))
        }
    }
    let defaultProducts = """
        [ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] },
          { "id": "com.example.demo.extra", "type": "nonConsumable", "price": "1.99", "grants": ["extra"] } ]
        """
    return """
        { "app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"] },
          "features": [ { "id": "pro" }, { "id": "extra" } ],
          "releases": [
            { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["pro"] },
            { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free", "includes": [] } ],
          "products": \(products ?? defaultProducts),
          "simulation": { "horizonMonths": \(horizon), "commission": "\(commission)", "assumptions": \(assumptions), "scenarios": \(scenarios) } }
        """
}

func decode(_ text: String) throws -> MigrationPlan {
    let document = PlanDecoder.decode(text)
    #expect(!document.hasErrors, "\(document.diagnostics.map { "\($0.path?.description ?? ""): \($0.message)" })")
    return try #require(document.plan)
}

func deterministic(_ text: String, scenario: String? = nil) throws -> RevenueSeries {
    let plan = try decode(text)
    let prepared = try PreparedScenario.prepare(plan, scenario: plan.simulation?.scenarios.first { $0.id == scenario })
    return RevenueSeries.evaluate(prepared.model, values: prepared.medians)
}

func flagshipPlan() throws -> MigrationPlan {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/migration.json"), encoding: .utf8)
    return try decode(text)
}

func close(_ lhs: Double, _ rhs: Double, tolerance: Double = 1e-9) -> Bool {
    abs(lhs - rhs) <= tolerance * max(1, abs(rhs))
}
