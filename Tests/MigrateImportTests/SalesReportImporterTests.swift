import Foundation
import MigrateImport
import MigratePlan
import Testing

@Suite("Import: Sales and Trends reports")
struct SalesReportImporterTests {
    @Test("28 columns, plain and gzipped: paid and free downloads per version, refunds, in-app units, money per unit", arguments: ["summary-28-columns.txt", "summary-28-columns.txt.gz"])
    func twentyEight(name: String) throws {
        let result = try SalesReportImporter.read(try fixture("sales/" + name), file: name)
        let base = try #require(result.installBase)
        #expect(base.from == date("2019-01-06") && base.until == date("2019-01-12"))
        #expect(base.downloads == [
            DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 14, free: 0, refunds: 1),
            DownloadCount(platform: .iOS, version: try Version("1.1"), paid: 5),
            DownloadCount(platform: .iOS, version: try Version("2.0"), free: 40),
            DownloadCount(platform: .macOS, version: try Version("1.0"), paid: 2),
        ])
        #expect(base.products == [
            ProductCount(product: "com.example.shelf.monthly", units: 6), ProductCount(product: "com.example.shelf.pro", units: 3, refunds: 1),
        ])
        // Paid downloads per month of their Begin Date, for simulate's staying-paid trend: 14 + 5 + 2, all in January 2019.
        #expect(base.months == [MonthlyDownloads(month: "2019-01", paid: 21)])
        #expect(result.ignored.contains("7 redownloads and 100 updates (not purchases)"))
        #expect(result.ignored.contains("note: in-app units include 6 subscription renewals"))
        // 12×0.99 + 3×0.99 − 1×0.99 + 4×4.99 − 1×4.99 + 6×2.99 + 2×2.99 = 52.75, exactly.
        #expect(result.ignored.contains("customer sales 52.75 USD (money is not stored in the plan)"))
        #expect(result.ignored.contains("customer sales 11.45 EUR (money is not stored in the plan)"))
        #expect(result.app.name == "Shelf")
        #expect(result.issues.isEmpty)
    }

    @Test("20 columns with CRLF, a bad date and bad units reported by line and column")
    func twenty() throws {
        let result = try SalesReportImporter.read(try fixture("sales/summary-20-columns.txt"), file: "old.txt")
        #expect(result.installBase?.downloads == [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 10)])
        #expect(result.issues.count == 3)
        #expect(result.issues.contains { $0.location?.line == 3 && $0.place == "'Begin Date'" && $0.message.contains("'13/45/2018' is not a date in MM/DD/YYYY form") })
        #expect(result.issues.contains { $0.location?.line == 4 && $0.place == "'Units'" && $0.location?.column == 44 })
    }

    @Test("A TSV without the needed columns, and a subscription report, are errors naming the columns")
    func missingColumns() throws {
        #expect {
            try SalesReportImporter.read(try fixture("sales/missing-columns.txt"), file: "m.txt")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .badData && error.location == SourceLocation(line: 1, column: 1)
                && error.message == "missing columns 'Product Type Identifier', 'Units', 'Customer Price' (found 6 columns)"
                && error.hint?.contains("Did you mean 'Unit'?") == true
        }
        #expect(throws: ImportError.self) { try SalesReportImporter.read(Array("a,b,c\n1,2,3\n".utf8), file: "csv.txt") }
    }
}
