import Foundation
import MigratePlan

/// Comma-separated matrices: a header of factor names, then one row per line (RFC 4180 quoting).
public enum MatrixCSV {
    /// One CSV field, quoted when it holds a comma, a quote or a line break.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }

    /// A cell with its position (1-based line and column), for messages.
    public struct Cell: Sendable, Hashable {
        public var text: String
        public var line: Int
        public var column: Int
    }

    /// Splits CSV text into records of cells; quoted fields may hold commas, quotes and line breaks.
    public static func records(_ text: String) -> [[Cell]] {
        var records: [[Cell]] = []
        var record: [Cell] = []
        var field = ""
        var inQuotes = false
        var line = 1, column = 1
        var fieldLine = 1, fieldColumn = 1
        var characters = Array(text)
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
                if character == "\n" {
                    line += 1
                    column = 0
                }
            } else if character == "\"" && field.isEmpty {
                inQuotes = true
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
        return records
    }

    /// Reads rows of level indices for a model: columns are found by the header's factor names (other
    /// columns, such as expected outcomes, are ignored). An empty cell is nil when `allowsEmpty`.
    public static func rows(_ text: String, model: CoverageModel, allowsEmpty: Bool = false) -> (rows: [[Int?]], errors: [ModelFileError]) {
        let records = records(text)
        guard let header = records.first else {
            return ([], [ModelFileError(line: 1, column: 1, message: "the file is empty; expected a header line with the factor names")])
        }
        var errors: [ModelFileError] = []
        var columnOfFactor = [Int?](repeating: nil, count: model.factors.count)
        for (position, cell) in header.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces)
            if let factor = model.factorIndex(named: name) {
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
        guard errors.isEmpty else { return ([], errors) }
        var rows: [[Int?]] = []
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
                guard let level = levels.firstIndex(of: text) else {
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
        }
        return (rows, errors)
    }
}
