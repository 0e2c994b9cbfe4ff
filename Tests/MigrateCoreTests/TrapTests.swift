import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

/// One test (or more) for every trap in DOMAIN.md section 2 that the model decides.
@Suite("Launch-day traps", .timeLimit(.minutes(20)))
struct TrapTests {
    /// Paid builds 1…9, free from 10: the plan where `"10" < "9"` would hand the paid tier to free users.
    static let singleDigitPlan = MigrationPlan(
        app: AppInfo(name: "T", bundleID: "t", platforms: [.iOS]),
        features: features("pro"),
        releases: [
            release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "1.99", includes: ["pro"]),
            release("1.9", build: "9", "2020-06-01T00:00:00Z", paid: "1.99"),
            release("2.0", build: "10", "2021-01-01T00:00:00Z", includes: []),
            release("2.1", build: "13", "2021-02-01T00:00:00Z"),
        ],
        products: [product("pro", "2.99", grants: ["pro"])])

    @Test(
        "Trap 1: versions are compared as numbers, not strings",
        arguments: [("9", true), ("10", false), ("13", false), ("2", true), ("1.5", true), ("9.9", true), ("10.0", false)])
    func trap1NumericComparison(original: String, isLegacy: Bool) {
        let advisor = Advisor(plan: Self.singleDigitPlan)
        let report = advisor.report(for: Customer(platform: .iOS, originalAppVersion: original))
        #expect((report.decision.cohort != .newCustomer) == isLegacy, "\(original)")
        #expect(report.decision.rule == .buildNumber)
        #expect(report.entitlements.has("pro") == isLegacy)
    }

    @Test("Trap 1: the explanation shows the numeric comparison")
    func trap1Explanation() {
        let report = Advisor(plan: Self.singleDigitPlan).report(for: Customer(platform: .iOS, originalAppVersion: "9"))
        #expect(report.decision.comparisons.contains("build 9 < 10 (numeric), the first build of 2.0 (10), a free release"))
    }

    @Test(
        "Trap 1: the explanation words the release the rules decided, at each end of the plan's builds",
        arguments: [
            (
                "0", ["build 0 < 10 (numeric), the first build of 2.0 (10), a free release"],
                "build 0 is older than every iOS release in the plan; read as the first one, 1.0 (1)"
            ),
            ("1", ["build 1 = 1 (numeric), the build of 1.0 (1)", "build 1 < 10 (numeric), the first build of 2.0 (10), a free release"], nil),
            ("10", ["build 10 ≥ 10 (numeric), the first build of 2.0 (10)"], nil),
            ("13", ["build 13 ≥ 10 (numeric), the first build of 2.0 (10)"], nil),
            (
                "99", ["build 99 ≥ 10 (numeric), the first build of 2.0 (10)"],
                "build 99 is newer than every iOS release in the plan; read as the newest, 2.1 (13)"
            ),
        ] as [(String, [String], String?)])
    func trap1ExplanationAtTheEnds(original: String, comparisons: [String], note: String?) {
        let decision = Advisor(plan: Self.singleDigitPlan).report(for: Customer(platform: .iOS, originalAppVersion: original)).decision
        #expect(decision.comparisons == comparisons)
        #expect(decision.notes.contains { $0.contains("than every iOS release") } == (note != nil))
        if let note { #expect(decision.notes.contains(note), "\(decision.notes)") }
    }

    /// Build numbers restart at 1 for every marketing version: the build says nothing about the era.
    static let restartPlan = MigrationPlan(
        app: AppInfo(name: "R", bundleID: "r", platforms: [.iOS]),
        features: features("pro"),
        releases: [
            release("1.0", build: "1", "2019-04-02T15:00:00Z", paid: "3.99", includes: ["pro"]),
            release("1.1", build: "1", "2019-06-11T15:00:00Z", paid: "3.99"),
            release("2.0", build: "1", "2020-01-14T15:00:00Z", includes: []),
        ],
        products: [product("plus", "4.99", grants: ["pro"])])

    @Test("Trap 2: restarted build numbers switch to the purchase-date rule")
    func trap2RestartedBuilds() throws {
        let catalog = PlanCatalog(Self.restartPlan)
        let cutoff = try #require(catalog.cutoffs[.iOS])
        #expect(!cutoff.isVersionRuleSound)
        #expect(cutoff.problems.first?.kind == .sharedVersion)

        let advisor = Advisor(catalog: catalog)
        let before = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "1", originalPurchaseDate: date("2020-01-14T14:59:59Z")))
        #expect(before.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(before.decision.rule == .purchaseDate)
        let after = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "1", originalPurchaseDate: date("2020-01-14T15:00:00Z")))
        #expect(after.decision.cohort == .newCustomer, "the cutoff is the moment the free build went live, inclusive")
        #expect(after.decision.comparisons.isEmpty == false)
    }

    @Test("Trap 2: restarted builds without a purchase date can't be decided")
    func trap2NoDate() {
        let report = Advisor(plan: Self.restartPlan).report(for: Customer(platform: .iOS, originalAppVersion: "1"))
        #expect(report.decision.rule == .undetermined)
        #expect(report.decision.cohort == .newCustomer)
    }

    @Test("Trap 2: a hotfix released after the switch with a lower build uses the date rule")
    func trap2HotfixGoingBackwards() throws {
        let plan = MigrationPlan(
            app: AppInfo(name: "H", bundleID: "h", platforms: [.iOS]), features: features("pro"),
            releases: [
                release("1.0", build: "10", "2020-01-01T00:00:00Z", paid: "1.99", includes: ["pro"]),
                release("1.1", build: "18", "2020-03-01T00:00:00Z", paid: "1.99"),
                release("2.0", build: "20", "2020-06-01T00:00:00Z", includes: []),
                release("1.1.1", build: "17", "2020-06-10T00:00:00Z", includes: []),
            ], products: [product("p", "1", grants: ["pro"])])
        let cutoff = try #require(PlanCatalog(plan).cutoffs[.iOS])
        #expect(cutoff.problems.contains { $0.kind == .backwards })
        let report = Advisor(plan: plan).report(
            for: Customer(platform: .iOS, originalAppVersion: "17", originalPurchaseDate: date("2020-06-11T00:00:00Z")))
        #expect(report.decision.rule == .purchaseDate)
        #expect(report.decision.cohort == .newCustomer, "build 17 < 18, the last paid build, but it was downloaded free")
    }

    @Test("Trap 2: marketing versions that go back are fine when builds keep rising")
    func trap2HotfixWithRisingBuilds() throws {
        let plan = MigrationPlan(
            app: AppInfo(name: "H", bundleID: "h", platforms: [.iOS]), features: features("pro"),
            releases: [
                release("1.1", build: "18", "2020-03-01T00:00:00Z", paid: "1.99", includes: ["pro"]),
                release("1.0.2", build: "20", "2020-03-05T00:00:00Z", paid: "1.99"),
                release("2.0", build: "30", "2020-06-01T00:00:00Z", includes: []),
            ], products: [product("p", "1", grants: ["pro"])])
        #expect(try #require(PlanCatalog(plan).cutoffs[.iOS]).isVersionRuleSound)
        #expect(Advisor(plan: plan).cohort(Customer(platform: .iOS, originalAppVersion: "20")) == .legacy(tierID: "paid-1.1"))
    }

    static let universalPlan = MigrationPlan(
        app: AppInfo(name: "U", bundleID: "u", platforms: [.iOS, .macOS], universalPurchase: true),
        features: features("pro"),
        releases: [
            release(.iOS, "1.0", build: "100", "2021-01-01T00:00:00Z", paid: "4.99", includes: ["pro"]),
            release(.iOS, "2.0", build: "305", "2022-01-01T00:00:00Z", paid: "4.99"),
            release(.iOS, "3.0", build: "412", "2023-01-01T00:00:00Z", includes: []),
            release(.macOS, "1.0", build: "1", "2021-01-01T00:00:00Z", paid: "4.99", includes: ["pro"]),
            release(.macOS, "2.0", build: "2", "2022-01-01T00:00:00Z", paid: "4.99"),
            release(.macOS, "3.0", build: "3", "2023-01-01T00:00:00Z", includes: []),
        ],
        products: [product("pro", "6.99", grants: ["pro"])])

    @Test("Trap 3: a Mac customer who first bought on iOS carries a build number")
    func trap3OriginalPlatformKnown() {
        let advisor = Advisor(plan: Self.universalPlan)
        // "305" read as a macOS marketing version would be far above 3.0, a free release.
        let report = advisor.report(for: Customer(platform: .macOS, originalPlatform: .iOS, originalAppVersion: "305"))
        #expect(report.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(report.decision.rule == .buildNumber)
        #expect(report.decision.trackPlatform == .iOS)
        // An iOS customer who first bought on the Mac carries a marketing version.
        let macFirst = advisor.report(for: Customer(platform: .iOS, originalPlatform: .macOS, originalAppVersion: "2.0"))
        #expect(macFirst.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(macFirst.decision.rule == .marketingVersion)
    }

    @Test("Trap 3: without the original platform, the purchase date decides")
    func trap3OriginalPlatformUnknown() {
        let advisor = Advisor(plan: Self.universalPlan)
        let report = advisor.report(
            for: Customer(platform: .macOS, originalAppVersion: "305", originalPurchaseDate: date("2022-06-01T00:00:00Z")))
        #expect(report.decision.rule == .purchaseDate)
        #expect(report.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(report.decision.reasons.contains { $0.contains("original platform is unknown") })
        let free = advisor.report(for: Customer(platform: .macOS, originalAppVersion: "3.0", originalPurchaseDate: date("2023-06-01T00:00:00Z")))
        #expect(free.decision.cohort == .newCustomer)
    }

    @Test("Trap 3: without platform or date, a version both readings disagree on is undetermined")
    func trap3NoDate() {
        let advisor = Advisor(plan: Self.universalPlan)
        #expect(advisor.report(for: Customer(platform: .macOS, originalAppVersion: "305")).decision.rule == .undetermined)
        // "2" is paid on both: build 2 < 100 (the first iOS release), and macOS 2 < 3.0.
        let agreed = advisor.report(for: Customer(platform: .macOS, originalAppVersion: "2"))
        #expect(agreed.decision.cohort == .legacy(tierID: "paid-1.0"))
    }

    @Test(
        "Trap 4: the sandbox's \"1.0\" is decided by the environment, never the value",
        arguments: [StoreEnvironment.sandbox, .xcode])
    func trap4SandboxVersion(environment: StoreEnvironment) {
        var plan = Self.restartPlan  // the first paid build is "1", so "1.0" looks like a real early buyer
        let tester = Customer(
            platform: .iOS, environment: environment, originalAppVersion: "1.0", originalPurchaseDate: date("2013-08-01T07:00:00Z"))
        #expect(Advisor(plan: plan).report(for: tester).decision.cohort == .newCustomer)
        #expect(Advisor(plan: plan).report(for: tester).decision.rule == .environmentPolicy)
        plan.policies.nonProduction = .tier("paid-1.0")
        #expect(Advisor(plan: plan).report(for: tester).decision.cohort == .legacy(tierID: "paid-1.0"))
        // The same value in production is a real buyer of build 1, dated to decide.
        let buyer = Customer(platform: .iOS, originalAppVersion: "1.0", originalPurchaseDate: date("2019-05-01T00:00:00Z"))
        #expect(Advisor(plan: plan).report(for: buyer).decision.cohort == .legacy(tierID: "paid-1.0"))
    }

    @Test("Trap 4: check warns when the first paid build collides with the sandbox value")
    func trap4CheckWarning() throws {
        let report = PlanChecker.check(Self.restartPlan, now: date("2026-01-01"))
        #expect(report.diagnostics.contains { $0.code == .sandboxVersionCollision && $0.severity == .warning })
        #expect(
            !PlanChecker.check(try examplePlan("server-pal"), now: date("2026-01-01")).diagnostics.contains { $0.code == .sandboxVersionCollision }
        )
    }

    @Test("check refuses a provisional grant of a tier the plan doesn't have, with its path and a suggestion")
    func provisionalGrantNamesATier() {
        var plan = Self.restartPlan
        plan.policies.provisionalGrant = Policies.ProvisionalGrant(tier: "paid-1.00", days: 3)
        let errors = PlanChecker.check(plan, now: date("2026-01-01")).diagnostics.filter { $0.code == .unknownReference }
        #expect(errors.map(\.path?.description) == ["policies.provisionalGrant.tier"])
        #expect(errors.first?.hint == "Did you mean 'paid-1.0'?")
        plan.policies.provisionalGrant?.tier = "paid-1.0"
        #expect(!PlanChecker.check(plan, now: date("2026-01-01")).diagnostics.contains { $0.code == .unknownReference })
    }

    @Test("check errors when a non-renewing subscription that unlocks features has no duration, and passes it with one")
    func nonRenewingNeedsADuration() throws {
        var plan = Self.singleDigitPlan
        plan.products.append(product("season", "9.99", grants: ["pro"], kind: .nonRenewing))
        plan.products.append(product("season.gift", "0.99", kind: .nonRenewing))
        let errors = PlanChecker.check(plan, now: date("2026-01-01")).diagnostics.filter { $0.code == .nonRenewingNeverEnds }
        #expect(errors.map(\.severity) == [.error])
        #expect(errors.first?.path?.description == "products[1].type")
        #expect(errors.first?.message.contains("'season' is a non-renewing subscription without a 'duration'") == true)
        #expect(errors.first?.hint?.contains("\"duration\": \"P1Y\"") == true)
        plan.products[1].duration = try TrialPeriod("P1Y")
        #expect(!PlanChecker.check(plan, now: date("2026-01-01")).diagnostics.contains { $0.code == .nonRenewingNeverEnds })
    }

    @Test(
        "A one-year pass grants from its purchase date for a year, judged against the trusted time; unknown dates keep it",
        arguments: [
            ("2025-01-01T00:00:00Z", "2025-06-01T00:00:00Z", true),  // bought 151 days ago
            ("2024-11-22T00:00:00Z", "2025-12-27T00:00:00Z", false),  // bought 400 days ago
            (nil, "2025-12-27T00:00:00Z", true),  // no purchase date: the payer keeps it
            ("2024-11-22T00:00:00Z", nil, true),  // the time now unknown: the payer keeps it
        ] as [(String?, String?, Bool)])
    func passEnds(bought: String?, now: String?, grants: Bool) throws {
        var plan = Self.singleDigitPlan
        var pass = product("season", "9.99", grants: ["pro"], kind: .nonRenewing)
        pass.duration = try TrialPeriod("P1Y")
        plan.products.append(pass)
        let customer = Customer(
            platform: .iOS, originalAppVersion: "13", purchases: [OwnedProduct(productID: "season", purchaseDate: bought.map(date))],
            now: now.map(date))
        let report = Advisor(plan: plan).report(for: customer)
        #expect(report.entitlements.has("pro") == grants)
        if !grants { #expect(report.entitlements.ignored.first?.reason.contains("a non-renewing subscription of 1 year that ended") == true) }
    }

    @Test("Trap 5: a tier that forgets a paid feature is reported (the Themes regression)")
    func trap5FeatureMissedInGate() {
        var plan = Self.singleDigitPlan
        plan.features = features("pro", "themes")
        plan.releases[0].includes = ["pro", "themes"]
        plan.tiers = [LegacyTier(id: "legacy", name: "Legacy", until: date("2021-01-01T00:00:00Z"), grants: ["pro"])]
        let diagnostics = PlanChecker.check(plan, now: date("2026-01-01")).diagnostics
        let dropped = diagnostics.first { $0.code == .legacyFeatureDropped }
        #expect(dropped?.message.contains("'themes'") == true)
        // And no product sells themes any more: new customers can never get it.
        #expect(diagnostics.contains { $0.code == .paidFeatureUnobtainable && $0.message.contains("'themes'") })
        // The customer really loses it.
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "5"))
        #expect(!report.entitlements.has("themes"))
    }

    @Test("Trap 5: a paid release in no tier is an error")
    func trap5UncoveredRelease() {
        var plan = Self.singleDigitPlan
        plan.tiers = [LegacyTier(id: "early", name: "Early", until: date("2020-03-01T00:00:00Z"))]
        let diagnostics = PlanChecker.check(plan, now: date("2026-01-01")).diagnostics
        #expect(diagnostics.contains { $0.code == .paidReleaseUncovered && $0.severity == .error && $0.message.contains("1.9 (9)") })
    }

    @Test("Trap 6: eras — older buyers keep what a free update brought them (csv-export in 1.2), as later buyers do")
    func trap6TieredEras() throws {
        let plan = try examplePlan("pocket-ledger")
        let advisor = Advisor(plan: plan)
        let early = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "1", originalPurchaseDate: date("2019-05-01T00:00:00Z")))
        let late = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "2", originalPurchaseDate: date("2019-10-15T00:00:00Z")))
        #expect(early.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(early.entitlements.has("csv-export"))
        #expect(late.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(late.entitlements.has("csv-export"))
    }

    @Test("Trap 6: a legacy discount instead of free access")
    func trap6Discount() throws {
        let plan = try examplePlan("tally-two-switches")
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "25"))
        // Paid-app buyers may never have subscribed: a legacy subscription of its own group, not a promotional offer.
        let yearly = try #require(report.upsell.offers.first { $0.productID == "com.example.tally.pro.yearly.legacy" })
        #expect(yearly.price == (try Price("9.99")))
        #expect(yearly.regularPrice == (try Price("19.99")))
        let newcomer = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "50"))
        #expect(newcomer.upsell.offers.first { $0.productID == "com.example.tally.pro.yearly" }?.regularPrice == nil)
    }

    @Test("Trap 6: a lifetime unlock from the middle era keeps entitling after the subscription switch")
    func trap6LifetimeStays() throws {
        let plan = try examplePlan("tally-two-switches")
        let report = Advisor(plan: plan).report(
            for: Customer(platform: .iOS, originalAppVersion: "44", purchases: [OwnedProduct(productID: "com.example.tally.lifetime")]))
        #expect(report.decision.cohort == .newCustomer)
        #expect(report.entitlements.has("widgets"))
        #expect(!report.entitlements.has("sync"))
        #expect(report.upsell.offers.allSatisfy { $0.adds == ["sync"] })
    }

    @Test("Trap 7: never sell a bundle to someone who owns a part that is sold alone (seed 000)")
    func trap7NeverChargeTwice() throws {
        let plan = try examplePlan("tilt-to-live-hd")
        let advisor = Advisor(plan: plan)
        let full = "com.example.tilttolivehd.full"
        let turret = "com.example.tilttolivehd.turret"
        let bundle = "com.example.tilttolivehd.fullturret"

        // State 1: the demo (a free download) sees one purchase that includes everything.
        let demo = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "34"))
        #expect(demo.upsell.offers.map(\.productID) == [bundle])
        // State 2: full version before the new mode, by paying for the app or by the old IAP: only the mode.
        let paid = advisor.report(for: Customer(platform: .iPadOS, originalAppVersion: "21"))
        #expect(paid.upsell.offers.map(\.productID) == [turret])
        #expect(paid.upsell.withheld.contains { $0.productID == bundle })
        let oldIAP = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "34", purchases: [OwnedProduct(productID: full)]))
        #expect(oldIAP.upsell.offers.map(\.productID) == [turret])
        // State 3: the new full version: everything is unlocked, no offers, Restore can hide.
        let complete = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "40", purchases: [OwnedProduct(productID: bundle)]))
        #expect(complete.upsell.offers.isEmpty)
        #expect(!complete.upsell.showsRestore)
        // Upgraders who bought the parts separately own the whole bundle's content.
        let upgrader = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "21", purchases: [OwnedProduct(productID: turret)]))
        #expect(upgrader.upsell.offers.isEmpty)
    }

    @Test("Trap 7: a bundle is still offered when nothing smaller sells the missing part, with a note")
    func trap7BundleWithoutAlternative() {
        let plan = MigrationPlan(
            app: AppInfo(name: "B", bundleID: "b", platforms: [.iOS]), features: features("a", "b"),
            releases: Self.singleDigitPlan.releases.map {
                var r = $0
                r.includes = r.model.isPaid ? ["a"] : (r.includes == nil ? nil : [])
                return r
            },
            products: [product("all", "3", grants: ["a", "b"])])
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "5"))
        #expect(report.upsell.offers.map(\.productID) == ["all"])
        #expect(report.upsell.offers.first?.reason.contains("already unlocked") == true)
    }

    @Test("Trap 8: a verification failure denies, or keeps the last verified result for N days")
    func trap8VerificationFailure() {
        var plan = Self.singleDigitPlan
        let failing = { (age: Int?) in
            Customer(platform: .iOS, originalAppVersion: "5", appTransaction: .failed(lastVerifiedDaysAgo: age))
        }
        plan.policies.verificationFailure = .deny
        let denied = Advisor(plan: plan).report(for: failing(1))
        #expect(denied.decision.cohort == .newCustomer)
        #expect(denied.decision.rule == .noProof)
        #expect(denied.decision.reasons.contains { $0.contains("not proof of cracking") })

        plan.policies.verificationFailure = .keepLastVerified(days: 7)
        let cached = Advisor(plan: plan).report(for: failing(7))
        #expect(cached.decision.cohort == .legacy(tierID: "paid-1.0"))
        #expect(cached.decision.fromCache)
        #expect(Advisor(plan: plan).report(for: failing(8)).decision.cohort == .newCustomer)
        #expect(Advisor(plan: plan).report(for: failing(nil)).decision.cohort == .newCustomer)
    }

    @Test("Trap 8: an unverified transaction doesn't entitle under deny")
    func trap8UnverifiedTransaction() {
        let customer = Customer(platform: .iOS, originalAppVersion: "13", purchases: [OwnedProduct(productID: "pro", isVerified: false)])
        let report = Advisor(plan: Self.singleDigitPlan).report(for: customer)
        #expect(!report.entitlements.has("pro"))
        #expect(report.entitlements.ignored.first?.reason.contains("did not verify") == true)
    }

    @Test("Trap 9: Restore is hidden only when everything is unlocked, and its three outcomes differ")
    func trap9Restore() {
        let advisor = Advisor(plan: Self.singleDigitPlan)
        #expect(!advisor.report(for: Customer(platform: .iOS, originalAppVersion: "5")).upsell.showsRestore)
        #expect(advisor.report(for: Customer(platform: .iOS, originalAppVersion: "13")).upsell.showsRestore)
        let messages = Set(RestoreOutcome.allCases.map { $0.message(in: .english) })
        #expect(messages.count == 3)
        #expect(RestoreOutcome.nothingRestored.message(in: .english).contains("No previous purchases could be restored"))
    }

    @Test(
        "Trap 10: Family Sharing shares only non-consumables and auto-renewable subscriptions, even when a product of another type is marked shareable",
        arguments: [
            (Product.Kind.nonConsumable, true), (.autoRenewable, true), (.nonRenewing, false), (.consumable, false),
        ])
    func trap10SharedKinds(kind: Product.Kind, shared: Bool) {
        var plan = Self.singleDigitPlan
        var item = product("item", "0.99", grants: ["pro"], kind: kind)
        if kind == .nonRenewing { item.duration = TrialPeriod(months: 1) }
        plan.products.append(item)
        #expect(item.familyShareable)
        #expect(item.isSharedByFamily == shared)
        #expect(PlanCatalog(plan).makeRules().familyShareable.contains(ProductKey("item")) == shared)
        // What the App Store delivers family-shared entitles anyway (a verified transaction is never second-guessed), with a word.
        let member = Customer(platform: .iOS, originalAppVersion: "13", purchases: [OwnedProduct(productID: "item", ownership: .familyShared)])
        let entitlements = Advisor(plan: plan).report(for: member).entitlements
        #expect(entitlements.has("pro") == (kind != .consumable))
        let worded = entitlements.notes.contains { $0.contains("Family Sharing shares only non-consumables and auto-renewable subscriptions") }
        #expect(worded == (kind == .nonRenewing), "\(entitlements.notes)")
    }

    @Test(
        "Trap 10: family sharing, refunds, expiry, consumables",
        arguments: [
            (OwnedProduct(productID: "pro", ownership: .familyShared), Policies.FamilySharing.entitles, true),
            (OwnedProduct(productID: "pro", ownership: .familyShared), .ignored, false),
            (OwnedProduct(productID: "pro", isRevoked: true), .entitles, false),
            (OwnedProduct(productID: "pro", isExpired: true), .entitles, false),
            (OwnedProduct(productID: "tip"), .entitles, false),
            (OwnedProduct(productID: "prp"), .entitles, false),
        ])
    func trap10Ownership(owned: OwnedProduct, sharing: Policies.FamilySharing, entitles: Bool) {
        var plan = Self.singleDigitPlan
        plan.products.append(product("tip", "0.99", kind: .consumable))
        plan.policies.familySharing = sharing
        let report = Advisor(plan: plan).report(for: Customer(platform: .iOS, originalAppVersion: "13", purchases: [owned]))
        #expect(report.entitlements.has("pro") == entitles)
        if !entitles { #expect(report.entitlements.ignored.count == 1) }
    }

    @Test("Trap 10: a refunded paid download gets no legacy tier; VPP installs see no offers")
    func trap10RefundAndVPP() {
        let advisor = Advisor(plan: Self.singleDigitPlan)
        let refunded = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "5", isAppPurchaseRevoked: true))
        #expect(refunded.decision.cohort == .newCustomer)
        let vpp = advisor.report(for: Customer(platform: .iOS, originalAppVersion: "13", isVolumePurchase: true))
        #expect(vpp.upsell.offers.isEmpty)
        #expect(vpp.upsell.notes.contains { $0.contains("Volume Purchase") })
    }
}

@Suite("Release dates with provenance", .timeLimit(.minutes(20)))
struct ReleaseDateSourceTests {
    /// Paid 1.0 (dated as given), free 2.0 (the cutoff) dated by `source`, and a tier that ends at 1.5's go-live.
    static func plan(freeDatedBy source: ReleaseDateSource?, tierBoundDatedBy boundSource: ReleaseDateSource? = .appStore) -> MigrationPlan {
        var free = release("2.0", build: "20", "2021-01-01T00:00:00Z", includes: [])
        free.releasedSource = source
        var middle = release("1.5", build: "15", "2020-06-01T00:00:00Z", paid: "1.99")
        middle.releasedSource = boundSource
        var plan = MigrationPlan(
            app: AppInfo(name: "T", bundleID: "t", platforms: [.iOS]),
            features: features("pro"),
            releases: [release("1.0", build: "1", "2020-01-01T00:00:00Z", paid: "1.99", includes: ["pro"]), middle, free],
            products: [product("pro", "2.99", grants: ["pro"])])
        plan.tiers = [
            LegacyTier(id: "early", name: "Early", until: date("2020-06-01T00:00:00Z"), grants: ["pro"]),
            LegacyTier(id: "late", name: "Late", from: date("2020-06-01T00:00:00Z"), grants: ["pro"]),
        ]
        return plan
    }

    @Test(
        "check warns when the first free release is dated by a commit, a tag or an App Store Connect record, not by evidence",
        arguments: [(ReleaseDateSource?.some(.commit), true), (.tag, true), (.ascCreated, true), (.appStore, false), (.sales, false), (nil, false)])
    func firstFree(source: ReleaseDateSource?, warns: Bool) throws {
        let diagnostics = PlanChecker.check(Self.plan(freeDatedBy: source), now: date("2026-01-01")).diagnostics.filter {
            $0.code == .weakReleaseDate
        }
        #expect(diagnostics.count == (warns ? 1 : 0), "\(String(describing: source))")
        if warns {
            let warning = try #require(diagnostics.first)
            #expect(warning.severity == .warning)
            #expect(warning.message.hasPrefix("the first free release, iOS 2.0 (20), is dated by \(source!.phrase) (2021-01-01T00:00:00Z)"))
            #expect(warning.path?.description == "releases[2].releasedSource")
            #expect(warning.hint?.contains("\"appStore\"") == true)
        }
    }

    @Test("A tier boundary that is a release's go-live is deciding too")
    func tierBoundary() {
        let diagnostics = PlanChecker.check(Self.plan(freeDatedBy: .appStore, tierBoundDatedBy: .commit), now: date("2026-01-01")).diagnostics
        let warning = diagnostics.first { $0.code == .weakReleaseDate }
        #expect(warning?.message.hasPrefix("a tier boundary, iOS 1.5 (15), is dated by a git commit date") == true)
    }
}
