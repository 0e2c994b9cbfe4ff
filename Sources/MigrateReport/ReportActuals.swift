import MigratePlan
import MigrateSimulation
import MigrateSupport

/// After launch: the months the sales reports cover against the forecast, what they imply, and the verdict
/// refitted to them; `simulate --actuals`' comparison. Before launch, how to add them.
enum ReportActuals {
    static func section(_ input: ReportInput) -> String {
        guard let report = input.actuals else {
            let command: Markup = "migrate report \(name: input.planName) --actuals REPORT.txt --output report.html"
            let body: String
            if let launch = input.launch, launch.launched {
                body = HTML.paragraph(
                    "Free since \(FigureText.date(launch.date)), and no sales reports given: the forecast above is what the plan expected, "
                        + "not yet held against what happened. Download the Summary Sales reports since the switch from App Store Connect "
                        + "and run: \(command). This section then shows each month against the forecast, what the numbers imply, and the "
                        + "verdict refitted to them.")
            } else {
                let when: Markup = input.launch.map { "The switch is planned for \(FigureText.date($0.date)), not yet confirmed as live. " } ?? ""
                body = HTML.paragraph(
                    "\(when)After the switch, download the Summary Sales reports from App Store Connect and run: \(command). This section "
                        + "then shows each month against the forecast, what the numbers imply, and the verdict refitted to them.")
            }
            return HTML.section("after-launch", "After launch", body)
        }
        var body = "<p class=\"verdict\">\(HTML.escape(bottomLine(report)))</p>\n"
        // `simulate --actuals`' headline, worded again here so its figures follow the page's locale.
        let headline = ActualsHeadline.sentence(
            implied: report.implied, before: report.verdictBefore, after: report.verdictAfter, draws: report.draws)
        body += HTML.paragraph("\(headline)")
        let count = report.rows.count
        let files: Markup = "\(names: input.actualsFiles)"
        let draws: Markup =
            report.draws == 0 ? "the median run only." : "\(FigureText.count(report.draws)) simulated futures, seed \(String(report.seed))."
        body += HTML.paragraph(
            "Free since \(FigureText.date(report.switchDate)); \(FigureText.count(count)) month\(count == 1 ? "" : "s") of sales in "
                + "\(files); the forecast's P10–P90 from \(draws)")
        var header = ["month", "free downloads", "forecast P10–P90", "in-app units", "forecast P10–P90"]
        if report.proceeds.isCompared, let currency = report.currency {
            header += [currency == ActualsProceeds.planCurrency ? "proceeds" : "proceeds \(currency)", "forecast P10–P90"]
        }
        let rows = report.rows.map { row -> [String] in
            let partial = row.month.daysCovered < row.month.daysInMonth ? " (part)" : ""
            var cells = [
                row.month.label + partial, FigureText.people(row.month.freeDownloads) + flag(row.downloadsPlace),
                band(row.downloads, FigureText.people), FigureText.people(row.month.units) + flag(row.unitsPlace), band(row.units, FigureText.people),
            ]
            // Proceeds in another currency than the plan's (no --rate) are plain numbers: the plan's symbol would misname them.
            let amount = report.currency == ActualsProceeds.planCurrency ? FigureText.money : FigureText.people
            if let actual = row.proceedsActual { cells += [amount(actual) + flag(row.proceedsPlace), band(row.proceeds, amount)] }
            return cells
        }
        body += HTML.table(
            caption: "The months after the switch against the forecast", header: header, plain: rows, numeric: Set(1..<header.count),
            layout: .stacked(below: 48))
        body += "<div class=\"notes\">\n"
        body += HTML.paragraph(
            "↑ above the forecast's P90, ↓ below its P10. A month marked (part) is covered in part by the reports; its forecast is "
                + "scaled to the days covered. Downloads and units are people and purchases; proceeds are money, \(ReportForecast.unit).")
        body += "</div>\n"
        body += HTML.heading("What the numbers imply")
        let implied = report.implied.map { item -> Markup in
            let value = FigureText.number(ActualsComparison.significant(item.implied))
            let range =
                "\(FigureText.number(ActualsComparison.significant(item.range.lowerBound)))–"
                + FigureText.number(ActualsComparison.significant(item.range.upperBound))
            let verdict =
                item.isContradicted
                ? "is contradicted: the actuals imply \(value), outside its range \(range) however the months vary"
                : item.isOutside
                    ? "is at its edge: the actuals imply \(value), outside its range \(range), but the refit still overlaps it"
                    : "is consistent: the actuals imply \(value), within its range \(range)"
            return Markup("\(item.assumption.rawValue) \(verdict).")
        }
        body += implied.isEmpty ? HTML.paragraph("The reports imply no assumption yet.") : HTML.list(implied)
        body += HTML.heading("The verdict, as planned and refitted")
        var verdicts: [(term: Markup, meaning: Markup)] = [("As the plan has it", "\(verdictLine(report.verdictBefore, draws: report.draws))")]
        if let after = report.verdictAfter {
            verdicts.append(("With the refit", "\(verdictLine(after, draws: report.draws))"))
        }
        body += HTML.definitions(verdicts)
        for note in report.notes { body += HTML.paragraph("\(note)", class: "note") }
        return HTML.section("after-launch", "After launch", body)
    }

    /// The plain bottom line: what the refit does to the answer.
    static func bottomLine(_ report: ActualsReport) -> String {
        let verdict = report.verdictAfter ?? report.verdictBefore
        let refitted = report.verdictAfter != nil
        if let reason = verdict.cannotCompare { return "Bottom line: the comparison cannot be made: \(reason.reason)." }
        let what = refitted ? "With the forecast refitted to what happened" : "With nothing to refit yet"
        guard let ahead = verdict.probabilityAhead, report.draws > 0 else {
            let direction = verdict.medianDifference >= 0 ? "ahead of" : "behind"
            return "Bottom line: \(what.lowercased()), going free ends \(direction) staying paid by "
                + "\(FigureText.money(abs(verdict.medianDifference))) with every assumption at its middle value."
        }
        let before = report.verdictBefore.probabilityAhead.map { " (the plan said \(FigureText.percent($0)))" } ?? ""
        return "Bottom line: \(what.lowercased()), going free ends ahead of staying paid in \(FigureText.percent(ahead)) of the "
            + "simulated futures\(refitted ? before : ""); median difference \(FigureText.money(verdict.medianDifference))."
    }

    /// `simulate --actuals`' verdict line, word for word.
    static func verdictLine(_ verdict: Verdict, draws: Int) -> String {
        if let reason = verdict.cannotCompare { return "cannot compare: \(reason.reason)." }
        let difference = FigureText.money(verdict.medianDifference)
        if let ahead = verdict.probabilityAhead, draws > 0 {
            var line = "freemium ahead of staying paid in \(FigureText.percent(ahead)) of \(FigureText.count(draws)) draws"
            if let tie = verdict.probabilityTie, tie > 0 { line += " (level in \(FigureText.percent(tie)))" }
            return line + "; median difference \(difference); median break-even \(FigureText.breakEven(verdict.breakEvenMonth))."
        }
        return "every assumption at its median, freemium minus staying paid is \(difference); break-even "
            + "\(FigureText.breakEven(verdict.breakEvenMonth))."
    }

    static func flag(_ place: ActualsRow.Place?) -> String {
        switch place {
        case .below: " ↓"
        case .above: " ↑"
        case .within, nil: ""
        }
    }

    static func band(_ band: Percentiles, _ figure: (Double) -> String) -> String { "\(figure(band.p10))–\(figure(band.p90))" }
}
