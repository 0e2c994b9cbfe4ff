import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

/// Rules that no example reaches, each pinned at its boundary by the engine's own tests, so that a change to one
/// comparison fails here rather than only in a re-recordable golden. Every case runs under a time limit: a rule
/// changed into a loop fails instead of hanging the run.
@Suite("Rules at their boundaries", .timeLimit(.minutes(20)))
struct RuleBoundaryTests {
    /// A universal purchase whose platforms went free a year apart: iOS on 2021-01-01, macOS on 2022-01-01.
    static let universal = MigrationPlan(
        app: AppInfo(name: "U", bundleID: "u", platforms: [.iOS, .macOS], universalPurchase: true),
        features: features("pro"),
        releases: [
            release(.iOS, "1.0", build: "1", "2020-01-01T00:00:00Z", paid: "2.99", includes: ["pro"]),
            release(.iOS, "2.0", build: "2", "2021-01-01T00:00:00Z", includes: []),
            release(.macOS, "1.0", build: nil, "2020-01-01T00:00:00Z", paid: "2.99", includes: ["pro"]),
            release(.macOS, "2.0", build: nil, "2022-01-01T00:00:00Z", includes: []),
        ],
        products: [product("pro", "4.99", grants: ["pro"])],
        tiers: [LegacyTier(id: "paid", name: "Paid", grants: ["pro"])])

    struct DisagreementCase: CustomTestStringConvertible, Sendable {
        var name: String
        var platform: Platform
        var purchased: String
        var cohort: Cohort
        var testDescription: String { name }
    }

    static let disagreements: [DisagreementCase] = [
        // iOS says "free release", macOS "paid release": the generous reading keeps the tier, whichever device asks.
        DisagreementCase(
            name: "asked on iOS, while only macOS was paid", platform: .iOS, purchased: "2021-06-01T00:00:00Z", cohort: .legacy(tierID: "paid")),
        DisagreementCase(
            name: "asked on macOS, while only macOS was paid", platform: .macOS, purchased: "2021-06-01T00:00:00Z", cohort: .legacy(tierID: "paid")),
        DisagreementCase(name: "a second before iOS went free", platform: .iOS, purchased: "2020-12-31T23:59:59Z", cohort: .legacy(tierID: "paid")),
        DisagreementCase(name: "a second before macOS went free", platform: .iOS, purchased: "2021-12-31T23:59:59Z", cohort: .legacy(tierID: "paid")),
        DisagreementCase(name: "when both were free", platform: .iOS, purchased: "2022-01-01T00:00:00Z", cohort: .newCustomer),
    ]

    @Test("Universal purchase, original platform unknown: when the histories disagree, the more generous reading decides", arguments: disagreements)
    func generousReading(_ example: DisagreementCase) {
        let customer = Customer(platform: example.platform, originalPurchaseDate: date(example.purchased))
        let decision = Advisor(plan: Self.universal).cohortDecision(for: customer)
        #expect(decision.cohort == example.cohort, "\(decision.reasons) \(decision.notes)")
        #expect(decision.rule == .purchaseDate)
    }

    /// One paid release with a tier, a product that grants beyond it, and a cache kept for seven days.
    static let cached = MigrationPlan(
        app: AppInfo(name: "C", bundleID: "c", platforms: [.iOS]),
        features: features("pro", "extra"),
        releases: [
            release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "2.99", includes: ["pro"]),
            release("2.0", build: "2", "2021-01-01T00:00:00Z", includes: []),
        ],
        products: [product("extra", "1.99", grants: ["extra"])],
        tiers: [LegacyTier(id: "paid", name: "Paid", grants: ["pro"])],
        policies: Policies(verificationFailure: .keepLastVerified(days: 7)))

    @Test(
        "An unverified purchase is kept from a cached result up to and including the policy's last day",
        arguments: [(6, true), (7, true), (8, false), (nil, false)] as [(Int?, Bool)])
    func cacheLimit(age: Int?, kept: Bool) {
        let customer = Customer(
            platform: .iOS, originalAppVersion: "1", appTransaction: .failed(lastVerifiedDaysAgo: age),
            purchases: [OwnedProduct(productID: "extra", isVerified: false)])
        let report = Advisor(plan: Self.cached).report(for: customer)
        #expect(report.entitlements.features.map(\.featureID).contains("extra") == kept, "\(report.entitlements.ignored)")
        // The cohort follows the same limit: a cached verified result keeps the tier as long as it keeps a purchase.
        #expect((report.decision.cohort == .legacy(tierID: "paid")) == kept, "\(report.decision.reasons)")
    }

    struct PreorderCase: CustomTestStringConvertible, Sendable {
        var name: String
        var version: String?
        var purchased: String
        var cohort: Cohort
        var notesPreorder: Bool
        var testDescription: String { name }
    }

    static let preorders: [PreorderCase] = [
        PreorderCase(
            name: "a pre-order, no version", version: nil, purchased: "2019-12-01T00:00:00Z", cohort: .legacy(tierID: "paid"), notesPreorder: true),
        PreorderCase(
            name: "a second before go-live", version: nil, purchased: "2019-12-31T23:59:59Z", cohort: .legacy(tierID: "paid"), notesPreorder: true),
        PreorderCase(name: "at go-live", version: nil, purchased: "2020-01-01T00:00:00Z", cohort: .legacy(tierID: "paid"), notesPreorder: false),
        PreorderCase(
            name: "a pre-order with the first build", version: "1", purchased: "2019-12-01T00:00:00Z", cohort: .legacy(tierID: "paid"),
            notesPreorder: true),
    ]

    @Test("A purchase dated before the first listed release counts as that release, and says so", arguments: preorders)
    func preorder(_ example: PreorderCase) {
        let customer = Customer(platform: .iOS, originalAppVersion: example.version, originalPurchaseDate: date(example.purchased))
        let decision = Advisor(plan: Self.cached).cohortDecision(for: customer)
        #expect(decision.cohort == example.cohort, "\(decision.reasons)")
        #expect(decision.notes.contains { $0.contains("before the first") } == example.notesPreorder, "\(decision.notes)")
    }
}

/// A rule changed into a loop must fail its test, not hang the run: every suite declares a time limit.
@Suite("Every suite runs under a time limit", .timeLimit(.minutes(20)))
struct TimeLimitTests {
    @Test("Each @Suite in Tests/ declares .timeLimit")
    func everySuiteIsLimited() throws {
        let tests = repositoryRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var unlimited: [String] = []
        for file in files where file.pathExtension == "swift" && !file.path.contains("/Goldens/") && !file.path.contains("/Fixtures/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            var rest = text[...]
            while let start = rest.range(of: "@" + "Suite(") {
                // A suite's attribute ends at the `struct` it declares.
                let end = rest.range(of: "struct ", range: start.upperBound..<rest.endIndex)?.lowerBound ?? rest.endIndex
                if !rest[start.lowerBound..<end].contains("." + "timeLimit(") { unlimited.append(file.lastPathComponent) }
                rest = rest[end...]
            }
        }
        #expect(unlimited.isEmpty, "suites without .timeLimit in \(unlimited)")
    }
}
