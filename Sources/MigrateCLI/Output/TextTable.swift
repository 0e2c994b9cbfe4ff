/// Left-aligned columns separated by two spaces, measured in characters.
struct TextTable {
    var rows: [[String]]
    /// Columns padded on the left, for numbers.
    var rightAligned: Set<Int> = []

    func lines() -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if rightAligned.contains(index) {
                    line += padding + cell + (index == row.count - 1 ? "" : "  ")
                } else if index == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            return line
        }
    }
}
