import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// Updates were free while the app was paid, so a paid-era buyer had, at the switch, everything the paid app
/// included through its last paid update. No default takes any of it away; a tier that keeps less says so.
@Suite("Free updates are kept", .timeLimit(.minutes(20)))
struct FreeUpdateTests {
    /// Galleries from 0.2.0; Groups came in the free update 0.5.0, Cloud Storage in 0.9.0; free from 1.0.
    static func plan(tiers: [LegacyTier] = []) -> MigrationPlan {
        MigrationPlan(
            app: AppInfo(name: "Albums", bundleID: "com.example.albums", platforms: [.iOS]),
            features: features("galleries", "groups", "cloud-storage"),
            releases: [
                release("0.2.0", build: "2", "2019-01-10T16:00:00Z", paid: "2.99", includes: ["galleries"]),
                release("0.5.0", build: "5", "2020-01-10T16:00:00Z", paid: "2.99", includes: ["galleries", "groups"]),
                release("0.9.0", build: "9", "2021-01-10T16:00:00Z", paid: "2.99", includes: ["galleries", "groups", "cloud-storage"]),
                release("1.0", build: "10", "2022-01-10T16:00:00Z", includes: []),
            ],
            products: [product("com.example.albums.pro", "4.99", grants: ["galleries", "groups", "cloud-storage"])], tiers: tiers)
    }

    /// The wizard's eras: one tier per paid release, as windows of purchase dates.
    static func eras(grants first: [String]? = nil, takesAway: [String] = []) -> [LegacyTier] {
        [
            LegacyTier(id: "era-1", name: "Bought 0.2.0", until: date("2020-01-10T16:00:00Z"), grants: first, takesAway: takesAway),
            LegacyTier(id: "era-2", name: "Bought 0.5.0", from: date("2020-01-10T16:00:00Z"), until: date("2021-01-10T16:00:00Z")),
            LegacyTier(id: "era-3", name: "Bought 0.9.0", from: date("2021-01-10T16:00:00Z")),
        ]
    }

    @Test(
        "A buyer of any paid release keeps, by default, everything the paid app had through its last paid update",
        arguments: [
            ("derived tiers", [LegacyTier](), "2"), ("derived tiers", [], "5"), ("derived tiers", [], "9"),
            ("written tiers without grants", eras(), "2"), ("written tiers without grants", eras(), "5"),
        ])
    func keptByDefault(tiers name: String, tiers: [LegacyTier], build: String) {
        let catalog = PlanCatalog(Self.plan(tiers: tiers))
        let report = Advisor(catalog: catalog).report(for: Customer(platform: .iOS, originalAppVersion: build))
        for feature in ["galleries", "groups", "cloud-storage"] {
            #expect(report.entitlements.has(feature), "\(name): buyer of build \(build) lost \(feature)")
        }
        #expect(catalog.hadAtSwitch[0] == ["galleries", "groups", "cloud-storage"])
        #expect(!PlanChecker.check(catalog, now: date("2026-01-01T00:00:00Z")).diagnostics.contains { $0.code == .freeUpdateTakenAway })
    }

    struct TakeAway: Sendable, CustomTestStringConvertible {
        var name: String
        var takesAway: [String]
        /// Severity of each free-update-taken-away diagnostic, by feature.
        var expected: [String: Diagnostic.Severity]
        var testDescription: String { name }
    }

    @Test(
        "check says who loses what: an error for a tier that takes a free update away, a note when 'takesAway' says it means to",
        arguments: [
            TakeAway(name: "silent", takesAway: [], expected: ["groups": .error, "cloud-storage": .error]),
            TakeAway(name: "one acknowledged", takesAway: ["groups"], expected: ["groups": .note, "cloud-storage": .error]),
            TakeAway(name: "both acknowledged", takesAway: ["groups", "cloud-storage"], expected: ["groups": .note, "cloud-storage": .note]),
        ])
    func takenAway(_ row: TakeAway) throws {
        let plan = Self.plan(tiers: Self.eras(grants: ["galleries"], takesAway: row.takesAway))
        let found = PlanChecker.check(plan, now: date("2026-01-01T00:00:00Z")).diagnostics.filter { $0.code == .freeUpdateTakenAway }
        #expect(found.count == row.expected.count, "\(found.map(\.message))")
        let groups = try #require(found.first { $0.message.contains("'groups'") })
        #expect(groups.message.hasPrefix("buyers of iOS 0.2.0 (2) have used 'groups' since the free update 0.5.0 (5); tier 'era-1' takes it away"))
        for (feature, severity) in row.expected {
            #expect(found.first { $0.message.contains("'\(feature)'") }?.severity == severity, "\(feature)")
        }
        // The tier keeps what it says: explicit grants are the one way to keep less.
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "2"))
        #expect(report.entitlements.has("galleries") && !report.entitlements.has("groups"))
    }

    @Test("'takesAway' decodes, names known features, and round-trips")
    func takesAwayKey() throws {
        let plan = Self.plan(tiers: Self.eras(grants: ["galleries"], takesAway: ["groups", "cloud-storage"]))
        let again = try #require(PlanDecoder.decode(PlanEncoder.encode(plan)).plan)
        #expect(again.tiers[0].takesAway == ["groups", "cloud-storage"])
        var typo = plan
        typo.tiers[0].takesAway = ["grups"]
        let text = PlanEncoder.encode(typo)
        let diagnostics = PlanDecoder.decode(text).diagnostics
        #expect(diagnostics.contains { $0.code.rawValue == "unknown-reference" && $0.path?.description == "tiers[0].takesAway[0]" })
    }
}
