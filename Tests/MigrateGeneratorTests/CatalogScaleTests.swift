import Foundation
import MigrateCore
import MigratePlan
import Testing

@testable import MigrateGenerator

/// `generate` grows with the catalog, not its square.
@Suite("Catalog scale: generation", .timeLimit(.minutes(20)))
struct GenerationScaleTests {
    /// `count` products over `featureCount` features: each grants two, every 7th is a bundle of the two before,
    /// every 5th an add-on requiring what the one before grants, every 9th a consumable.
    static func plan(products count: Int, features featureCount: Int) -> MigrationPlan {
        let features = (0..<featureCount).map { Feature(id: "f\($0)", name: "Feature \($0)") }
        var products: [Product] = []
        for index in 0..<count {
            var product = Product(
                id: "com.example.gen.p\(index)", name: "P\(index)", kind: index % 9 == 8 ? .consumable : .nonConsumable,
                price: try! Price("\(index % 4).99"), grants: [features[index % featureCount].id, features[(index * 3 + 1) % featureCount].id])
            if index % 7 == 6 { product.contains = products.suffix(2).map(\.id) }
            if index % 5 == 4, let before = products.last?.grants.first { product.requires = [before] }
            if product.kind == .consumable { product.grants = [] }
            products.append(product)
        }
        let start = Timestamp.parse("2019-01-01T00:00:00Z")!
        var releases: [Release] = []
        for step in 0..<4 {
            let model: BusinessModel = step < 2 ? .paid(try! Price("2.99")) : .free
            let includes: [String]? = step == 0 ? [features[0].id] : step == 2 ? [] : nil
            let released = start.addingTimeInterval(Double(step * 90 * 86_400))
            releases.append(
                Release(
                    platform: .iOS, version: try! Version("1.\(step)"), build: try! Version(String(10 + step)), released: released, model: model,
                    includes: includes))
        }
        return MigrationPlan(
            app: AppInfo(name: "Gen", bundleID: "com.example.gen", platforms: [.iOS]), features: features, releases: releases, products: products)
    }

    @Test("Plans up to the limit get the pairwise rows (past the old 12-product cap); past it TEST_MATRIX.md says they are left out")
    func pairwiseUpToTheLimit() throws {
        let within = Self.plan(products: 30, features: 12)
        #expect(TestCaseBuilder.includesPairwise(within))
        #expect(TestCaseBuilder.cases(for: PlanCatalog(within)).contains { $0.name.hasPrefix("pairwise row ") })
        let matrix = try #require(try Generator().generate(within).first { $0.path == "TEST_MATRIX.md" })
        #expect(!matrix.body.contains("leave out the pairwise rows"))

        let past = Self.plan(products: Limits.pairwiseTestProducts + 1, features: 12)
        #expect(!TestCaseBuilder.includesPairwise(past))
        #expect(!TestCaseBuilder.cases(for: PlanCatalog(past)).contains { $0.name.hasPrefix("pairwise row ") })
        let doc = try #require(try Generator().generate(past).first { $0.path == "TEST_MATRIX.md" })
        #expect(doc.body.contains("The plan has more than 60 products or 200 releases, so these cases leave out the pairwise rows"))
    }

    @Test("Interacting pairs come from indexes, and are the pairs a product-by-product comparison finds", arguments: [(30, 12), (60, 90), (200, 40)])
    func interactingPairs(count: Int, features: Int) {
        let catalog = PlanCatalog(Self.plan(products: count, features: features))
        // The definition, pair by pair.
        let lasting = catalog.plan.products.filter { $0.kind != .consumable }
        var expected: [(String, String)] = []
        for (offset, first) in lasting.enumerated() {
            for second in lasting[(offset + 1)...] {
                let firstFeatures = catalog.productFeatures[first.id] ?? []
                let secondFeatures = catalog.productFeatures[second.id] ?? []
                let contains =
                    (catalog.productContents[first.id] ?? []).contains(second.id) || (catalog.productContents[second.id] ?? []).contains(first.id)
                let enables = !Set(first.requires).isDisjoint(with: secondFeatures) || !Set(second.requires).isDisjoint(with: firstFeatures)
                if contains || !firstFeatures.isDisjoint(with: secondFeatures) || enables { expected.append((first.id, second.id)) }
            }
        }
        for limit in [5, TestCaseBuilder.maximumPairs, Int.max] {
            let pairs = TestCaseBuilder.interactingPairs(catalog, limit: limit)
            let wanted = Array(expected.prefix(limit))
            #expect(pairs.map(\.0) == wanted.map(\.0) && pairs.map(\.1) == wanted.map(\.1), "limit \(limit)")
        }
    }

    @Test("Test cases stop at the budget of expected values, keeping the cutoff boundaries first")
    func expectedValueBudget() {
        let catalog = PlanCatalog(Self.plan(products: 120, features: 120))
        let all = TestCaseBuilder.cases(for: catalog)
        func values(_ cases: [GeneratedTestCase]) -> Int {
            cases.reduce(0) { $0 + $1.expected.entitlements.features.count + $1.expected.upsell.offers.count }
        }
        let budget = values(all) / 4
        let kept = TestCaseBuilder.cases(for: catalog, maximumValues: budget)
        #expect(!kept.isEmpty && kept.count < all.count)
        #expect(values(kept) <= budget)
        // Boundary cases come first: the first release's version is always kept.
        #expect(kept.contains { $0.name == "iOS 10" })
        // In the plan's order, as a subset of the unbounded list.
        let names = all.map(\.name)
        #expect(kept.map(\.name) == names.filter(Set(kept.map(\.name)).contains))
        // One case is kept even when it alone is past the budget.
        #expect(TestCaseBuilder.cases(for: catalog, maximumValues: 1).count == 1)
    }

    @Test(
        "ENTITLEMENTS.md gives each feature a column up to maximumFeatureColumns, and lists them past it",
        arguments: [GenerationContext.maximumFeatureColumns, GenerationContext.maximumFeatureColumns + 1])
    func featureColumns(features: Int) throws {
        let files = try Generator().generate(Self.plan(products: 30, features: features), only: [.docs])
        let entitlements = try #require(files.first { $0.path == "ENTITLEMENTS.md" }).body
        if features <= GenerationContext.maximumFeatureColumns {
            #expect(entitlements.contains("| cohort | Feature 0 | Feature 1 |"))
            #expect(entitlements.contains("| product | price | for sale | Feature 0 |"))
        } else {
            #expect(!entitlements.contains("| cohort | Feature 0 |"))
            #expect(entitlements.contains("| cohort | kept or free without buying |\n|---|---|\n"))
            #expect(entitlements.contains("| product | price | for sale | features |\n|---|--:|:-:|---|\n"))
            // p0 grants f0 and f1; the bundle p6 has what p4 and p5 grant.
            #expect(entitlements.contains("| `com.example.gen.p0` P0 | 0.99 | yes | Feature 0, Feature 1 |"))
            #expect(
                entitlements.contains(
                    "| `com.example.gen.p6` P6 | 2.99 | yes | Feature 4, Feature 5, Feature 6, Feature 13, Feature 16, Feature 19 |"))
            #expect(entitlements.contains("| New customers (free download) | — |"))
        }
    }
}
