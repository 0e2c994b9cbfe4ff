import Foundation
import MigratePlan
import MigrateSupport

/// What the read comes to: the install base, first sales, periods, the notes on what was not counted.
extension SalesReportImporter.RowReader {
    func finish() -> ImportResult {
        var result = ImportResult(source: "sales")
        result.issues = issues
        if unlistedWarnings > 0 {
            result.issues.append(
                Diagnostic(
                    .warning, code: .rowMalformed,
                    "\(Limits.grouped(unlistedWarnings)) more rows skipped with warnings; only the first \(Limits.grouped(Limits.salesReportWarnings)) are listed",
                    location: nil, file: file, place: nil))
        }
        result.installBase = InstallBase(
            from: from, until: until, downloads: InstallBaseBuilder.sorted(Array(downloads.values)),
            products: products.values.sorted { $0.product < $1.product },
            months: monthly.sorted { $0.key < $1.key }.map { MonthlyDownloads(month: $0.key, paid: max(0, $0.value)) })
        result.firstSales = FirstSale.earliest(Array(firstSales.values)).map { sale in
            var sale = sale
            sale.isReportStart = sale.day == from
            return sale
        }
        let dated = Set(result.firstSales.map(\.version.text))
        let undated = undatedVersions.subtracting(dated)
        if !undated.isEmpty {
            result.ignored.append(
                "note: \(undated.count) version\(undated.count == 1 ? "" : "s") sold only in rows spanning more than a day; "
                    + "a daily report dates the day each version first sold")
        }
        if redownloads != 0 || updates != 0 {
            result.ignored.append("\(redownloads) redownloads and \(updates) updates (not purchases)")
        }
        if renewals != 0 { result.ignored.append("note: in-app units include \(renewals) subscription renewals") }
        for (type, units) in otherTypes.sorted(by: { $0.key < $1.key }) {
            result.ignored.append("\(units) units of product type '\(type)' (not an app download or in-app purchase)")
        }
        for (currency, total) in customerTotals.sorted(by: { $0.key < $1.key }) where total != 0 {
            result.ignored.append("customer sales \(Self.format(total)) \(currency) (money is not stored in the plan)")
        }
        for (currency, total) in proceedsTotals.sorted(by: { $0.key < $1.key }) where total != 0 {
            result.ignored.append("developer proceeds \(Self.format(total)) \(currency)")
        }
        for currency in overflowed.sorted() {
            result.ignored.append("money in \(currency) is not summed: its total is past what 64 bits hold (check the report's Units and prices)")
        }
        if appNames.count == 1 { result.app.name = appNames.first }
        result.periods = periods.values.sorted(by: SalesPeriod.inOrder)
        result.salesIdentity = identity
        // The price most paid downloads were sold at, in the currency most of them were sold in.
        if let (currency, prices) = paidPrices.max(by: { ($0.value.values.reduce(0, +), $1.key) < ($1.value.values.reduce(0, +), $0.key) }),
            let (price, units) = prices.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), units > 0,
            let parsed = try? Price(Self.format(price))
        {
            result.paidDownloadPrice = PaidDownloadPrice(price: parsed, currency: currency, units: units, of: prices.values.reduce(0, +))
        }
        return result
    }
}
