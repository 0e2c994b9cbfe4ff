import Foundation
import MigratePlan
import MigrateSupport

/// A customer list's header: which column holds which fact. Every other column is carried through.
public struct BatchHeader: Sendable {
    public let count: Int
    public let index: [BatchColumn: Int]
    /// The column that names the customer (`customerID`, `id`, `appAccountToken`…), whose values must not repeat.
    public let identity: Int?

    /// The folder's columns, in the order written: what was read from each response.
    public static let folderColumns =
        ["file"] + [BatchColumn.originalAppVersion, .originalPurchaseDate, .originalPlatform, .environment, .products].map(\.rawValue)

    /// A header that names the facts read, for messages.
    public static let example = (["customerID"] + folderColumns.dropFirst()).joined(separator: ",")

    /// Reads a header line; `warn` hears of a carried column that looks like a misspelled fact.
    public init(_ fields: [String], display: String, warn: (String) -> Void) throws(BatchListError) {
        guard fields.count <= Limits.customerListColumns else {
            throw BatchListError("\(display):1: \(fields.count) columns; a customer list may have at most \(Limits.customerListColumns).")
        }
        var index: [BatchColumn: Int] = [:]
        var problems: [String] = []
        for (offset, raw) in fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces)
            if BatchOutputColumn(rawValue: name) != nil {
                problems.append("the column '\(name)' is one explain --batch adds; rename it (such as to '\(name)Before')")
            } else if let column = BatchColumn(key: name) {
                if let earlier = index[column] {
                    problems.append("'\(name)' (column \(offset + 1)) names the same fact as '\(fields[earlier])' (column \(earlier + 1)); keep one")
                } else {
                    index[column] = offset
                }
            } else if let suggestion = Self.nearMiss(name) {
                warn(
                    "\(display):1: the column '\(name)' is not read: it is carried through unchanged, and no row is decided by it. Did you mean '\(suggestion)'? Rename the column to read it"
                )
            }
        }
        if index[.originalAppVersion] == nil && index[.originalPurchaseDate] == nil {
            problems.append(
                "no column names originalAppVersion or originalPurchaseDate, so no customer's cohort can be decided; the header reads '\(fields.joined(separator: ","))'. Name the columns like AppTransaction's properties: \(Self.example)"
            )
        }
        guard problems.isEmpty else {
            throw BatchListError("\(display):1: " + problems.joined(separator: "\n\(display):1: ") + ".")
        }
        count = fields.count
        self.index = index
        identity = fields.firstIndex { BatchColumn.namesCustomer($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The column a misspelled name most likely meant.
    public static func nearMiss(_ name: String) -> String? {
        Suggestions.closest(to: name, in: BatchColumn.allCases.map(\.rawValue) + BatchColumn.serverNames.keys.sorted())
    }
}
