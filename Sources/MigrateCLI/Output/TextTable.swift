/// Columns of text, padded to line up; the last column wraps at word boundaries when a line would pass `maxWidth`.
/// Widths are what a terminal shows: the colour codes `Style` adds take no columns (`visibleCount`).
struct TextTable {
    var rows: [[String]]
    /// Columns padded on the left, for numbers.
    var rightAligned: Set<Int> = []
    /// The widest a line may be (nil: no limit). Only the last column wraps, onto lines indented to it.
    var maxWidth: Int? = nil

    func lines() -> [String] { rowLines().flatMap { $0 } }

    /// The lines of each row: one, or more when its last column wraps.
    func rowLines() -> [[String]] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.visibleCount) }
        }
        let lead = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        // The last column keeps at least 24 characters, so a table of wide columns still reads.
        let lastWidth = maxWidth.map { max(24, $0 - lead) }
        var all: [[String]] = []
        for row in rows {
            var out: [String] = []
            var line = ""
            var wrapped = false
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.visibleCount)
                if rightAligned.contains(index) {
                    line += padding + cell + (index == row.count - 1 ? "" : "  ")
                } else if index == row.count - 1 {
                    if let lastWidth, row.count == columns, cell.visibleCount > lastWidth {
                        let pieces = Self.wrap(cell, width: lastWidth)
                        out.append(line + pieces[0])
                        let indent = String(repeating: " ", count: lead)
                        out += pieces.dropFirst().map { indent + $0 }
                        wrapped = true
                        break
                    }
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.visibleCount + 2)
                }
            }
            if !wrapped { out.append(line) }
            all.append(out)
        }
        return all
    }

    /// A header as two rows, so a column is as wide as its figures rather than its name: a name wider than every
    /// value below it is split at its first space ("cum. paid" over "cum." and "paid"); one row when none is.
    /// Trailing spaces are dropped from the lines a table prints for it (`trimmed`).
    static func stacked(_ header: [String], over rows: [[String]]) -> [[String]] {
        let split = header.enumerated().map { index, cell -> (String, String) in
            let widest = rows.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0
            guard cell.count > widest, let space = cell.firstIndex(of: " ") else { return ("", cell) }
            return (String(cell[..<space]), String(cell[cell.index(after: space)...]))
        }
        let above = split.map(\.0)
        return above.allSatisfy(\.isEmpty) ? [header] : [above, split.map(\.1)]
    }

    /// A line without the spaces that pad its last cells.
    static func trimmed(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }

    /// Words onto lines of at most `width` characters (the first line `firstWidth`, when it starts after a
    /// different lead than the others); a word longer than that (a path, a product id) stands whole on a line of
    /// its own, so it can still be copied and searched for. A word's colour codes take no width.
    static func wrap(_ text: String, width: Int, firstWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = String(word).visibleCount
            if current.isEmpty {
                current = String(word)
                currentWidth = wordWidth
            } else if currentWidth + 1 + wordWidth <= (lines.isEmpty ? firstWidth ?? width : width) {
                current += " " + word
                currentWidth += 1 + wordWidth
            } else {
                lines.append(current)
                current = String(word)
                currentWidth = wordWidth
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` wrapped to fit `width` columns after its leads: its first line after `first`, the others after
    /// `rest`, each piece passed through `styled` (a colour, which takes no columns). The leads may be styled.
    static func paragraph(
        _ text: String, first: String, rest: String, width: Int = TerminalWidth.columns, styled: (String) -> String = { $0 }
    ) -> [String] {
        wrap(text, width: width - rest.visibleCount, firstWidth: width - first.visibleCount).enumerated().map { index, line in
            (index == 0 ? first : rest) + styled(line)
        }
    }
}

extension String {
    /// The columns it takes on a terminal: its characters, less the colour codes `Style` wraps around text.
    var visibleCount: Int {
        // Printable ASCII is a column a byte, with no code to skip: most cells, counted without
        // breaking the text into characters.
        if utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return utf8.count }
        var count = 0
        var inCode = false
        for character in self {
            if inCode {
                if character == "m" { inCode = false }
            } else if character == Style.escape {
                inCode = true
            } else {
                count += 1
            }
        }
        return count
    }
}
