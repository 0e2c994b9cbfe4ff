import Foundation
import MigrateCore
import MigratePlan
import MigrateSimulation

/// Turns a simulation report into text, Markdown, CSV or JSON. The first scenario is shown in detail;
/// every scenario is compared side by side.
struct SimulationRenderer {
    var report: SimulationReport
    var style: Style

    // MARK: Numbers

    /// 12,345 (whole units of the plan's currency), with a minus sign when negative.
    /// Any finite amount prints in full (no Int64 conversion, so no trap past 9.2e18); infinity or NaN prints "—".
    static func money(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let rounded = value.rounded()
        let digits = String(format: "%.0f", abs(rounded))
        var grouped = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped += "," }
            grouped.append(character)
        }
        return (rounded < 0 ? "−" : "") + grouped
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: abs(value) >= 10 ? "%.1f" : abs(value) >= 1 ? "%.2f" : "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    static func describe(_ distribution: Distribution) -> String {
        switch distribution {
        case .point(let value): number(value)
        case .uniform(let low, let high): "uniform \(number(low))–\(number(high))"
        case .triangular(let low, let mode, let high): "triangular \(number(low)) / \(number(mode)) / \(number(high))"
        case .logNormal(let low, let high): "log-normal, P10 \(number(low)), P90 \(number(high))"
        }
    }

    static func breakEven(_ month: Int?) -> String { month.map { "month \($0)" } ?? "not within the horizon" }

    static func size(_ value: Double?) -> String { value.map { money($0) } ?? "—" }

    func commissionText(_ commission: Commission) -> String {
        commission == .standard ? "standard commission (30%; 15% on subscriptions after a subscriber's first year)" : "Small Business Program (15%)"
    }

    // MARK: Tables shared by text and Markdown

    func cohortTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        let plan = result.scenario.plan
        let header = ["cohort", "platform", "owns", "size", "entitlements", "offers", "reason"]
        let rows = result.cohorts.map { row in
            [
                row.cohort, row.platform.rawValue, row.owns.isEmpty ? "nothing" : row.owns.map { plan.product(withID: $0)?.name ?? $0 }.joined(separator: ", "),
                Self.size(row.size), row.entitlements.isEmpty ? "—" : row.entitlements.joined(separator: ", "),
                row.offers.isEmpty ? "none" : row.offers.map { "\($0.name) \($0.priceText)" }.joined(separator: ", "), row.reason,
            ]
        }
        return (header, rows)
    }

    func monthlyTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        var header = ["month", "stay paid", "freemium", "cum. paid", "cum. freemium"]
        if result.monteCarlo != nil { header += ["cum. freemium P10", "P50", "P90"] }
        let series = result.deterministic
        let cumulativePaid = series.cumulativePaid, cumulativeFreemium = series.cumulativeFreemium
        let rows = series.paid.indices.map { month in
            var row = [
                String(month + 1), Self.money(series.paid[month]), Self.money(series.freemium[month]), Self.money(cumulativePaid[month]),
                Self.money(cumulativeFreemium[month]),
            ]
            if let summary = result.monteCarlo {
                let p = summary.cumulativeFreemium[month]
                row += [Self.money(p.p10), Self.money(p.p50), Self.money(p.p90)]
            }
            return row
        }
        return (header, rows)
    }

    func comparisonTable() -> (header: [String], rows: [[String]]) {
        let months = report.months
        var header = ["scenario", "cum. paid", "cum. freemium", "break-even"]
        let hasDraws = report.scenarios.contains { $0.monteCarlo != nil }
        if hasDraws { header += ["P10", "P50", "P90", "P(freemium wins)", "break-even P50"] }
        let rows = report.scenarios.map { result in
            var row = [
                result.scenario.id, Self.money(result.deterministic.cumulativePaid.last ?? 0), Self.money(result.deterministic.cumulativeFreemium.last ?? 0),
                Self.breakEven(result.deterministic.breakEvenMonth),
            ]
            if let summary = result.monteCarlo {
                let p = summary.cumulativeFreemium[months - 1]
                row += [
                    Self.money(p.p10), Self.money(p.p50), Self.money(p.p90), Self.percent(summary.probabilityFreemiumWins),
                    Self.breakEven(summary.breakEvenMonth(atPercentile: 0.5)),
                ]
            } else if hasDraws {
                row += ["", "", "", "", ""]
            }
            return row
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
        let model = result.scenario.model
        let rows = result.scenario.assumptions.map { resolved -> [String] in
            var value = Self.describe(resolved.distribution)
            if resolved.assumption == .legacyBuyers && result.scenario.medians[2].isNaN {
                value = Self.number((model.legacyBuyers(result.scenario.medians)).rounded())
            }
            return [resolved.assumption.rawValue, value, resolved.source.replacingOccurrences(of: "derived: ", with: "derived: ")]
        }
        return (header, rows)
    }

    func sweepTable(_ sweep: SweepResult, limit: Int) -> (header: [String], rows: [[String]]) {
        let header = sweep.specs.map { $0.target.description } + ["cum. freemium", "cum. paid", "advantage", "break-even"]
        let rows = sweep.points.prefix(limit).map { point in
            point.settings.map { Self.number($0.1) } + [
                Self.money(point.series.cumulativeFreemium.last ?? 0), Self.money(point.series.cumulativePaid.last ?? 0), Self.money(point.series.advantage),
                Self.breakEven(point.series.breakEvenMonth),
            ]
        }
        return (header, rows)
    }

    // MARK: Text

    func text() -> String {
        guard let first = report.scenarios.first else { return "" }
        var out = ""
        func table(_ content: (header: [String], rows: [[String]]), rightAligned: Set<Int> = []) {
            let lines = TextTable(rows: [content.header] + content.rows, rightAligned: rightAligned).lines()
            for (index, line) in lines.enumerated() {
                out += "  " + (index == 0 ? style.bold(line) : line) + "\n"
            }
        }
        let name = first.scenario.id == PreparedScenario.baseID ? "the plan as written" : "scenario '\(first.scenario.id)'"
        out += style.bold("Cohort preview: \(report.appName), \(name)") + "\n"
        table(cohortTable(first), rightAligned: [3])
        out += style.dim("  size: people in each state by month \(report.months) (legacy buyers, new downloads, expected buyers of each offer)") + "\n\n"

        out += style.bold("What-if revenue: \(name), \(report.months) months, \(commissionText(first.scenario.model.commission))") + "\n"
        table(monthlyTable(first), rightAligned: Set(0..<8))
        out += "  Break-even: \(Self.breakEven(first.deterministic.breakEvenMonth)) (every assumption at its median)\n"
        if let summary = first.monteCarlo {
            out += "  Monte Carlo: \(Self.money(Double(summary.draws))) draws, seed \(summary.seed): freemium beats staying paid after \(report.months) months in "
                + style.bold(Self.percent(summary.probabilityFreemiumWins)) + " of draws; break-even P10 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.1))), P50 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.5))), P90 \(Self.breakEven(summary.breakEvenMonth(atPercentile: 0.9)))\n"
        }
        out += "  " + style.dim("Proceeds after commission and refunds, in the plan's currency.") + "\n\n"

        out += style.bold("Scenarios compared after \(report.months) months") + "\n"
        table(comparisonTable(), rightAligned: [1, 2, 4, 5, 6, 7])
        out += "\n"
        out += style.bold("Sensitivity: freemium minus staying paid after \(report.months) months, each assumption over its range") + "\n"
        table(sensitivityTable(first), rightAligned: [1, 2, 3, 4, 5])
        if let sweep = report.sweep {
            out += "\n" + style.bold("Sweep over \(sweep.specs.map(\.target.description).joined(separator: " × ")) (\(sweep.points.count) settings, scenario '\(sweep.scenarioID)'), best first") + "\n"
            table(sweepTable(sweep, limit: 10), rightAligned: Set(0..<(sweep.specs.count + 3)))
            if let best = sweep.points.first {
                out += "  Best: " + best.settings.map { "\($0.0) = \(Self.number($0.1))" }.joined(separator: ", ") + "\n"
            }
        }
        out += "\n" + style.bold("Assumptions: \(name)") + "\n"
        table(assumptionTable(first))
        return out
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
        var out = "scenario,month,stay_paid,freemium,cumulative_paid,cumulative_freemium,cumulative_freemium_p10,cumulative_freemium_p50,cumulative_freemium_p90,monthly_freemium_p10,monthly_freemium_p90\n"
        func field(_ text: String) -> String {
            text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func value(_ number: Double) -> String { String(format: "%.2f", number) }
        for result in report.scenarios {
            let series = result.deterministic
            let cumulativePaid = series.cumulativePaid, cumulativeFreemium = series.cumulativeFreemium
            for month in series.paid.indices {
                var row = [field(result.scenario.id), String(month + 1), value(series.paid[month]), value(series.freemium[month]), value(cumulativePaid[month]), value(cumulativeFreemium[month])]
                if let summary = result.monteCarlo {
                    let p = summary.cumulativeFreemium[month], m = summary.monthlyFreemium[month]
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

    func json() -> String {
        func number(_ value: Double) -> JSONValue { .number(String(format: "%.2f", value)) }
        func plain(_ value: Double) -> JSONValue { .number(Self.number(value)) }
        let scenarios: [JSONValue] = report.scenarios.map { result in
            let series = result.deterministic
            let cumulativePaid = series.cumulativePaid, cumulativeFreemium = series.cumulativeFreemium
            var monteCarlo: JSONValue?
            if let summary = result.monteCarlo {
                func percentiles(_ items: [Percentiles]) -> JSONValue {
                    .array(items.map { .object(["p10": number($0.p10), "p50": number($0.p50), "p90": number($0.p90)]) })
                }
                monteCarlo = .members([
                    ("draws", .integer(summary.draws)),
                    ("seed", .number(String(summary.seed))),
                    ("probabilityFreemiumWins", .number(String(format: "%.4f", summary.probabilityFreemiumWins))),
                    ("breakEvenMonth", .object(["p10": summary.breakEvenMonth(atPercentile: 0.1).map { .integer($0) } ?? .null, "p50": summary.breakEvenMonth(atPercentile: 0.5).map { .integer($0) } ?? .null, "p90": summary.breakEvenMonth(atPercentile: 0.9).map { .integer($0) } ?? .null])),
                    ("breakEvenCounts", .array(summary.breakEven.map { .integer($0) })),
                    ("cumulativePaid", percentiles(summary.cumulativePaid)),
                    ("cumulativeFreemium", percentiles(summary.cumulativeFreemium)),
                    ("monthlyFreemium", percentiles(summary.monthlyFreemium)),
                ])
            }
            return .members([
                ("id", .string(result.scenario.id)),
                ("name", .string(result.scenario.name)),
                ("commission", .string(result.scenario.model.commission.rawValue)),
                (
                    "cohorts",
                    .array(
                        result.cohorts.map { row in
                            .members([
                                ("cohort", .string(row.cohort)),
                                ("tier", row.tierID.map { .string($0) }),
                                ("platform", .string(row.platform.rawValue)),
                                ("owns", .strings(row.owns)),
                                ("size", row.size.map { number($0) } ?? .null),
                                ("entitlements", .strings(row.entitlements)),
                                (
                                    "offers",
                                    .array(
                                        row.offers.map { offer in
                                            .members([
                                                ("product", .string(offer.productID)), ("price", .string(offer.price.description)),
                                                ("regularPrice", offer.regularPrice.map { .string($0.description) }),
                                                ("mechanism", ExplainRenderer.mechanism(offer.charge)),
                                            ])
                                        })
                                ),
                                ("withheld", .strings(row.withheld.map(\.productID))),
                                ("reason", .string(row.reason)),
                            ])
                        })
                ),
                (
                    "assumptions",
                    .array(
                        result.scenario.assumptions.map {
                            .object(["name": .string($0.assumption.rawValue), "value": .string(Self.describe($0.distribution)), "source": .string($0.source)])
                        })
                ),
                (
                    "months",
                    .array(
                        series.paid.indices.map { month in
                            .object([
                                "month": .integer(month + 1), "stayPaid": number(series.paid[month]), "freemium": number(series.freemium[month]),
                                "cumulativePaid": number(cumulativePaid[month]), "cumulativeFreemium": number(cumulativeFreemium[month]),
                            ])
                        })
                ),
                ("breakEvenMonth", series.breakEvenMonth.map { .integer($0) } ?? .null),
                ("monteCarlo", monteCarlo),
                (
                    "sensitivity",
                    .array(
                        result.sensitivity.map {
                            .object([
                                "assumption": .string($0.assumption.rawValue), "low": plain($0.low), "high": plain($0.high),
                                "advantageAtLow": number($0.advantageAtLow), "advantageAtHigh": number($0.advantageAtHigh),
                            ])
                        })
                ),
            ])
        }
        var sweep: JSONValue?
        if let result = report.sweep {
            sweep = .object([
                "scenario": .string(result.scenarioID),
                "points": .array(
                    result.points.map { point in
                        .members(
                            point.settings.map { ($0.0.description, plain($0.1)) } + [
                                ("cumulativeFreemium", number(point.series.cumulativeFreemium.last ?? 0)),
                                ("cumulativePaid", number(point.series.cumulativePaid.last ?? 0)),
                                ("breakEvenMonth", point.series.breakEvenMonth.map { .integer($0) } ?? .null),
                            ])
                    }),
            ])
        }
        return JSONWriter().string(
            from: .members([
                ("app", .string(report.appName)),
                ("horizonMonths", .integer(report.months)),
                ("scenarios", .array(scenarios)),
                ("sweep", sweep),
            ]))
    }
}
