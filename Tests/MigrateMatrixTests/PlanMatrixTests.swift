import Foundation
import MigrateCLI
import MigrateCore
import MigrateMatrix
import MigratePlan
import MigrateTestSupport
import Testing

let exampleNames = Examples.names

func loadExample(_ name: String) throws -> MigrationPlan {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Examples/\(name)/migration.json"))
    return try #require(PlanDecoder.decode(bytes: Array(data)).plan)
}

/// Each example's factor model and default matrix, generated once for all the tests that read them.
let exampleMatrices: [String: (factors: PlanFactorModel, array: CoveringArray)] = {
    var result: [String: (factors: PlanFactorModel, array: CoveringArray)] = [:]
    for name in exampleNames {
        let factors = PlanFactorModel(plan: try! loadExample(name))
        result[name] = (factors, try! factors.matrix())
    }
    return result
}()

/// Runs `migrate` in-process from the repository root.
struct Run {
    var status: ExitCode
    var output: String
    var error: String

    init(_ arguments: [String], directory: URL = repositoryRoot) {
        let context = CommandContext.testing(directory: directory.path)
        status = Migrate.run(arguments, context: context)
        output = context.standardOutput.text
        error = context.standardError.text
    }
}

@Suite("Plan matrices")
struct PlanMatrixTests {
    @Test("Every example's matrix covers every valid pair with valid rows", arguments: exampleNames)
    func complete(name: String) throws {
        let (factors, array) = try #require(exampleMatrices[name])
        expectComplete(array)
        #expect(factors.notes.isEmpty)
    }

    @Test("Rows respect the environment, receipt and restore rules", arguments: exampleNames)
    func constraints(name: String) throws {
        let plan = try loadExample(name)
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
        let factors = PlanFactorModel(plan: try loadExample("tilt-to-live-hd"))
        let levels = try #require(factors.model.factors.first { $0.name == "originalVersion" }?.levels)
        // Paid builds 10, 14, 21; the first free build is 30.
        #expect(levels == ["9", "29", "30", "31", "41", "1.0 (sandbox)", "(missing)", "2.0.1b (malformed)"])
        let products = factors.model.factors.filter { $0.name.hasPrefix("com.example") }
        #expect(products.count == 3)
        let tally = PlanFactorModel(plan: try loadExample("tally-two-switches"))
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
            let run = Run(["explain", "Examples/\(name)", "--format", "json"] + row.explainArguments)
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

@Suite("Plan matrices at scale")
struct LargePlanMatrixTests {
    @Test("A plan with hundreds of products builds its factor model without overflowing")
    func manyProducts() {
        let features = (0..<4).map { Feature(id: "f\($0)", name: "F\($0)") }
        let releases = [
            Release(platform: .iOS, version: try! Version("1.0"), build: try! Version("10"), released: Timestamp.parse("2020-01-01")!, model: .paid(try! Price("1.99")), includes: ["f0"]),
            Release(platform: .iOS, version: try! Version("2.0"), build: try! Version("20"), released: Timestamp.parse("2021-01-01")!, model: .free, includes: []),
        ]
        let products = (0..<300).map { Product(id: "p\($0)", name: "P\($0)", kind: .nonConsumable, price: try! Price("0.99"), grants: [features[$0 % 4].id]) }
        let model = PlanFactorModel(plan: MigrationPlan(app: AppInfo(name: "Big", bundleID: "big", platforms: [.iOS]), features: features, releases: releases, products: products))
        #expect(model.notes.contains { $0.contains("too many combinations") })
    }
}
