import Foundation
import MigrateCore
import MigratePlan
import Testing

/// Work grows with the catalog, not its square; bundles of bundles refused past a
/// stated depth instead of costing the square of the chain everywhere.
@Suite("Catalog scale: bundle depth, indexes, closures", .timeLimit(.minutes(20)))
struct CatalogScaleTests {
    /// A chain of bundles: `chain-0` grants 'a'; each next one contains the one before.
    static func chain(_ length: Int) -> MigrationPlan {
        var products = [product("chain-0", "0.99", grants: ["a"])]
        for index in 1..<length {
            products.append(product("chain-\(index)", "1.99", grants: index == length - 1 ? ["b"] : [], contains: ["chain-\(index - 1)"]))
        }
        return MigrationPlan(
            app: AppInfo(name: "Chain", bundleID: "com.example.chain", platforms: [.iOS]),
            features: [Feature(id: "a", name: "A"), Feature(id: "b", name: "B")],
            releases: [
                release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "0.99", includes: ["a"]), release("2.0", build: "2", "2021-01-01T00:00:00Z"),
            ],
            products: products)
    }

    @Test(
        "Bundles nest at most Limits.bundleDepth levels: the outermost bundle of a deeper chain is refused, with the limit",
        arguments: [
            (Limits.bundleDepth + 1, nil),  // chain-N nests N levels: exactly the limit
            (Limits.bundleDepth + 2, "\(Limits.bundleDepth + 1) levels deep"),
            (3_000, "2,999 levels deep (chain-2999 → chain-2998 → chain-2997 → … → chain-0)"),
        ])
    func bundleDepth(length: Int, message: String?) {
        // Through the decoder, as a command reads it, so the error has its place in the file.
        let document = PlanDecoder.decode(PlanEncoder.encode(Self.chain(length)))
        let problems = document.diagnostics.filter { $0.code == .bundleTooDeep }
        guard let message else {
            #expect(problems.isEmpty)
            return
        }
        // One error, at the outermost bundle, not one for every bundle past the limit.
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains(message) == true, "\(problems.map(\.message))")
        #expect(problems.first?.message.contains("at most \(Limits.bundleDepth) levels") == true)
        #expect(problems.first?.path?.description == "products[\(length - 1)].contains")
    }

    @Test("A cycle is a bundle-cycle, not a depth; a diamond counts its longest path once")
    func cyclesAndDiamonds() {
        var plan = Self.chain(3)
        plan.products[0].contains = ["chain-2"]
        let diagnostics = PlanValidator.validate(plan)
        #expect(diagnostics.contains { $0.code == .bundleCycle })
        #expect(!diagnostics.contains { $0.code == .bundleTooDeep })

        var diamond = Self.chain(2)
        diamond.products.append(product("left", "1.99", contains: ["chain-1"]))
        diamond.products.append(product("right", "1.99", contains: ["chain-1", "chain-0"]))
        diamond.products.append(product("top", "2.99", contains: ["left", "right"]))
        #expect(PlanValidator.validate(diamond).filter { $0.code.rawValue.hasPrefix("bundle") }.isEmpty)
        let catalog = PlanCatalog(diamond)
        #expect(catalog.productContents["top"] == ["left", "right", "chain-1", "chain-0"])
        #expect(catalog.productFeatures["top"] == ["a", "b"])
    }

    @Test("The catalog's closures reach the whole chain at the limit, and stop there past it")
    func closures() {
        let atLimit = PlanCatalog(Self.chain(Limits.bundleDepth + 1))
        let top = "chain-\(Limits.bundleDepth)"
        #expect(atLimit.productContents[top]?.count == Limits.bundleDepth)
        #expect(atLimit.productFeatures[top] == ["a", "b"])
        // Refused by check; the catalog on the way there stays bounded (and says no more than the limit).
        let long = PlanCatalog(Self.chain(3_000))
        #expect(long.productContents["chain-2999"]?.count == Limits.bundleDepth)
        #expect(long.productFeatures["chain-2999"] == ["b"])
        #expect(long.productContents["chain-5"]?.count == 5)
    }

    @Test("Products are looked up by id and by the features they grant, in plan order")
    func indexes() {
        var plan = Self.chain(3)
        plan.products.append(product("solo-b", "0.49", grants: ["b"]))
        let catalog = PlanCatalog(plan)
        #expect(catalog.product(withID: "chain-1")?.price == (try! Price("1.99")))
        #expect(catalog.product(withID: "nope") == nil)
        #expect(catalog.index(ofProduct: "solo-b") == 3)
        #expect(catalog.products(granting: "a").map(\.id) == ["chain-0", "chain-1", "chain-2"])
        #expect(catalog.products(granting: "b").map(\.id) == ["chain-2", "solo-b"])
        #expect(catalog.products(granting: "c").isEmpty)
    }
}
