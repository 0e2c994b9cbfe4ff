import Foundation
import MigrateImport
import MigratePlan
import MigrateSimulation
import MigrateSupport

/// Prints `simulate --actuals`: the months beside the forecast's band, the assumptions the actuals contradict,
/// and the refit.
struct ActualsRenderer {
    var report: ActualsReport
    var style: Style
    var width = TerminalWidth.columns

    static func flag(_ place: ActualsRow.Place?) -> String {
        switch place {
        case .below: " ↓"
        case .above: " ↑"
        case .within, nil: ""
        }
    }

    static func band(_ band: Percentiles) -> String {
        "\(SimulationRenderer.money(band.p10))–\(SimulationRenderer.money(band.p90))"
    }

    func text() -> String {
        var out = ""
        func paragraph(_ text: String, indent: String = "  ", hanging: String? = nil) {
            for (index, line) in TextTable.wrap(text, width: width - max(indent.count, (hanging ?? indent).count)).enumerated() {
                out += (index == 0 ? indent : hanging ?? indent) + line + "\n"
            }
        }
        let name = report.scenarioID == PreparedScenario.baseID ? "the plan as written" : "scenario '\(report.scenarioID)'"
        out += style.bold("Forecast against the actuals: \(report.appName), \(name)") + "\n"
        paragraph(report.headline)
        let count = report.rows.count
        paragraph(
            "Free since \(Timestamp.formatDate(report.switchDate)); \(count) month\(count == 1 ? "" : "s") of sales; the forecast's P10–P90 from "
                + (report.draws == 0
                    ? "the median run only (--draws 0)." : "\(SimulationRenderer.money(Double(report.draws))) draws, seed \(report.seed)."))
        var header = ["month", "free downloads", "P10–P90", "in-app units", "P10–P90"]
        if report.proceeds.isCompared, let currency = report.currency {
            header += [currency == ActualsProceeds.planCurrency ? "proceeds" : "proceeds \(currency)", "P10–P90"]
        }
        var rows: [[String]] = []
        for row in report.rows {
            let partial = row.month.daysCovered < row.month.daysInMonth ? "*" : ""
            let units = row.month.inAppUnits.values.reduce(0, +)
            var cells = [
                row.month.label + partial,
                SimulationRenderer.money(row.month.freeDownloads) + Self.flag(row.downloadsPlace), Self.band(row.downloads),
                SimulationRenderer.money(units) + Self.flag(row.unitsPlace), Self.band(row.units),
            ]
            if let actual = row.proceedsActual {
                cells += [SimulationRenderer.money(actual) + Self.flag(row.proceedsPlace), Self.band(row.proceeds)]
            }
            rows.append(cells)
        }
        let stacked = TextTable.stacked(header, over: rows)
        let lines = TextTable(rows: stacked + rows, rightAligned: Set(1..<header.count)).lines()
        for (index, line) in lines.enumerated() { out += "  " + (index < stacked.count ? style.bold(TextTable.trimmed(line)) : line) + "\n" }
        var legend = "↑ above the forecast's P90, ↓ below its P10."
        if report.rows.contains(where: { $0.month.daysCovered < $0.month.daysInMonth }) {
            legend += " * the reports cover part of the month (from the switch, or until they stop); its forecast is scaled to the days covered."
        }
        legend += " In-app units are purchases, renewals and refunds apart; proceeds are the reports' developer proceeds."
        paragraph(legend)
        paragraph(proceedsLine())

        out += "\n" + style.bold("What the actuals imply") + "\n"
        let contradicted = report.contradicted
        if contradicted.isEmpty {
            paragraph("No assumption is contradicted: what the actuals allow (the refit's band) overlaps each range.")
        }
        // Contradicted first: they are what to change; then those outside their range whose refit still overlaps it.
        let outside = report.implied.filter { $0.isOutside && !$0.isContradicted }
        for item in contradicted + outside + report.implied.filter({ !$0.isOutside }) {
            let value = SimulationRenderer.number(ActualsComparison.significant(item.implied))
            let side = item.implied < item.range.lowerBound ? "below" : "above"
            let band = item.refitBand.map { "the refit's band \(range($0))" } ?? "the implied value alone (not refitted)"
            let verdict: String
            if item.isContradicted {
                verdict =
                    "is " + style.red("contradicted")
                    + ": the actuals imply \(value), \(side) its range \(range(item.range)), and \(band) does not overlap it"
            } else if item.isOutside {
                verdict =
                    "is outside its range but not contradicted: the actuals imply \(value), \(side) \(range(item.range)), and \(band) overlaps it"
            } else {
                verdict = "is consistent: the actuals imply \(value), within its range \(range(item.range))"
            }
            paragraph("\(item.assumption.rawValue) \(verdict) (\(SimulationRenderer.describe(item.distribution)), \(item.source))", hanging: "      ")
            paragraph("from \(item.how)", indent: "      ")
        }

        out += "\n" + style.bold("Refit: a triangular low–mode–high around each implied value") + "\n"
        if report.refits.isEmpty {
            paragraph("Nothing to refit: the reports need free downloads in the month of the switch.")
        } else {
            let refitRows = report.refits.map { refit in
                [refit.assumption.rawValue, PlanMerger.describe(refit.before), "→", PlanMerger.describe(refit.after)]
            }
            // Each refit's spread under its before-and-after, which fill the line.
            let under = String(repeating: " ", count: 4 + (refitRows.map { $0[0].count }.max() ?? 0))
            for (refit, lines) in zip(report.refits, TextTable(rows: refitRows, maxWidth: width - 2).rowLines()) {
                for line in lines { out += "  " + line + "\n" }
                paragraph(refit.spread, indent: under)
            }
            paragraph(
                "Low and high: the mode ± 40% ÷ √(the months that inform it), or ± the month-to-month variation where larger (variable); the launch multiple, measured once, ± 10%. '--update-plan' writes these into simulation.assumptions, and nothing else."
            )
        }
        out += "\n" + style.bold("Verdict: as the plan has it, and with the refit") + "\n"
        paragraph("as planned: " + verdictLine(report.verdictBefore), hanging: "      ")
        if let after = report.verdictAfter {
            paragraph("with the refit: " + verdictLine(after), hanging: "      ")
            paragraph(
                "The same simulation as 'migrate simulate' (\(report.draws == 0 ? "the median run" : "\(SimulationRenderer.money(Double(report.draws))) draws, seed \(report.seed)")), the refitted assumptions in place of the plan's."
            )
        } else {
            paragraph("Nothing is refitted, so there is no other verdict.")
        }
        if !report.notes.isEmpty {
            out += "\n"
            for note in report.notes { paragraph(note, hanging: "    ") }
        }
        return out
    }

    /// "freemium ahead in 64.0% of 10,000 draws; median difference 1,234; median break-even month 9".
    func verdictLine(_ verdict: Verdict) -> String {
        if let reason = verdict.cannotCompare { return "cannot compare: \(reason.reason)." }
        let difference = SimulationRenderer.money(verdict.medianDifference)
        if let ahead = verdict.probabilityAhead, report.draws > 0 {
            var line =
                "freemium ahead of staying paid in \(SimulationRenderer.percent(ahead)) of \(SimulationRenderer.money(Double(report.draws))) draws"
            if let tie = verdict.probabilityTie, tie > 0 { line += " (level in \(SimulationRenderer.percent(tie)))" }
            return line + "; median difference \(difference); median break-even \(SimulationRenderer.breakEven(verdict.breakEvenMonth))."
        }
        return
            "every assumption at its median, freemium minus staying paid is \(difference); break-even \(SimulationRenderer.breakEven(verdict.breakEvenMonth))."
    }

    /// Which proceeds were compared, in what, at which rates, and which were not.
    func proceedsLine() -> String {
        let proceeds = report.proceeds
        let totals = proceeds.totals.sorted { $0.key < $1.key }.map { "\(SimulationRenderer.money($0.value)) \($0.key)" }.joined(separator: ", ")
        guard proceeds.isCompared, let currency = proceeds.currency else {
            return "Proceeds not compared\(totals.isEmpty ? "" : " (\(totals))"): \(proceeds.notCompared ?? "no currency")."
        }
        let rated = proceeds.rates.sorted { $0.key < $1.key }.map { "\($0.key) at \(SimulationRenderer.number($0.value))" }
        if rated.isEmpty { return "Proceeds compared in \(currency) (\(totals)), the reports' one currency, taken as the plan's." }
        let base = proceeds.totals[currency] != nil ? "; \(currency), the one currency without a rate, is taken as the plan's" : ""
        let each = currency == ActualsProceeds.planCurrency ? "" : " \(currency)"
        return "Proceeds compared in \(currency) (\(totals)), converted with \(rated.joined(separator: ", "))\(each) each\(base)."
    }

    func range(_ range: ClosedRange<Double>) -> String {
        "\(SimulationRenderer.number(ActualsComparison.significant(range.lowerBound)))–\(SimulationRenderer.number(ActualsComparison.significant(range.upperBound)))"
    }

    func json() -> String {
        func number(_ value: Double) -> JSONValue { .number(SimulationRenderer.number(ActualsComparison.significant(value))) }
        func whole(_ value: Double) -> JSONValue { .number(String(format: "%.0f", value.rounded())) }
        func band(_ band: Percentiles) -> JSONValue { .object(["p10": whole(band.p10), "p50": whole(band.p50), "p90": whole(band.p90)]) }
        let months: [JSONValue] = report.rows.map { row in
            .members([
                ("month", .string(row.month.label)),
                ("daysCovered", .integer(row.month.daysCovered)),
                ("daysInMonth", .integer(row.month.daysInMonth)),
                ("freeDownloads", whole(row.month.freeDownloads)),
                ("freeDownloadsForecast", band(row.downloads)),
                ("freeDownloadsPlace", .string(row.downloadsPlace.rawValue)),
                ("inAppUnits", whole(row.month.inAppUnits.values.reduce(0, +))),
                ("inAppUnitsByProduct", .members(row.month.inAppUnits.sorted { $0.key < $1.key }.map { ($0.key, whole($0.value)) })),
                ("inAppRefunds", whole(row.month.refunds)),
                ("inAppUnitsForecast", band(row.units)),
                ("inAppUnitsPlace", .string(row.unitsPlace.rawValue)),
                ("proceeds", row.proceedsActual.map { .number(String(format: "%.2f", $0)) }),
                (
                    "proceedsByCurrency",
                    .members(row.month.proceeds.sorted { $0.key < $1.key }.map { ($0.key, .number(String(format: "%.2f", $0.value))) })
                ),
                ("proceedsForecast", row.proceedsActual.map { _ in band(row.proceeds) }),
                ("proceedsPlace", row.proceedsPlace.map { .string($0.rawValue) }),
            ])
        }
        let implied: [JSONValue] = report.implied.map { item in
            .members([
                ("assumption", .string(item.assumption.rawValue)),
                ("implied", number(item.implied)),
                ("low", number(item.range.lowerBound)),
                ("high", number(item.range.upperBound)),
                ("refitLow", item.refitBand.map { number($0.lowerBound) }),
                ("refitHigh", item.refitBand.map { number($0.upperBound) }),
                ("outside", .bool(item.isOutside)),
                ("contradicted", .bool(item.isContradicted)),
                ("source", .string(item.source)),
                ("from", .string(item.how)),
            ])
        }
        let refits: [JSONValue] = report.refits.map { refit in
            .members([
                ("assumption", .string(refit.assumption.rawValue)),
                ("before", .string(PlanMerger.describe(refit.before))),
                ("after", PlanEncoder.json(refit.after)),
                ("spread", .string(refit.spread)),
            ])
        }
        // The keys of `simulate`'s verdict, and the line the text prints.
        func verdict(_ verdict: Verdict) -> JSONValue {
            .members([
                ("comparable", .bool(verdict.cannotCompare == nil)),
                ("cannotCompare", verdict.cannotCompare.map { .string($0.reason) }),
                ("probabilityFreemiumAhead", verdict.probabilityAhead.map { .number(String(format: "%.4f", $0)) }),
                ("probabilityTie", verdict.probabilityTie.map { .number(String(format: "%.4f", $0)) }),
                ("medianDifference", .number(String(format: "%.2f", verdict.medianDifference))),
                ("breakEvenMonth", verdict.breakEvenMonth.map { .integer($0) } ?? .null),
                ("text", .string(verdictLine(verdict))),
            ])
        }
        let proceeds = report.proceeds
        return JSONWriter().string(
            from: .members([
                ("headline", .string(report.headline)),
                ("app", .string(report.appName)),
                ("scenario", .string(report.scenarioID)),
                ("switched", .string(Timestamp.formatDate(report.switchDate))),
                ("draws", .integer(report.draws)),
                ("seed", .number(String(report.seed))),
                ("currency", report.currency.map { .string($0) }),
                (
                    "proceeds",
                    .members([
                        ("compared", .bool(proceeds.isCompared)),
                        ("in", proceeds.currency.map { .string($0) }),
                        ("rates", .members(proceeds.rates.sorted { $0.key < $1.key }.map { ($0.key, .number(SimulationRenderer.number($0.value))) })),
                        (
                            "byCurrency",
                            .members(proceeds.totals.sorted { $0.key < $1.key }.map { ($0.key, .number(String(format: "%.2f", $0.value))) })
                        ),
                        ("notCompared", proceeds.notCompared.map { .string($0) }),
                    ])
                ),
                ("months", .array(months)),
                ("assumptions", .array(implied)),
                ("refit", .array(refits)),
                ("verdict", verdict(report.verdictBefore)),
                ("verdictWithRefit", report.verdictAfter.map(verdict)),
                ("overlaps", .array(report.overlaps.map { .string($0) })),
                ("notes", .array(report.notes.filter { !report.overlaps.contains($0) }.map { .string($0) })),
            ]))
    }
}
