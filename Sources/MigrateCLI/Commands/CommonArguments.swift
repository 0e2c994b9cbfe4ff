import Foundation
import MigratePlan

/// Arguments several commands share, declared once.
enum CommonArguments {
    /// `<plan>`: the plan file or its folder, for check, explain, generate, matrix and simulate.
    static let plan = Argument<String>.positional("plan", help: "The migration plan, or a folder holding migration.json.").naming(.plan)

    /// `--format` of the commands that print tables: matrix and simulate.
    static let tableFormat = Argument<TableFormat>.choice("format", valueName: "format", help: "Output format.", default: .text)
}

/// How matrix and simulate print their tables.
enum TableFormat: String, CaseIterable, Sendable {
    case text, csv, json, markdown
}

extension Argument where Value == Date? {
    /// `--name <date-time>`: an ISO 8601 date-time, refused before the command runs when it isn't one.
    static func date(_ name: String, help: String) -> Argument {
        .converted(name, valueName: "date-time", help: help, expected: "Expected an ISO 8601 date-time such as 2017-10-08T02:47:56Z.") {
            Timestamp.parse($0)
        }
    }
}
