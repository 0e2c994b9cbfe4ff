import Foundation

/// A report page read back for tests: its sections, text without tags, and tables' cells.
struct ReportPage {
    var html: String

    /// `html` without tags, entities decoded, as a reader sees it (the inline style left out).
    static func text(_ html: String) -> String {
        var text = html.replacing(/<style>.*?<\/style>/.dotMatchesNewlines(), with: "")
        text = text.replacing(/<[^>]+>/, with: "")
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    var text: String { Self.text(html) }

    /// The HTML of one section (`verdict`, `warnings`).
    func section(_ id: String) -> String {
        guard let start = html.range(of: "<section id=\"\(id)\""), let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)
        else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The rows of the table captioned `caption` in `section`: each row's cells as text, the row's heading first.
    func rows(in section: String, caption: String? = nil) -> [[String]] {
        var html = self.section(section)
        if let caption, let start = html.range(of: "<caption>\(caption)") {
            html = String(html[start.lowerBound...])
            if let end = html.range(of: "</table>") { html = String(html[..<end.upperBound]) }
        }
        return html.matches(of: /<tr>(.*?)<\/tr>/).compactMap { row -> [String]? in
            let cells = row.1.matches(of: /<t[hd][^>]*>(.*?)<\/t[hd]>/).map { Self.text(String($0.1)) }
            return row.1.hasPrefix("<th scope=\"col\"") ? nil : cells
        }
    }

    /// The cards of the cohort table by the row's heading, each cell by its label.
    func cohortCells() -> [String: [String: String]] {
        var rows: [String: [String: String]] = [:]
        for row in section("cohorts").matches(of: /<tr><th scope="row"[^>]*>(.*?)<\/th>(.*?)<\/tr>/) {
            var cells: [String: String] = [:]
            for cell in row.2.matches(of: /<td[^>]*data-label="([^"]*)">(.*?)<\/td>/) { cells[String(cell.1)] = Self.text(String(cell.2)) }
            rows[Self.text(String(row.1))] = cells
        }
        return rows
    }

    /// The leading amount of a cell ("¤1,234 (¤1,000–¤1,500)" → 1234; "−¤12" → −12).
    static func amount(_ cell: String) -> Double? {
        guard let match = cell.firstMatch(of: /^(−?)[^\d−]*([\d,]+(?:\.\d+)?)/) else { return nil }
        let value = Double(match.2.replacingOccurrences(of: ",", with: ""))
        return match.1.isEmpty ? value : value.map { -$0 }
    }

    /// A figure as `simulate` prints it ("−39,035") as the page writes an amount with the unnamed currency ("−¤39,035").
    static func money(_ figure: some StringProtocol) -> String {
        figure.hasPrefix("−") ? "−¤" + figure.dropFirst() : "¤" + figure
    }
}
