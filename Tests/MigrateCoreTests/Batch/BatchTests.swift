import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("explain --batch: deciding a list", .timeLimit(.minutes(20)))
struct BatchTests {
    static func catalog(_ example: String) throws -> PlanCatalog {
        let url = repositoryRoot.appendingPathComponent("Examples/\(example)/migration.json")
        let plan = try #require(PlanDecoder.decode(bytes: Array(try Data(contentsOf: url))).plan)
        return PlanCatalog(plan)
    }

    /// Customers drawn from everything the plan knows: its versions (and ones it doesn't), dates around
    /// its releases, every environment and platform, and its products in every state.
    static func customers(for catalog: PlanCatalog, count: Int, seed: UInt64) -> [Customer] {
        var random = SeededGenerator(seed: seed)
        let plan = catalog.plan
        let versions = plan.releases.flatMap { [$0.version.text] + ($0.build.map { [$0.text] } ?? []) } + ["0", "1.0", "999", "abc", ""]
        let dates = plan.releases.flatMap { [$0.released.addingTimeInterval(-86_400), $0.released, $0.released.addingTimeInterval(86_400)] }
        let states: [(inout OwnedProduct) -> Void] = [
            { _ in }, { $0.ownership = .familyShared }, { $0.isRevoked = true }, { $0.isExpired = true }, { $0.isVerified = false },
        ]
        return (0..<count).map { _ in
            var customer = Customer(platform: plan.app.platforms.randomElement(using: &random)!)
            customer.now = dates.randomElement(using: &random)
            customer.environment =
                Int.random(in: 0..<10, using: &random) == 0 ? StoreEnvironment.allCases.randomElement(using: &random)! : .production
            let version = versions.randomElement(using: &random)!
            customer.originalAppVersion = version.isEmpty ? nil : version
            customer.originalPurchaseDate = Bool.random(using: &random) ? dates.randomElement(using: &random) : nil
            customer.originalPlatform = Bool.random(using: &random) ? plan.app.platforms.randomElement(using: &random) : nil
            customer.isAppPurchaseRevoked = Int.random(in: 0..<20, using: &random) == 0
            customer.isVolumePurchase = Int.random(in: 0..<20, using: &random) == 0
            if Int.random(in: 0..<10, using: &random) == 0 {
                customer.appTransaction = .failed(lastVerifiedDaysAgo: Int.random(in: 0..<30, using: &random))
            }
            for product in plan.products where Int.random(in: 0..<3, using: &random) == 0 {
                var owned = OwnedProduct(productID: product.id, purchaseDate: dates.randomElement(using: &random))
                states.randomElement(using: &random)!(&owned)
                customer.purchases.append(owned)
            }
            return customer
        }
    }

    @Test("Every decision the list reuses is the one explain makes for that customer", arguments: Examples.names)
    func agreesWithExplain(_ example: String) throws {
        let catalog = try Self.catalog(example)
        let advisor = Advisor(catalog: catalog)
        // A small table, so reuse and starting over both happen.
        var decider = BatchDecider(catalog: catalog, capacity: 64)
        for customer in Self.customers(for: catalog, count: 1_500, seed: 2026) {
            let report = advisor.report(for: customer)
            let batch = decider.decide(customer)
            #expect(batch.cohort == report.decision.cohort)
            #expect(batch.rule == report.decision.rule)
            #expect(batch.features == report.entitlements.features.map(\.featureID), "\(customer)")
            #expect(batch.offers == report.upsell.offers.map(\.productID), "\(customer)")
            #expect(batch.withheld == report.upsell.withheld.map(\.productID), "\(customer)")
        }
    }

    @Test("A row's columns become the customer explain's options describe")
    func readsARow() throws {
        let catalog = try Self.catalog("tilt-to-live-hd")
        let reader = BatchCustomerReader(plan: catalog.plan, now: date("2026-11-26T00:00:00Z"))
        let values: [BatchColumn: BatchValue] = [
            .originalAppVersion: .text("14"), .originalPurchaseDate: .number("1306000000000"), .originalPlatform: .text("iPadOS"),
            .environment: .text("Production"), .products: .text("com.example.tilttolivehd.turret:familyShared  other@2026-01-01"),
        ]
        let customer = try reader.customer { values[$0] }
        #expect(customer.originalAppVersion == "14")
        #expect(customer.originalPurchaseDate == Date(timeIntervalSince1970: 1_306_000_000))
        #expect(customer.originalPlatform == .iPadOS)
        #expect(customer.platform == .iPadOS)
        #expect(customer.environment == .production)
        #expect(customer.purchases.map(\.productID) == ["com.example.tilttolivehd.turret", "other"])
        #expect(customer.purchases.first?.ownership == .familyShared)
        #expect(customer.purchases.last?.purchaseDate == date("2026-01-01"))
        #expect(customer.now == date("2026-11-26T00:00:00Z"))
    }

    @Test("Every problem of a row is named at once, each with its column")
    func rowProblems() throws {
        let catalog = try Self.catalog("tilt-to-live-hd")
        let reader = BatchCustomerReader(plan: catalog.plan, now: date("2026-11-26T00:00:00Z"))
        let values: [BatchColumn: BatchValue] = [
            .originalPurchaseDate: .text("yesterday"), .originalPlatform: .text("iOSS"), .environment: .text("Staging"),
            .products: .text("x:stolen"), .platform: .text("macOS"),
        ]
        #expect {
            try reader.customer { values[$0] }
        } throws: { error in
            let problems = (error as? BatchRowError)?.problems ?? []
            return problems.count == 5 && problems[0].hasPrefix("originalPurchaseDate:") && problems[1].contains("Did you mean 'iOS'?")
                && problems[2].hasPrefix("environment:") && problems[3].contains("'stolen'") && problems[4].contains("doesn't run on macOS")
        }
    }

    func summary(_ catalog: PlanCatalog, _ customers: [Customer]) -> BatchSummary {
        var decider = BatchDecider(catalog: catalog)
        var summary = BatchSummary(catalog: catalog)
        for (offset, customer) in customers.enumerated() { summary.add(customer, decider.decide(customer), at: "line \(offset + 2)") }
        return summary
    }

    func customer(_ version: String?, _ purchased: String?, environment: StoreEnvironment = .production) -> Customer {
        Customer(platform: .iOS, environment: environment, originalAppVersion: version, originalPurchaseDate: purchased.map(date))
    }

    @Test("Warnings catch a wrong cutoff: paid but new, free but legacy, a list of testers, a lopsided share, unknown versions, no version")
    func warnings() throws {
        let catalog = try Self.catalog("tilt-to-live-hd")
        // Build 30 is the first free build, but this customer's date is in the paid era: the list and plan disagree.
        let paidButNew = summary(catalog, [customer("30", "2011-06-01T00:00:00Z"), customer("14", "2011-06-01T00:00:00Z")])
        #expect(
            paidButNew.warnings.contains { $0.hasPrefix("1 production customer bought while a paid release was on sale") && $0.contains("(line 2)") })
        let freeButLegacy = summary(catalog, [customer("21", "2013-06-01T00:00:00Z")])
        #expect(freeButLegacy.warnings.contains { $0.hasPrefix("1 production customer downloaded while the app was free") })
        let testers = summary(catalog, [customer("1.0", nil, environment: .sandbox), customer("1.0", nil, environment: .xcode)])
        #expect(testers.warnings.contains { $0.hasPrefix("every row is sandbox and xcode") })
        let allLegacy = summary(catalog, Array(repeating: customer("14", nil), count: 25))
        #expect(allLegacy.warnings.contains { $0.hasPrefix("100% of listed production customers are legacy") })
        let noneLegacy = summary(catalog, Array(repeating: customer("40", nil), count: 25))
        #expect(noneLegacy.warnings.contains { $0.hasPrefix("0% of listed production customers are legacy") })
        let mixed = summary(catalog, Array(repeating: customer("14", nil), count: 12) + Array(repeating: customer("40", nil), count: 13))
        #expect(mixed.warnings.isEmpty, "\(mixed.warnings)")
        let unknown = summary(catalog, [customer("31", nil), customer("31", nil), customer("77", nil)])
        #expect(
            unknown.warnings.contains { $0.hasPrefix("3 production customers' original version is no release in the plan: \"31\" (2), \"77\" (1)") })
        let blank = summary(catalog, [customer(nil, nil)])
        #expect(blank.warnings.contains { $0.hasPrefix("1 production customer has neither an original version nor a purchase date") })
    }

    @Test("Cohorts are counted with the rules that decided them and who is offered something")
    func counts() throws {
        let catalog = try Self.catalog("tilt-to-live-hd")
        let result = summary(catalog, [customer("14", nil), customer("40", nil), customer("40", nil), customer("1.0", nil, environment: .sandbox)])
        #expect(result.decided == 4)
        #expect(result.groups["legacy:paid-1.0"]?.count == 1)
        #expect(result.groups["legacy:paid-1.0"]?.rules == [.buildNumber: 1])
        #expect(result.groups["newCustomer"]?.count == 3)
        #expect(result.groups["newCustomer"]?.rules == [.buildNumber: 2, .environmentPolicy: 1])
        #expect(result.groups["newCustomer"]?.offered == 3)
        #expect(result.environments == [.production: 3, .sandbox: 1])
    }
}
