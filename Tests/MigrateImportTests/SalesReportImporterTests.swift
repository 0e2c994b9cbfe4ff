import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import Testing

@Suite("Import: Sales and Trends reports", .timeLimit(.minutes(20)))
struct SalesReportImporterTests {
    @Test(
        "28 columns, plain and gzipped: paid and free downloads per version, refunds, in-app units, money per unit",
        arguments: ["summary-28-columns.txt", "summary-28-columns.txt.gz"])
    func twentyEight(name: String) throws {
        let result = try SalesReportImporter.read(try fixture("sales/" + name), file: name)
        let base = try #require(result.installBase)
        #expect(base.from == date("2019-01-06") && base.until == date("2019-01-12"))
        #expect(
            base.downloads == [
                DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 14, free: 0, refunds: 1),
                DownloadCount(platform: .iOS, version: try Version("1.1"), paid: 5),
                DownloadCount(platform: .iOS, version: try Version("2.0"), free: 40),
                DownloadCount(platform: .macOS, version: try Version("1.0"), paid: 2),
            ])
        #expect(
            base.products == [
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
        #expect(
            result.issues.contains {
                $0.location?.line == 3 && $0.place == "'Begin Date'" && $0.message.contains("'13/45/2018' is not a date in MM/DD/YYYY form")
            })
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

@Suite("Import: release dates from the first day a version sold", .timeLimit(.minutes(20)))
struct FirstSaleTests {
    @Test("A daily report dates each version's first sale; its first day and multi-day rows date nothing")
    func firstSales() throws {
        let result = try SalesReportImporter.read(try fixture("sales/daily-first-sales.txt"), file: "daily.txt")
        let sales = result.firstSales.map { "\($0.platform) \($0.version) \(Timestamp.formatDate($0.day)) \($0.isReportStart) \($0.origin)" }
        #expect(
            sales == [
                "iOS 1.0 2019-01-06 true daily.txt:2",
                "iOS 1.1 2019-01-08 false daily.txt:4",
                "macOS 1.0 2019-01-09 false daily.txt:8",
                "iOS 2.0 2019-01-10 false daily.txt:7",
            ], "zero units on 01/09 are no sale of 2.0")
        #expect(result.ignored.contains { $0.hasPrefix("note: 1 version sold only in rows spanning more than a day") })
        // Live by the end of the day in the last time zone, so no purchase that day is read as after it.
        #expect(result.firstSales[1].liveBy == date("2019-01-09T12:00:00Z"))
    }

    @Test("Sales dates replace commit and tag dates, keep confirmed ones, and report a disagreement")
    func merge() throws {
        let result = try SalesReportImporter.read(try fixture("sales/daily-first-sales.txt"), file: "daily.txt")
        func release(_ version: String, _ build: String, _ released: String, _ source: ReleaseDateSource?, free: Bool = false) throws -> Release {
            Release(
                platform: .iOS, version: try Version(version), build: try Version(build), released: date(released), releasedSource: source,
                model: free ? .free : .paid(Price(tenThousandths: 9_900)))
        }
        var plan = try #require(PlanDecoder.decode(handWrittenPlan).plan)
        plan.releases = [
            try release("1.0", "1", "2019-01-01T00:00:00Z", .commit),
            try release("1.1", "5", "2019-01-03T00:00:00Z", .commit),
            try release("1.1", "6", "2019-01-20T00:00:00Z", .commit),
            try release("2.0", "9", "2019-01-10T18:00:00Z", .appStore, free: true),
        ]
        let (merged, report) = try PlanMerger.merge(result, into: plan)
        let byBuild = Dictionary(uniqueKeysWithValues: merged.releases.map { ($0.displayName, $0) })
        #expect(byBuild["1.0 (1)"]?.releasedSource == .commit, "1.0 sold on the report's first day: it may have gone live before")
        #expect(byBuild["1.1 (5)"]?.released == date("2019-01-09T12:00:00Z") && byBuild["1.1 (5)"]?.releasedSource == .sales)
        #expect(byBuild["1.1 (6)"]?.released == date("2019-01-20T00:00:00Z"), "only a version's first build is dated by its first sale")
        #expect(byBuild["2.0 (9)"]?.released == date("2019-01-10T18:00:00Z"), "within a day of a confirmed date: the same day")
        #expect(
            report.changed.contains {
                $0.description.hasPrefix(
                    "release iOS 1.1 (5): released 2019-01-03T00:00:00Z (commit) → 2019-01-09T12:00:00Z (first sold 2019-01-08, daily.txt:4)")
            })
        #expect(report.ignored.contains { $0.hasPrefix("release iOS 1.0 (1): sold on the report's first day") })

        plan.releases[3].released = date("2019-02-01T00:00:00Z")
        let (kept, disagreement) = try PlanMerger.merge(result, into: plan)
        #expect(kept.releases.first { $0.version.text == "2.0" }?.released == date("2019-02-01T00:00:00Z"))
        #expect(
            disagreement.conflicts.contains {
                $0.hasPrefix("release iOS 2.0 (9): released: the plan says 2019-02-01T00:00:00Z, the source says 2019-01-11T12:00:00Z")
            })
    }

    @Test("Stronger evidence from any importer replaces a weaker date; weaker evidence never replaces a stronger one")
    func strength() throws {
        var plan = try #require(PlanDecoder.decode(handWrittenPlan).plan)
        plan.releases = [
            Release(
                platform: .iOS, version: try Version("1.0"), build: try Version("14"), released: date("2019-03-01T00:00:00Z"),
                releasedSource: .commit, model: .paid(Price(tenThousandths: 29_900)))
        ]
        var tag = ImportResult(source: "git")
        tag.releases = [
            ImportedRelease(
                platform: .iOS, version: try Version("1.0"), build: try Version("14"), date: date("2019-03-05T00:00:00Z"), dateSource: "git tag date",
                provenance: .tag, origin: "tag v1.0")
        ]
        let (better, report) = try PlanMerger.merge(tag, into: plan)
        #expect(better.releases[0].released == date("2019-03-05T00:00:00Z") && better.releases[0].releasedSource == .tag)
        #expect(report.changed.contains { $0.after?.hasSuffix(", better evidence") == true } && report.conflicts.isEmpty)

        var commit = tag
        commit.releases[0].provenance = .commit
        commit.releases[0].date = date("2019-02-01T00:00:00Z")
        let (kept, weaker) = try PlanMerger.merge(commit, into: better)
        #expect(kept.releases[0].released == date("2019-03-05T00:00:00Z"))
        #expect(weaker.ignored.contains { $0.contains("weaker evidence than the plan's (tag)") })
    }
}

@Suite("Import: sales reports of any size and content, without a trap", .timeLimit(.minutes(20)))
struct SalesReportLimitsTests {
    static let header = [
        "Provider", "SKU", "Version", "Product Type Identifier", "Units", "Customer Price", "Customer Currency", "Begin Date", "End Date",
    ]

    static func report(_ rows: [[String]], lineEnd: String = "\n") -> [UInt8] {
        Array(([header] + rows).map { $0.joined(separator: "\t") }.joined(separator: lineEnd).utf8)
    }

    static func row(units: String, price: String = "0.99", version: String = "1.0") -> [String] {
        ["APPLE", "app", version, "1", units, price, "USD", "01/06/2019", "01/06/2019"]
    }

    @Test("Units past the per-row limit are a warning at their line and column, and the row is skipped")
    func unitsLimit() throws {
        let result = try SalesReportImporter.read(
            Self.report([Self.row(units: "2"), Self.row(units: "9000000000000000000"), Self.row(units: "-1000000001")]), file: "huge.txt")
        #expect(result.installBase?.downloads == [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 2)])
        #expect(result.issues.count == 2)
        let first = try #require(result.issues.first)
        #expect(first.location == SourceLocation(line: 3, column: 17) && first.place == "'Units'")
        #expect(first.message == "9000000000000000000 units is more than migrate's limit of 1,000,000,000 a row; row skipped")
        #expect(result.issues.last?.location?.line == 4)
    }

    @Test("Money past 64 bits is left unsummed and said so, instead of trapping")
    func moneyOverflow() throws {
        let rows = (0..<1_000).map { _ in Self.row(units: "1000000000", price: "999999999999.9999") }
        let result = try SalesReportImporter.read(Self.report(rows), file: "rich.txt")
        #expect(result.installBase?.downloads.first?.paid == 1_000_000_000_000)
        #expect(result.ignored.contains { $0.hasPrefix("money in USD is not summed") })
        #expect(!result.ignored.contains { $0.hasPrefix("customer sales") })
    }

    @Test("Rows are read a line at a time: CRLF, blank lines and line numbers as in the file", arguments: ["\n", "\r\n"])
    func lines(lineEnd: String) throws {
        let rows = [Self.row(units: "3"), [" "], Self.row(units: "x"), Self.row(units: "4", version: "1.1")]
        let result = try SalesReportImporter.read(Self.report(rows, lineEnd: lineEnd) + Array((lineEnd + lineEnd).utf8), file: "r.txt")
        #expect(result.installBase?.downloads.map(\.paid) == [3, 4])
        #expect(result.issues.map { $0.location?.line } == [4])
        #expect(throws: ImportError.self) { try SalesReportImporter.read(Array(" \t\r\n\n".utf8), file: "blank.txt") }
    }

    @Test("Progress is told how far a long report is, ending at the whole")
    func progress() throws {
        let rows = (0..<100_000).map { Self.row(units: String($0 % 7 + 1)) }
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var fractions: [Double] = []
        }
        let seen = Seen()
        _ = try SalesReportImporter.read(Self.report(rows), file: "long.txt") { fraction in
            seen.lock.withLock { seen.fractions.append(fraction) }
        }
        #expect(seen.fractions.count == 3)
        #expect(seen.fractions == seen.fractions.sorted() && seen.fractions.last == 1 && (seen.fractions.first ?? 1) < 0.6)
    }
}
