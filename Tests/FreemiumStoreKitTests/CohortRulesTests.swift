import Foundation
import Testing

@_spi(Generated) @testable import FreemiumStoreKit

/// The cutoff rules every generated app runs, pinned here at each boundary over small hand-written tables, so a
/// changed comparison fails in this repository rather than in an app.
@Suite("Cohort rules", .timeLimit(.minutes(20)))
struct CohortRulesTests {
    enum Tier: String, Hashable, Sendable { case paid, early }
    enum Platform: String, Hashable, Sendable, CaseIterable { case iOS, macOS, visionOS }
    typealias Rules = CohortRules<Tier, Platform>

    static func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T00:00:00Z")! }
    static func version(_ text: String) -> BundleVersion { BundleVersion(text)! }

    /// iOS: build 1 paid (2020), build 2 free (2021). macOS: 1.0 paid (2020), 3.0 free (2022). visionOS runs iOS's.
    static func rules(
        universal: Bool = false, cutoff: CutoffRule = .automatic, sound: Bool = true, windows: [Platform: [Rules.Window]] = [:]
    ) -> Rules {
        Rules(
            platforms: Platform.allCases, buildNumberPlatforms: [.iOS, .visionOS],
            releases: [
                .iOS: [
                    .init(version: version("1"), released: day("2020-01-01"), tier: .paid, paid: true),
                    .init(version: version("2"), released: day("2021-01-01"), tier: nil, paid: false),
                ],
                .macOS: [
                    .init(version: version("1.0"), released: day("2020-01-01"), tier: .paid, paid: true),
                    .init(version: version("3.0"), released: day("2022-01-01"), tier: nil, paid: false),
                ],
            ],
            windows: windows, versionRuleIsSound: [.iOS: sound, .macOS: sound], fallbacks: [.visionOS: .iOS],
            isUniversalPurchase: universal, cutoffRule: cutoff, nonProductionCohort: .legacy(.early), keepLastVerifiedDays: 7,
            keepWhileUnreachableDays: 30, tierFeatureCounts: [.paid: 2, .early: 1])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var rules: Rules
        var purchase: OriginalPurchaseFacts<Platform>
        var cohort: PlanCohort<Tier>
        var rule: CohortRule
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "the last paid build", rules: rules(), purchase: .init(originalAppVersion: "1", platform: .iOS),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "the first free build", rules: rules(), purchase: .init(originalAppVersion: "2", platform: .iOS), cohort: .newCustomer,
            rule: .buildNumber),
        Case(
            name: "1.9 is below 2 numerically", rules: rules(), purchase: .init(originalAppVersion: "1.9", platform: .iOS),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "a build below every release reads as the first", rules: rules(), purchase: .init(originalAppVersion: "0.5", platform: .iOS),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "macOS reads the marketing version", rules: rules(), purchase: .init(originalAppVersion: "1.0", platform: .macOS),
            cohort: .legacy(.paid), rule: .marketingVersion),
        Case(
            name: "visionOS falls back to iOS's builds", rules: rules(), purchase: .init(originalAppVersion: "1", platform: .visionOS),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "a tester is decided by the environment, never the value", rules: rules(),
            purchase: .init(originalAppVersion: "2", platform: .iOS, environment: .sandbox), cohort: .legacy(.early), rule: .environmentPolicy),
        Case(
            name: "a refunded download is new", rules: rules(), purchase: .init(originalAppVersion: "1", platform: .iOS, isRevoked: true),
            cohort: .newCustomer, rule: .refunded),
        Case(
            name: "unverified, cached on the policy's last day", rules: rules(),
            purchase: .init(originalAppVersion: "1", platform: .iOS, verification: .failed(lastVerifiedDaysAgo: 7)), cohort: .legacy(.paid),
            rule: .buildNumber),
        Case(
            name: "unverified, cached a day too long", rules: rules(),
            purchase: .init(originalAppVersion: "1", platform: .iOS, verification: .failed(lastVerifiedDaysAgo: 8)), cohort: .newCustomer,
            rule: .noProof),
        Case(
            name: "unverified, nothing cached", rules: rules(),
            purchase: .init(originalAppVersion: "1", platform: .iOS, verification: .failed(lastVerifiedDaysAgo: nil)), cohort: .newCustomer,
            rule: .noProof),
        Case(
            name: "unreachable, within the days kept", rules: rules(),
            purchase: .init(originalAppVersion: "1", platform: .iOS, verification: .unreachable(lastVerifiedDaysAgo: 30)),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "unreachable, a day past", rules: rules(),
            purchase: .init(originalAppVersion: "1", platform: .iOS, verification: .unreachable(lastVerifiedDaysAgo: 31)),
            cohort: .newCustomer, rule: .noProof),
        Case(
            name: "the date rule: a second before going free", rules: rules(cutoff: .date),
            purchase: .init(originalAppVersion: "2", originalPurchaseDate: day("2021-01-01") - 1, platform: .iOS), cohort: .legacy(.paid),
            rule: .purchaseDate),
        Case(
            name: "the date rule: at the moment of going free", rules: rules(cutoff: .date),
            purchase: .init(originalAppVersion: "1", originalPurchaseDate: day("2021-01-01"), platform: .iOS), cohort: .newCustomer,
            rule: .purchaseDate),
        Case(
            name: "a pre-order counts as the first release", rules: rules(cutoff: .date),
            purchase: .init(originalPurchaseDate: day("2019-06-01"), platform: .iOS), cohort: .legacy(.paid), rule: .purchaseDate),
        Case(
            name: "an unsound version rule leaves it to the date", rules: rules(sound: false),
            purchase: .init(originalAppVersion: "2", originalPurchaseDate: day("2020-06-01"), platform: .iOS), cohort: .legacy(.paid),
            rule: .purchaseDate),
        Case(
            name: "an unsound version rule and no date: undetermined", rules: rules(sound: false),
            purchase: .init(originalAppVersion: "1", platform: .iOS), cohort: .newCustomer, rule: .undetermined),
        Case(
            name: "universal, platforms disagree: the more generous reading (asked on iOS)", rules: rules(universal: true),
            purchase: .init(originalPurchaseDate: day("2021-06-01"), platform: .iOS), cohort: .legacy(.paid), rule: .purchaseDate),
        Case(
            name: "universal, both free by then", rules: rules(universal: true),
            purchase: .init(originalPurchaseDate: day("2022-01-01"), platform: .iOS), cohort: .newCustomer, rule: .purchaseDate),
        Case(
            name: "universal, no date, readings agree", rules: rules(universal: true), purchase: .init(originalAppVersion: "1", platform: .iOS),
            cohort: .legacy(.paid), rule: .buildNumber),
        Case(
            name: "universal, no date, readings differ", rules: rules(universal: true), purchase: .init(originalAppVersion: "2", platform: .iOS),
            cohort: .newCustomer, rule: .undetermined),
        Case(
            name: "universal with the original platform known: its own history decides", rules: rules(universal: true),
            purchase: .init(originalAppVersion: "1.0", platform: .iOS, originalPlatform: .macOS), cohort: .legacy(.paid),
            rule: .marketingVersion),
        Case(
            name: "a window ending inside a release's sale splits its buyers by date",
            rules: rules(windows: [.iOS: [.init(tier: .paid, from: nil, until: day("2020-06-01"))]]),
            purchase: .init(originalAppVersion: "1", originalPurchaseDate: day("2020-06-01"), platform: .iOS), cohort: .newCustomer,
            rule: .buildNumber),
        Case(
            name: "a second inside the window", rules: rules(windows: [.iOS: [.init(tier: .paid, from: nil, until: day("2020-06-01"))]]),
            purchase: .init(originalAppVersion: "1", originalPurchaseDate: day("2020-06-01") - 1, platform: .iOS), cohort: .legacy(.paid),
            rule: .buildNumber),
    ]

    @Test("Each rule at its boundary", arguments: cases)
    func decides(_ example: Case) {
        let decision = example.rules.decide(example.purchase)
        #expect(decision.cohort == example.cohort)
        #expect(decision.rule == example.rule)
    }

    @Test(
        "Bundle versions compare numerically, with missing components as zero",
        arguments: [("1.10", "1.9"), ("10", "9"), ("13", "2"), ("2.0.1", "2"), ("2", "1.9.9")])
    func versions(higher: String, lower: String) throws {
        #expect(try #require(BundleVersion(higher)) > #require(BundleVersion(lower)))
        #expect(try !(#require(BundleVersion(higher)) < #require(BundleVersion(lower))))
        #expect(try #require(BundleVersion("1")) == #require(BundleVersion("1.0.0")))
    }

    @Test("Anything but dot-separated digits is no bundle version", arguments: ["", "1.", ".1", " 1", "2.0.1b", "1..2", "-1", "1 2", "١"])
    func notVersions(text: String) {
        #expect(BundleVersion(text) == nil)
    }

    @Test("A release whose version the plan doesn't know still decides by its date, and takes no part in the version rule")
    func unversionedRelease() {
        // iOS: build 1 paid (2020), a paid release without a build number (2021), build 3 free (2022).
        let rules = Rules(
            platforms: [.iOS], buildNumberPlatforms: [.iOS],
            releases: [
                .iOS: [
                    .init(version: Self.version("1"), released: Self.day("2020-01-01"), tier: .early, paid: true, id: 0),
                    .init(version: nil, released: Self.day("2021-01-01"), tier: .paid, paid: true, id: 1),
                    .init(version: Self.version("3"), released: Self.day("2022-01-01"), tier: nil, paid: false, id: 2),
                ]
            ],
            windows: [:], versionRuleIsSound: [.iOS: false], fallbacks: [:], isUniversalPurchase: false, cutoffRule: .automatic,
            nonProductionCohort: .newCustomer, keepLastVerifiedDays: nil, keepWhileUnreachableDays: 30, tierFeatureCounts: [.paid: 2, .early: 1])
        let byDate = rules.decideTraced(.init(originalAppVersion: "1", originalPurchaseDate: Self.day("2021-06-01"), platform: .iOS))
        #expect(byDate.decision.cohort == .legacy(.paid))
        #expect(byDate.trace.release?.id == 1)
        #expect(byDate.trace.steps == [.byDate])
        let forced = Rules(
            platforms: [.iOS], buildNumberPlatforms: [.iOS], releases: rules.releases, windows: [:], versionRuleIsSound: [.iOS: false],
            fallbacks: [:], isUniversalPurchase: false, cutoffRule: .version, nonProductionCohort: .newCustomer, keepLastVerifiedDays: nil,
            keepWhileUnreachableDays: 30, tierFeatureCounts: [:])
        let byVersion = forced.decideTraced(.init(originalAppVersion: "2", platform: .iOS))
        #expect(byVersion.decision.cohort == .legacy(.early))
        #expect(byVersion.trace.release?.id == 0)
    }
}
