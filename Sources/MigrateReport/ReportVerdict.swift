import MigratePlan
import MigrateSimulation

/// The answer in one plain sentence, with its unit and the P10–P90 of the difference, every warning that touches
/// people who paid beside it, then what would have to be true for it to change. After the switch it is the forecast
/// made from the plan, to hold against what happened, never a question still to decide.
enum ReportVerdict {
    static func title(_ input: ReportInput) -> Markup { input.isLaunched ? "The forecast since the switch" : "The answer" }

    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int, warnings: [ReportWarning]) -> String {
        var body = "<p class=\"verdict\">\(sentence(input, result, months: months).html)</p>\n"
        body += ReportWarnings.besideVerdict(warnings)
        if let detail = detail(result, months: months) { body += HTML.paragraph(detail) }
        if result.verdict.cannotCompare == nil, result.monteCarlo != nil { body += HTML.paragraph("\(calibration)", class: "note") }
        if !result.verdict.uncertaintyModelled && result.verdict.cannotCompare == nil {
            body += HTML.paragraph("\(Verdict.noUncertaintyNotice)", class: "note")
        }
        if !result.verdict.thresholds.isEmpty {
            body += HTML.heading("What would change the answer")
            body += HTML.paragraph(
                "Each line moves one assumption alone, the others at their middle values, until going free and staying paid come out level "
                    + "after \(months) months; 'now' is the range the forecast uses (one draw in ten below it, one in ten above).")
            body += HTML.list(result.verdict.thresholds.map { "\(threshold($0))" })
        }
        return HTML.section("verdict", title(input), body)
    }

    /// "Going free would most likely earn less than staying paid, under these assumptions: …", with the amount's currency
    /// and the difference's P10–P90; after the switch, what the forecast says it has done.
    static func sentence(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> Markup {
        let verdict = result.verdict
        if let reason = verdict.cannotCompare { return "migrate cannot compare going free with staying paid: \(reason.reason)." }
        let difference = verdict.medianDifference
        let amount = FigureText.money(abs(difference))
        let direction = difference >= 0 ? "more" : "less"
        let launched = input.launch.flatMap { $0.launched ? $0.date : nil }
        if let ahead = verdict.probabilityAhead, let summary = result.monteCarlo {
            let likely = ahead >= 0.75 || ahead < 0.25 ? "most likely" : "more likely than not"
            let side = ahead >= 0.5 ? "more" : "less"
            let range = "P10–P90 of the difference \(FigureText.money(summary.advantage.p10)) to \(FigureText.money(summary.advantage.p90))"
            let opening: String
            if let launched {
                opening =
                    "Free since \(FigureText.date(launched)): the forecast made from the plan says going free \(likely) earns \(side) "
                    + "than staying paid would have, under these assumptions"
            } else {
                opening = "Going free would \(likely) earn \(side) than staying paid, under these assumptions"
            }
            return "\(opening): over \(months) months it ends ahead in \(FigureText.percent(ahead)) of \(FigureText.count(summary.draws)) "
                + "simulated futures, and in the middle one it earns \(amount) \(direction) (median difference \(FigureText.money(difference)); "
                + "\(range))."
        }
        let opening = launched.map { "Free since \(FigureText.date($0)): with" } ?? "With"
        return "\(opening) every assumption at its middle value, going free \(launched == nil ? "would earn" : "earns") \(amount) "
            + "\(direction) than staying paid over \(months) months (freemium minus staying paid: \(FigureText.money(difference)); no range: "
            + "no draws)."
    }

    /// What the share of simulated futures is: a share under these assumptions, and how often such ranges held for
    /// real switches whose numbers were published.
    static var calibration: String {
        let record = Calibration.published
        return "That share is under these assumptions, not a calibrated chance. Held against \(record.cases) switches whose developers "
            + "published their numbers, the outcome fell outside the forecast's middle 80% in \(record.figures - record.inside) of "
            + "\(record.figures) figures (the manual, \"Calibration\")."
    }

    /// When going free catches up, said once with what the figure means.
    static func detail(_ result: ScenarioResult, months: Int) -> Markup? {
        guard result.verdict.cannotCompare == nil else { return nil }
        let month = result.verdict.breakEvenMonth
        if result.monteCarlo != nil {
            return month.map {
                "Median break-even: month \($0). Half of the simulated futures have caught up with staying paid by then; "
                    + "the other half later or never."
            }
                ?? "Median break-even: not within the horizon. In more than half of the simulated futures, going free has not "
                + "caught up with staying paid after \(months) months."
        }
        return "Break-even: \(FigureText.breakEven(month)), the month going free first catches up with staying paid."
    }

    /// "Freemium breaks even at the median if 6.3% of new free users buy or more (conversion ≥ 6.3%; now 1.4% to 4.6%)."
    static func threshold(_ threshold: BreakEvenThreshold) -> String {
        let sentence = LeverText.sentence(threshold)
        return sentence.prefix(1).uppercased() + sentence.dropFirst() + "."
    }
}
