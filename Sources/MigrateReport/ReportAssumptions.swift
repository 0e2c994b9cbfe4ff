import MigratePlan
import MigrateSimulation

/// Each assumption of the forecast: its range as `simulate` writes it, where it comes from, and in words
/// what it means and what its range says.
enum ReportAssumptions {
    static func section(_ input: ReportInput, _ result: ScenarioResult) -> String {
        var body = HTML.paragraph(
            "The forecast rests on these assumptions. Where the plan gives no value, migrate uses a default range from the public sources "
                + "named beside it. Each range is drawn many times to make the simulated futures; the most influential come first in "
                + "'What would change the answer'.")
        let rows = result.scenario.assumptions.map { resolved -> [String] in
            // A value the simulation derives (legacyBuyers from the paid downloads) is shown as the simulation worked it out.
            let range = resolved.derived.map { FigureText.number($0.rounded()) } ?? FigureText.describe(resolved.distribution)
            return [
                resolved.assumption.rawValue, range, resolved.source,
                resolved.assumption.meaning + " " + FigureText.inWords(resolved.distribution, resolved.assumption),
            ]
        }
        body += HTML.table(caption: "The assumptions", header: ["assumption", "range", "source", "in words"], rows: rows)
        body += "<h3>Three terms</h3>\n"
        body += HTML.definitions(terms(result))
        return HTML.section("assumptions", "What the forecast assumes", body)
    }

    /// The terms the tables use that a reader would otherwise look up.
    static func terms(_ result: ScenarioResult) -> [(term: String, meaning: String)] {
        func median(_ assumption: SimulationAssumption) -> String {
            guard let resolved = result.scenario.assumptions.first(where: { $0.assumption == assumption }) else { return "—" }
            return FigureText.assumptionValue(resolved.distribution.median, assumption)
        }
        return [
            (
                "lastingMultiple",
                "How many downloads the free app keeps getting once the launch excitement has passed, as a multiple of the paid app's "
                    + "downloads. At its middle value here, \(median(.lastingMultiple)), the free app gets \(median(.lastingMultiple)) "
                    + "times as many downloads a month as the paid app would."
            ),
            (
                "half-life (burstHalfLifeMonths)",
                "How fast the launch burst fades: after this many months, the extra downloads of the launch over the lasting level are "
                    + "halved, and halved again after as many more. Here: \(median(.burstHalfLifeMonths)) \(median(.burstHalfLifeMonths) == "1" ? "month" : "months") at its middle value."
            ),
            (
                "triangular a / b / c",
                "A range with a most likely value: never below a nor above c, most likely b, and less likely the further from b."
            ),
        ]
    }
}
