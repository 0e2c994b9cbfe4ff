import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateWizard
import Testing

/// One bundle id on iOS and macOS, as a multiplatform target's tags give it: every version once per platform.
@Suite("init on an app that ships on several platforms", .timeLimit(.minutes(20)))
struct MultiplatformInitTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func release(_ platform: Platform, _ version: String, _ build: String?, _ day: String) -> ImportedRelease {
        ImportedRelease(
            platform: platform, version: try! Version(version), build: build.map { try! Version($0) },
            date: Timestamp.parse(day + "T10:00:00Z")!, dateSource: "git tag date", provenance: .tag, origin: "git")
    }

    static var facts: WizardFacts {
        let days = ["2019-03-01", "2020-06-01", "2021-06-01"]
        let versions = ["1.0", "1.1", "2.0"]
        var releases: [ImportedRelease] = []
        for (index, day) in days.enumerated() {
            releases.append(release(.iOS, versions[index], String(index + 1), day))
            releases.append(release(.macOS, versions[index], String(index + 1), day))
        }
        return WizardFacts(
            app: AppHints(name: "Shelf", bundleID: "com.example.shelf", platforms: [.iOS, .macOS]), releases: releases,
            products: [Product(id: "com.example.shelf.pro", name: "Pro", kind: .nonConsumable, price: try! Price("4.99"))]
        ).withSalesPrice("4.99")
    }

    static func finished(_ answers: [String: String] = [:]) -> Wizard {
        var wizard = Wizard(facts: facts, now: now)
        while let question = wizard.question {
            guard case .accepted = wizard.submit(answers[question.id.key] ?? "") else {
                Issue.record("the answer to \(question.id) was refused: \(wizard.submit(""))")
                break
            }
        }
        return wizard
    }

    @Test("defaults: one purchase on both platforms, a free release on each with its own go-live, versions counted per platform")
    func defaults() throws {
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        var asked: [QuestionID] = []
        while let question = wizard.question {
            asked.append(question.id)
            if question.id == .universalPurchase { #expect(question.defaultAnswer == "yes") }
            let answer = question.id == .platformFreeRelease(.macOS) ? "3.0 (4) 2026-12-20" : ""
            guard case .accepted = wizard.submit(answer) else {
                Issue.record("the answer to \(question.id) was refused: \(wizard.submit(""))")
                return
            }
        }
        #expect(asked.contains(.universalPurchase) && asked.contains(.platformFreeRelease(.macOS)))
        let plan = wizard.plan
        #expect(plan.app.universalPurchase)
        let free = plan.releases.filter { !$0.model.isPaid }
        #expect(free.map(\.platform) == [.iOS, .macOS])
        #expect(free[1].released == Timestamp.parseGoLive("2026-12-20"), "macOS has its own go-live")
        #expect(free[0].released != free[1].released)
        #expect(plan.releases.filter(\.model.isPaid).count == 6)
        let summary = PlanBuilder.summary(wizard.answers, facts: wizard.facts)
        let releasesLine = summary.first { $0.hasPrefix("Releases   ") } ?? ""
        #expect(releasesLine.hasPrefix("Releases   3 paid releases on each of iOS, macOS; free from iOS 3.0 (4) on "), "\(releasesLine)")
        #expect(releasesLine.contains(", macOS 3.0 (4) on 2026-12-20"), "\(releasesLine)")
        #expect(ProjectImport.perPlatform(Self.facts.releases) == "3 versions on each of iOS, macOS")
        #expect(!PlanChecker.check(plan, now: Self.now).diagnostics.contains { $0.code == .universalPurchaseOff })
    }

    @Test("saying no is kept, and check warns citing Apple's page")
    func no() {
        let wizard = Self.finished(["universalPurchase": "no"])
        #expect(!wizard.plan.app.universalPurchase)
        let warning = PlanChecker.check(wizard.plan, now: Self.now).diagnostics.first { $0.code == .universalPurchaseOff }
        #expect(warning?.severity == .warning)
        #expect(warning?.hint?.contains("Offering a universal purchase") == true)
        #expect(warning?.message.contains("ships on iOS, macOS under one bundle id") == true)
    }

    @Test("answers are saved by version, never by position; a position given is refused with the fix")
    func savedByVersion() {
        let wizard = Self.finished(["firstFree": "iOS 2.0 (3)", "freeFrom": "2021-06-01T17:00:00Z"])
        #expect(wizard.answers.typed["firstFree"] == "iOS 2.0 (3)")
        #expect(wizard.answers.typed["featureSince.pro"] == "iOS 1.0 (1)")
        #expect(Wizard.positionProblem(.firstFree, answer: "#3")?.contains("give the release's version") == true)
        #expect(Wizard.positionProblem(.firstFree, answer: "2.0") == nil)
        let scripted = ScriptedRun.run(Wizard(facts: Self.facts, now: Self.now), answers: ["firstFree": "#3"], acceptDefaults: true)
        guard case .failure(.invalid(.firstFree, let answer, let message)) = scripted else {
            Issue.record("a position was taken: \(scripted)")
            return
        }
        #expect(answer == "#3" && message.contains("shifts when a release is tagged or added"))
    }

    @Test("a listed first free release: each other platform's own listed one is free, with its own go-live asked and recorded")
    func listedFreeReleaseOnEachPlatform() throws {
        let answers = [
            "firstFree": "iOS 2.0 (3)", "freeFrom": "2021-06-01T17:00:00Z", "freeFromOn.macOS": "2021-06-03T12:00:00Z",
            "freeGaveAway": "none",
        ]
        var wizard = Wizard(facts: Self.facts, now: Self.now)
        var asked: [QuestionID] = []
        while let question = wizard.question, asked.count < 100 {
            asked.append(question.id)
            guard case .accepted = wizard.submit(answers[question.id.key] ?? "") else {
                Issue.record("the answer to \(question.id) was refused: \(wizard.submit(""))")
                return
            }
        }
        #expect(asked.contains(.platformGoLive(.macOS)) && !asked.contains(.platformGoLive(.iOS)))
        let free = wizard.plan.releases.filter { !$0.model.isPaid }
        #expect(free.map(\.platform) == [.iOS, .macOS], "macOS 2.0, tagged before iOS went free, is macOS's first free release")
        #expect(free.first { $0.platform == .iOS }?.released == Timestamp.parse("2021-06-01T17:00:00Z"))
        let mac = try #require(free.first { $0.platform == .macOS })
        #expect(mac.released == Timestamp.parse("2021-06-03T12:00:00Z"), "macOS has its own go-live")
        #expect(mac.releasedSource == .appStore, "typed: confirmed")
        #expect(wizard.plan.releases.filter(\.model.isPaid).count == 4)
        #expect(wizard.answers.typed["freeFromOn.macOS"] == "2021-06-03T12:00:00Z")
        // Before its listed twin, or after the next macOS release, is no go-live for it.
        var early = Wizard(facts: Self.facts, now: Self.now)
        for _ in 0..<100 {
            guard let question = early.question, question.id != .platformGoLive(.macOS) else { break }
            guard case .accepted = early.submit(answers[question.id.key] ?? "") else { break }
        }
        #expect(early.question?.id == .platformGoLive(.macOS))
        guard case .invalid(let message) = early.submit("2020-05-01T00:00:00Z") else {
            Issue.record("a go-live before the macOS release before it was taken")
            return
        }
        #expect(message.contains("after the release before it on macOS"))
    }

    @Test("A listed first free release on iOS, with no macOS release of that version: macOS's own free release is asked")
    func listedFreeReleaseMissingOnAPlatform() throws {
        var facts = Self.facts
        facts.releases.removeAll { $0.platform == .macOS && $0.version == (try! Version("2.0")) }
        var wizard = Wizard(facts: facts, now: Self.now)
        let asked = wizard.walk(answers: [.firstFree: "iOS 2.0 (3)", .freeGoLive: "2021-06-01T17:00:00Z"])
        #expect(asked.contains(.platformFreeRelease(.macOS)), "\(asked)")
        #expect(!asked.contains(.platformGoLive(.macOS)))
        let plan = wizard.plan
        let mac = try #require(plan.releases.first { $0.platform == .macOS && !$0.model.isPaid }, "macOS has a free release")
        #expect(mac.version == (try Version("2.0")), "the default is the listed first free release's version")
        #expect(mac.released == Timestamp.parse("2021-06-01T17:00:00Z"), "going live when the app went free, by default")
        #expect(plan.releases.filter { $0.platform == .macOS && $0.model.isPaid }.count == 2, "macOS 1.0 and 1.1 were paid")
        let errors = PlanChecker.check(plan, now: Self.now).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
    }

    @Test("no price default without a sales report's paid downloads, even with an unlock in the catalog: the price is asked")
    func priceAsked() {
        var facts = Self.facts
        facts.paidDownloadPrice = nil
        let wizard = Wizard(facts: facts, now: Self.now)
        let result = ScriptedRun.run(wizard, answers: ["universalPurchase": "yes"], acceptDefaults: true)
        guard case .failure(.missing(.price, _)) = result else {
            Issue.record("a price was assumed: \(String(describing: result).prefix(300))")
            return
        }
    }
}

/// An era's name on several platforms whose versions differ: one range across them would overlap the next era's.
@Suite("init: era names on several platforms", .timeLimit(.minutes(20)))
struct EraNameTests {
    static func facts(macOS versions: [String]) -> WizardFacts {
        let days = ["2019-03-01", "2020-06-01", "2021-06-01"]
        var releases: [ImportedRelease] = []
        for (index, day) in days.enumerated() {
            releases.append(MultiplatformInitTests.release(.iOS, ["1.0", "1.1", "2.0"][index], String(index + 1), day))
            releases.append(MultiplatformInitTests.release(.macOS, versions[index], String(index + 1), day))
        }
        var facts = MultiplatformInitTests.facts
        facts.releases = releases
        return facts
    }

    @Test(
        "Each platform's range when they differ, one range when they agree",
        arguments: [
            (["1.0", "1.1", "2.0"], "1.0 – 1.1"),
            (["1.0", "3.0", "4.0"], "iOS 1.0 – 1.1, macOS 1.0"),  // macOS 3.0, past 2.0, is macOS's first free release
        ])
    func label(macOS: [String], expected: String) throws {
        var wizard = Wizard(facts: Self.facts(macOS: macOS), now: MultiplatformInitTests.now)
        // The third releases are free: the paid ones are the first two of each platform, which included the same.
        wizard.walk(answers: [.firstFree: "iOS 2.0 (3)"])
        let era = try #require(wizard.answers.eras.first)
        #expect(era.label == expected)
        #expect(wizard.answers.eras.count == 1)
    }
}
