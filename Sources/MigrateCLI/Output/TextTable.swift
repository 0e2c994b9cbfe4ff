/// Columns of text, padded to line up; the last column wraps at word boundaries when a line would pass `maxWidth`.
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
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
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
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if rightAligned.contains(index) {
                    line += padding + cell + (index == row.count - 1 ? "" : "  ")
                } else if index == row.count - 1 {
                    if let lastWidth, row.count == columns, cell.count > lastWidth {
                        let pieces = Self.wrap(cell, width: lastWidth)
                        out.append(line + pieces[0])
                        let indent = String(repeating: " ", count: lead)
                        out += pieces.dropFirst().map { indent + $0 }
                        wrapped = true
                        break
                    }
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
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

    /// Words onto lines of at most `width` characters; a word longer than that (a path, a product id) stands
    /// whole on a line of its own, so it can still be copied and searched for.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
