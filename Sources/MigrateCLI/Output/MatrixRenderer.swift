import MigrateMatrix
import MigratePlan
import MigrateSupport

/// Renders a matrix as text, CSV, JSON or Markdown, and a verification report as text.
struct MatrixRenderer {
    let source: MatrixSource
    let strength: Int
    let format: TableFormat

    private var model: CoverageModel { source.model }

    static func tupleNoun(_ strength: Int, plural: Bool = true) -> String {
        switch strength {
        case 1: plural ? "values" : "value"
        case 2: plural ? "pairs" : "pair"
        case 3: plural ? "triples" : "triple"
        default: plural ? "\(strength)-tuples" : "\(strength)-tuple"
        }
    }

    func rows(of array: CoveringArray) -> [MatrixRow] {
        switch source {
        case .plan(let factors): factors.rows(of: array)
        case .model(let model, _):
            // As PICT prints them: aliases in turn, negative values with '~'.
            model.namedRows(array.rows).enumerated().map { index, names in
                MatrixRow(number: index + 1, values: zip(model.parameters, names).map { FactorValue(factor: $0.name, value: $1) })
            }
        }
    }

    func render(_ array: CoveringArray, exhaustive: Bool, seed: UInt64) -> String {
        let rows = rows(of: array)
        let summary: String
        if exhaustive {
            summary = "\(rows.count) rows: every valid combination of \(model.factors.count) factors."
        } else {
            // The bound beside the size: how far from the fewest rows possible the matrix may be.
            let size = array.isOptimal ? "\(rows.count) rows (optimal)" : "\(rows.count) rows (lower bound \(array.lowerBound))"
            summary =
                "\(size) cover all \(array.requiredTupleCount) valid \(Self.tupleNoun(strength)) of \(model.factors.count) factors (strength \(strength), seed \(seed))."
        }
        switch format {
        case .csv: return csv(rows)
        case .json: return json(rows, array: array, exhaustive: exhaustive, seed: seed)
        case .markdown: return markdown(rows, summary: summary)
        case .text: return text(rows, summary: summary)
        }
    }

    private var expectedHeader: [String] { ["cohort", "features", "offers", "restore control"] }

    private func expectedCells(_ row: MatrixRow) -> [String] {
        guard let expected = row.expected else { return [] }
        return [
            expected.cohortLabel, expected.features.isEmpty ? "—" : expected.features.joined(separator: " "),
            expected.offers.isEmpty ? "—" : expected.offers.joined(separator: " "),
            (expected.restoreShown ? "shown: " : "hidden: ") + expected.restoreMessage,
        ]
    }

    private var isPlan: Bool {
        if case .plan = source { return true }
        return false
    }

    private func text(_ rows: [MatrixRow], summary: String) -> String {
        var table: [[String]] = [["#"] + model.factors.map(\.name) + (isPlan ? expectedHeader : [])]
        for row in rows { table.append([String(row.number)] + row.values.map(\.value) + expectedCells(row)) }
        var text = summary + "\n"
        if case .plan(let factors) = source {
            for note in factors.notes { text += "note: \(note)\n" }
        }
        text += "\n"
        for line in TextTable(rows: table).lines() { text += line.trailingSpacesRemoved + "\n" }
        return text
    }

    private func csv(_ rows: [MatrixRow]) -> String {
        var text = CSVWriter.line(
            model.factors.map(\.name) + (isPlan ? ["cohort", "tier", "rule", "features", "offers", "restoreShown", "restoreMessage"] : []))
        for row in rows {
            var fields = row.values.map(\.value)
            if let expected = row.expected {
                fields += [
                    expected.cohort, expected.tier ?? "", expected.rule, expected.features.joined(separator: " "),
                    expected.offers.joined(separator: " "),
                    expected.restoreShown ? "true" : "false", expected.restoreMessage,
                ]
            }
            text += CSVWriter.line(fields)
        }
        return text
    }

    private func markdown(_ rows: [MatrixRow], summary: String) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        let header = ["#"] + model.factors.map(\.name) + (isPlan ? expectedHeader : [])
        var text = summary + "\n\n"
        text += "| " + header.map(cell).joined(separator: " | ") + " |\n"
        text += "|" + String(repeating: "---|", count: header.count) + "\n"
        for row in rows {
            text += "| " + ([String(row.number)] + row.values.map(\.value) + expectedCells(row)).map(cell).joined(separator: " | ") + " |\n"
        }
        return text
    }

    private func json(_ rows: [MatrixRow], array: CoveringArray, exhaustive: Bool, seed: UInt64) -> String {
        let factors = JSONValue.array(
            model.factors.map { JSONNode(.members([("name", .string($0.name)), ("levels", .strings($0.levels))])) })
        let items = rows.map { row -> JSONNode in
            var members: [(String, JSONValue?)] = [
                ("number", .number(String(row.number))),
                ("values", .members(row.values.map { ($0.factor, .string($0.value)) })),
            ]
            if let expected = row.expected {
                members.append(
                    (
                        "expected",
                        .members([
                            ("cohort", .string(expected.cohort)),
                            ("tier", expected.tier.map { .string($0) }),
                            ("rule", .string(expected.rule)),
                            ("features", .strings(expected.features)),
                            ("offers", .strings(expected.offers)),
                            ("restoreShown", .bool(expected.restoreShown)),
                            ("restoreMessage", .string(expected.restoreMessage)),
                        ])
                    ))
                members.append(("explain", .strings(row.explainArguments)))
            }
            return JSONNode(.members(members))
        }
        let value = JSONValue.members([
            ("strength", exhaustive ? nil : .number(String(strength))),
            ("seed", exhaustive ? nil : .number(String(seed))),
            ("exhaustive", .bool(exhaustive)),
            ("requiredTuples", exhaustive ? nil : .number(String(array.requiredTupleCount))),
            ("lowerBound", exhaustive ? nil : .number(String(array.lowerBound))),
            ("optimal", exhaustive ? nil : .bool(array.isOptimal)),
            ("factors", factors),
            ("rows", .array(items)),
        ])
        return JSONWriter().string(from: value)
    }

    func verification(_ report: CoverageVerifier.Report, verifier: CoverageVerifier, file: String) -> String {
        let noun = Self.tupleNoun(strength)
        let covered = report.requiredCount - report.missing.count
        var text = "\(file): \(report.rowCount) rows; \(covered) of \(report.requiredCount) valid \(noun) covered (strength \(strength)).\n"
        for tuple in report.missing {
            let masked = report.masked.contains(tuple) ? " (only in rows with a negative value, which mask it)" : ""
            text += "  missing  \(verifier.describe(tuple))\(masked)\n"
        }
        for invalid in report.invalidRows {
            text += "  row \(invalid.row + 1) is invalid: \(invalid.problems.joined(separator: "; "))\n"
        }
        if report.isComplete {
            text += "✓ Every valid \(Self.tupleNoun(strength, plural: false)) is covered and every row is valid.\n"
        } else {
            let missing = report.missing.count
            let invalid = report.invalidRows.count
            text +=
                "✗ \(missing) missing \(missing == 1 ? Self.tupleNoun(strength, plural: false) : noun), \(invalid) invalid row\(invalid == 1 ? "" : "s").\n"
        }
        return text
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
