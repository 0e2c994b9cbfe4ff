import MigrateCore
import MigratePlan
import MigrateSimulation

/// One self-contained HTML page for the person who decides whether the app goes free, or who holds it to account
/// after it went: the verdict in a sentence with every warning that touches people who paid beside it, the cohorts
/// and the money at stake, the forecast as a chart and a table, the assumptions in words, what happened after launch,
/// every warning the other commands give and the plan's rules to sign off. Inline CSS and SVG, no script, nothing
/// fetched; the same input gives the same bytes.
public enum HTMLReport {
    /// The sections, in order: their ids are the page's anchors, and the browser tests look for each.
    public static let sectionIDs = ["verdict", "cohorts", "forecast", "assumptions", "after-launch", "warnings", "rules"]

    /// Every figure is written for `input.figures` made a page's style (`FigureStyle.forPage`): the whole page within it.
    public static func render(_ input: ReportInput) -> String {
        var style = input.figures.forPage
        if style.currency == nil { style.currency = FigureStyle.unnamedCurrency }
        return FigureText.$style.withValue(style) { page(input) }
    }

    /// The page's question: "should it go free?" before the switch, what it has done since after it.
    static func question(_ input: ReportInput) -> Markup {
        if let launch = input.launch, launch.launched { return "free since \(FigureText.date(launch.date))" }
        return "should it go free?"
    }

    static func page(_ input: ReportInput) -> String {
        let app = input.plan.app.name
        let warnings = ReportWarnings.all(input)
        var body = "<header>\n<p class=\"kicker\">migrate report</p>\n"
        body += "<h1>\(Markup("\(name: app): \(question(input))").html)</h1>\n"
        body += HTML.paragraph("From the plan \(name: input.planName)\(scenarioNote(input)).", class: "sub")
        body += contents(input)
        body += "</header>\n<main>\n"
        if let simulation = input.simulation, let result = simulation.scenarios.first {
            body += ReportVerdict.section(input, result, months: simulation.months, warnings: warnings)
            body += ReportCohorts.section(input, result, months: simulation.months)
            body += ReportForecast.section(input, result, months: simulation.months)
            body += ReportAssumptions.section(input, result)
        } else {
            body += ReportWithoutForecast.sections(input, warnings: warnings)
        }
        body += ReportActuals.section(input)
        body += ReportPlanSections.warnings(input, warnings)
        body += ReportPlanSections.rules(input)
        body += "</main>\n<footer>\n"
        body += HTML.paragraph(
            "Made by migrate from the files named above. Amounts are proceeds after Apple's commission and refunds, "
                + "\(currencyNote(input.figures)), unless a table says otherwise; counts and amounts are rounded as 'migrate simulate' "
                + "rounds them.")
        body += "</footer>\n"
        // The window's title is text only: the name's hazards are shown (never obeyed), and it is not isolated.
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(app)): \(question(input).html) — migrate report</title>
            <style>
            \(ReportStyle.css)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// "in US dollars", or the sign that stands for the plan's currency, and the locale the reader asked for.
    static func currencyNote(_ style: FigureStyle) -> Markup {
        let locale: Markup = style.locale.tag == FigureStyle.plain.locale.tag ? "" : ", written for \(style.locale.tag)"
        guard let currency = style.currency else {
            return "in the plan's currency, marked \(FigureStyle.unnamedCurrency.symbol) (name it with --currency)\(locale)"
        }
        return "in \(currency.code) (\(currency.symbol); the plan's prices taken as \(currency.code))\(locale)"
    }

    static func scenarioNote(_ input: ReportInput) -> Markup {
        guard let first = input.simulation?.scenarios.first, first.scenario.id != PreparedScenario.baseID else { return ", as written" }
        return ", scenario \(name: first.scenario.id)"
    }

    static func contents(_ input: ReportInput) -> String {
        let titles: [Markup] = [
            ReportVerdict.title(input), "Who is affected", "Month by month", "What the forecast assumes", "After launch",
            "Warnings and launch-day traps", "The rules to sign off",
        ]
        var out = "<nav aria-label=\"Contents\"><ol>\n"
        for (id, title) in zip(sectionIDs, titles) { out += "<li><a href=\"#\(id)\">\(title.html)</a></li>\n" }
        return out + "</ol></nav>\n"
    }
}
