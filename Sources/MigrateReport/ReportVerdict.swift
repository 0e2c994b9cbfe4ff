import MigratePlan
import MigrateSimulation

/// The answer in one plain sentence, then what would have to be true for it to change.
enum ReportVerdict {
    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        var body = "<p class=\"verdict\">\(HTML.escape(sentence(result, months: months)))</p>\n"
        if let detail = detail(result, months: months) { body += HTML.paragraph(detail) }
        if result.verdict.cannotCompare == nil, result.monteCarlo != nil { body += HTML.paragraph(calibration, class: "note") }
        if !result.verdict.uncertaintyModelled && result.verdict.cannotCompare == nil {
            body += HTML.paragraph(
                "No uncertainty is modelled: every assumption is a single value, so the forecast is one line, not a range. Give ranges in the "
                    + "plan's simulation.assumptions, or leave them out for migrate's default ranges.", class: "note")
        }
        if !result.verdict.thresholds.isEmpty {
            body += "<h3>What would change the answer</h3>\n"
            body += HTML.paragraph(
                "Each line moves one assumption alone, the others at their middle values, until going free and staying paid come out level "
                    + "after \(months) months; 'now' is the range the forecast uses (one draw in ten below it, one in ten above).")
            body += HTML.list(result.verdict.thresholds.map(threshold))
        }
        return HTML.section("verdict", "The answer", body)
    }

    /// "Going free would most likely earn less than staying paid: …".
    static func sentence(_ result: ScenarioResult, months: Int) -> String {
        let verdict = result.verdict
        if let reason = verdict.cannotCompare { return "migrate cannot compare going free with staying paid: \(reason.reason)." }
        let difference = verdict.medianDifference
        let amount = FigureText.money(abs(difference))
        if let ahead = verdict.probabilityAhead, let summary = result.monteCarlo {
            let likely: String
            switch ahead {
            case 0.75...: likely = "would most likely earn more than staying paid"
            case 0.5..<0.75: likely = "would more likely than not earn more than staying paid"
            case 0.25..<0.5: likely = "would more likely than not earn less than staying paid"
            default: likely = "would most likely earn less than staying paid"
            }
            let direction = difference >= 0 ? "more" : "less"
            return "Going free \(likely): over \(months) months it ends ahead in \(FigureText.percent(ahead)) of "
                + "\(FigureText.count(summary.draws)) simulated futures, and in the middle one it earns \(amount) \(direction) "
                + "(median difference \(FigureText.money(difference)))."
        }
        let direction = difference >= 0 ? "more" : "less"
        return "With every assumption at its middle value, going free would earn \(amount) \(direction) than staying paid over "
            + "\(months) months (freemium minus staying paid: \(FigureText.money(difference)))."
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
    static func detail(_ result: ScenarioResult, months: Int) -> String? {
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
