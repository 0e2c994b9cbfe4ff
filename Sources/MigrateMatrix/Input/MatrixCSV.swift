import Foundation
import MigratePlan
import MigrateSupport

/// Matrices as text: comma-separated (a header of factor names, then one row per line, RFC 4180
/// quoting) or tab-separated as PICT prints them and reads seed rows (no quoting).
public enum MatrixCSV {
    /// A cell with its position (1-based line and column), for messages.
    public struct Cell: Sendable, Hashable {
        public var text: String
        public var line: Int
        public var column: Int
    }

    /// Splits CSV text into records of cells; quoted fields may hold commas, quotes and line breaks.
    public static func records(_ text: String) -> [[Cell]] { parse(text).records }

    /// Records, and an error for a quoted field that never ends.
    static func parse(_ text: String) -> (records: [[Cell]], errors: [ModelFileError]) {
        var records: [[Cell]] = []
        var record: [Cell] = []
        var field = ""
        var inQuotes = false
        var line = 1
        var column = 1
        var fieldLine = 1
        var fieldColumn = 1
        var quoteLine = 1
        var quoteColumn = 1
        var characters = Array(text)
        if characters.first == "\u{FEFF}" { characters.removeFirst() }
        if characters.last != "\n" { characters.append("\n") }
        var index = 0
        func endField() {
            record.append(Cell(text: field, line: fieldLine, column: fieldColumn))
            field = ""
        }
        while index < characters.count {
            let character = characters[index]
            if inQuotes {
                if character == "\"" {
                    if index + 1 < characters.count && characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                        column += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
                if character == "\n" || character == "\r\n" {
                    line += 1
                    column = 0
                }
            } else if character == "\"" && field.isEmpty {
                inQuotes = true
                quoteLine = line
                quoteColumn = column
            } else if character == "," {
                endField()
                fieldLine = line
                fieldColumn = column + 1
            } else if character == "\n" || character == "\r\n" {
                endField()
                if !(record.count == 1 && record[0].text.isEmpty) { records.append(record) }
                record = []
                line += 1
                column = 0
                fieldLine = line
                fieldColumn = 1
            } else if character != "\r" {
                field.append(character)
            }
            index += 1
            column += 1
        }
        if inQuotes {
            return (
                records,
                [ModelFileError(line: quoteLine, column: quoteColumn, message: "the quoted field that starts here never ends; add the closing '\"'")]
            )
        }
        return (records, [])
    }

    /// Splits tab-separated text (PICT's output and seed files) into records; cells are trimmed.
    static func tabRecords(_ text: String) -> [[Cell]] {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var records: [[Cell]] = []
        for (number, line) in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
            if line.allSatisfy(\.isWhitespace) { continue }
            var cells: [Cell] = []
            var column = 1
            for part in line.split(separator: "\t", omittingEmptySubsequences: false) {
                let leading = part.prefix { $0.isWhitespace && $0 != "\t" }.count
                cells.append(Cell(text: String(part).trimmedLikePICT, line: number + 1, column: column + leading))
                column += part.count + 1
            }
            records.append(cells)
        }
        return records
    }

    /// How the cells of a file name a model's factors and values.
    public struct Vocabulary: Sendable {
        /// The factor a header cell names, or nil.
        public var factor: @Sendable (String) -> Int?
        /// The level of a factor that a cell names, or nil.
        public var level: @Sendable (_ factor: Int, _ text: String) -> Int?

        public init(factor: @escaping @Sendable (String) -> Int?, level: @escaping @Sendable (Int, String) -> Int?) {
            self.factor = factor
            self.level = level
        }

        /// Names exactly as the model spells them.
        public static func exact(_ model: CoverageModel) -> Vocabulary {
            Vocabulary(factor: { model.factorIndex(named: $0) }, level: { model.factors[$0].levels.firstIndex(of: $1) })
        }

        /// Names as PICT matches them: without regard to case, any alias, with or without `~`.
        public static func pict(_ model: PICTModel) -> Vocabulary {
            Vocabulary(factor: { model.factorIndex(named: $0) }, level: { model.level(named: $1, of: $0) })
        }
    }

    /// Rows of a matrix file, the line each starts on, and every problem found.
    public struct Table: Sendable {
        /// Level indices per factor; nil for an empty cell (when allowed).
        public var rows: [[Int?]]
        /// The 1-based line of each row.
        public var lines: [Int]
        public var errors: [ModelFileError]
    }

    /// Reads rows of level indices for a model: columns are found by the header's factor names (other
    /// columns, such as expected outcomes, are ignored). A header with a tab is read as tab-separated
    /// (PICT's format), anything else as CSV. An empty cell is nil when `allowsEmpty`.
    public static func table(_ text: String, model: CoverageModel, vocabulary: Vocabulary? = nil, allowsEmpty: Bool = false) -> Table {
        let vocabulary = vocabulary ?? .exact(model)
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        let records: [[Cell]]
        if firstLine.contains("\t") {
            records = tabRecords(text)
        } else {
            let parsed = parse(text)
            guard parsed.errors.isEmpty else { return Table(rows: [], lines: [], errors: parsed.errors) }
            records = parsed.records
        }
        guard let header = records.first else {
            return Table(
                rows: [], lines: [],
                errors: [ModelFileError(line: 1, column: 1, message: "the file is empty; expected a header line with the factor names")])
        }
        var errors: [ModelFileError] = []
        var columnOfFactor = [Int?](repeating: nil, count: model.factors.count)
        for (position, cell) in header.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces)
            if let factor = vocabulary.factor(name) {
                if columnOfFactor[factor] != nil {
                    errors.append(ModelFileError(line: cell.line, column: cell.column, message: "factor '\(name)' has two columns"))
                }
                columnOfFactor[factor] = position
            }
        }
        for (factor, column) in columnOfFactor.enumerated() where column == nil {
            let name = model.factors[factor].name
            let suggestion = Suggestions.didYouMean(name, in: header.map(\.text))
            errors.append(ModelFileError(line: 1, column: 1, message: "the header has no column '\(name)'.\(suggestion)"))
        }
        guard errors.isEmpty else { return Table(rows: [], lines: [], errors: errors) }
        var rows: [[Int?]] = []
        var lines: [Int] = []
        for record in records.dropFirst() {
            var row = [Int?](repeating: nil, count: model.factors.count)
            for (factor, column) in columnOfFactor.enumerated() {
                guard let column, column < record.count else {
                    let last = record.last
                    errors.append(
                        ModelFileError(
                            line: last?.line ?? 0, column: (last?.column ?? 0) + (last?.text.count ?? 0),
                            message: "the row has \(record.count) values; the header has more columns"))
                    break
                }
                let cell = record[column]
                let text = cell.text.trimmingCharacters(in: .whitespaces)
                if text.isEmpty && allowsEmpty { continue }
                let levels = model.factors[factor].levels
                guard let level = vocabulary.level(factor, text) else {
                    let suggestion = Suggestions.didYouMean(text, in: levels)
                    errors.append(
                        ModelFileError(
                            line: cell.line, column: cell.column,
                            message: "'\(text)' is not a value of '\(model.factors[factor].name)'.\(suggestion)"))
                    continue
                }
                row[factor] = level
            }
            rows.append(row)
            lines.append(record.first?.line ?? 0)
        }
        return Table(rows: rows, lines: lines, errors: errors)
    }

    /// `table(…)` as rows and errors.
    public static func rows(_ text: String, model: CoverageModel, allowsEmpty: Bool = false) -> (rows: [[Int?]], errors: [ModelFileError]) {
        let table = table(text, model: model, allowsEmpty: allowsEmpty)
        return (table.rows, table.errors)
    }
}
