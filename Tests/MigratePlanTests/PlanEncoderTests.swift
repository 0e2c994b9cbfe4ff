import Foundation
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Plan encoding", .timeLimit(.minutes(20)))
struct PlanEncoderTests {
    static let examples = Examples.names

    static func withoutOrigins(_ plan: MigrationPlan) -> MigrationPlan {
        func cleared<Item>(_ items: [Item], _ origin: WritableKeyPath<Item, JSONPath?>) -> [Item] {
            items.map {
                var item = $0
                item[keyPath: origin] = nil
                return item
            }
        }
        var plan = plan
        plan.features = cleared(plan.features, \.origin)
        plan.releases = cleared(plan.releases, \.origin)
        plan.products = cleared(plan.products, \.origin)
        plan.tiers = cleared(plan.tiers, \.origin)
        return plan
    }

    @Test("Encoding round-trips every example, and is stable", arguments: examples)
    func roundTrip(name: String) throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/\(name)/migration.json"), encoding: .utf8)
        let plan = try #require(PlanDecoder.decode(text).plan)
        let encoded = PlanEncoder.encode(plan)
        let document = PlanDecoder.decode(encoded)
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map(\.message))")
        let decoded = try #require(document.plan)
        #expect(Self.withoutOrigins(decoded) == Self.withoutOrigins(plan))
        #expect(PlanEncoder.encode(decoded) == encoded)
        #expect(encoded.hasSuffix("}\n") && !encoded.contains("\r"))
        #expect(encoded == text, "the shipped example is written the way migrate writes plans")
    }

    @Test("An install base round-trips")
    func installBase() throws {
        var plan = try #require(PlanDecoder.decode(minimalPlan).plan)
        plan.installBase = InstallBase(
            from: Timestamp.parse("2020-01-01"), until: Timestamp.parse("2020-12-31"),
            downloads: [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 1200, free: 0, refunds: 14)],
            products: [ProductCount(product: "com.example.demo.pro", units: 300, refunds: 2)])
        let decoded = try #require(PlanDecoder.decode(PlanEncoder.encode(plan)).plan)
        #expect(decoded.installBase == plan.installBase)
    }

    @Test("A provisional grant round-trips; absent, it is not written")
    func provisionalGrant() throws {
        var plan = try #require(PlanDecoder.decode(minimalPlan).plan)
        #expect(!PlanEncoder.encode(plan).contains("provisionalGrant"))
        plan.policies.provisionalGrant = Policies.ProvisionalGrant(tier: "paid-era", days: 3)
        let decoded = try #require(PlanDecoder.decode(PlanEncoder.encode(plan)).plan)
        #expect(decoded.policies.provisionalGrant == plan.policies.provisionalGrant)
    }

    @Test("Rows are written on one line each, as people write them")
    func style() throws {
        let plan = try #require(PlanDecoder.decode(minimalPlan).plan)
        let encoded = PlanEncoder.encode(plan)
        #expect(encoded.contains(#"    { "id": "pro", "name": "Pro" },"#))
        #expect(encoded.contains(#"  "app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"], "universalPurchase": false },"#))
    }
}
