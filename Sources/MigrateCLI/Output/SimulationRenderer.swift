import Foundation
import MigrateCore
import MigratePlan
import MigrateSimulation
import MigrateSupport

/// Turns a simulation report into text, Markdown, CSV or JSON. The first scenario is shown in detail;
/// every scenario is compared side by side.
struct SimulationRenderer {
    var report: SimulationReport
    var style: Style
    /// The widest a text line may be: the long last columns (reasons, sources) wrap to fit.
    var width: Int = TerminalWidth.columns

    // MARK: Numbers

    /// The figures as `FigureText` (MigrateSimulation) writes them, for `simulate` and the report alike.
    static func money(_ value: Double) -> String { FigureText.money(value) }

    static func number(_ value: Double) -> String { FigureText.number(value) }

    /// 6.5%; "<0.1%" and ">99.9%" rather than a 0.0% or 100.0% that isn't so.
    static func percent(_ value: Double) -> String { FigureText.percent(value) }

    static func describe(_ distribution: Distribution) -> String { FigureText.describe(distribution) }

    static func breakEven(_ month: Int?) -> String { FigureText.breakEven(month) }

    /// For narrow table columns: "month 7", or "none" (not within the horizon).
    static func shortBreakEven(_ month: Int?) -> String { month.map { "month \($0)" } ?? "none" }

    static func size(_ value: Double?) -> String { value.map { money($0) } ?? "—" }

    /// "4,120 (P10–P90 2,300–7,900)": a size with its band over the draws, when it has one.
    static func size(_ value: Double?, band: Percentiles?) -> String {
        guard let band else { return size(value) }
        return "\(size(value)) (P10–P90 \(money(band.p10))–\(money(band.p90)))"
    }

    func commissionText(_ commission: Commission) -> String {
        commission == .standard ? "standard commission (30%; 15% on subscriptions after a subscriber's first year)" : "Small Business Program (15%)"
    }

    // MARK: The verdict

    /// An assumption's value in its own units: 3.8% for a share, −1.2% a month for a trend.
    static func assumptionValue(_ value: Double, _ assumption: SimulationAssumption) -> String {
        FigureText.assumptionValue(value, assumption)
    }

    static func now(_ distribution: Distribution, _ assumption: SimulationAssumption) -> String { FigureText.now(distribution, assumption) }

    static func thresholdLine(_ threshold: BreakEvenThreshold) -> String { LeverText.sentence(threshold) }

    /// "Under these assumptions; held against 9 published switches, …": what the probability is, and how far it held.
    static var calibrationLine: String {
        let record = Calibration.published
        return "That share is under these assumptions, not a calibrated chance: held against \(record.cases) published switches, the "
            + "outcomes fell outside the forecast's P10–P90 in \(record.figures - record.inside) of \(record.figures) figures, and the verdict "
            + "was right in \(record.verdictsRight) of \(record.verdicts) (the manual, \"Calibration\")."
    }

    /// One or two lines of answer, the no-uncertainty notice when it applies, and what would have to be true.
    func verdictLines(_ result: ScenarioResult) -> (verdict: String, notice: String?, header: String?, thresholds: [String]) {
        let verdict = result.verdict
        let months = report.months
        if let reason = verdict.cannotCompare {
            return ("Cannot compare: \(reason.reason).", nil, nil, [])
        }
        var line: String
        let difference = Self.money(verdict.medianDifference)
        if let ahead = verdict.probabilityAhead, let summary = result.monteCarlo {
            line = "After \(months) months freemium is ahead of staying paid in \(Self.percent(ahead)) of \(Self.money(Double(summary.draws))) draws"
            if let tie = verdict.probabilityTie, tie > 0 { line += " (level in \(Self.percent(tie)))" }
            line += "; median difference \(difference); median break-even \(Self.breakEven(verdict.breakEvenMonth)). "
            line += Self.calibrationLine
        } else {
            line =
                "After \(months) months, every assumption at its median, freemium minus staying paid is \(difference); break-even \(Self.breakEven(verdict.breakEvenMonth))."
        }
        let notice =
            verdict.uncertaintyModelled
            ? nil
            : Verdict.noUncertaintyNotice
        let thresholds = verdict.thresholds.map(Self.thresholdLine)
        let header: String?
        if !thresholds.isEmpty {
            header =
                verdict.aheadAtMedian
                ? "What would make freemium fall behind, one assumption at a time within its plausible range (the others at their medians; now: P10 to P90):"
                : "What would have to be true, one assumption at a time within its plausible range (the others at their medians; now: P10 to P90):"
        } else if !verdict.searched.isEmpty {
            let names = verdict.searched.prefix(Verdict.thresholdCount).map(\.rawValue)
            let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            header =
                "No single assumption within its plausible range changes the answer at the median: not \(listed), which move it most."
        } else {
            header = nil
        }
        return (line, notice, header, thresholds)
    }

    // MARK: Tables shared by text and Markdown

    func cohortTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        let catalog = result.scenario.catalog
        let header = ["cohort", "platform", "owns", "size", "entitlements", "offers", "reason"]
        let rows = result.cohorts.map { row in
            guard let folded = row.folded else {
                return [
                    row.cohort, row.platform.rawValue,
                    row.owns.isEmpty ? "nothing" : row.owns.map { catalog.product(withID: $0)?.name ?? $0 }.joined(separator: ", "),
                    row.directSale?.redeemersText ?? Self.size(row.size, band: row.sizeBand),
                    row.entitlements.isEmpty ? "—" : row.entitlements.joined(separator: ", "),
                    row.offers.isEmpty ? "none" : row.offers.map { "\($0.name) \($0.priceText)" }.joined(separator: ", "), row.reason,
                ]
            }
            return [
                row.cohort, row.platform.rawValue, Self.foldedOwns(folded), Self.size(row.size), Self.foldedKeeps(row.entitlements),
                "each: --offer-states", row.reason,
            ]
        }
        return (header, rows)
    }

    /// "one of its 1,204 offers" or "one of 12 products no longer sold".
    static func foldedOwns(_ folded: FoldedStates) -> String {
        let count = money(Double(folded.choices.count))
        return folded.kind == .offers ? "one of its \(count) offers" : "one of \(count) products no longer sold"
    }

    /// What every folded state keeps, and that each adds its product's features.
    static func foldedKeeps(_ entitlements: [String]) -> String {
        (entitlements.isEmpty ? "" : entitlements.joined(separator: ", ") + ", and ") + "what the product bought grants"
    }

    /// "Product 1 4,120; Product 7 2,060; Product 9 —": each folded state's product and its size.
    static func foldedChoices(_ folded: FoldedStates) -> String {
        folded.choices.map { "\($0.name) \(size($0.size))" }.joined(separator: "; ")
    }

    func monthlyTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        var header = ["month", "stay paid", "freemium", "cum. paid", "cum. freemium"]
        if result.monteCarlo != nil { header += ["paid P10", "P90", "free P10", "P50", "P90"] }
        let series = result.deterministic
        let cumulativePaid = series.cumulativePaid
        let cumulativeFreemium = series.cumulativeFreemium
        let rows = series.paid.indices.map { month in
            var row = [
                String(month + 1), Self.money(series.paid[month]), Self.money(series.freemium[month]), Self.money(cumulativePaid[month]),
                Self.money(cumulativeFreemium[month]),
            ]
            if let summary = result.monteCarlo {
                let paid = summary.cumulativePaid[month]
                let p = summary.cumulativeFreemium[month]
                row += [Self.money(paid.p10), Self.money(paid.p90), Self.money(p.p10), Self.money(p.p50), Self.money(p.p90)]
            }
            return row
        }
        return (header, rows)
    }

    /// With draws: the draws' figures (the detail of the first scenario has the median model's); without: the median model's.
    func comparisonTable() -> (header: [String], rows: [[String]]) {
        let months = report.months
        let hasDraws = report.scenarios.contains { $0.monteCarlo != nil }
        let header =
            hasDraws
            ? ["scenario", "paid P50", "free P10", "P50", "P90", "P(ahead)", "P(level)", "break-even P50"]
            : ["scenario", "cum. paid", "cum. freemium", "break-even"]
        let rows = report.scenarios.map { result in
            guard hasDraws else {
                return [
                    result.scenario.id, Self.money(result.deterministic.cumulativePaid.last ?? 0),
                    Self.money(result.deterministic.cumulativeFreemium.last ?? 0), Self.shortBreakEven(result.deterministic.breakEvenMonth),
                ]
            }
            guard let summary = result.monteCarlo else { return [result.scenario.id, "", "", "", "", "", "", ""] }
            let p = summary.cumulativeFreemium[months - 1]
            return [
                result.scenario.id, Self.money(summary.cumulativePaid[months - 1].p50), Self.money(p.p10), Self.money(p.p50), Self.money(p.p90),
                Self.percent(summary.probabilityFreemiumWins), Self.percent(summary.probabilityTie),
                Self.shortBreakEven(summary.breakEvenMonth(atPercentile: 0.5)),
            ]
        }
        return (header, rows)
    }

    func sensitivityTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        let header = ["assumption", "low", "high", "advantage at low", "at high", "swing"]
        let rows = result.sensitivity.map { row in
            [
                row.assumption.rawValue, Self.number(row.low), Self.number(row.high), Self.money(row.advantageAtLow), Self.money(row.advantageAtHigh),
                Self.money(row.swing),
            ]
        }
        return (header, rows)
    }

    func assumptionTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        let header = ["assumption", "value", "source"]
        let rows = result.scenario.assumptions.map { resolved -> [String] in
            [
                resolved.assumption.rawValue, resolved.derived.map { Self.number($0.rounded()) } ?? Self.describe(resolved.distribution),
                resolved.source,
            ]
        }
        return (header, rows)
    }

    func sweepTable(_ sweep: SweepResult, limit: Int) -> (header: [String], rows: [[String]]) {
        let header = sweep.specs.map { $0.target.description } + ["cum. freemium", "cum. paid", "advantage", "break-even"]
        let rows = sweep.points.prefix(limit).map { point in
            point.settings.map { Self.number($0.1) } + [
                Self.money(point.series.cumulativeFreemium.last ?? 0), Self.money(point.series.cumulativePaid.last ?? 0),
                Self.money(point.series.advantage),
                Self.shortBreakEven(point.series.breakEvenMonth),
            ]
        }
        return (header, rows)
    }

    // MARK: Text

    func text() -> String {
        guard let first = report.scenarios.first else { return "" }
        var out = ""
        // Headers stand on two lines (`TextTable.stacked`), so the columns are only as wide as their figures.
        func table(_ content: (header: [String], rows: [[String]]), rightAligned: Set<Int> = []) {
            let header = TextTable.stacked(content.header, over: content.rows)
            let lines = TextTable(rows: header + content.rows, rightAligned: rightAligned, maxWidth: width - 2).lines()
            for (index, line) in lines.enumerated() {
                out += "  " + (index < header.count ? style.bold(TextTable.trimmed(line)) : line) + "\n"
            }
        }
        func heading(_ text: String) {
            for line in TextTable.wrap(text, width: width) { out += style.bold(line) + "\n" }
        }
        let name = first.scenario.id == PreparedScenario.baseID ? "the plan as written" : "scenario '\(first.scenario.id)'"
        func paragraph(_ text: String, indent: String = "") {
            for line in TextTable.wrap(text, width: width - indent.count) { out += indent + line + "\n" }
        }
        let verdict = verdictLines(first)
        heading("Verdict: \(report.appName), \(name)")
        paragraph(verdict.verdict, indent: "  ")
        if let notice = verdict.notice { paragraph(notice, indent: "  ") }
        if let header = verdict.header {
            paragraph(header, indent: "  ")
            for line in verdict.thresholds { paragraph(line, indent: "    ") }
        }
        for note in first.scenario.notes { paragraph(note.text, indent: "  ") }
        out += "\n"
        heading("Cohort preview: \(report.appName), \(name)")
        // One block per state, so the long columns wrap instead of running off the line.
        let cohorts = cohortTable(first)
        for (index, row) in cohorts.rows.enumerated() {
            // The state's line breaks between its parts when it would pass the width, indented less than the details.
            var title = "  " + style.bold(row[0])
            var used = 2 + row[0].count
            for part in [row[1], "owns \(row[2])", "size \(row[3])"] {
                if used + 3 + part.count > width {
                    title += "\n    " + part
                    used = 4 + part.count
                } else {
                    title += " · " + part
                    used += 3 + part.count
                }
            }
            out += title + "\n"
            paragraph("keeps: \(row[4])", indent: "      ")
            if let folded = first.cohorts[index].folded {
                paragraph("each: \(Self.foldedChoices(folded))", indent: "      ")
                paragraph("why: \(row[6])", indent: "      ")
                continue
            }
            // One offer a line, so each reads whole.
            let offers = first.cohorts[index].offers.map { "\($0.name) \($0.priceText)" }
            if offers.isEmpty { paragraph("offers: none", indent: "      ") }
            for (position, offer) in offers.enumerated() {
                paragraph((position == 0 ? "offers: " : "") + offer, indent: position == 0 ? "      " : "              ")
            }
            paragraph("why: \(row[6])", indent: "      ")
            if let sale = first.cohorts[index].directSale {
                paragraph("redeem: \(sale.redeemText)", indent: "      ")
                paragraph("cost: \(sale.costText)", indent: "      ")
            }
        }
        for line in TextTable.wrap(
            "size: people in each state by month \(report.months) (legacy buyers, new downloads, expected buyers of each offer)", width: width - 2)
        {
            out += "  " + style.dim(line) + "\n"
        }
        out += "\n"

        heading("What-if revenue: \(name), \(report.months) months, \(commissionText(first.scenario.model.commission))")
        // "free" for freemium, as the legend below has it: "cum. freemium" would widen its column past the figures.
        var monthly = monthlyTable(first)
        monthly.header = monthly.header.map { $0.replacingOccurrences(of: "freemium", with: "free") }
        table(monthly, rightAligned: Set(0..<10))
        // Said once: the break-even here answers another question than the verdict's median break-even.
        var breakEven = "Break-even with every assumption at its median: \(Self.breakEven(first.deterministic.breakEvenMonth))."
        if first.monteCarlo != nil {
            breakEven +=
                " The verdict's median break-even is instead the month by which half the draws have broken even; the two differ"
                + " because a middle value of each assumption does not make the middle future."
        }
        paragraph(breakEven, indent: "  ")
        if let summary = first.monteCarlo {
            var line =
                "Monte Carlo: \(Self.money(Double(summary.draws))) draws, seed \(summary.seed): freemium ahead of staying paid after \(report.months) months in \(Self.percent(summary.probabilityFreemiumWins)) of draws"
            if summary.ties > 0 { line += ", level in \(Self.percent(summary.probabilityTie))" }
            line +=
                "; break-even P10 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.1))), P50 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.5))), P90 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.9)))"
            paragraph(line, indent: "  ")
            out += "  " + style.dim("paid P10, P90 and free P10, P50, P90: cumulative proceeds over the draws.") + "\n"
        }
        out += "  " + style.dim("Proceeds after VAT or GST, commission and refunds, in the plan's currency.") + "\n\n"

        heading("Scenarios compared after \(report.months) months")
        // "P ahead" stands as "P" over "ahead", as narrow as its percentages.
        var comparison = comparisonTable()
        comparison.header = comparison.header.map { $0.replacingOccurrences(of: "P(", with: "P ").replacingOccurrences(of: ")", with: "") }
        table(comparison, rightAligned: first.monteCarlo != nil ? [1, 2, 3, 4, 5, 6] : [1, 2])
        out += "  " + style.dim("Cumulative proceeds at month \(report.months); break-even none: not within the horizon.") + "\n"
        if first.monteCarlo != nil { out += "  " + style.dim("P ahead, P level: draws where freemium ends ahead, or level.") + "\n" }
        out += "\n"
        heading("Sensitivity: freemium minus staying paid after \(report.months) months, each assumption over its range")
        table(sensitivityTable(first), rightAligned: [1, 2, 3, 4, 5])
        if let sweep = report.sweep {
            out += "\n"
            heading(
                "Sweep over \(sweep.specs.map(\.target.description).joined(separator: " × ")) (\(sweep.points.count) settings, scenario '\(sweep.scenarioID)'), best first"
            )
            table(sweepTable(sweep, limit: 10), rightAligned: Set(0..<(sweep.specs.count + 3)))
            if let best = sweep.points.first {
                out += "  Best: " + best.settings.map { "\($0.0) = \(Self.number($0.1))" }.joined(separator: ", ") + "\n"
            }
        }
        out += "\n"
        heading("Assumptions: \(name)")
        // Each value with its source under it: a source (a citation, a plan key) needs the line's width.
        let assumptions = assumptionTable(first)
        for (row, line) in zip(assumptions.rows, TextTable(rows: assumptions.rows.map { Array($0.prefix(2)) }).lines()) {
            out += "  " + line + "\n"
            paragraph(row[2], indent: "      ")
        }
        for line in Self.terms(first) { paragraph(line, indent: "  ") }
        return out
    }

    /// The terms of the assumptions table a reader would otherwise look up, each said once, in words.
    static func terms(_ result: ScenarioResult) -> [String] {
        let used = Set(result.scenario.assumptions.map(\.assumption))
        var lines: [String] = []
        if used.contains(.lastingMultiple) {
            lines.append(
                "lastingMultiple: downloads once the launch burst has passed, as a multiple of the paid downloads (3: three times as many).")
        }
        if used.contains(.burstHalfLifeMonths) {
            lines.append("burstHalfLifeMonths: the half-life of the launch burst, the months in which its extra downloads halve.")
        }
        if used.contains(.conversion) && result.scenario.referencePrice > 0 {
            let price = FigureText.price(result.scenario.referencePrice)
            lines.append(
                "conversion, legacyUpgradeRate: the shares who buy at the paid app's price, \(price); an offer at price p sells exp(−priceElasticity × (p ÷ \(price) − 1)) times as many, whatever price the plan writes."
            )
        }
        let distributions = result.scenario.assumptions.map(\.distribution)
        if distributions.contains(where: { if case .triangular = $0 { true } else { false } }) {
            lines.append("triangular a / b / c: never below a nor above c, most likely b.")
        }
        if distributions.contains(where: { if case .logNormal = $0 { true } else { false } }) {
            lines.append("log-normal, P10 a, P90 b: one draw in ten below a, one in ten above b, with a long tail of high values.")
        }
        return lines
    }

    // MARK: Markdown

    func markdown() -> String {
        guard let first = report.scenarios.first else { return "" }
        func table(_ content: (header: [String], rows: [[String]])) -> String {
            func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
            var out = "| " + content.header.map(cell).joined(separator: " | ") + " |\n"
            out += "|" + content.header.map { _ in "---|" }.joined() + "\n"
            for row in content.rows { out += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
            return out
        }
        var out = "# \(report.appName): simulation\n\n"
        let verdict = verdictLines(first)
        out += "## Verdict (\(first.scenario.id))\n\n" + verdict.verdict + "\n\n"
        if let notice = verdict.notice { out += notice + "\n\n" }
        if let header = verdict.header { out += header + "\n\n" + verdict.thresholds.map { "- " + $0 + "\n" }.joined() + "\n" }
        for note in first.scenario.notes { out += note.text + "\n\n" }
        out += "## Cohort preview (\(first.scenario.id))\n\n" + table(cohortTable(first)) + "\n"
        out += "## What-if revenue (\(first.scenario.id), \(report.months) months)\n\n" + table(monthlyTable(first)) + "\n"
        out += "Break-even: \(Self.breakEven(first.deterministic.breakEvenMonth)).\n\n"
        out += "## Scenarios compared\n\n" + table(comparisonTable()) + "\n"
        out += "## Sensitivity\n\n" + table(sensitivityTable(first)) + "\n"
        if let sweep = report.sweep { out += "## Sweep, best first\n\n" + table(sweepTable(sweep, limit: 10)) + "\n" }
        out += "## Assumptions\n\n" + table(assumptionTable(first))
        return out
    }

    // MARK: CSV

    /// One row per scenario and month: the data a spreadsheet charts.
    func csv() -> String {
        var out =
            "scenario,month,stay_paid,freemium,cumulative_paid,cumulative_freemium,cumulative_freemium_p10,cumulative_freemium_p50,cumulative_freemium_p90,monthly_freemium_p10,monthly_freemium_p90\n"
        func value(_ number: Double) -> String { String(format: "%.2f", number) }
        for result in report.scenarios {
            let series = result.deterministic
            let cumulativePaid = series.cumulativePaid
            let cumulativeFreemium = series.cumulativeFreemium
            for month in series.paid.indices {
                var row = [
                    CSVWriter.field(result.scenario.id), String(month + 1), value(series.paid[month]), value(series.freemium[month]),
                    value(cumulativePaid[month]), value(cumulativeFreemium[month]),
                ]
                if let summary = result.monteCarlo {
                    let p = summary.cumulativeFreemium[month]
                    let m = summary.monthlyFreemium[month]
                    row += [value(p.p10), value(p.p50), value(p.p90), value(m.p10), value(m.p90)]
                } else {
                    row += ["", "", "", "", ""]
                }
                out += row.joined(separator: ",") + "\n"
            }
        }
        return out
    }

    // MARK: JSON

    func verdictJSON(_ result: ScenarioResult) -> SimulationJSON.Verdict {
        let verdict = result.verdict
        return SimulationJSON.Verdict(
            comparable: verdict.cannotCompare == nil, cannotCompare: verdict.cannotCompare?.reason, uncertaintyModelled: verdict.uncertaintyModelled,
            probabilityFreemiumAhead: verdict.probabilityAhead.map { JSONNumber($0, fractionDigits: 4) },
            probabilityTie: verdict.probabilityTie.map { JSONNumber($0, fractionDigits: 4) },
            medianDifference: JSONNumber(verdict.medianDifference, fractionDigits: 2), breakEvenMonth: JSONNullable(verdict.breakEvenMonth),
            text: verdictLines(result).verdict, aheadAtMedian: verdict.aheadAtMedian,
            whatWouldHaveToBeTrue: verdict.thresholds.map { threshold in
                let direction: String
                switch threshold.outcome {
                case .atLeast: direction = "atLeast"
                case .atMost: direction = "atMost"
                }
                return SimulationJSON.Threshold(
                    assumption: threshold.assumption.rawValue, direction: direction, value: JSONNumber(literal: Self.number(threshold.value)),
                    aheadNow: threshold.aheadNow, now: Self.describe(threshold.now),
                    plausible: [
                        JSONNumber(literal: Self.number(threshold.domain.lowerBound)), JSONNumber(literal: Self.number(threshold.domain.upperBound)),
                    ],
                    text: Self.thresholdLine(threshold))
            },
            searched: verdict.searched.map(\.rawValue),
            calibration: SimulationJSON.Calibration(
                cases: Calibration.published.cases, figures: Calibration.published.figures, inside: Calibration.published.inside,
                verdicts: Calibration.published.verdicts, verdictsRight: Calibration.published.verdictsRight))
    }

    func cohortsJSON(_ result: ScenarioResult) -> [SimulationJSON.Cohort] {
        func amount(_ value: Double) -> JSONNumber { JSONNumber(value, fractionDigits: 2) }
        return result.cohorts.map { row in
            if let folded = row.folded {
                // One row for many ownership states: which products, and each one's size.
                return .folded(
                    SimulationJSON.Folded(
                        cohort: row.cohort, tier: row.tierID, platform: row.platform.rawValue,
                        ownsOneOf: SimulationJSON.OwnsOneOf(
                            kind: folded.kind.rawValue,
                            products: folded.choices.map { SimulationJSON.Choice(product: $0.productID, size: JSONNullable($0.size.map(amount))) }),
                        size: JSONNullable(row.size.map(amount)), entitlements: row.entitlements, reason: row.reason))
            }
            return .single(
                SimulationJSON.Single(
                    cohort: row.cohort, tier: row.tierID, platform: row.platform.rawValue, owns: row.owns, size: JSONNullable(row.size.map(amount)),
                    sizeBand: row.sizeBand.map { SimulationJSON.Spread(p10: amount($0.p10), p50: amount($0.p50), p90: amount($0.p90)) },
                    entitlements: row.entitlements,
                    offers: row.offers.map { offer in
                        SimulationJSON.Offer(
                            product: offer.productID, price: offer.price.description, regularPrice: offer.regularPrice?.description,
                            mechanism: ExplainRenderer.mechanism(offer.charge))
                    },
                    withheld: row.withheld.map(\.productID), reason: row.reason,
                    directSale: row.directSale.map { Self.json($0) { .number(String(format: "%.2f", $0)) } }))
        }
    }

    func monteCarloJSON(_ summary: MonteCarloSummary) -> SimulationJSON.MonteCarlo {
        func amount(_ value: Double) -> JSONNumber { JSONNumber(value, fractionDigits: 2) }
        func spread(_ items: [Percentiles]) -> [SimulationJSON.Spread] {
            items.map { SimulationJSON.Spread(p10: amount($0.p10), p50: amount($0.p50), p90: amount($0.p90)) }
        }
        func month(_ percentile: Double) -> JSONNullable<Int> { JSONNullable(summary.breakEvenMonth(atPercentile: percentile)) }
        return SimulationJSON.MonteCarlo(
            draws: summary.draws, seed: summary.seed, probabilityFreemiumWins: JSONNumber(summary.probabilityFreemiumWins, fractionDigits: 4),
            probabilityTie: JSONNumber(summary.probabilityTie, fractionDigits: 4),
            advantage: SimulationJSON.Spread(
                p10: amount(summary.advantage.p10), p50: amount(summary.advantage.p50), p90: amount(summary.advantage.p90)),
            breakEvenMonth: SimulationJSON.MonthSpread(p10: month(0.1), p50: month(0.5), p90: month(0.9)),
            breakEvenCounts: summary.breakEvenByMonth + [summary.notBreakingEven],
            cumulativePaid: spread(summary.cumulativePaid), cumulativeFreemium: spread(summary.cumulativeFreemium),
            monthlyFreemium: spread(summary.monthlyFreemium), monthlyPaid: spread(summary.monthlyPaid))
    }

    func scenarioJSON(_ result: ScenarioResult) -> SimulationJSON.Scenario {
        func amount(_ value: Double) -> JSONNumber { JSONNumber(value, fractionDigits: 2) }
        func plain(_ value: Double) -> JSONNumber { JSONNumber(literal: Self.number(value)) }
        let series = result.deterministic
        let cumulativePaid = series.cumulativePaid
        let cumulativeFreemium = series.cumulativeFreemium
        return SimulationJSON.Scenario(
            id: result.scenario.id, name: result.scenario.name, commission: result.scenario.model.commission.rawValue,
            referencePrice: JSONNumber(literal: Self.number(result.scenario.referencePrice)),
            notes: result.scenario.notes.map(\.text), cohorts: cohortsJSON(result),
            assumptions: result.scenario.assumptions.map {
                SimulationJSON.Assumption(
                    name: $0.assumption.rawValue, value: $0.derived.map { Self.number($0.rounded()) } ?? Self.describe($0.distribution),
                    source: $0.source)
            },
            months: series.paid.indices.map { month in
                SimulationJSON.Month(
                    month: month + 1, stayPaid: amount(series.paid[month]), freemium: amount(series.freemium[month]),
                    cumulativePaid: amount(cumulativePaid[month]), cumulativeFreemium: amount(cumulativeFreemium[month]))
            },
            breakEvenMonth: JSONNullable(series.breakEvenMonth), monteCarlo: result.monteCarlo.map(monteCarloJSON), verdict: verdictJSON(result),
            sensitivity: result.sensitivity.map {
                SimulationJSON.Sensitivity(
                    assumption: $0.assumption.rawValue, low: plain($0.low), high: plain($0.high), advantageAtLow: amount($0.advantageAtLow),
                    advantageAtHigh: amount($0.advantageAtHigh))
            })
    }

    func json() -> String {
        func amount(_ value: Double) -> JSONNumber { JSONNumber(value, fractionDigits: 2) }
        let sweep = report.sweep.map { result in
            SimulationJSON.Sweep(
                scenario: result.scenarioID,
                points: result.points.map { point in
                    SimulationJSON.SweepPoint(
                        settings: point.settings.map { (name: $0.0.description, value: JSONNumber(literal: Self.number($0.1))) },
                        cumulativeFreemium: amount(point.series.cumulativeFreemium.last ?? 0),
                        cumulativePaid: amount(point.series.cumulativePaid.last ?? 0), breakEvenMonth: JSONNullable(point.series.breakEvenMonth))
                })
        }
        let model = SimulationJSON(app: report.appName, horizonMonths: report.months, scenarios: report.scenarios.map(scenarioJSON), sweep: sweep)
        // The model holds strings, numbers and JSON values only, which `JSONValueEncoder` always encodes.
        return JSONWriter().string(from: try! JSONValueEncoder().encode(model))
    }
}
