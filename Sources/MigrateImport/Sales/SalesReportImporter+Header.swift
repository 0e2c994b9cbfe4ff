import Foundation
import MigratePlan
import MigrateSupport

/// The header line: the columns a report must have, found by name (Apple has shipped 20- to 28-column variants).
extension SalesReportImporter {
    /// The row reader for a header line, or the error that says which needed columns it lacks.
    static func header(_ line: String, file: String, bySeries: Bool) throws(ImportError) -> RowReader {
        var header = line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0.trimmedOfSpaces) }
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() where columns[name] == nil { columns[name] = index }
        let missing = neededColumns.filter { columns[$0] == nil }
        if !missing.isEmpty {
            var hint = "A Summary Sales report (Sales and Trends → Reports → Sales, Summary) has them."
            if columns["Subscription Name"] != nil || columns["Active Standard Price Subscriptions"] != nil {
                hint = "This is a Subscription report; import the Summary Sales report instead."
            } else if header.count < 2 {
                hint = "The line has no tabs: the file is not tab-separated. " + hint
            } else if let guess = missing.lazy.compactMap({ Suggestions.closest(to: $0, in: header) }).first {
                hint = "Did you mean '\(guess)'? " + hint
            }
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            throw ImportError(
                .badData, file: file, location: SourceLocation(line: 1, column: 1), place: "header",
                "missing column\(missing.count == 1 ? "" : "s") \(names) (found \(header.count) columns)", hint: hint)
        }
        return RowReader(file: file, columns: columns, width: header.count, bySeries: bySeries)
    }
}

/// A row reader's columns, found once from the header by name.
extension SalesReportImporter.RowReader {
    init(file: String, columns: [String: Int], width: Int, bySeries: Bool) {
        self.bySeries = bySeries
        self.file = file
        self.columns = columns
        self.width = width
        typeColumn = columns["Product Type Identifier"]
        unitsColumn = columns["Units"]
        beginColumn = columns["Begin Date"]
        endColumn = columns["End Date"]
        customerPriceColumn = columns["Customer Price"]
        customerCurrencyColumn = columns["Customer Currency"]
        proceedsColumn = columns["Developer Proceeds"]
        proceedsCurrencyColumn = columns["Currency of Proceeds"]
        titleColumn = columns["Title"]
        platformsColumn = columns["Supported Platforms"]
        versionColumn = columns["Version"]
        skuColumn = columns["SKU"]
        providerColumn = columns["Provider"]
        countryColumn = columns["Country Code"]
        subscriptionColumn = columns["Subscription"]
        parentColumn = columns["Parent Identifier"]
        appleIDColumn = columns["Apple Identifier"]
    }

    func column(of name: String) -> Int { columns[name] ?? 0 }
}
