import Foundation
import MigrateImport
import MigratePlan
import Testing

@Suite("Import: merging into a plan", .timeLimit(.minutes(20)))
struct MergeTests {
    func plan() throws -> MigrationPlan {
        try #require(PlanDecoder.decode(handWrittenPlan).plan)
    }

    func imported() throws -> ImportResult {
        var result = ImportResult(source: "test")
        result.products = [
            Product(id: "com.example.shelf.pro", name: "Shelf Pro", kind: .nonConsumable, price: try Price("4.99"), familyShareable: true),
            Product(id: "com.example.shelf.tip", name: "Tip", kind: .consumable, price: try Price("0.99")),
        ]
        result.releases = [
            ImportedRelease(
                platform: .iOS, version: try Version("1.0"), build: try Version("14"), date: date("2019-03-28T16:15:02Z"), dateSource: "createdDate",
                provenance: .ascCreated, origin: "x"),
            ImportedRelease(
                platform: .iOS, version: try Version("1.1"), build: try Version("22"), date: date("2019-06-10T15:00:00Z"),
                dateSource: "earliestReleaseDate", provenance: .ascCreated, origin: "x"),
        ]
        return result
    }

    @Test("The user's values win, conflicts are reported, hand-written fields are kept")
    func userWins() throws {
        let (merged, report) = try PlanMerger.merge(try imported(), into: try plan())
        let pro = try #require(merged.product(withID: "com.example.shelf.pro"))
        #expect(pro.name == "Pro (my name)" && pro.price.description == "3.99" && pro.grants == ["export"] && !pro.familyShareable)
        #expect(report.conflicts.contains { $0.hasPrefix("product com.example.shelf.pro: price: the plan says 3.99, the source says 4.99") })
        #expect(
            report.conflicts.contains {
                $0.hasPrefix("release iOS 1.0 (14): released: the plan says 2019-04-01T17:00:00Z, the source says 2019-03-28T16:15:02Z (createdDate)")
            })
        #expect(report.added.contains("product com.example.shelf.tip (consumable, 0.99)"))
        #expect(merged.releases.count == 2)
        let added = merged.releases[1]
        #expect(added.model == .paid(Price(tenThousandths: 29_900)), "the price is copied from the nearest earlier paid release")
        #expect(added.includes == nil)
        #expect(report.assumptions.contains { $0.contains("marked paid") && $0.contains("\"model\": \"free\"") })
        #expect(
            report.assumptions.contains {
                $0.hasPrefix("release dates come from App Store Connect records, not from when the App Store released each build")
            })
        #expect(merged.releases[0].includes == ["export"])
    }

    @Test("--overwrite takes the source's values but still keeps fields the source does not know")
    func overwrite() throws {
        let (merged, report) = try PlanMerger.merge(try imported(), into: try plan(), options: MergeOptions(overwrite: true))
        let pro = try #require(merged.product(withID: "com.example.shelf.pro"))
        #expect(pro.name == "Shelf Pro" && pro.price.description == "4.99" && pro.familyShareable && pro.grants == ["export"])
        #expect(report.conflicts.isEmpty)
        #expect(report.changed.contains(MergeChange("product com.example.shelf.pro: price: 3.99", after: "4.99")))
        #expect(merged.releases[0].released == date("2019-03-28T16:15:02Z"))
    }

    @Test("--model free, and a missing price when nothing can be copied")
    func models() throws {
        var empty = try plan()
        empty.releases = []
        let (free, _) = try PlanMerger.merge(try imported(), into: empty, options: MergeOptions(model: .free))
        #expect(free.releases.allSatisfy { $0.model == .free })
        #expect(throws: MergeError.needsPrice(releases: ["iOS 1.0 (14)", "iOS 1.1 (22)"])) { try PlanMerger.merge(try imported(), into: empty) }
    }

    @Test("Install bases of separate periods add up; overlapping ones are a conflict")
    func installBase() throws {
        var base = try plan()
        base.installBase = InstallBase(
            from: date("2019-01-01"), until: date("2019-01-31"), downloads: [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 10)])
        var later = ImportResult(source: "sales")
        later.installBase = InstallBase(
            from: date("2019-02-01"), until: date("2019-02-28"),
            downloads: [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 5, refunds: 1)],
            products: [ProductCount(product: "com.example.shelf.pro", units: 3), ProductCount(product: "unknown.product", units: 2)])
        let (merged, report) = try PlanMerger.merge(later, into: base)
        #expect(merged.installBase?.downloads == [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 15, refunds: 1)])
        #expect(merged.installBase?.products == [ProductCount(product: "com.example.shelf.pro", units: 3)])
        #expect(merged.installBase?.until == date("2019-02-28"))
        #expect(report.ignored.contains { $0.contains("'unknown.product', which is not a product in the plan") })
        let (again, overlap) = try PlanMerger.merge(later, into: merged)
        #expect(again.installBase == merged.installBase)
        #expect(overlap.conflicts.contains { $0.hasPrefix("installBase:") && $0.contains("overlap") })
    }
}
