import Foundation
import MigratePlan
import MigrateSupport

/// Warnings about rows, each at its line and column, up to `Limits.salesReportWarnings` listed.
extension SalesReportImporter.RowReader {
    mutating func warn(_ code: DiagnosticCode, line: Int, column name: String?, _ message: String, fields: Fields) {
        var column = 1
        if let name, let index = columns[name] {
            // Characters, not bytes, as an editor counts them.
            column = (0..<min(index, fields.count)).reduce(1) { $0 + fields.text($1).count + 1 }
        }
        // Counted past the limit, not kept: a report of millions of bad rows must not hold a warning for each.
        guard issues.count < Limits.salesReportWarnings else {
            unlistedWarnings += 1
            return
        }
        issues.append(
            Diagnostic(
                .warning, code: code, message, location: SourceLocation(line: line, column: column), file: file, place: name.map { "'\($0)'" }))
    }
}
