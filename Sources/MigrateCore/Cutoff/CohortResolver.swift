import Foundation
import FreemiumStoreKit
import MigratePlan

/// Decides a customer's cohort from their original version, purchase date, platform and
/// environment, and says why: the layer's cutoff rules (`CohortRules`, what the generated app runs) over the
/// plan's tables decide, and their trace is put in words here.
public struct CohortResolver: Sendable {
    public let catalog: PlanCatalog
    public let rules: PlanCohortRules
    /// Each build-number track's builds and marketing versions, for `doubts(about:purchased:on:)`: found once, not
    /// once per customer of a list.
    private let buildTracks: [Platform: BuildTrack]

    private struct BuildTrack: Sendable {
        var builds: Set<Version>
        /// The first release with each marketing version.
        var marketing: [Version: Int]
        /// Every build is a single number (so a dotted version can't be one of them).
        var buildsAreSingleNumbers: Bool
    }

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
        rules = catalog.makeCohortRules()
        var tracks: [Platform: BuildTrack] = [:]
        for (platform, indices) in catalog.tracks where platform.originalVersionMeaning == .buildNumber {
            let builds = Set(indices.compactMap { catalog.plan.releases[$0].build })
            var marketing: [Version: Int] = [:]
            for index in indices where marketing[catalog.plan.releases[index].version] == nil {
                marketing[catalog.plan.releases[index].version] = index
            }
            tracks[platform] = BuildTrack(
                builds: builds, marketing: marketing, buildsAreSingleNumbers: !builds.isEmpty && builds.allSatisfy { $0.components.count == 1 })
        }
        buildTracks = tracks
    }

    private var plan: MigrationPlan { catalog.plan }

    public func decide(_ customer: Customer) -> CohortDecision {
        var notes: [String] = []
        if let preorder = customer.preorderDate {
            notes.append("pre-ordered on \(Timestamp.format(preorder)); a purchase date before the first release counts as the first release")
        }
        let (decided, trace) = rules.decideTraced(purchase(of: customer))
        switch trace.steps.first {
        case .nonProduction?:
            var decision = nonProductionDecision(customer)
            decision.notes = notes + decision.notes
            return decision
        case .refunded?:
            return CohortDecision(
                cohort: .newCustomer, rule: .refunded,
                reasons: ["the paid download was refunded (AppTransaction.revocationDate is set), so no legacy tier applies"],
                notes: notes)
        case .unverified?:
            guard case .keepLastVerified(let days) = plan.policies.verificationFailure else {
                return CohortDecision(
                    cohort: .newCustomer, rule: .noProof,
                    reasons: [
                        "the app transaction did not verify and policies.verificationFailure is \"deny\", so no legacy tier is granted",
                        "this is not proof of cracking: the next successful verification restores the tier",
                    ], notes: notes)
            }
            var age: Int?
            if case .failed(let days) = customer.appTransaction { age = days }
            let detail = age.map { "the last verified result is \($0) days old" } ?? "no verified result is cached"
            return CohortDecision(
                cohort: .newCustomer, rule: .noProof,
                reasons: ["the app transaction did not verify and \(detail); policies.verificationFailure keeps one for at most \(days) days"],
                notes: notes)
        case .keptFromCache?:
            if case .failed(let age?) = customer.appTransaction, case .keepLastVerified(let days) = plan.policies.verificationFailure {
                notes.append(
                    "the app transaction did not verify; the last verified result (\(age) days old, within \(days)) decides, as policies.verificationFailure allows"
                )
            }
        default:
            break
        }
        var decision = productionDecision(customer, decided: decided, trace: trace)
        decision.notes = notes + decision.notes
        decision.fromCache = trace.steps.contains { if case .keptFromCache = $0 { true } else { false } }
        return decision
    }

    /// The cohort, the rule and the track that decided it, without the words: what a list of a million needs
    /// (the same rules as `decide(_:)`, so the same cohort; `BatchDeciderTests` compares the two).
    public func decideWithoutReasons(_ customer: Customer) -> CohortDecision {
        let decided = rules.decide(purchase(of: customer))
        var cohort = Cohort.newCustomer
        if case .legacy(let id) = decided.cohort { cohort = .legacy(tierID: id) }
        return CohortDecision(cohort: cohort, rule: CutoffRuleKind(decided.rule), trackPlatform: decided.platform)
    }

    /// The customer as the layer's rules read an app transaction.
    private func purchase(of customer: Customer) -> OriginalPurchaseFacts<Platform> {
        let verification: Verification
        switch customer.appTransaction {
        case .verified: verification = .verified
        case .failed(let age): verification = .failed(lastVerifiedDaysAgo: age)
        }
        return OriginalPurchaseFacts(
            originalAppVersion: customer.originalAppVersion, originalPurchaseDate: customer.originalPurchaseDate,
            platform: customer.platform, originalPlatform: customer.originalPlatform, environment: customer.environment,
            verification: verification, isRevoked: customer.isAppPurchaseRevoked)
    }

    // MARK: - Sandbox, TestFlight and Xcode

    private func nonProductionDecision(_ customer: Customer) -> CohortDecision {
        // Say what this customer's data shows, not what it usually is.
        let version = customer.originalAppVersion.map { "\"\($0)\"" }
        let date = customer.originalPurchaseDate.map(Self.describeTestDate)
        let shown = [version.map { "original version \($0)" }, date.map { "purchase date \($0)" }].compactMap { $0 }.joined(separator: ", ")
        var reasons = [
            customer.environment == .xcode
                ? "in the Xcode environment (StoreKit testing; receiptType Xcode or LocalTesting) the original version is the tested build's own and the purchase date a placeholder\(shown.isEmpty ? "" : " (here \(shown))"), whatever the app's history"
                : "in the sandbox and TestFlight the original version is always \"1.0\" and the purchase date 2013-08-01\(shown.isEmpty ? "" : " (here \(shown))"), whatever the app's history",
            "so the environment decides, never the value \(version ?? "of the original version")",
        ]
        switch plan.policies.nonProduction {
        case .newCustomer:
            reasons.append("policies.nonProduction treats testers as new customers")
            return CohortDecision(cohort: .newCustomer, rule: .environmentPolicy, reasons: reasons)
        case .tier(let id):
            guard let tier = catalog.tier(withID: id) else {
                reasons.append("policies.nonProduction names tier '\(id)', which the plan doesn't have; treated as a new customer")
                return CohortDecision(cohort: .newCustomer, rule: .environmentPolicy, reasons: reasons)
            }
            reasons.append("policies.nonProduction treats testers as the tier '\(tier.id)'")
            return CohortDecision(cohort: .legacy(tierID: tier.id), rule: .environmentPolicy, reasons: reasons)
        }
    }

    /// A test environment's purchase date: Xcode's placeholder is year 1 of Foundation's calendar
    /// (Julian before 1582), which ISO 8601's proleptic Gregorian calendar writes 0000-12-30.
    static func describeTestDate(_ date: Date) -> String {
        let text = Timestamp.format(date)
        guard date < Timestamp.parse("1000-01-01T00:00:00Z")! else { return text }
        return "\(text), Foundation's 0001-01-01: a placeholder, not a purchase"
    }

    // MARK: - Production

    /// What the rules decided, in words: each step of the trace, the release, and the doubts the rules don't see.
    private func productionDecision(_ customer: Customer, decided: PlanCohortRules.Decision, trace: PlanCohortRules.Trace)
        -> CohortDecision
    {
        var reasons: [String] = []
        var notes: [String] = []
        var version: Version?
        if let text = customer.originalAppVersion {
            do {
                version = try Version(text)
            } catch {
                notes.append("\(error.description); it can't be compared")
            }
        }
        let date = customer.originalPurchaseDate
        let steps = trace.steps.filter { $0 != .keptFromCache }

        // Universal purchase: the value's meaning follows the platform of the *original* purchase.
        if let first = steps.first, [.universalByDate, .universalReadingsAgree, .universalUndetermined].contains(first) {
            let appPlatforms = Set(plan.app.platforms.compactMap { catalog.trackPlatform(for: $0) })
            let meanings = Set(appPlatforms.map(\.originalVersionMeaning))
            let kinds = meanings.count > 1 ? "a build number (iOS) or a marketing version (macOS)" : "a build number of any of its platforms"
            reasons.append(
                "universal purchase: the original platform is unknown (AppTransaction.originalPlatform needs iOS 18.4 / macOS 15.4), so the original version could be \(kinds)"
            )
            switch first {
            case .universalByDate:
                reasons.append("so the purchase date decides")
                return dateDecision(date, decided: decided, trace: trace, reasons: reasons, notes: notes)
            case .universalReadingsAgree:
                reasons.append(
                    "no purchase date was given, but every platform's reading of \(version.map(\.description) ?? "") gives the same cohort")
                return versionDecision(version, decided: decided, trace: trace, purchased: nil, reasons: reasons, notes: notes)
            default:
                reasons.append("no purchase date was given, and the version alone can't tell")
                return undetermined(reasons: reasons, notes: notes)
            }
        }

        for step in steps {
            if case .originalPlatform(let original) = step {
                reasons.append(
                    "universal purchase first made on \(original): the original version is its \(original.originalVersionMeaning.displayName) (\(original.originalVersionMeaning.infoPlistKey)), although the app now runs on \(customer.platform)"
                )
            }
        }
        var origin = customer.originalPlatform ?? customer.platform
        for step in steps {
            if case .onlyPlatformWithReleases(let only) = step {
                reasons.append(
                    "universal purchase: the original platform is unknown, and the plan has releases on \(only) only (none on \(customer.platform)), so the app was bought on \(only): its original version is a \(only.originalVersionMeaning.displayName)"
                )
                origin = only
            }
        }
        guard let track = catalog.trackPlatform(for: origin), let cutoff = catalog.cutoffs[track] else {
            reasons.append("the plan has no releases for \(origin)")
            return undetermined(reasons: reasons, notes: notes)
        }
        switch plan.policies.cutoffRule {
        case .date:
            reasons.append("policies.cutoffRule is \"date\"")
        case .version:
            if !cutoff.isVersionRuleSound {
                notes.append("policies.cutoffRule forces the version rule although it is ambiguous on \(track): \(cutoff.problems[0].message)")
            }
        case .automatic:
            if !cutoff.isVersionRuleSound {
                reasons.append("the \(cutoff.meaning.displayName) can't be trusted on \(track): \(cutoff.problems[0].message)")
            }
        }

        switch steps.last {
        case .byVersion?:
            if let version { notes += doubts(about: version, purchased: date, on: track) }
            return versionDecision(version, decided: decided, trace: trace, purchased: date, reasons: reasons, notes: notes)
        case .noVersionedReleases?:
            reasons.append("the plan has no \(track) releases with a \(cutoff.meaning.displayName)")
            return undetermined(reasons: reasons, notes: notes)
        case .noVersionByDate?:
            reasons.append("there is no usable original version, so the purchase date decides")
            return dateDecision(date, decided: decided, trace: trace, reasons: reasons, notes: notes)
        case .noVersionNoDate?:
            reasons.append("there is no usable original version and no purchase date")
            return undetermined(reasons: reasons, notes: notes)
        case .noDateByVersion?:
            reasons.append("no purchase date was given, so the original version decides")
            return versionDecision(version, decided: decided, trace: trace, purchased: nil, reasons: reasons, notes: notes)
        case .byDate?:
            if !reasons.isEmpty && plan.policies.cutoffRule == .automatic {
                reasons.append("so the purchase date decides")
            }
            return dateDecision(date, decided: decided, trace: trace, reasons: reasons, notes: notes)
        default:
            reasons.append("no purchase date was given, and the original version can't decide")
            return undetermined(reasons: reasons, notes: notes)
        }
    }

    /// What the version decision can't see for itself: a purchase date before the track's first listed release
    /// (the plan's history may start too late), and a marketing version where the track's value is a build number.
    private func doubts(about version: Version, purchased date: Date?, on track: Platform) -> [String] {
        var notes: [String] = []
        let releases = catalog.tracks[track] ?? []
        if let date, let first = releases.first, date < plan.releases[first].released {
            let release = plan.releases[first]
            notes.append(
                "the purchase date \(Timestamp.format(date)) is before the first \(track) release the plan lists, \(release.displayName) (\(Timestamp.format(release.released))): a pre-order, or the plan's history starts too late; add the earlier releases"
            )
        }
        if let known = buildTracks[track], !known.builds.contains(version) {
            if let match = known.marketing[version] {
                notes.append(
                    "\(version) is the marketing version of \(plan.releases[match].displayName), not a build: on \(track) AppTransaction.originalAppVersion is the build number (CFBundleVersion); check where the value came from"
                )
            } else if version.components.count > 1, known.buildsAreSingleNumbers {
                notes.append(
                    "\(version) looks like a marketing version, but every \(track) build in the plan is a single number: on \(track) AppTransaction.originalAppVersion is the build number (CFBundleVersion)"
                )
            }
        }
        return notes
    }

    private func undetermined(reasons: [String], notes: [String]) -> CohortDecision {
        CohortDecision(
            cohort: .newCustomer, rule: .undetermined,
            reasons: reasons + ["no legacy tier can be proven, so only purchased products entitle"], notes: notes)
    }

    /// The tier the rules decided, as the plan names it.
    private func tier(of decided: PlanCohortRules.Decision) -> ResolvedTier? {
        if case .legacy(let id) = decided.cohort { return catalog.tier(withID: id) }
        return nil
    }

    private func versionDecision(
        _ version: Version?, decided: PlanCohortRules.Decision, trace: PlanCohortRules.Trace, purchased date: Date?, reasons: [String],
        notes: [String]
    ) -> CohortDecision {
        guard let platform = decided.platform, let index = trace.release?.id, let version else {
            return undetermined(reasons: reasons, notes: notes)
        }
        let lookup = catalog.cutoffs[platform]?.lookup(version, decided: index)
        // The version decides, unless a tier's window begins or ends while its release was on sale.
        let date = catalog.windowSplits(release: index) ? date : nil
        let tier = tier(of: decided)
        var reasons = reasons
        let release = plan.releases[index]
        let listed = decided.rule == .marketingVersion ? release.version : (release.build ?? release.version)
        let exact = listed.canonical == version.canonical
        if !exact {
            // A version the plan doesn't list (an untagged release, a build that never went live) is read as the release
            // before it: say so, rather than call it that release.
            let meaning = decided.rule == .marketingVersion ? "marketing version" : "build"
            reasons.append(
                "\(meaning) \(version) is no release the plan lists (an untagged release, or a build that never went live): it comes after \(release.platform) \(release.displayName), so it is read as that release"
            )
        }
        reasons.append(describe(release: release, tier: tier, asRead: !exact))
        var notes = notes
        if let window = windowNote(release: index, purchased: date, tier: tier) { notes.append(window) }
        return CohortDecision(
            cohort: tier.map { .legacy(tierID: $0.id) } ?? .newCustomer, rule: decided.rule == .marketingVersion ? .marketingVersion : .buildNumber,
            trackPlatform: platform, originalRelease: index, comparisons: lookup?.comparisons ?? [], reasons: reasons,
            notes: notes + (lookup?.note.map { [$0] } ?? []))
    }

    private func dateDecision(
        _ date: Date?, decided: PlanCohortRules.Decision, trace: PlanCohortRules.Trace, reasons: [String], notes: [String]
    ) -> CohortDecision {
        guard let date, let platform = decided.platform, let index = trace.release?.id else {
            return undetermined(reasons: reasons + ["the plan has no releases to compare the purchase date with"], notes: notes)
        }
        var notes = notes
        if trace.disagreed {
            notes.append("the platforms' histories disagree at \(Timestamp.format(date)); the more generous reading (\(platform)) was chosen")
        }
        let release = plan.releases[index]
        let tier = tier(of: decided)
        if let window = windowNote(release: index, purchased: date, tier: tier) { notes.append(window) }
        if date < release.released {
            notes.append("the purchase date is before the first \(platform) release, \(release.displayName), as for a pre-order")
        }
        return CohortDecision(
            cohort: tier.map { .legacy(tierID: $0.id) } ?? .newCustomer, rule: .purchaseDate, trackPlatform: platform,
            originalRelease: index, comparisons: dateComparisons(date, release: index, on: platform),
            reasons: reasons + [describe(release: release, tier: tier)], notes: notes)
    }

    private func dateComparisons(_ date: Date, release: Int, on platform: Platform) -> [String] {
        guard let track = catalog.tracks[platform], let position = track.firstIndex(of: release) else { return [] }
        func label(_ index: Int) -> String { catalog.tier(ofRelease: index)?.id ?? PlanCatalog.untieredLabel }
        let own = label(release)
        var comparisons: [String] = []
        var start = position
        while start > 0 && label(track[start - 1]) == own { start -= 1 }
        let purchased = Timestamp.format(date)
        if start > 0 {
            let first = plan.releases[track[start]]
            comparisons.append("purchased \(purchased) ≥ \(Timestamp.format(first.released)), when \(first.displayName) went live")
        }
        var end = position
        while end + 1 < track.count && label(track[end + 1]) == own { end += 1 }
        if end + 1 < track.count {
            let next = plan.releases[track[end + 1]]
            let model = next.model.isPaid ? "paid" : "free"
            comparisons.append("purchased \(purchased) < \(Timestamp.format(next.released)), when \(next.displayName), a \(model) release, went live")
        }
        return comparisons
    }

    /// Says so when the purchase date, not the release, put the customer in or out of a tier.
    private func windowNote(release index: Int, purchased date: Date?, tier: ResolvedTier?) -> String? {
        guard let date, let byRelease = catalog.tier(ofRelease: index), byRelease.id != tier?.id else { return nil }
        let written = plan.tiers.first { $0.id == byRelease.id }
        let end = written?.until.map { "ends \(Timestamp.format($0))" } ?? "ends when the first free release went live"
        return
            "purchased \(Timestamp.format(date)), outside tier '\(byRelease.id)''s window (it \(end)), although \(plan.releases[index].displayName) went live inside it"
    }

    /// `asRead`: the customer's version is not the release's own, only read as it.
    private func describe(release: Release, tier: ResolvedTier?, asRead: Bool = false) -> String {
        let model: String
        switch release.model {
        case .paid(let price): model = "a paid release at \(price)"
        case .free: model = "a free release"
        }
        if asRead {
            return "\(release.platform) \(release.displayName) is \(model); "
                + (tier.map { "its buyers are in tier '\($0.id)' (\($0.name))" } ?? "its customers are in no legacy tier")
        }
        if let tier {
            return
                "the original purchase is \(release.platform) \(release.displayName), \(model), whose buyers are in tier '\(tier.id)' (\(tier.name))"
        }
        return "the original download is \(release.platform) \(release.displayName), \(model); its customers are in no legacy tier"
    }
}

extension CutoffRuleKind {
    /// The layer's rule, as `explain` names it.
    init(_ rule: CohortRule) {
        switch rule {
        case .buildNumber: self = .buildNumber
        case .marketingVersion: self = .marketingVersion
        case .purchaseDate: self = .purchaseDate
        case .environmentPolicy: self = .environmentPolicy
        case .noProof: self = .noProof
        case .refunded: self = .refunded
        case .undetermined: self = .undetermined
        }
    }
}
