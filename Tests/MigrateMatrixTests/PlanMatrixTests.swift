import Foundation
import MigrateCLI
import MigrateCore
import MigrateMatrix
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

let exampleNames = Examples.names

/// Each example's factor model and default matrix, generated once for all the tests that read them.
let exampleMatrices: [String: (factors: PlanFactorModel, array: CoveringArray)] = {
    var result: [String: (factors: PlanFactorModel, array: CoveringArray)] = [:]
    for name in exampleNames {
        let factors = PlanFactorModel(plan: try! examplePlan(name))
        result[name] = (factors, try! factors.matrix())
    }
    return result
}()

@Suite("Plan matrices", .timeLimit(.minutes(20)))
struct PlanMatrixTests {
    @Test("Every example's matrix covers every valid pair with valid rows", arguments: exampleNames)
    func complete(name: String) throws {
        let (factors, array) = try #require(exampleMatrices[name])
        expectComplete(array)
        #expect(factors.notes.isEmpty)
    }

    @Test("Rows respect the environment, receipt and restore rules", arguments: exampleNames)
    func constraints(name: String) throws {
        let plan = try examplePlan(name)
        let (factors, array) = try #require(exampleMatrices[name])
        for row in factors.rows(of: array) {
            let customer = try #require(row.customer)
            if customer.environment != .production {
                #expect(customer.originalAppVersion == "1.0")
                #expect(row.value(of: "originalVersion") == "1.0 (sandbox)")
            } else {
                #expect(row.value(of: "originalVersion") != "1.0 (sandbox)")
            }
            if customer.originalAppVersion == nil && customer.originalPurchaseDate == nil {
                #expect(customer.purchases.isEmpty, "no receipt, so nothing is owned")
            }
            let active = customer.purchases.contains { purchase in
                !purchase.isRevoked && !purchase.isExpired && plan.product(withID: purchase.productID)?.kind != .consumable
            }
            if row.restore == .restored { #expect(active) }
            if row.restore == .nothingRestored { #expect(!active) }
        }
    }

    @Test("Boundary versions sit below, at and above every cutoff")
    func boundaries() throws {
        let factors = PlanFactorModel(plan: try examplePlan("tilt-to-live-hd"))
        let levels = try #require(factors.model.factors.first { $0.name == "originalVersion" }?.levels)
        // Paid builds 10, 14, 21; the first free build is 30.
        #expect(levels == ["9", "29", "30", "31", "41", "1.0 (sandbox)", "(missing)", "2.0.1b (malformed)"])
        let products = factors.model.factors.filter { $0.name.hasPrefix("com.example") }
        #expect(products.count == 3)
        let tally = PlanFactorModel(plan: try examplePlan("tally-two-switches"))
        #expect(tally.model.factors.first { $0.name == "com.example.tally.tipjar" }?.levels == ["notOwned", "purchased"])
        #expect(tally.model.factors.first { $0.name == "com.example.tally.pro.monthly" }?.levels == ["notOwned", "purchased", "revoked", "expired"])
    }

    @Test("Expected outcomes agree with 'migrate explain' for every row", arguments: exampleNames)
    func agreesWithExplain(name: String) throws {
        let (factors, array) = try #require(exampleMatrices[name])
        let rows = factors.rows(of: array)
        #expect(!rows.isEmpty)
        for row in rows {
            let expected = try #require(row.expected)
            let run = Run(arguments: ["explain", "Examples/\(name)", "--format", "json"] + row.explainArguments)
            #expect(run.status == .success, "row \(row.number): \(run.error)")
            let json = try JSONParser.parse(bytes: Array(run.output.utf8))
            let cohort = try #require(json["cohort"])
            #expect(cohort["kind"]?.stringValue == expected.cohort, "row \(row.number)")
            #expect(cohort["tier"]?.stringValue == expected.tier, "row \(row.number)")
            #expect(cohort["rule"]?.stringValue == expected.rule, "row \(row.number)")
            #expect(json["features"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == expected.features, "row \(row.number)")
            #expect(json["offers"]?.arrayValue?.compactMap { $0["product"]?.stringValue } == expected.offers, "row \(row.number)")
            if case .bool(let shown) = json["showsRestore"]?.value {
                #expect(shown == expected.restoreShown, "row \(row.number)")
            } else {
                Issue.record("row \(row.number): no showsRestore")
            }
        }
    }

    @Test("The matrix reaches the cohorts that matter: a legacy buyer and a new customer")
    func reachesCohorts() throws {
        let (factors, array) = try #require(exampleMatrices["tilt-to-live-hd"])
        let cohorts = Set(factors.rows(of: array).compactMap { $0.expected?.cohortLabel })
        #expect(cohorts.contains("legacy paid-1.0"))
        #expect(cohorts.contains("newCustomer"))
    }
}

@Suite("Plan matrices at scale", .timeLimit(.minutes(20)))
struct LargePlanMatrixTests {
    /// A plan with `count` non-consumables and `tiers` discount tiers over `releases` paid releases.
    static func plan(products count: Int, releases: Int = 1, tiers: Int = 0) -> MigrationPlan {
        let features = (0..<4).map { Feature(id: "f\($0)", name: "F\($0)") }
        var list = (0..<releases).map { index in
            Release(
                platform: .iOS, version: try! Version("1.\(index)"), build: try! Version("\(10 + index)"),
                released: Timestamp.parse("2020-01-01")!.addingTimeInterval(Double(index) * 30 * 86_400), model: .paid(try! Price("1.99")),
                includes: index == 0 ? ["f0"] : [])
        }
        let free = Timestamp.parse("2020-01-01")!.addingTimeInterval(Double(releases) * 30 * 86_400)
        list.append(Release(platform: .iOS, version: try! Version("2.0"), build: try! Version("100"), released: free, model: .free, includes: []))
        let products = (0..<count).map {
            Product(id: "p\($0)", name: "P\($0)", kind: .nonConsumable, price: try! Price("0.99"), grants: [features[$0 % 4].id])
        }
        var plan = MigrationPlan(
            app: AppInfo(name: "Big", bundleID: "big", platforms: [.iOS]), features: features, releases: list, products: products)
        plan.tiers = (0..<tiers).map { index in
            LegacyTier(
                id: "t\(index)", name: "T\(index)", from: index == 0 ? nil : list[index * releases / tiers].released,
                until: list[(index + 1) * releases / tiers].released, grants: ["f0"])
        }
        return plan
    }

    @Test("A plan with hundreds of products keeps the restore rule, as one clause the generator checks as it is")
    func manyProducts() {
        let model = PlanFactorModel(plan: Self.plan(products: 300))
        #expect(model.notes.isEmpty)
        #expect(model.model.constraints.contains { $0.clause != nil && $0.scope.count == 301 })
    }

    @Test("Every row keeps every rule: a restore only with something owned, a version only while it was live", arguments: [1, 8, 10, 12, 20])
    func rowsKeepEveryRule(count: Int) throws {
        let factors = PlanFactorModel(plan: Self.plan(products: count, releases: 3, tiers: count == 8 ? 3 : 0))
        let array = try factors.matrix()
        let broken = array.rows.filter { row in !factors.model.constraints.allSatisfy { $0.isSatisfied(by: row) } }
        #expect(broken.isEmpty)
        let rows = factors.rows(of: array)
        let restored = rows.filter { $0.restore == .restored }
        #expect(!restored.isEmpty)
        #expect(restored.allSatisfy { !($0.customer?.purchases.isEmpty ?? true) }, "a restore with nothing owned")
        let report = CoverageVerifier(model: factors.model, strength: 2).verify(array.rows)
        #expect(report.isComplete && report.invalidRows.isEmpty)
    }

    @Test("Tiers don't multiply rows: a version meets only the dates its release was live")
    func tiersStaySmall() throws {
        let factors = PlanFactorModel(plan: Self.plan(products: 2, releases: 20, tiers: 10))
        let array = try factors.matrix()
        // Without the rule every version level met every date level. Measured with `migrate matrix` on a plan of
        // 30 products, 100 releases and 40 tiers: 6,978 rows before the rule, 614 with it.
        #expect(array.rows.count < 300, "\(array.rows.count) rows")
    }
}
