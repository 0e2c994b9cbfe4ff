import Foundation
import MigrateSimulation

/// The month-by-month comparison: a chart of cumulative proceeds with the uncertainty band and its unit, the two
/// break-even figures said once each, and the tables behind the chart (`simulate`'s what-if table, in two parts that
/// each fit the page): every figure the chart's description names is in them.
enum ReportForecast {
    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        var body =
            "<figure>\n" + chart(input.plan.app.name, result)
            + "<figcaption>\(caption(result, months: months).html)</figcaption>\n</figure>\n"
        body += HTML.heading("Two break-even figures, two questions")
        var terms: [(term: Markup, meaning: Markup)] = []
        if let summary = result.monteCarlo {
            terms.append(
                (
                    "Median break-even: \(FigureText.breakEven(summary.breakEvenMonth(atPercentile: 0.5)))",
                    "Of the \(FigureText.count(summary.draws)) simulated futures, half have caught up with staying paid by this month. "
                        + "It answers: how long will it probably take?"
                ))
        }
        terms.append(
            (
                "Break-even with every assumption at its middle value: \(FigureText.breakEven(result.deterministic.breakEvenMonth))",
                "One forecast, each assumption at its median, and the month its cumulative proceeds first pass staying paid's. It answers: "
                    + "what does the typical assumption give? The two differ because the assumptions combine unevenly: a middle value "
                    + "of each does not make the middle future."
            ))
        body += HTML.definitions(terms)
        let middle = middleTable(result)
        body += HTML.table(
            caption: "Proceeds by month with every assumption at its middle value, \(months) months (as 'migrate simulate' prints them)",
            header: middle.header, plain: middle.rows, numeric: Set(0..<middle.header.count))
        if let simulated = simulatedTable(result) {
            body += HTML.table(
                caption: "Cumulative proceeds over the simulated futures, by month", header: simulated.header, plain: simulated.rows,
                numeric: Set(0..<simulated.header.count))
        }
        var notes: [Markup] = [
            "stay paid, freemium: each month's proceeds with every assumption at its middle value; cum.: added up from month 1."
        ]
        if result.monteCarlo != nil {
            notes.append(
                "paid and free P10, P50, P90: cumulative proceeds over the simulated futures; one in ten ends below P10, "
                    + "one in ten above P90, half below P50. The chart draws the P50 lines and the P10–P90 bands.")
        }
        body += "<div class=\"notes\">\n" + notes.map { HTML.paragraph($0) }.joined() + "</div>\n"
        return HTML.section("forecast", "Month by month", body)
    }

    static func caption(_ result: ScenarioResult, months: Int) -> Markup {
        var text: Markup = "Cumulative proceeds over \(months) months, \(unit): staying paid (dashed) against going free (solid)"
        if let summary = result.monteCarlo {
            text +=
                "; the lines are the median (P50) and the shaded bands hold the middle 80% of \(FigureText.count(summary.draws)) simulated futures (P10 to P90)"
        }
        return text + "."
    }

    /// The unit of the chart's axis: the currency the page's amounts are in.
    static var unit: String {
        guard let currency = FigureText.style.currency, currency != FigureStyle.unnamedCurrency else {
            return "in the plan's currency (\(FigureStyle.unnamedCurrency.symbol))"
        }
        return "in \(currency.code) (\(currency.symbol))"
    }

    /// `simulate`'s what-if table, its columns with every assumption at its middle value.
    static func middleTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        let series = result.deterministic
        let cumulativePaid = series.cumulativePaid
        let cumulativeFreemium = series.cumulativeFreemium
        let money = FigureText.money
        let rows = series.paid.indices.map { month in
            [
                String(month + 1), money(series.paid[month]), money(series.freemium[month]), money(cumulativePaid[month]),
                money(cumulativeFreemium[month]),
            ]
        }
        return (["month", "stay paid", "freemium", "cum. paid", "cum. freemium"], rows)
    }

    /// `simulate`'s what-if table, its columns over the simulated futures, with staying paid's median the chart draws.
    static func simulatedTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]])? {
        guard let summary = result.monteCarlo else { return nil }
        let money = FigureText.money
        let rows = summary.cumulativePaid.indices.map { month in
            let paid = summary.cumulativePaid[month]
            let free = summary.cumulativeFreemium[month]
            return [String(month + 1), money(paid.p10), money(paid.p50), money(paid.p90), money(free.p10), money(free.p50), money(free.p90)]
        }
        return (["month", "paid P10", "paid P50", "paid P90", "free P10", "free P50", "free P90"], rows)
    }

    // MARK: The chart

    struct Line {
        var low: [Double]
        var mid: [Double]
        var high: [Double]
    }

    static func lines(_ result: ScenarioResult) -> (paid: Line, free: Line) {
        if let summary = result.monteCarlo {
            func line(_ items: [Percentiles]) -> Line { Line(low: items.map(\.p10), mid: items.map(\.p50), high: items.map(\.p90)) }
            return (line(summary.cumulativePaid), line(summary.cumulativeFreemium))
        }
        let paid = result.deterministic.cumulativePaid
        let free = result.deterministic.cumulativeFreemium
        return (Line(low: paid, mid: paid, high: paid), Line(low: free, mid: free, high: free))
    }

    /// The chart's description: where each line ends, in the figures of the tables' last row.
    static func description(_ result: ScenarioResult) -> String {
        let (paid, free) = lines(result)
        let months = paid.mid.count
        let last = months - 1
        let money = FigureText.money
        var text = "Line chart, months 1 to \(months), cumulative proceeds \(unit). "
        if result.monteCarlo != nil {
            text +=
                "By month \(months), staying paid reaches \(money(paid.mid[last])) at the median (P10 \(money(paid.low[last])), "
                + "P90 \(money(paid.high[last]))); going free reaches \(money(free.mid[last])) at the median (P10 \(money(free.low[last])), "
                + "P90 \(money(free.high[last])))."
        } else {
            text += "By month \(months), staying paid reaches \(money(paid.mid[last])); going free reaches \(money(free.mid[last]))."
        }
        if result.verdict.cannotCompare == nil { text += " Break-even: \(FigureText.breakEven(result.verdict.breakEvenMonth))." }
        return text
    }

    /// An SVG that scales to its box, its text at least 11 px wide on a 320 px phone: the text alternative is its title
    /// and description.
    static func chart(_ appName: String, _ result: ScenarioResult) -> String {
        let (paid, free) = lines(result)
        let months = paid.mid.count
        let width = 560.0
        let height = 330.0
        let left = 74.0
        let right = width - 14
        let top = 40.0
        let bottom = height - 56
        let maximum = niceCeiling(max(paid.high.max() ?? 0, free.high.max() ?? 0, paid.mid.max() ?? 0, free.mid.max() ?? 0))
        func x(_ month: Int) -> Double { left + (right - left) * Double(month) / Double(max(months - 1, 1)) }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * min(max(value, 0), maximum) / maximum }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        func points(_ values: [Double]) -> String { values.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element)))" }.joined(separator: " ") }

        let title = "\(HTML.escape(appName)): cumulative proceeds, staying paid against going free"
        var out = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"chart-title chart-desc\" "
        out += "xmlns=\"http://www.w3.org/2000/svg\">\n"
        out += "<title id=\"chart-title\">\(title)</title>\n<desc id=\"chart-desc\">\(HTML.escape(description(result)))</desc>\n"
        // The unit, above the axis it measures.
        out += "<text class=\"axis unit\" x=\"\(f(8))\" y=\"\(f(20))\">\(HTML.escape("cumulative proceeds, \(unit)"))</text>\n"
        // Grid and axes.
        for tick in 0...4 {
            let value = maximum * Double(tick) / 4
            out += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y(value)))\" x2=\"\(f(right))\" y2=\"\(f(y(value)))\"/>\n"
            out += "<text class=\"axis\" x=\"\(f(left - 6))\" y=\"\(f(y(value) + 6))\" text-anchor=\"end\">\(HTML.escape(compact(value)))</text>\n"
        }
        let step = max(1, Int((Double(months) / 6).rounded(.up)))
        for month in stride(from: 0, to: months, by: step) {
            out += "<text class=\"axis\" x=\"\(f(x(month)))\" y=\"\(f(bottom + 24))\" text-anchor=\"middle\">\(month + 1)</text>\n"
        }
        out += "<text class=\"axis\" x=\"\(f((left + right) / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">month after the switch</text>\n"
        // Bands first, then lines.
        if result.monteCarlo != nil {
            out += "<polygon class=\"band paid\" points=\"\(points(paid.high)) \(reversedPoints(paid.low, x: x, y: y))\"/>\n"
            out += "<polygon class=\"band free\" points=\"\(points(free.high)) \(reversedPoints(free.low, x: x, y: y))\"/>\n"
        }
        out += "<polyline class=\"line paid\" points=\"\(points(paid.mid))\"/>\n"
        out += "<polyline class=\"line free\" points=\"\(points(free.mid))\"/>\n"
        if let month = result.verdict.breakEvenMonth, result.verdict.cannotCompare == nil {
            out += "<line class=\"break-even\" x1=\"\(f(x(month - 1)))\" y1=\"\(f(top))\" x2=\"\(f(x(month - 1)))\" y2=\"\(f(bottom))\"/>\n"
        }
        // The legend, inside the plot's top left.
        out += "<g class=\"legend\">\n"
        out += "<line class=\"line free\" x1=\"\(f(left + 12))\" y1=\"\(f(top + 14))\" x2=\"\(f(left + 40))\" y2=\"\(f(top + 14))\"/>\n"
        out += "<text x=\"\(f(left + 46))\" y=\"\(f(top + 20))\">going free</text>\n"
        out += "<line class=\"line paid\" x1=\"\(f(left + 12))\" y1=\"\(f(top + 38))\" x2=\"\(f(left + 40))\" y2=\"\(f(top + 38))\"/>\n"
        out += "<text x=\"\(f(left + 46))\" y=\"\(f(top + 44))\">staying paid</text>\n"
        out += "</g>\n</svg>\n"
        return out
    }

    static func reversedPoints(_ values: [Double], x: (Int) -> Double, y: (Double) -> Double) -> String {
        values.indices.reversed().map { String(format: "%.1f,%.1f", x($0), y(values[$0])) }.joined(separator: " ")
    }

    static func niceCeiling(_ value: Double) -> Double { RevenueChart.niceCeiling(value) }

    static func compact(_ value: Double) -> String { FigureText.compact(value) }
}
