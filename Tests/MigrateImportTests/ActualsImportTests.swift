import Foundation
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("Sales periods and the refit's merge", .timeLimit(.minutes(20)))
struct ActualsImportTests {
    static let report = "Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt"

    @Test("The sales reader counts each reporting period: free downloads, in-app units, refunds and proceeds")
    func periods() throws {
        let bytes = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent(Self.report)))
        let result = try SalesReportImporter.read(bytes, file: Self.report, bySeries: true)
        // By series (provider, SKU, country, product type): the app's types 1, 3 and 7 and two in-app products, 4 months.
        #expect(result.periods.count == 20)
        #expect(
            Set(result.periods.compactMap(\.series?.sku)) == [
                "tilttolivehd", "com.example.tilttolivehd.fullturret", "com.example.tilttolivehd.turret",
            ])
        let months = SalesPeriod.combined(
            result.periods.map { period in
                var period = period
                period.series = nil
                return period
            })
        #expect(months.count == 4)
        let november = try #require(months.first)
        #expect(Timestamp.formatDate(november.begin) == "2011-11-01")
        #expect(november.freeDownloads == 49_870)
        #expect(november.paidDownloads == 0)
        #expect(november.inAppUnits == ["com.example.tilttolivehd.fullturret": 1_197, "com.example.tilttolivehd.turret": 1_010])
        #expect(november.inAppRefunds == ["com.example.tilttolivehd.fullturret": 14, "com.example.tilttolivehd.turret": 8])
        // (1,197 − 14) × 2.54 + (1,010 − 8) × 0.84, in ten-thousandths.
        #expect(november.proceeds == ["USD": 38_465_000])
        #expect(result.salesIdentity?.titles.contains("Tilt to Live HD") == true)
        #expect(result.periods.reduce(0) { $0 + $1.freeDownloads } == 104_580)
        // Without series (import sales): one count per period, the same months.
        let plain = try SalesReportImporter.read(bytes, file: Self.report)
        #expect(plain.periods.allSatisfy { $0.series == nil })
        #expect(
            plain.periods
                == months.map { period in
                    var period = period
                    period.origin = plain.periods.first { $0.begin == period.begin }?.origin ?? ""
                    return period
                })
    }

    static let plan = """
        { "app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"] },
          "features": [ { "id": "pro" } ],
          "releases": [
            { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["pro"] },
            { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free", "includes": [] } ],
          "products": [ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] } ],
          "simulation": { "horizonMonths": 6,
            "assumptions": { "conversion": { "distribution": "uniform", "low": 0.01, "high": 0.05 }, "legacyUpgradeRate": 0.1 },
            "scenarios": [ { "id": "hopeful", "name": "Hopeful", "assumptions": { "conversion": 0.08 } } ] } }
        """

    @Test(
        "The refit replaces exactly the assumptions refitted and keeps every other hand-written value",
        arguments: [
            (
                "conversion", Distribution.triangular(low: 0.02, mode: 0.03, high: 0.04),
                "changed: simulation.assumptions.conversion: uniform 0.01–0.05 → triangular 0.02–0.03–0.04"
            ),
            ("lastingMultiple", .triangular(low: 2, mode: 3, high: 4), "added: simulation.assumptions.lastingMultiple: triangular 2–3–4"),
            ("conversion", .uniform(low: 0.01, high: 0.05), "ignored: simulation.assumptions.conversion: already uniform 0.01–0.05"),
        ])
    func merge(name: String, distribution: Distribution, line: String) throws {
        let plan = try #require(PlanDecoder.decode(Self.plan).plan)
        let (merged, report) = PlanMerger.mergeAssumptions([AssumptionValue(name: name, distribution: distribution)], into: plan)
        let lines = report.changed.map { "changed: \($0)" } + report.added.map { "added: " + $0 } + report.ignored.map { "ignored: " + $0 }
        #expect(lines == [line])
        let settings = try #require(merged.simulation)
        #expect(settings.assumptions.first { $0.name == name }?.distribution == distribution)
        #expect(settings.assumptions.first { $0.name == "legacyUpgradeRate" }?.distribution == .point(0.1), "a hand-written value kept")
        #expect(settings.scenarios.first?.assumptions.first?.distribution == .point(0.08), "the scenario's own value kept")
        #expect(settings.horizonMonths == 6)
        #expect(
            report.conflicts.count == (line.hasPrefix("changed: simulation.assumptions.conversion") ? 1 : 0),
            "a scenario that sets it for itself is named")
        // What the merger writes reads back the same.
        let reread = try #require(PlanDecoder.decode(PlanEncoder.encode(merged)).plan)
        #expect(reread.simulation?.assumptions.first { $0.name == name }?.distribution == distribution)
    }
}
