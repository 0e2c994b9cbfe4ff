import Foundation
import MigratePlan
import MigrateSupport

/// The result of checking a plan.
public struct CheckReport: Sendable {
    public var diagnostics: [Diagnostic]
    public var rules: [TrackRule]
    public var tiers: [ResolvedTier]
}

/// The launch-day traps that a plan can show before launch day (the manual, "The traps check finds").
public enum PlanChecker {
    /// Checks a decoded plan. `now` decides what "in the future" means.
    public static func check(_ plan: MigrationPlan, now: Date) -> CheckReport {
        check(PlanCatalog(plan), now: now)
    }

    /// Checks the plan of a catalog already built, so a command that goes on to use the catalog builds it once.
    public static func check(_ catalog: PlanCatalog, now: Date) -> CheckReport {
        var diagnostics: [Diagnostic] = []
        diagnostics += freeSwitch(catalog)
        diagnostics += catalogProblems(catalog)
        diagnostics += paidReleasesSayWhatTheyIncluded(catalog)
        diagnostics += tierCoverage(catalog)
        diagnostics += unobtainableFeatures(catalog)
        diagnostics += sandboxCollision(catalog)
        diagnostics += futureCutoffs(catalog, now: now)
        diagnostics += decidingDates(catalog, now: now)
        diagnostics += universalPurchase(catalog)
        diagnostics += PlatformCheck.check(catalog)
        diagnostics += FreeEraCheck.check(catalog)
        diagnostics += cutoffRules(catalog)
        diagnostics += policyReferences(catalog)
        diagnostics += legacyPrices(catalog)
        diagnostics += swiftNames(catalog)
        diagnostics += DirectSalesCheck.check(catalog, now: now)
        diagnostics += NameCharactersCheck.check(catalog.plan)
        return CheckReport(diagnostics: diagnostics, rules: catalog.trackRules, tiers: catalog.tiers)
    }

    private static func origin(_ catalog: PlanCatalog, release index: Int) -> JSONPath {
        catalog.plan.releases[index].origin ?? (.root / PlanKeys.Root.releases / index)
    }

    private static func freeSwitch(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        guard !plan.releases.isEmpty else {
            return [
                .error(
                    .noReleases, "the plan lists no releases, so no one can be told apart", at: .root / PlanKeys.Root.releases,
                    hint: "Add the releases that went live, with 'migrate import' or by hand: platform, version, build, released, model.")
            ]
        }
        if catalog.tracks.keys.contains(where: { !catalog.freeSwitches(on: $0).isEmpty }) { return [] }
        let anyPaid = plan.releases.contains { $0.model.isPaid }
        let message =
            anyPaid
            ? "no free release follows a paid one, so there is no cutoff between buyers and free users"
            : "no release is paid, so there are no buyers to grandfather"
        return [
            .error(
                .noFreeRelease, message, at: .root / PlanKeys.Root.releases,
                hint: "Add the first free release with \"model\": \"free\" and the date-time it went live (UTC).")
        ]
    }

    private static func catalogProblems(_ catalog: PlanCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if catalog.plan.features.isEmpty {
            diagnostics.append(
                .error(
                    .noFeatures, "the plan lists no features, so no one can be told what they keep", at: .root / PlanKeys.Root.features,
                    hint: "List what customers can be entitled to, such as { \"id\": \"themes\", \"name\": \"Themes\" }."))
        }
        if !catalog.plan.products.contains(where: \.canUnlockFeaturesForSale) {
            diagnostics.append(
                .error(
                    .nothingForSale, "no product that unlocks features is for sale, so a freemium app has nothing to sell",
                    at: .root / PlanKeys.Root.products, hint: "Add the in-app purchase that unlocks the paid features, with 'grants'."))
        }
        // StoreKit keeps a non-renewing subscription in `Transaction.currentEntitlements` after its time is up
        // (the app is to end it), and a plan doesn't say how long one lasts: say so before it ships.
        for (index, product) in catalog.plan.products.enumerated()
        where product.kind == .nonRenewing && !(product.grants.isEmpty && product.contains.isEmpty) && product.duration == nil {
            diagnostics.append(
                .error(
                    .nonRenewingNeverEnds,
                    "'\(product.id)' is a non-renewing subscription without a 'duration': StoreKit keeps its transaction in currentEntitlements after the period ends, so nothing would ever end it",
                    at: (product.origin ?? .root / PlanKeys.Root.products / index) / PlanKeys.Product.type,
                    hint:
                        "Add \"\(PlanKeys.Product.duration)\": \"P1Y\" (how long one purchase lasts, ISO 8601): migrate and the generated code grant it for that long after its purchase date. Or sell the period as an autoRenewable subscription, which StoreKit ends itself."
                ))
        }
        return diagnostics
    }

    private static func paidReleasesSayWhatTheyIncluded(_ catalog: PlanCatalog) -> [Diagnostic] {
        catalog.plan.releases.indices.compactMap { index in
            let release = catalog.plan.releases[index]
            guard release.model.isPaid, catalog.includes[index].isEmpty else { return nil }
            return .error(
                .paidReleaseIncludesNothing,
                "paid release \(release.platform) \(release.displayName) doesn't say which features its price bought",
                at: origin(catalog, release: index) / PlanKeys.Release.includes,
                hint: "List them in 'includes'; later releases of the same model inherit the list.")
        }
    }

    /// Trap 5: every feature a paid release included must stay with its buyers.
    private static func tierCoverage(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        var diagnostics: [Diagnostic] = []
        guard !plan.tiers.isEmpty else { return [] }
        for index in plan.releases.indices where plan.releases[index].model.isPaid {
            let release = plan.releases[index]
            guard let tier = catalog.tier(ofRelease: index) else {
                diagnostics.append(
                    .error(
                        .paidReleaseUncovered,
                        "buyers of paid release \(release.platform) \(release.displayName) are in no tier and would lose what they paid for",
                        at: origin(catalog, release: index),
                        hint: "Widen a tier's 'from'/'until' or 'platforms' to cover \(Timestamp.format(release.released)), or add a tier."))
                continue
            }
            diagnostics += takenAway(catalog, release: index, tier: tier)
            let dropped = catalog.ordered(Set(catalog.includes[index]).subtracting(tier.grants))
            if !dropped.isEmpty {
                let list = dropped.map { "'\($0)'" }.joined(separator: ", ")
                diagnostics.append(
                    .warning(
                        .legacyFeatureDropped,
                        "buyers of \(release.platform) \(release.displayName) paid for \(list), but tier '\(tier.id)' doesn't grant \(dropped.count == 1 ? "it" : "them")",
                        at: tier.origin.map { $0 / PlanKeys.Tier.grants },
                        hint:
                            "Add \(list) to the tier's 'grants' (one app took Themes away from paying users this way), unless a discount replaces free access on purpose."
                    ))
            }
        }
        // Releases covered by two tiers: only the first counts, which is rarely what was meant.
        for (position, tier) in plan.tiers.enumerated() {
            for laterPosition in plan.tiers.indices.dropFirst(position + 1) {
                let later = plan.tiers[laterPosition]
                let overlap = plan.releases.indices.filter { index in
                    let release = plan.releases[index]
                    let windows = catalog.windows(on: release.platform)
                    return [position, laterPosition].allSatisfy { candidate in
                        windows.contains { $0.tier == candidate && $0.contains(release.released) }
                    }
                }
                if let first = overlap.first {
                    diagnostics.append(
                        .error(
                            .tierOverlap,
                            "tiers '\(tier.id)' and '\(later.id)' both cover \(plan.releases[first].platform) \(plan.releases[first].displayName)\(overlap.count > 1 ? " and \(overlap.count - 1) more releases" : "")",
                            at: later.origin.map { $0 / PlanKeys.Tier.from },
                            hint: "Make the windows ('from' inclusive, 'until' exclusive) meet without overlapping."))
                }
            }
        }
        return diagnostics
    }

    /// Updates were free while the app was paid, so buyers of a paid release had, at the switch, every feature its
    /// free updates brought them. A tier whose written `grants` leave one out takes it away: an error, unless the
    /// tier's `takesAway` lists it (a paid upgrade they never got, say), and then a note, so `check` still says who
    /// loses what.
    private static func takenAway(_ catalog: PlanCatalog, release index: Int, tier: ResolvedTier) -> [Diagnostic] {
        guard let written = catalog.plan.tier(withID: tier.id), written.grants != nil else { return [] }
        let release = catalog.plan.releases[index]
        return catalog.hadAtSwitch[index].compactMap { feature in
            guard !tier.grants.contains(feature), let update = catalog.freeUpdate(bringing: feature, toBuyersOf: index) else { return nil }
            let acknowledged = written.takesAway.contains(feature)
            let message =
                "buyers of \(release.platform) \(release.displayName) have used '\(feature)' since the free update "
                + "\(catalog.plan.releases[update].displayName); tier '\(tier.id)' takes it away"
            let path = tier.origin.map { $0 / PlanKeys.Tier.grants }
            if acknowledged {
                return Diagnostic(
                    .note, code: .freeUpdateTakenAway, message + ", as its 'takesAway' says", at: path,
                    hint: "Keep it only if they never had it for free (a paid upgrade, a separate app); otherwise add it to 'grants'.")
            }
            return .error(
                .freeUpdateTakenAway, message, at: path,
                hint:
                    "Add '\(feature)' to the tier's 'grants' (or leave 'grants' out: a tier keeps what its buyers had at the switch); "
                    + "if they never had it for free, list it in the tier's 'takesAway' to say so.")
        }
    }

    private static func unobtainableFeatures(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        var sold = Set<String>()
        for product in plan.products where product.forSale { sold.formUnion(catalog.productFeatures[product.id] ?? []) }
        var free = Set<String>()
        for platform in plan.app.platforms { free.formUnion(catalog.freeFeatures(on: platform)) }
        var everGranted = Set(catalog.tiers.flatMap(\.grants)).union(free)
        for features in catalog.productFeatures.values { everGranted.formUnion(features) }
        var paidFeatures = Set<String>()
        for index in plan.releases.indices where plan.releases[index].model.isPaid { paidFeatures.formUnion(catalog.includes[index]) }

        var diagnostics: [Diagnostic] = []
        for feature in plan.features {
            let path = feature.origin ?? .root / PlanKeys.Root.features
            if paidFeatures.contains(feature.id) && !sold.contains(feature.id) && !free.contains(feature.id) {
                diagnostics.append(
                    .warning(
                        .paidFeatureUnobtainable, "'\(feature.id)' was part of the paid app, but no product for sale grants it and it isn't free",
                        at: path, hint: "New customers can never get it: add it to a product's 'grants', or to the free release's 'includes'."))
            } else if !everGranted.contains(feature.id) && !paidFeatures.contains(feature.id) {
                diagnostics.append(
                    .warning(
                        .featureNeverGranted, "no release, tier or product grants '\(feature.id)'", at: path,
                        hint: "Add it to a product's 'grants', or remove the feature."))
            }
        }
        return diagnostics
    }

    /// Trap 4: a tester's "1.0" is indistinguishable from a real buyer of build 1.
    private static func sandboxCollision(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        let sandboxValue = try! Version("1.0")
        var diagnostics: [Diagnostic] = []
        for platform in catalog.tracks.keys.sorted() {
            guard let first = catalog.tracks[platform]?.first.map({ plan.releases[$0] }), first.model.isPaid else { continue }
            let value = first.receiptVersion(platform.originalVersionMeaning)
            guard let value, value == sandboxValue, let index = catalog.tracks[platform]?.first else { continue }
            diagnostics.append(
                .warning(
                    .sandboxVersionCollision,
                    "the first paid \(platform) release has \(platform.originalVersionMeaning.displayName) \(value), the value the sandbox and TestFlight report for everyone",
                    at: origin(catalog, release: index) / (platform.originalVersionMeaning == .buildNumber ? "build" : "version"),
                    hint:
                        "A tester looks like a real early buyer; the generated code decides by environment (policies.nonProduction), never by the value."
                ))
        }
        return diagnostics
    }

    private static func futureCutoffs(_ catalog: PlanCatalog, now: Date) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for platform in catalog.tracks.keys.sorted() {
            for index in catalog.freeSwitches(on: platform) where catalog.plan.releases[index].released > now {
                let release = catalog.plan.releases[index]
                diagnostics.append(
                    .warning(
                        .cutoffInFuture,
                        "the first free \(platform) release, \(release.displayName), goes live \(Timestamp.format(release.released)), in the future",
                        at: origin(catalog, release: index) / PlanKeys.Release.released,
                        hint: "Fine while planning; set the real go-live moment (UTC) on launch day, since the date rule compares purchases with it.")
                )
            }
        }
        return diagnostics
    }

    /// The releases whose dates decide who keeps what, dated by something that only approximates a go-live:
    /// a commit or tag says when code was written or marked, an App Store Connect record when it was made.
    /// Each is earlier than the release as a rule, so every buyer in between would become a new customer.
    /// A planned go-live still to come is left to `cutoff-in-future`; once its moment has passed, it is as weak as the others.
    private static func decidingDates(_ catalog: PlanCatalog, now: Date) -> [Diagnostic] {
        let plan = catalog.plan
        var deciding: [Int: String] = [:]
        for platform in catalog.tracks.keys.sorted() {
            for index in catalog.freeSwitches(on: platform) { deciding[index] = "the first free release" }
            let bounds = Set(catalog.windows(on: platform).flatMap { [$0.from, $0.until] }.compactMap { $0 })
            for index in catalog.tracks[platform] ?? [] where deciding[index] == nil && bounds.contains(plan.releases[index].released) {
                deciding[index] = "a tier boundary"
            }
        }
        return deciding.keys.sorted().compactMap { index in
            let release = plan.releases[index]
            guard let source = release.releasedSource, !source.isEvidence, let role = deciding[index] else { return nil }
            if source == .planned && release.released > now { return nil }
            // Where the receipt's version decides the cohort, the date decides only a customer whose receipt has none.
            let byVersion = catalog.cutoffs[release.platform]?.usesVersionRule(under: plan.policies.cutoffRule) == true
            let who =
                byVersion
                ? "\(release.platform) buyers are decided by the version their receipt carries, so only one whose receipt has none and who "
                    + "paid between the two would be read as a new customer"
                : "buyers between the two would be read as new customers"
            return .warning(
                .weakReleaseDate,
                "\(role), \(release.platform) \(release.displayName), is dated by \(source.phrase) (\(Timestamp.format(release.released))), "
                    + "not by when it went live; \(who)",
                at: origin(catalog, release: index) / PlanKeys.Release.releasedSource,
                hint:
                    "Look up when \(release.displayName) went live (App Store Connect: the version's history, or the email saying it is ready for distribution), "
                    + "set 'released' to that moment in UTC and 'releasedSource' to \"appStore\"; or import a daily Summary Sales report to date it by its first sale."
            )
        }
    }

    /// Apple's page on selling one bundle id on several platforms as one purchase.
    public static let universalPurchasePage = "https://developer.apple.com/support/universal-purchase/"

    /// Trap 3: one App Store record for iOS and macOS mixes build numbers and marketing versions. And one bundle
    /// id on several platforms said not to be a universal purchase: a buyer on one platform is new on the others.
    private static func universalPurchase(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        guard plan.app.universalPurchase else {
            let platforms = Set(plan.app.platforms + plan.releases.map(\.platform))
            guard Platform.spansStores(platforms) else { return [] }
            let names = platforms.sorted().map(\.rawValue).joined(separator: ", ")
            return [
                .warning(
                    .universalPurchaseOff,
                    "\(plan.app.bundleID) ships on \(names) under one bundle id, but the plan says it is not a universal purchase: "
                        + "someone who paid on one platform would be a new customer on another",
                    at: .root / PlanKeys.Root.app / PlanKeys.App.universalPurchase,
                    hint:
                        "One bundle id on several platforms is one App Store record and one purchase (Apple's \"Offering a universal purchase\", "
                        + "\(universalPurchasePage)): set \"universalPurchase\": true, unless each platform really has its own App Store record "
                        + "and bundle id; then plan each app separately.")
            ]
        }
        let meanings = Set(catalog.tracks.keys.map(\.originalVersionMeaning))
        guard meanings.count > 1 else { return [] }
        return [
            .warning(
                .universalPurchaseMixed,
                "universal purchase across iOS and macOS: originalAppVersion is a build number for purchases first made on iOS and a marketing version for those made on macOS",
                at: .root / PlanKeys.Root.app / PlanKeys.App.universalPurchase,
                hint:
                    "The plan uses AppTransaction.originalPlatform where the OS reports it (iOS 18.4 / macOS 15.4) and the purchase date otherwise; keep release dates exact."
            )
        ]
    }

    /// What the plan's cutoff policy means on each platform where the version rule is unsound: an error when
    /// the policy forces the version rule, a warning when `automatic` falls back to the purchase date. The rule
    /// itself is `TrackCutoff.rule(under:)`, and the table `PlanCatalog.trackRules`.
    private static func cutoffRules(_ catalog: PlanCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for platform in catalog.tracks.keys.sorted() {
            guard let cutoff = catalog.cutoffs[platform], !cutoff.isVersionRuleSound else { continue }
            switch catalog.plan.policies.cutoffRule {
            case .date:
                continue
            case .version:
                diagnostics.append(
                    .error(
                        .versionRuleUnsound,
                        "policies.cutoffRule is \"version\", but on \(platform) \(cutoff.problems[0].message)",
                        at: .root / PlanKeys.Root.policies / PlanKeys.Policies.cutoffRule, hint: "Use \"automatic\" or \"date\"."))
            case .automatic:
                let problem = cutoff.problems[0]
                let more = cutoff.problems.count > 1 ? " (and \(cutoff.problems.count - 1) more)" : ""
                diagnostics.append(
                    .warning(
                        .versionRuleAmbiguous,
                        "\(platform): \(problem.message)\(more), so purchases are dated instead: the cohort follows originalPurchaseDate",
                        at: problem.releases.last.map { origin(catalog, release: $0) } ?? .root / PlanKeys.Root.releases,
                        hint: "Keep each release's 'released' exact (UTC); this is expected when build numbers restart for each version."))
            }
        }
        return diagnostics
    }

    /// A legacy price must be chargeable, not only shown (Apple, "Implementing promotional offers in your app";
    /// non-consumables have no offers). Each discount names the
    /// mechanism that makes the App Store charge it, and that mechanism must fit the product.
    static func legacyPrices(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        var diagnostics: [Diagnostic] = []
        for (tierIndex, tier) in plan.tiers.enumerated() {
            let tierPath = tier.origin ?? (.root / PlanKeys.Root.tiers / tierIndex)
            // Buyers of a paid release may never have subscribed: no promotional offer reaches them.
            let boughtThePaidApp = catalog.tier(withID: tier.id)?.releases.contains { plan.releases[$0].model.isPaid } ?? true
            for (index, discount) in tier.discounts.enumerated() {
                let path = tierPath / PlanKeys.Tier.discounts / index
                guard let regular = plan.product(withID: discount.product) else { continue }  // PlanValidator reports it
                let price = discount.price
                switch discount.charge {
                case nil:
                    let fix =
                        regular.kind == .autoRenewable
                        ? (boughtThePaidApp
                            ? Self.legacySubscriptionFix(regular, price: price, tier: tier.id)
                            : "Add \"\(PlanKeys.Discount.promotionalOffer)\": \"<offer id>\": a promotional offer on '\(regular.id)' at \(price), set up in App Store Connect.")
                        : "Add \"\(PlanKeys.Discount.legacyProduct)\": \"<product id>\": a separate product at \(price), sold only to tier '\(tier.id)', that grants what '\(regular.id)' grants."
                    diagnostics.append(
                        .error(
                            .discountDisplayOnly,
                            "display-only: nothing makes the App Store charge \(price) for '\(regular.id)' (regularly \(regular.price)), so a paywall built on it shows a price the App Store won't charge",
                            at: path,
                            hint: fix
                                + " Use \(PlanKeys.Discount.legacyProduct) for non-consumables and for paid-app buyers' subscriptions;"
                                + " \(PlanKeys.Discount.promotionalOffer) fits only a tier that was already subscribed."
                        ))
                case .promotionalOffer:
                    if regular.kind == .autoRenewable, boughtThePaidApp {
                        diagnostics.append(
                            .error(
                                .promotionalOfferIneligible,
                                "tier '\(tier.id)' bought the paid app and may never have subscribed, but the App Store sells a promotional offer only to existing or former subscribers of the group (App Store Connect API, SubscriptionPromotionalOffer): a paid-app buyer who never subscribed gets Product.PurchaseError.ineligibleForOffer and can't buy '\(regular.id)' at \(price), nor can App Review's fresh sandbox account",
                                at: path / PlanKeys.Discount.promotionalOffer,
                                hint: Self.legacySubscriptionFix(regular, price: price, tier: tier.id)))
                    }
                    if regular.kind != .autoRenewable {
                        diagnostics.append(
                            Self.offerNotSubscription(regular, "promotional", key: .promotionalOffer, price: price, tier: tier.id, at: path))
                    }
                case .introductoryOffer:
                    if regular.kind != .autoRenewable {
                        diagnostics.append(
                            Self.offerNotSubscription(regular, "introductory", key: .introductoryOffer, price: price, tier: tier.id, at: path))
                    } else {
                        diagnostics.append(Self.introductoryOfferForEveryone(regular, price: price, tier: tier.id, at: path))
                    }
                case .legacyProduct(let id):
                    diagnostics += legacyProduct(
                        id, for: regular, discount: discount, tier: tier, at: path / PlanKeys.Discount.legacyProduct, catalog)
                }
            }
        }
        return diagnostics
    }

    /// A legacy price charged as a subscription's introductory offer: refused, because the App Store gives that offer
    /// to every customer new to the group, not only to the tier.
    ///
    /// A signed eligibility (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`) can withhold it per
    /// purchase, but only from purchases that carry one: a server that is down, an app version without the layer, a
    /// purchase started on the App Store page before the app handles it, each leaves a new subscriber eligible
    /// ("Implementing introductory offers in your app"; `Product.SubscriptionInfo.isEligibleForIntroOffer`). The paywall
    /// would show the regular price and charge the legacy one. A product of the tier's own, in a group of its own, is
    /// sold only to whom the app offers it.
    static func introductoryOfferForEveryone(_ regular: Product, price: Price, tier: String, at path: JSONPath) -> Diagnostic {
        let existing = regular.subscription?.introductoryOffer.map { " (and it already has one: \($0.spoken))" } ?? ""
        return .error(
            .introductoryOfferForEveryone,
            "tier '\(tier)' would pay \(price) as '\(regular.id)''s introductory offer\(existing), but the App Store gives a subscription's introductory offer to every customer who never subscribed in its group (\"Implementing introductory offers in your app\"): a signed eligibility can withhold it only from purchases that carry one, so new subscribers buying without it (the server unreachable, an older app version, a purchase begun on the App Store page) would be charged \(price) while the paywall shows the regular price",
            at: path / PlanKeys.Discount.introductoryOffer,
            hint:
                "Sell tier '\(tier)' a separate legacy subscription: a product such as '\(regular.id).legacy' (autoRenewable, at \(price), granting what '\(regular.id)' grants) in a subscription group of its own, named by \"\(PlanKeys.Discount.legacyProduct)\"; '\(regular.id)' keeps its introductory offer for new subscribers. A promotional offer (\"\(PlanKeys.Discount.promotionalOffer)\") fits a tier that was already subscribed."
        )
    }

    /// An offer (`kind`: promotional or introductory) named for a product that isn't an auto-renewable subscription.
    private static func offerNotSubscription(
        _ regular: Product, _ kind: String, key: PlanKeys.Discount, price: Price, tier: String, at path: JSONPath
    ) -> Diagnostic {
        .error(
            .offerNotSubscription,
            "'\(regular.id)' is \(regular.kind.rawValue), and \(kind) offers exist only for auto-renewable subscriptions",
            at: path / key,
            hint: "Replace it with \"\(PlanKeys.Discount.legacyProduct)\": a separate product at \(price), sold only to tier '\(tier)'.")
    }

    private static func legacyProduct(
        _ id: String, for regular: Product, discount: Discount, tier: LegacyTier, at path: JSONPath, _ catalog: PlanCatalog
    ) -> [Diagnostic] {
        let plan = catalog.plan
        guard id != regular.id else {
            return [
                .error(
                    .legacyProductIsRegular,
                    "the legacy product is '\(id)' itself, which everyone buys at \(regular.price); the App Store charges one price per product",
                    at: path, hint: "Create a separate product, such as '\(regular.id).legacy', at \(discount.price), and name it here.")
            ]
        }
        guard let legacy = plan.product(withID: id) else { return [] }  // PlanValidator reports it, with "did you mean"
        let productPath = legacy.origin ?? (.root / PlanKeys.Root.products)
        var diagnostics: [Diagnostic] = []
        if legacy.price != discount.price {
            diagnostics.append(
                .error(
                    .legacyProductPrice,
                    "legacy product '\(id)' costs \(legacy.price), but the discount promises \(discount.price); the App Store charges the product's price",
                    at: path,
                    hint:
                        "Set the product's 'price' to \"\(discount.price)\" (at \(productPath / PlanKeys.Product.price)), or the discount's to \"\(legacy.price)\"."
                )
            )
        }
        let missing = catalog.ordered((catalog.productFeatures[regular.id] ?? []).subtracting(catalog.productFeatures[id] ?? []))
        if !missing.isEmpty {
            let list = missing.map { "'\($0)'" }.joined(separator: ", ")
            diagnostics.append(
                .error(
                    .legacyProductGrantsLess,
                    "legacy product '\(id)' doesn't grant \(list), which '\(regular.id)' grants, so tier '\(tier.id)' would pay for less",
                    at: path, hint: "Add \(list) to its 'grants' (at \(productPath / PlanKeys.Product.grants)), or \"contains\": [\"\(regular.id)\"]."
                ))
        }
        if !legacy.forSale {
            diagnostics.append(
                .error(
                    .legacyProductNotForSale, "legacy product '\(id)' has \"forSale\": false, so tier '\(tier.id)' can't buy it",
                    at: path,
                    hint: "Remove \"forSale\": false (at \(productPath / PlanKeys.Product.forSale)); migrate offers it to tier '\(tier.id)' only."))
        }
        if legacy.kind == .autoRenewable, let group = legacy.subscription?.group,
            let shared = plan.products.first(where: { $0.id != id && $0.kind == .autoRenewable && $0.subscription?.group == group })
        {
            diagnostics.append(
                .warning(
                    .legacyProductSubscription,
                    "legacy subscription '\(id)' shares the group '\(group)' with '\(shared.id)': a subscriber can switch to any plan of the group from the App Store's subscription settings, so it isn't sold only to tier '\(tier.id)'",
                    at: path,
                    hint:
                        "Put '\(id)' in a subscription group of its own, such as \"\(group) (\(tier.id))\" (at \(productPath / PlanKeys.Product.subscription))."
                )
            )
        }
        return diagnostics
    }

    /// What charges a legacy subscription price to customers who may never have subscribed.
    static func legacySubscriptionFix(_ regular: Product, price: Price, tier: String) -> String {
        let group = regular.subscription?.group ?? "its group"
        return
            "Sell tier '\(tier)' a separate legacy subscription: a product such as '\(regular.id).legacy' (autoRenewable, at \(price), granting what '\(regular.id)' grants) in a subscription group of its own (such as \"\(group) (\(tier))\"), named by \"\(PlanKeys.Discount.legacyProduct)\". A promotional offer fits a tier that was already subscribed."
    }

    /// The tiers the policies name, against the derived tiers when the plan declares none (declared ones are
    /// checked as the plan is read).
    private static func policyReferences(_ catalog: PlanCatalog) -> [Diagnostic] {
        guard catalog.plan.tiers.isEmpty else { return [] }
        let policies = PlanKeys.Root.policies
        var named: [(id: String, path: JSONPath)] = []
        if case .tier(let id) = catalog.plan.policies.nonProduction {
            named.append((id, .root / policies / PlanKeys.Policies.nonProduction / PlanKeys.NonProduction.tier))
        }
        if let grant = catalog.plan.policies.provisionalGrant {
            named.append((grant.tier, .root / policies / PlanKeys.Policies.provisionalGrant / PlanKeys.ProvisionalGrant.tier))
        }
        let ids = catalog.tiers.map(\.id)
        return named.filter { catalog.tier(withID: $0.id) == nil }.map { id, path in
            let hint =
                Suggestions.closest(to: id, in: ids).map { "Did you mean '\($0)'?" }
                ?? "The derived tiers are: \(ids.joined(separator: ", "))."
            return .error(.unknownReference, "unknown tier '\(id)'", at: path, hint: hint)
        }
    }

    /// Generated code names each product and feature from its id alone; two ids with one name
    /// can't both be cases, and numbering them would rename one when the other is removed.
    private static func swiftNames(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        var diagnostics: [Diagnostic] = []
        for collision in SwiftIdentifier.productCases(plan).collisions {
            let index = plan.products.firstIndex { $0.id == collision.second }!
            diagnostics.append(
                .error(
                    .swiftNameCollision,
                    "products '\(collision.first)' and '\(collision.second)' would both be ProductID.\(collision.name) in generated Swift",
                    at: (plan.products[index].origin ?? .root / PlanKeys.Root.products / index) / PlanKeys.Product.id,
                    hint:
                        "Rename one of the ids; a product's Swift name comes from its id alone (less the bundle id '\(plan.app.bundleID).'), so it never changes when other products do."
                ))
        }
        for collision in SwiftIdentifier.featureCases(plan).collisions {
            let index = plan.features.firstIndex { $0.id == collision.second }!
            diagnostics.append(
                .error(
                    .swiftNameCollision,
                    "features '\(collision.first)' and '\(collision.second)' would both be Feature.\(collision.name) in generated Swift",
                    at: (plan.features[index].origin ?? .root / PlanKeys.Root.features / index) / PlanKeys.Feature.id,
                    hint: "Rename one of the ids; a feature's Swift name comes from its id alone, so it never changes when other features do."))
        }
        return diagnostics
    }
}
