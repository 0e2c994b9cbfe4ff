import Testing

@testable import MigrateCLI

/// `TextTable` measures what a terminal shows: the colour codes `Style` adds take no columns.
@Suite(.timeLimit(.minutes(20))) struct TextTableTests {
    static func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{E01B}[", with: "\u{1}").split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated()
            .map { index, piece in index == 0 ? String(piece) : String(piece.drop { $0 != "m" }.dropFirst()) }.joined()
    }

    static let rows = [
        ["✓", "themes", "Themes", "bought in 1.0 (1), a paid release before the switch, and kept free after it"],
        ["✗", "sync", "Sync", "sold in com.example.tally.sync (2.99)"],
    ]

    @Test("a coloured table lines up and wraps as the same table without colour", arguments: [nil, 40, 60])
    func colourTakesNoColumns(maxWidth: Int?) {
        let style = Style(enabled: true)
        // A column where one cell is coloured and another is not, as `explain` prints its features.
        let coloured = Self.rows.map { $0[0] == "✓" ? [style.green($0[0]), style.bold($0[1])] + $0.dropFirst(2) : $0 }
        let plain = TextTable(rows: Self.rows, maxWidth: maxWidth).lines()
        let shown = TextTable(rows: coloured, maxWidth: maxWidth).lines().map(Self.plain)
        #expect(shown == plain)
        #expect(coloured[0][0].visibleCount == 1 && coloured[0][0].count > 1)
    }

    @Test(
        "wrap counts a word's visible columns; the first line may have its own width",
        arguments: [
            ("aaa \u{E01B}[2mbbb\u{E01B}[0m ccc", 7, nil, ["aaa bbb", "ccc"]),
            ("aaa bbb ccc ddd", 7, 3, ["aaa", "bbb ccc", "ddd"]),
            ("aaa bbb ccc ddd", 3, 11, ["aaa bbb ccc", "ddd"]),
        ])
    func wrap(text: String, width: Int, firstWidth: Int?, expected: [String]) {
        #expect(TextTable.wrap(text, width: width, firstWidth: firstWidth).map(Self.plain) == expected)
    }

    @Test func paragraphLeads() {
        let style = Style(enabled: true)
        let lines = TextTable.paragraph("one two three four", first: "  " + style.yellow("Sorry: "), rest: "    ", width: 20)
        #expect(lines.map(Self.plain) == ["  Sorry: one two", "    three four"])
    }
}
