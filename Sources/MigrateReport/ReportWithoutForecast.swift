import MigrateCore
import MigrateSimulation

/// The sections a plan without the figures a forecast needs still gets: why there is no verdict (with every warning that
/// touches people who paid beside it), the cohorts the plan defines (counted when a customer list was decided), and how
/// to add the figures.
enum ReportWithoutForecast {
    static func sections(_ input: ReportInput, warnings: [ReportWarning]) -> String {
        let problem = input.simulationProblem ?? "the plan has no simulation"
        let launched: Markup = input.launch.flatMap { $0.launched ? "Free since \(FigureText.date($0.date)). " : nil } ?? ""
        var out = HTML.section(
            "verdict", ReportVerdict.title(input),
            "<p class=\"verdict\">\(Markup("\(launched)No forecast yet: \(problem).").html)</p>\n"
                + ReportWarnings.besideVerdict(warnings)
                + HTML.paragraph(
                    "The rest of this page holds what is known without one: who the switch touches, every warning the other commands give "
                        + "and the rules to sign off. Add the paid downloads a month to the plan (or import the sales reports) for the verdict."))
        var body = HTML.paragraph(
            "The groups the plan decides: people who bought the app while it was paid, by legacy tier, and the new free users. Without a "
                + "forecast their sizes are not estimated"
                + (input.customers == nil ? "; decide a customer list with --batch to count them." : "."))
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var header = ["who", "keeps"]
        if input.customers != nil { header.append("people in the list") }
        var rows = input.check.tiers.map { tier -> [Markup] in
            var row: [Markup] = [
                tier.name.isEmpty ? "paid buyers" : "\(name: tier.name)\(tier.id.isEmpty ? "" : Markup(" (tier \(name: tier.id))"))",
                tier.grants.isEmpty ? "nothing paid" : "\(names: tier.grants.map { featureNames[$0] ?? $0 })",
            ]
            if let customers = input.customers { row.append("\(FigureText.count(customers.count(tierID: tier.id)))") }
            return row
        }
        var newUsers: [Markup] = ["New free users", "what the free app gives"]
        if let customers = input.customers { newUsers.append("\(FigureText.count(customers.count(tierID: nil)))") }
        rows.append(newUsers)
        let caption: Markup = input.customers.map { "The cohorts, counted in \(name: $0.listName)" } ?? "The cohorts"
        body += HTML.table(caption: caption, header: header, rows: rows, numeric: input.customers == nil ? [] : [2])
        out += HTML.section("cohorts", "Who is affected", body)
        out += HTML.section("forecast", "Month by month", HTML.paragraph("No month-by-month forecast: \(problem)."))
        out += HTML.section(
            "assumptions", "What the forecast assumes",
            HTML.paragraph("The forecast needs the paid downloads a month; the other assumptions have default ranges from public sources."))
        return out
    }
}
