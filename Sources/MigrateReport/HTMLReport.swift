import MigrateCore
import MigratePlan
import MigrateSimulation

/// One self-contained HTML page for the person who decides whether the app goes free: the verdict in a
/// sentence, the cohorts and the money at stake, the forecast as a chart and a table, the assumptions in
/// words, what happened after launch, the launch-day traps and the plan's rules to sign off. Inline CSS and
/// SVG, no script, nothing fetched; the same input gives the same bytes.
public enum HTMLReport {
    /// The sections, in order: their ids are the page's anchors, and the browser tests look for each.
    public static let sectionIDs = ["verdict", "cohorts", "forecast", "assumptions", "after-launch", "traps", "rules"]

    /// Amounts and counts are written for `input.figures`: the whole page within it, so every figure follows it.
    public static func render(_ input: ReportInput) -> String {
        FigureText.$style.withValue(input.figures) { page(input) }
    }

    static func page(_ input: ReportInput) -> String {
        let app = input.plan.app.name
        var body = "<header>\n<p class=\"kicker\">migrate report</p>\n"
        body += "<h1>\(HTML.escape(app)): should it go free?</h1>\n"
        body += HTML.paragraph("From the plan \(input.planName)" + scenarioNote(input) + ".", class: "sub")
        body += contents()
        body += "</header>\n<main>\n"
        if let simulation = input.simulation, let result = simulation.scenarios.first {
            body += ReportVerdict.section(input, result, months: simulation.months)
            body += ReportCohorts.section(input, result, months: simulation.months)
            body += ReportForecast.section(input, result, months: simulation.months)
            body += ReportAssumptions.section(input, result)
        } else {
            body += ReportWithoutForecast.sections(input)
        }
        body += ReportActuals.section(input)
        body += ReportPlanSections.traps(input)
        body += ReportPlanSections.rules(input)
        body += "</main>\n<footer>\n"
        body += HTML.paragraph(
            "Made by migrate from the files named above. Amounts are proceeds "
                + "after Apple's commission and refunds, \(currencyNote(input.figures)), unless a table says otherwise; counts and "
                + "amounts are rounded as 'migrate simulate' rounds them.")
        body += "</footer>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(app)): should it go free? — migrate report</title>
            <style>
            \(ReportStyle.css)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// "in the plan's currency", or the currency and locale the reader asked for.
    static func currencyNote(_ style: FigureStyle) -> String {
        let locale = style.locale.tag == FigureStyle.plain.locale.tag ? "" : ", written for \(style.locale.tag)"
        guard let currency = style.currency else { return "in the plan's currency" + locale }
        return "in \(currency.code) (the plan's prices taken as \(currency.code))" + locale
    }

    static func scenarioNote(_ input: ReportInput) -> String {
        guard let first = input.simulation?.scenarios.first, first.scenario.id != PreparedScenario.baseID else { return ", as written" }
        return ", scenario '\(first.scenario.id)'"
    }

    static func contents() -> String {
        let titles = [
            "The answer", "Who is affected", "Month by month", "What the forecast assumes", "After launch", "Launch-day traps",
            "The rules to sign off",
        ]
        var out = "<nav aria-label=\"Contents\"><ol>\n"
        for (id, title) in zip(sectionIDs, titles) { out += "<li><a href=\"#\(id)\">\(HTML.escape(title))</a></li>\n" }
        return out + "</ol></nav>\n"
    }
}
