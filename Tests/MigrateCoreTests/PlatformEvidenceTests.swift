import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import Testing

/// A platform is where a paid era can exist only if a release shipped there: a project under the same bundle id that
/// never shipped must not make a paying customer new.
@Suite("Platforms against their releases", .timeLimit(.minutes(20)))
struct PlatformEvidenceTests {
    /// One App Store record for iOS and macOS; paid builds 9 and 10 on iOS, free from build 12; nothing ever shipped on macOS.
    static let plan = MigrationPlan(
        app: AppInfo(name: "Shelf", bundleID: "com.example.shelf", platforms: [.iOS, .macOS], universalPurchase: true),
        features: features("sync"),
        releases: [
            release("1.0", build: "9", "2019-03-01T17:00:00Z", paid: "2.99", includes: ["sync"]),
            release("1.1", build: "10", "2020-01-10T17:00:00Z", paid: "2.99", includes: ["sync"]),
            release("2.0", build: "12", "2021-06-01T17:00:00Z", includes: []),
        ],
        products: [product("pro", "4.99", grants: ["sync"])],
        tiers: [LegacyTier(id: "paid", name: "Paid", grants: ["sync"])])

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var version: String?
        var purchased: String?
        var cohort: Cohort
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a build of a paid era", version: "10", purchased: nil, cohort: .legacy(tierID: "paid")),
        Case(name: "a purchase date in a paid era", version: nil, purchased: "2019-05-01T00:00:00Z", cohort: .legacy(tierID: "paid")),
        Case(name: "both, paid", version: "9", purchased: "2019-05-01T00:00:00Z", cohort: .legacy(tierID: "paid")),
        Case(name: "a free build", version: "12", purchased: "2022-01-01T00:00:00Z", cohort: .newCustomer),
    ]

    @Test("On a platform with no release, original platform unknown: judged by the one platform that had releases", arguments: cases)
    func judgedWhereItCouldBeBought(_ example: Case) throws {
        let customer = Customer(
            platform: .macOS, originalAppVersion: example.version, originalPurchaseDate: example.purchased.map(date))
        let report = Advisor(plan: Self.plan).report(for: customer)
        #expect(report.decision.cohort == example.cohort, "\(report.decision.reasons)")
        if case .legacy = example.cohort {
            #expect(
                report.decision.reasons.contains { $0.contains("the plan has releases on iOS only (none on macOS), so the app was bought on iOS") })
        }
    }

    @Test("check warns of a declared platform no release shipped on, at its JSON path")
    func checkWarns() {
        let diagnostics = PlanChecker.check(Self.plan, now: date("2026-01-01T00:00:00Z")).diagnostics
        let warning = diagnostics.first { $0.code.rawValue == "platform-without-releases" }
        #expect(warning?.severity == .warning)
        #expect(warning?.path?.description == "app.platforms[1]")
        #expect(warning?.message.contains("the plan declares macOS, but no release shipped on it") == true)
        var shipped = Self.plan
        shipped.app.platforms = [.iOS]
        #expect(
            !PlanChecker.check(shipped, now: date("2026-01-01T00:00:00Z")).diagnostics.contains { $0.code.rawValue == "platform-without-releases" })
    }
}
