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
            [resolved.assumption.rawValue, range(resolved), resolved.source, resolved.assumption.meaning + " " + inWords(resolved)]
        }
        body += HTML.table(
            caption: "The assumptions", header: ["assumption", "range", "source", "in words"], plain: rows, layout: .stacked(below: 48))
        body += HTML.heading("Three terms")
        body += HTML.definitions(terms(result))
        return HTML.section("assumptions", "What the forecast assumes", body)
    }

    /// The range as `simulate` writes it; a value the simulation derives (legacyBuyers from the paid downloads) as it worked
    /// it out, with its range over the draws.
    static func range(_ resolved: ResolvedAssumption) -> String {
        guard let derived = resolved.derived else { return FigureText.describe(resolved.distribution) }
        return "derived, \(FigureText.number(derived.rounded())) at the middle values"
    }

    /// The range in words; a derived value says what it is worked out from, never "taken as exactly" the placeholder it
    /// replaces.
    static func inWords(_ resolved: ResolvedAssumption) -> String {
        if let derived = resolved.derived {
            return "Worked out by the simulation, not given: \(resolved.source), \(FigureText.number(derived.rounded())) with every "
                + "assumption at its middle value; it moves with the paid downloads in every simulated future."
        }
        if resolved.measured, case .point(let value) = resolved.distribution {
            return "Measured: \(FigureText.assumptionValue(value, resolved.assumption)), taken as it is (a count or a price, not a guess)."
        }
        return FigureText.inWords(resolved.distribution, resolved.assumption)
    }

    /// The terms the tables use that a reader would otherwise look up.
    static func terms(_ result: ScenarioResult) -> [(term: Markup, meaning: Markup)] {
        func median(_ assumption: SimulationAssumption) -> String {
            guard let resolved = result.scenario.assumptions.first(where: { $0.assumption == assumption }) else { return "—" }
            return FigureText.assumptionValue(resolved.distribution.median, assumption)
        }
        let halfLife = median(.burstHalfLifeMonths)
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
                    + "halved, and halved again after as many more. Here: \(halfLife) \(halfLife == "1" ? "month" : "months") at its middle value."
            ),
            (
                "triangular a / b / c",
                "A range with a most likely value: never below a nor above c, most likely b, and less likely the further from b."
            ),
        ]
    }
}
