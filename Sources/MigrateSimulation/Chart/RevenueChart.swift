import Foundation

/// A hand-written SVG of a simulation: monthly freemium proceeds with the P10–P90 band per scenario
/// against staying paid and its own band, and the cumulative proceeds with each scenario's break-even month.
public enum RevenueChart {
    static let width = 1080.0
    static let palette = ["#1f6fb2", "#d1495b", "#2e8540", "#8e5bb5", "#e08a00", "#00838f"]
    static let paidColour = "#555555"

    struct Panel {
        var top: Double
        var height: Double
        var left = 96.0
        var right = 700.0
        var yMax: Double
        var months: Int

        func x(_ month: Int) -> Double { left + (right - left) * Double(month - 1) / Double(max(months - 1, 1)) }
        func y(_ value: Double) -> Double { top + height - height * min(max(value, 0), yMax) / yMax }
    }

    public static func svg(_ report: SimulationReport) -> String {
        let months = report.months
        let height = 760.0
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(Int(width / 2))" y="28" text-anchor="middle" font-size="18" font-weight="bold">\(escape(report.appName)): staying paid or going freemium</text>

            """
        let monthlyBands = report.scenarios.map { result in band(result, cumulative: false) }
        let cumulativeBands = report.scenarios.map { result in band(result, cumulative: true) }
        let monthlyPaid = report.scenarios.first.map { paidLine($0, cumulative: false) } ?? []
        let cumulativePaid = report.scenarios.first.map { paidLine($0, cumulative: true) } ?? []
        let paidMonthly = report.scenarios.first.map { paidBand($0, cumulative: false) } ?? []
        let paidCumulative = report.scenarios.first.map { paidBand($0, cumulative: true) } ?? []
        let monthlyMax = niceCeiling((monthlyBands.flatMap { $0.map(\.high) } + monthlyPaid + paidMonthly.map(\.high)).max() ?? 1)
        let cumulativeMax = niceCeiling((cumulativeBands.flatMap { $0.map(\.high) } + cumulativePaid + paidCumulative.map(\.high)).max() ?? 1)

        let top = Panel(top: 70, height: 260, yMax: monthlyMax, months: months)
        let bottom = Panel(top: 430, height: 260, yMax: cumulativeMax, months: months)
        out += axes(top, title: "Proceeds per month", yLabel: "proceeds per month")
        out += axes(bottom, title: "Cumulative proceeds, and the month freemium breaks even", yLabel: "cumulative proceeds")

        // Bands are outlines (P10 and P90 joined), never fills, so none hides another or the lines; every band
        // is drawn before any median line, and staying paid's line last.
        out += bandOutline(paidMonthly, panel: top, colour: paidColour, kind: "paid")
        out += bandOutline(paidCumulative, panel: bottom, colour: paidColour, kind: "paid")
        for (index, _) in report.scenarios.enumerated() {
            let colour = palette[index % palette.count]
            out += bandOutline(monthlyBands[index], panel: top, colour: colour, kind: "freemium")
            out += bandOutline(cumulativeBands[index], panel: bottom, colour: colour, kind: "freemium")
        }
        for (index, result) in report.scenarios.enumerated() {
            let colour = palette[index % palette.count]
            // Earlier scenarios' lines are wider, so a line that coincides with a later one still shows round it.
            let width = 2.2 + 1.5 * Double(report.scenarios.count - 1 - index)
            out += polyline(monthlyBands[index].map(\.mid), panel: top, colour: colour, dashed: false, width: width)
            out += polyline(cumulativeBands[index].map(\.mid), panel: bottom, colour: colour, dashed: false, width: width)
            let breakEven = result.monteCarlo != nil ? medianBreakEven(result) : result.deterministic.breakEvenMonth
            if let month = breakEven {
                let x = bottom.x(month)
                out +=
                    "<line class=\"break-even\" x1=\"\(f(x))\" y1=\"\(f(bottom.top))\" x2=\"\(f(x))\" y2=\"\(f(bottom.top + bottom.height))\" stroke=\"\(colour)\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>\n"
            }
            let label =
                breakEven.map { "\(result.scenario.id): breaks even in month \($0)" }
                ?? "\(result.scenario.id): no break-even within \(months) months"
            out +=
                "<text x=\"\(f(bottom.left + 10))\" y=\"\(f(bottom.top + 16 + Double(index) * 16))\" fill=\"\(colour)\" font-size=\"12\">\(escape(label))</text>\n"
        }
        out += polyline(monthlyPaid, panel: top, colour: paidColour, dashed: true)
        out += polyline(cumulativePaid, panel: bottom, colour: paidColour, dashed: true)

        // Legend, to the right of the plots: an entry for every colour drawn.
        var legendY = 90.0
        let legendX = 722.0
        let hasBands = report.scenarios.first?.monteCarlo != nil
        out += "<g class=\"legend\">\n"
        out += "<text x=\"\(f(legendX))\" y=\"\(f(legendY - 20))\" font-weight=\"bold\">Legend</text>\n"
        for (index, result) in report.scenarios.enumerated() {
            let colour = palette[index % palette.count]
            out += legendSwatch(x: legendX, y: legendY, colour: colour, dashed: false, band: hasBands)
            out += "<text x=\"\(f(legendX + 30))\" y=\"\(f(legendY))\">freemium: \(escape(result.scenario.id))</text>\n"
            legendY += 22
        }
        out += legendSwatch(x: legendX, y: legendY, colour: paidColour, dashed: true, band: hasBands)
        out += "<text x=\"\(f(legendX + 30))\" y=\"\(f(legendY))\">staying paid</text>\n"
        legendY += 26
        let note =
            report.scenarios.first?.monteCarlo.map { "Lines: median (P50) of \($0.draws) draws, seed \($0.seed);" }
            ?? "Lines: every assumption at its median."
        for line in [
            note, hasBands ? "thin outlines: P10 to P90." : "No Monte Carlo draws: no band.", "Proceeds after Apple's commission",
            "and refunds, in the plan's currency.",
        ] {
            out += "<text x=\"\(f(legendX))\" y=\"\(f(legendY))\" font-size=\"12\" fill=\"#444444\">\(escape(line))</text>\n"
            legendY += 16
        }
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }

    struct BandPoint {
        var low: Double
        var mid: Double
        var high: Double
    }

    static func band(_ result: ScenarioResult, cumulative: Bool) -> [BandPoint] {
        if let summary = result.monteCarlo {
            let series = cumulative ? summary.cumulativeFreemium : summary.monthlyFreemium
            return series.map { BandPoint(low: $0.p10, mid: $0.p50, high: $0.p90) }
        }
        let series = cumulative ? result.deterministic.cumulativeFreemium : result.deterministic.freemium
        return series.map { BandPoint(low: $0, mid: $0, high: $0) }
    }

    static func paidLine(_ result: ScenarioResult, cumulative: Bool) -> [Double] {
        if let summary = result.monteCarlo {
            return (cumulative ? summary.cumulativePaid : summary.monthlyPaid).map(\.p50)
        }
        return cumulative ? result.deterministic.cumulativePaid : result.deterministic.paid
    }

    static func medianBreakEven(_ result: ScenarioResult) -> Int? {
        result.monteCarlo?.breakEvenMonth(atPercentile: 0.5)
    }

    static func axes(_ panel: Panel, title: String, yLabel: String) -> String {
        var out = "<text x=\"\(f(panel.left))\" y=\"\(f(panel.top - 14))\" font-size=\"15\" font-weight=\"bold\">\(escape(title))</text>\n"
        out += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n"
        let ticks = 5
        for tick in 0...ticks {
            let value = panel.yMax * Double(tick) / Double(ticks)
            out += "<line x1=\"\(f(panel.left))\" y1=\"\(f(panel.y(value)))\" x2=\"\(f(panel.right))\" y2=\"\(f(panel.y(value)))\"/>\n"
        }
        out += "</g>\n"
        out += "<g font-size=\"12\" fill=\"#333333\">\n"
        for tick in 0...ticks {
            let value = panel.yMax * Double(tick) / Double(ticks)
            out += "<text x=\"\(f(panel.left - 8))\" y=\"\(f(panel.y(value) + 4))\" text-anchor=\"end\">\(escape(compact(value)))</text>\n"
        }
        let step = max(1, Int((Double(panel.months) / 12).rounded(.up)))
        var month = 1
        while month <= panel.months {
            out +=
                "<line x1=\"\(f(panel.x(month)))\" y1=\"\(f(panel.top + panel.height))\" x2=\"\(f(panel.x(month)))\" y2=\"\(f(panel.top + panel.height + 5))\" stroke=\"#333333\"/>\n"
            out += "<text x=\"\(f(panel.x(month)))\" y=\"\(f(panel.top + panel.height + 19))\" text-anchor=\"middle\">\(month)</text>\n"
            month += step
        }
        out += "</g>\n"
        out +=
            "<line x1=\"\(f(panel.left))\" y1=\"\(f(panel.top + panel.height))\" x2=\"\(f(panel.right))\" y2=\"\(f(panel.top + panel.height))\" stroke=\"#333333\"/>\n"
        out +=
            "<line x1=\"\(f(panel.left))\" y1=\"\(f(panel.top))\" x2=\"\(f(panel.left))\" y2=\"\(f(panel.top + panel.height))\" stroke=\"#333333\"/>\n"
        out +=
            "<text x=\"\(f((panel.left + panel.right) / 2))\" y=\"\(f(panel.top + panel.height + 38))\" text-anchor=\"middle\">month after the switch</text>\n"
        let cy = panel.top + panel.height / 2
        out += "<text x=\"24\" y=\"\(f(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 24 \(f(cy)))\">\(escape(yLabel))</text>\n"
        return out
    }

    /// The P10–P90 band as an outline with no fill: nothing under it is hidden.
    static func bandOutline(_ points: [BandPoint], panel: Panel, colour: String, kind: String) -> String {
        guard points.contains(where: { $0.high > $0.low }) else { return "" }
        let upper = points.enumerated().map { "\(f(panel.x($0.offset + 1))),\(f(panel.y($0.element.high)))" }
        let lower = points.enumerated().reversed().map { "\(f(panel.x($0.offset + 1))),\(f(panel.y($0.element.low)))" }
        return
            "<polygon class=\"band \(kind)\" points=\"\((upper + lower).joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\" stroke-opacity=\"0.7\" stroke-dasharray=\"1 2\"/>\n"
    }

    static func legendSwatch(x: Double, y: Double, colour: String, dashed: Bool, band: Bool) -> String {
        var out = ""
        if band {
            out +=
                "<rect x=\"\(f(x))\" y=\"\(f(y - 10))\" width=\"22\" height=\"12\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\" stroke-opacity=\"0.7\" stroke-dasharray=\"1 2\"/>\n"
        }
        out +=
            "<line x1=\"\(f(x))\" y1=\"\(f(y - 4))\" x2=\"\(f(x + 22))\" y2=\"\(f(y - 4))\" stroke=\"\(colour)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
        return out
    }

    static func paidBand(_ result: ScenarioResult, cumulative: Bool) -> [BandPoint] {
        guard let summary = result.monteCarlo else { return [] }
        return (cumulative ? summary.cumulativePaid : summary.monthlyPaid).map { BandPoint(low: $0.p10, mid: $0.p50, high: $0.p90) }
    }

    static func polyline(_ values: [Double], panel: Panel, colour: String, dashed: Bool, width: Double = 2.2) -> String {
        guard !values.isEmpty else { return "" }
        let points = values.enumerated().map { "\(f(panel.x($0.offset + 1))),\(f(panel.y($0.element)))" }.joined(separator: " ")
        return
            "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(f(width))\"\(dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
    }

    /// 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten, at or above `value`.
    public static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for factor in [1.0, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where factor * magnitude >= value { return factor * magnitude }
        return 10 * magnitude
    }

    /// 1.5k, 20k, 1.2M.
    public static func compact(_ value: Double) -> String {
        func trimmed(_ number: Double) -> String {
            let text = String(format: "%.1f", number)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        if value >= 1e9 { return trimmed(value / 1e9) + "B" }
        if value >= 1e6 { return trimmed(value / 1e6) + "M" }
        if value >= 1e3 { return trimmed(value / 1e3) + "k" }
        return trimmed(value)
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
