import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// What init reads from a history is checked before it becomes a plan: pre-release and other platforms' tags, untagged
/// versions an era reaches, platforms no release shipped on.
@Suite("init checks its evidence", .timeLimit(.minutes(20)))
struct EvidenceTests {
    @Test(
        "A pre-release tag is told from a release's",
        arguments: [
            ("v1.0", false), ("1.4", false), ("2.0.0", false), ("release-2.1", false), ("7.20_880", false), ("mac-6.0", false),
            ("1.4-beta1", true), ("v2.0b1", true), ("1.0-rc1", true), ("v38.0.0-rc.1", true), ("mac-6.0alpha1", true), ("5.1d2", true),
            ("2.0.0-beta.3", true), ("beta/2.1", true), ("5.0a1", true), ("d4dev4", true), ("3.0-preview", true),
        ])
    func prerelease(_ tag: String, _ expected: Bool) {
        #expect(GitVersionChange.isPrerelease(tag: tag) == expected, "\(tag)")
    }

    @Test(
        "A tag's platform prefix names the app it is for",
        arguments: [
            ("mac-6.0", Platform.macOS), ("macOS-6.1", .macOS), ("ios/5.1.5", .iOS), ("iOS-6.1-6105", .iOS), ("mac/4.1.6", .macOS),
            ("watch-1.0", .watchOS), ("v1.0", nil), ("macaroon-1", nil), ("iosevka", nil),
        ] as [(String, Platform?)])
    func tagPlatform(_ tag: String, _ platform: Platform?) {
        #expect(GitVersionChange.platform(ofTag: tag) == platform, "\(tag)")
    }

    @Test("An era's name reaches the untagged versions dated inside it: buyers of an untagged 1.16 are in 'Bought 1.0 – 1.16'")
    func eraNameCoversUntagged() {
        var facts = WizardFlowTests.facts
        facts.releases = [
            WizardFlowTests.release("1.0", "9", "2019-03-01"), WizardFlowTests.release("1.6.4", "14", "2019-09-01"),
            WizardFlowTests.release("2.0", "30", "2021-06-01"),
        ]
        facts.untaggedVersions = [
            WizardFlowTests.release("1.7", "15", "2020-01-01", provenance: .commit),
            WizardFlowTests.release("1.16", "29", "2021-01-01", provenance: .commit),
        ]
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        while let current = wizard.current {
            let answer = current == .firstFree ? "3" : current == .freeGoLive ? "2021-06-01T17:00:00Z" : ""
            guard case .accepted = wizard.submit(answer) else {
                Issue.record("\(current) refused")
                return
            }
        }
        #expect(wizard.plan.tiers.map(\.name).first == "Bought 1.0 – 1.16", "\(wizard.plan.tiers.map(\.name))")
    }

    @Test("The platforms question proposes only platforms a release shipped on, and says which the project also builds for")
    func platformsWithReleases() {
        var facts = WizardFlowTests.facts
        facts.app.platforms = [.iOS, .macOS]
        var wizard = Wizard(facts: facts, now: WizardFlowTests.now)
        while let current = wizard.current, current != .platforms { _ = wizard.submit("") }
        let question = wizard.question
        #expect(question?.defaultAnswer == "iOS")
        #expect(question?.hint?.contains("the project also builds for macOS, where no release has shipped") == true, "\(question?.hint ?? "")")
    }
}

/// An app that went free in the past: its free releases gave features to everyone who downloaded them since.
@Suite("init on an app free already", .timeLimit(.minutes(20)))
struct WentFreeTests {
    /// Paid 1.0 and 1.1, free since 2.0 went live on 2025-03-01; the wizard runs on 2026-12-01.
    static func wizard(_ answers: [QuestionID: String] = [:]) -> Wizard {
        var facts = WizardFlowTests.facts
        facts.releases = [
            WizardFlowTests.release("1.0", "1", "2019-03-01"), WizardFlowTests.release("1.1", "2", "2020-01-01"),
            WizardFlowTests.release("2.0", "3", "2025-03-01"), WizardFlowTests.release("2.1", "4", "2025-09-01"),
        ]
        var wizard = Wizard(facts: facts, now: Timestamp.parse("2026-12-01T00:00:00Z")!)
        let defaults: [QuestionID: String] = [.firstFree: "3", .freeGoLive: "2025-03-01T17:00:00Z", .features: "Themes, Sync"]
        while let current = wizard.current {
            let answer = answers[current] ?? defaults[current] ?? ""
            guard case .accepted = wizard.submit(answer) else {
                Issue.record("\(current): '\(answer)' refused")
                break
            }
        }
        return wizard
    }

    @Test("What the free releases gave is asked, kept for the free era's downloaders, and sold only from a new release")
    func keptForTheFreeEra() throws {
        let wizard = Self.wizard()
        let plan = wizard.plan
        #expect(wizard.answers.freeGaveAway == ["themes", "sync"], "the default: what the paid app had")
        // The listed free releases gave both; the new release planned a month on sells them.
        #expect(plan.releases.filter { $0.version.text == "2.0" || $0.version.text == "2.1" }.allSatisfy { $0.includes == ["themes", "sync"] })
        let freemium = try #require(plan.releases.last)
        #expect(freemium.version.text == "3.0" && freemium.releasedSource == .planned && !freemium.model.isPaid)
        #expect(freemium.includes == nil || freemium.includes == [])
        let tier = try #require(plan.tiers.first { $0.id == "free-era" })
        #expect(tier.name == "Downloaded free (2.0 – 2.1)")
        #expect(tier.grants == ["themes", "sync"])
        #expect(tier.from == Timestamp.parse("2025-03-01T17:00:00Z") && tier.until == freemium.released)
        let diagnostics = PlanChecker.check(plan, now: Timestamp.parse("2026-12-01T00:00:00Z")!).diagnostics
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics.map(\.message))")
        // A free-era downloader keeps both; a downloader of the new release buys them.
        let advisor = Advisor(plan: plan)
        #expect(advisor.report(for: Customer(platform: .iOS, originalAppVersion: "4")).entitlements.featureIDs == ["themes", "sync"])
        #expect(advisor.report(for: Customer(platform: .iOS, originalAppVersion: "5")).entitlements.featureIDs.isEmpty)
    }

    @Test("A plan that takes a free era's features away, with no tier keeping them, is a check error naming who and since when")
    func takeAwayNamed() throws {
        var plan = Self.wizard().plan
        plan.tiers.removeAll { $0.id == "free-era" }
        let diagnostics = PlanChecker.check(plan, now: Timestamp.parse("2026-12-01T00:00:00Z")!).diagnostics
        let error = try #require(diagnostics.first { $0.code.rawValue == "free-era-taken-away" })
        #expect(error.severity == .error)
        #expect(
            error.message.hasPrefix(
                "everyone who downloaded iOS 2.0 (3) or a later free release has used 'themes' for free since 2025-03-01T17:00:00Z; 3.0 (5)"),
            "\(error.message)")
    }

    @Test("Answering that the free releases gave nothing keeps the plan as a switch still to sell from them")
    func gaveNothing() {
        let wizard = Self.wizard([.freeGaveAway: "none"])
        #expect(wizard.answers.freeGaveAway == [])
        #expect(!wizard.plan.tiers.contains { $0.id == "free-era" })
        #expect(wizard.plan.releases.count == 4)
    }
}
