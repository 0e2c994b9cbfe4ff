import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Receipts and app transactions", .timeLimit(.minutes(20)))
struct ReceiptTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/receipts")
    static let now = date("2023-12-01T00:00:00Z")

    static func read(_ url: URL) throws -> (facts: ReceiptFacts?, diagnostics: [Diagnostic]) {
        let root = try JSONParser.parse(bytes: Array(try Data(contentsOf: url)))
        return ReceiptReader.read(root, now: now)
    }

    static func fixture(_ name: String) throws -> ReceiptFacts {
        try #require(try read(fixtures.appendingPathComponent(name)).facts)
    }

    @Test("The shipped production receipt (seed 002's shape) reads as build 31")
    func productionReceipt() throws {
        let facts = try #require(try Self.read(repositoryRoot.appendingPathComponent("Examples/server-pal/receipt-production.json")).facts)
        #expect(facts.source == .legacyReceipt)
        #expect(facts.environment == .production)
        #expect(facts.originalAppVersion == "31")
        #expect(facts.originalPurchaseDate == date("2017-09-24T08:12:40Z"))
        #expect(facts.purchases.isEmpty)
    }

    @Test("Numbers given as numbers, family sharing and cancellations are read")
    func numbersAndOwnership() throws {
        let facts = try Self.fixture("legacy-numbers-as-numbers.json")
        #expect(facts.originalAppVersion == "21")
        #expect(facts.purchases.map(\.productID) == ["com.example.tilttolivehd.full", "com.example.tilttolivehd.turret"])
        #expect(facts.purchases[0].isRevoked)
        #expect(facts.purchases[1].ownership == .familyShared)
    }

    @Test("Renewals collapse to the newest expiry")
    func renewals() throws {
        let facts = try Self.fixture("legacy-subscription-renewals.json")
        let monthly = try #require(facts.purchases.first { $0.productID == "com.example.tally.pro.monthly" })
        #expect(monthly.isExpired == false, "the second period ends 2024-01-14, after 'now'")
        let later = ReceiptReader.read(
            try JSONParser.parse(bytes: Array(Data(contentsOf: Self.fixtures.appendingPathComponent("legacy-subscription-renewals.json")))),
            now: date("2024-02-01T00:00:00Z"))
        #expect(later.facts?.purchases.first { $0.productID == "com.example.tally.pro.monthly" }?.isExpired == true)
    }

    @Test("VPP, sandbox and refunded app transactions are recognised")
    func specialCases() throws {
        #expect(try Self.fixture("vpp-receipt.json").isVolumePurchase)
        let sandbox = try Self.fixture("app-transaction-sandbox.json")
        #expect(sandbox.source == .appTransactionPayload)
        #expect(sandbox.environment == .sandbox)
        #expect(sandbox.originalPlatform == .iOS)
        #expect(try Self.fixture("app-transaction-refunded.json").isAppPurchaseRevoked)
    }

    @Test(
        "Bad receipts say what is wrong",
        arguments: [
            ("failed-status.json", "status 21007", "sandbox receipt sent to production"),
            ("not-a-receipt.json", "neither a verifyReceipt response", ""),
        ])
    func badReceipts(name: String, message: String, detail: String) throws {
        let (facts, diagnostics) = try Self.read(Self.fixtures.appendingPathComponent(name))
        #expect(facts == nil)
        #expect(diagnostics.contains { $0.message.contains(message) && (detail.isEmpty || $0.message.contains(detail)) })
    }

    @Test("End to end: the production receipt explains as a legacy buyer; the sandbox one as a tester")
    func endToEnd() throws {
        let plan = try examplePlan("server-pal")
        let production = try #require(try Self.read(repositoryRoot.appendingPathComponent("Examples/server-pal/receipt-production.json")).facts)
        let buyer = Customer(
            platform: .iOS, environment: production.environment!, originalAppVersion: production.originalAppVersion,
            originalPurchaseDate: production.originalPurchaseDate)
        let report = Advisor(plan: plan).report(for: buyer)
        #expect(report.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(report.decision.comparisons.contains("build 31 < 40 (numeric), the first build of 2.0 (40), a free release"))
        #expect(report.upsell.offers.isEmpty)
    }

    /// Real files from public projects, read when ../shared is beside the repository.
    @Test(
        "Conformance: every receipt in ../shared/fixtures reads",
        .enabled(if: SharedFixtures.has("receipts"), "../shared/fixtures/receipts is absent (it exists only beside the developers' checkout)"))
    func sharedFixtures() throws {
        let folder = SharedFixtures.url("receipts")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasSuffix(".json") }, "\(names)")
        for name in names.sorted() where name.hasSuffix(".json") {
            let (facts, diagnostics) = try Self.read(folder.appendingPathComponent(name))
            #expect(facts != nil && !diagnostics.hasErrors, "\(name): \(diagnostics.map(\.message))")
            if name.contains("sandbox") {
                #expect(facts?.environment == .sandbox, "\(name)")
                #expect(facts?.originalAppVersion == "1.0")
                #expect(facts?.originalPurchaseDate == date("2013-08-01T07:00:00Z"))
            }
            if name.contains("production") { #expect(facts?.originalAppVersion == "31") }
            if name.contains("appTransaction") {
                #expect(facts?.environment == .xcode, "LocalTesting is the Xcode environment")
                #expect(facts?.originalPlatform == .iOS)
            }
        }
    }
}
