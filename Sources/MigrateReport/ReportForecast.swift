import Foundation
import MigrateSimulation

/// The month-by-month comparison: a chart of cumulative proceeds with the uncertainty band, the two
/// break-even figures said once each, and the table behind the chart (`simulate`'s what-if table).
enum ReportForecast {
    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        var body =
            "<figure>\n" + chart(input.plan.app.name, result)
            + "<figcaption>\(HTML.escape(caption(result, months: months)))</figcaption>\n</figure>\n"
        body += "<h3>Two break-even figures, two questions</h3>\n"
        var terms: [(term: String, meaning: String)] = []
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
        let table = monthlyTable(result)
        body += HTML.table(
            caption: "Proceeds by month, \(months) months (as 'migrate simulate' prints them)", header: table.header, rows: table.rows,
            numeric: Set(0..<table.header.count))
        var notes = [
            "stay paid, freemium: each month's proceeds with every assumption at its middle value; cum.: added up from month 1."
        ]
        if result.monteCarlo != nil {
            notes.append(
                "paid P10, P90 and free P10, P50, P90: cumulative proceeds over the simulated futures; one in ten ends below P10, "
                    + "one in ten above P90, half below P50.")
        }
        body += "<div class=\"notes\">\n" + notes.map { HTML.paragraph($0) }.joined() + "</div>\n"
        return HTML.section("forecast", "Month by month", body)
    }

    static func caption(_ result: ScenarioResult, months: Int) -> String {
        var text = "Cumulative proceeds over \(months) months: staying paid (dashed) against going free (solid)"
        if let summary = result.monteCarlo {
            text += "; the shaded band holds the middle 80% of \(FigureText.count(summary.draws)) simulated futures (P10 to P90)"
        }
        return text + "."
    }

    /// `simulate`'s what-if table: the same columns and the same figures.
    static func monthlyTable(_ result: ScenarioResult) -> (header: [String], rows: [[String]]) {
        var header = ["month", "stay paid", "freemium", "cum. paid", "cum. freemium"]
        if result.monteCarlo != nil { header += ["paid P10", "paid P90", "free P10", "free P50", "free P90"] }
        let series = result.deterministic
        let cumulativePaid = series.cumulativePaid
        let cumulativeFreemium = series.cumulativeFreemium
        let money = FigureText.money
        let rows = series.paid.indices.map { month in
            var row = [
                String(month + 1), money(series.paid[month]), money(series.freemium[month]), money(cumulativePaid[month]),
                money(cumulativeFreemium[month]),
            ]
            if let summary = result.monteCarlo {
                let paid = summary.cumulativePaid[month]
                let free = summary.cumulativeFreemium[month]
                row += [money(paid.p10), money(paid.p90), money(free.p10), money(free.p50), money(free.p90)]
            }
            return row
        }
        return (header, rows)
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

    /// An SVG that scales to its box: the text alternative is its title and description.
    static func chart(_ appName: String, _ result: ScenarioResult) -> String {
        let (paid, free) = lines(result)
        let months = paid.mid.count
        let width = 640.0
        let height = 340.0
        let left = 64.0
        let right = width - 16
        let top = 20.0
        let bottom = height - 52
        let maximum = niceCeiling(max(paid.high.max() ?? 0, free.high.max() ?? 0, paid.mid.max() ?? 0, free.mid.max() ?? 0))
        func x(_ month: Int) -> Double { left + (right - left) * Double(month) / Double(max(months - 1, 1)) }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * min(max(value, 0), maximum) / maximum }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        func points(_ values: [Double]) -> String { values.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element)))" }.joined(separator: " ") }

        let last = months - 1
        let paidEnd = FigureText.money(paid.mid.last ?? 0)
        let freeEnd = FigureText.money(free.mid.last ?? 0)
        var description = "Line chart, months 1 to \(months). Staying paid reaches \(paidEnd) by month \(months); going free reaches \(freeEnd)"
        if result.monteCarlo != nil {
            description += " at the median, between \(FigureText.money(free.low[last])) (P10) and \(FigureText.money(free.high[last])) (P90)"
        }
        description += ". " + (result.verdict.cannotCompare == nil ? "Break-even: \(FigureText.breakEven(result.verdict.breakEvenMonth))." : "")
        let title = "\(appName): cumulative proceeds, staying paid against going free"
        var out = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"chart-title chart-desc\" "
        out += "xmlns=\"http://www.w3.org/2000/svg\">\n"
        out += "<title id=\"chart-title\">\(HTML.escape(title))</title>\n<desc id=\"chart-desc\">\(HTML.escape(description))</desc>\n"
        // Grid and axes.
        for tick in 0...4 {
            let value = maximum * Double(tick) / 4
            out += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y(value)))\" x2=\"\(f(right))\" y2=\"\(f(y(value)))\"/>\n"
            out += "<text class=\"axis\" x=\"\(f(left - 6))\" y=\"\(f(y(value) + 5))\" text-anchor=\"end\">\(compact(value))</text>\n"
        }
        let step = max(1, Int((Double(months) / 6).rounded(.up)))
        for month in stride(from: 0, to: months, by: step) {
            out += "<text class=\"axis\" x=\"\(f(x(month)))\" y=\"\(f(bottom + 20))\" text-anchor=\"middle\">\(month + 1)</text>\n"
        }
        out += "<text class=\"axis\" x=\"\(f((left + right) / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">month after the switch</text>\n"
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
        out += "<line class=\"line free\" x1=\"\(f(left + 12))\" y1=\"\(f(top + 12))\" x2=\"\(f(left + 40))\" y2=\"\(f(top + 12))\"/>\n"
        out += "<text x=\"\(f(left + 46))\" y=\"\(f(top + 17))\">going free</text>\n"
        out += "<line class=\"line paid\" x1=\"\(f(left + 12))\" y1=\"\(f(top + 34))\" x2=\"\(f(left + 40))\" y2=\"\(f(top + 34))\"/>\n"
        out += "<text x=\"\(f(left + 46))\" y=\"\(f(top + 39))\">staying paid</text>\n"
        out += "</g>\n</svg>\n"
        return out
    }

    static func reversedPoints(_ values: [Double], x: (Int) -> Double, y: (Double) -> Double) -> String {
        values.indices.reversed().map { String(format: "%.1f,%.1f", x($0), y(values[$0])) }.joined(separator: " ")
    }

    static func niceCeiling(_ value: Double) -> Double { RevenueChart.niceCeiling(value) }

    static func compact(_ value: Double) -> String { RevenueChart.compact(value) }
}
