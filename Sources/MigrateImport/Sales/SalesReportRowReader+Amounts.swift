import Foundation
import MigratePlan
import MigrateSupport

/// Money: prices and proceeds read in ten-thousandths, summed exactly per currency with overflow checked.
extension SalesReportImporter.RowReader {
    /// `amount(_:)`, parsed once per distinct text (prices repeat on most rows).
    mutating func cachedAmount(_ text: String) -> Int64? {
        let key = Substring(text)
        if let known = amounts[key] { return known }
        let parsed = Self.amount(text)
        if amounts.count < 100_000 { amounts[key] = parsed }
        return parsed
    }

    /// A signed decimal amount in ten-thousandths, exactly: `-1.99` → -19900.
    static func amount(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        guard let price = try? Price(digits.replacingOccurrences(of: ",", with: "")) else { return nil }
        return negative ? -price.tenThousandths : price.tenThousandths
    }

    /// Adds units × a per-unit amount to a currency's total, with overflow checked: a total past 64 bits is
    /// dropped from the notes (said so) instead of trapping on a corrupt or hostile report.
    static func add(_ amount: Int64, _ units: Int, _ currency: String, to totals: inout [String: Int64], overflowed: inout Set<String>) {
        guard overflowed.isEmpty || !overflowed.contains(currency) else { return }
        let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(units))
        // One hash of the currency for a total already there (the common case): updated in place by its index.
        let index = totals.index(forKey: currency)
        let (sum, overflowSum) = (index.map { totals.values[$0] } ?? 0).addingReportingOverflow(product)
        if overflow || overflowSum {
            overflowed.insert(currency)
            totals[currency] = nil
        } else if let index {
            totals.values[index] = sum
        } else {
            totals[currency] = sum
        }
    }

    /// Where each currency's total is in `customerTotals` or `proceedsTotals`, by its entry in `texts`: valid while
    /// the dictionary's `generation` is the one it was found in (a key added or removed moves the others).
    struct TotalIndexes {
        var generation = 0
        var found: [(generation: Int, index: [String: Int64].Index)?] = []
    }

    /// `add(_:_:_:to:overflowed:)` for a currency with an entry in `texts`: its total found by the remembered index,
    /// without hashing the currency.
    static func add(
        _ amount: Int64, _ units: Int, _ currency: String, _ entry: Int?, to totals: inout [String: Int64], indexes: inout TotalIndexes,
        overflowed: inout Set<String>
    ) {
        guard let entry else {
            add(amount, units, currency, to: &totals, overflowed: &overflowed)
            indexes.generation += 1  // it may have added or removed a key
            return
        }
        guard overflowed.isEmpty || !overflowed.contains(currency) else { return }
        let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(units))
        if indexes.found.count <= entry { indexes.found += repeatElement(nil, count: entry + 1 - indexes.found.count) }
        var index: [String: Int64].Index?
        if let found = indexes.found[entry], found.generation == indexes.generation {
            index = found.index
        } else {
            index = totals.index(forKey: currency)
        }
        let (sum, overflowSum) = (index.map { totals.values[$0] } ?? 0).addingReportingOverflow(product)
        if overflow || overflowSum {
            overflowed.insert(currency)
            totals[currency] = nil
            indexes.generation += 1
        } else if let index {
            totals.values[index] = sum
            indexes.found[entry] = (indexes.generation, index)
        } else {
            totals[currency] = sum
            indexes.generation += 1
            indexes.found[entry] = (indexes.generation, totals.index(forKey: currency)!)
        }
    }

    static func format(_ tenThousandths: Int64) -> String {
        let text = Price(tenThousandths: abs(tenThousandths)).description
        return tenThousandths < 0 ? "-" + text : text
    }
}
