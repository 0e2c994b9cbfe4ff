import Foundation
import Testing

@_spi(Generated) @testable import FreemiumStoreKit

/// The entitlement and upsell rules, each pinned at its boundary over one small catalog, without goldens: the app's
/// generated tables and `migrate`'s own commands both run these rules, so a bug here must fail here.
@Suite("Catalog rules", .timeLimit(.minutes(20)))
struct CatalogRulesTests {
    enum Product: String, CaseIterable, Sendable {
        case lifetime, monthly, yearly, otherMonthly, pass, trial, bundle, modeA, modeB, tip, yearlyLegacy, addOn
    }
    enum Feature: String, Sendable { case pro, sync, modeA, modeB, extra }
    enum Tier: String, Sendable { case early }
    enum Platform: String, Sendable { case iOS }

    typealias Rules = CatalogRules<Product, Feature, Tier, Platform>

    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let day: TimeInterval = 86_400

    static func rules(familySharingEntitles: Bool = true, legacy: Rules.LegacyPrice.Charge? = nil) -> Rules {
        var legacyPrices: [Tier: [Product: Rules.LegacyPrice]] = [:]
        if let legacy { legacyPrices[.early] = [.yearly: Rules.LegacyPrice("9.99", 99_900, legacy)] }
        return Rules(
            tierFeatures: [.early: [.pro]],
            productGrants: [
                .lifetime: [.pro, .sync], .monthly: [.pro, .sync], .yearly: [.pro, .sync], .otherMonthly: [.pro],
                .pass: [.pro], .trial: [.pro], .bundle: [], .modeA: [.modeA], .modeB: [.modeB], .tip: [],
                .yearlyLegacy: [.pro, .sync], .addOn: [.extra],
            ],
            productContents: [.bundle: [.modeA, .modeB]],
            freeFeatures: [.iOS: []], consumables: [.tip],
            subscriptionGroups: [.monthly: "pro", .yearly: "pro", .otherMonthly: "other", .yearlyLegacy: "pro"],
            nonRenewing: [.pass], trials: [.trial: DateComponents(day: 14)], passes: [.pass: DateComponents(month: 1)],
            familyShareable: [.lifetime, .monthly, .yearly], familySharingEntitles: familySharingEntitles,
            forSale: [.lifetime, .monthly, .yearly, .otherMonthly, .pass, .trial, .bundle, .modeA, .modeB, .tip, .yearlyLegacy, .addOn],
            prices: [
                .lifetime: 499_900, .monthly: 29_900, .yearly: 199_900, .otherMonthly: 19_900, .pass: 49_900, .trial: 0,
                .bundle: 59_900, .modeA: 29_900, .modeB: 39_900, .tip: 9_900, .yearlyLegacy: 99_900, .addOn: 9_900,
            ],
            requirements: [.addOn: [.modeA]],
            legacyPrices: legacyPrices, legacyOnly: [.yearlyLegacy])
    }

    static func owned(
        _ product: Product, shared: Bool = false, revoked: Bool = false, expired: Bool = false, verified: Bool = true,
        bought: Date? = start
    ) -> OwnedProduct {
        OwnedProduct(
            productID: product.rawValue, ownership: shared ? .familyShared : .purchased, isRevoked: revoked, isExpired: expired,
            isVerified: verified, purchaseDate: bought)
    }

    // MARK: - Charging twice

    @Test(
        "Each pair's rule, stated once: for good counts against all; a period doesn't count against for good nor its own group",
        arguments: [
            (Product.lifetime, PlanGrant<Product, Tier>.product(.monthly), false),
            (.yearly, .product(.monthly), false),
            (.otherMonthly, .product(.monthly), true),
            (.pass, .product(.monthly), true),
            (.monthly, .product(.lifetime), true),
            (.monthly, .product(.pass), true),
            (.lifetime, .product(.pass), false),
            (.monthly, .tier(.early), true),
            (.modeA, .free, true),
            (.lifetime, .bundle(.monthly, via: .monthly), false),
        ])
    func chargesTwice(product: Product, grant: PlanGrant<Product, Tier>, expected: Bool) {
        #expect(Self.rules().chargesTwice(product, for: grant) == expected)
    }

    // MARK: - What entitles

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var owned: OwnedProduct
        var kept: (age: Int?, limit: Int?)?
        var now: Date?
        var familySharingEntitles = true
        var reason: IgnoreReason?
        /// Entitles though family-shared and not marked shareable: said, so the plan can be corrected.
        var notedUnshareable = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a consumable never entitles", owned: owned(.tip), now: start, reason: .consumable),
        Case(name: "refunded", owned: owned(.lifetime, revoked: true), now: start, reason: .revoked),
        Case(name: "expired", owned: owned(.monthly, expired: true), now: start, reason: .expired),
        Case(name: "a trial a second before it ends", owned: owned(.trial), now: start + 14 * day - 1),
        Case(name: "a trial at the instant it ends", owned: owned(.trial), now: start + 14 * day, reason: .trialEnded(start + 14 * day)),
        Case(name: "an unverified trial", owned: owned(.trial, verified: false), kept: (0, 30), now: start, reason: .trialUnverified),
        Case(name: "a trial without a purchase date", owned: owned(.trial, bought: nil), now: start, reason: .trialStartUnknown),
        Case(name: "a trial without a trusted now", owned: owned(.trial), now: nil, reason: .trialTimeUnknown),
        Case(name: "a pass a second before it ends", owned: owned(.pass), now: start + 30 * day - 1),
        Case(name: "a pass at the instant it ends", owned: owned(.pass), now: start + 30 * day, reason: .passEnded(start + 30 * day)),
        Case(name: "a pass without a purchase date is kept", owned: owned(.pass, bought: nil), now: start + 400 * day),
        Case(name: "a pass without a trusted now is kept", owned: owned(.pass), now: nil),
        Case(name: "family-shared, as the plan allows", owned: owned(.lifetime, shared: true), now: start),
        Case(
            name: "family-shared, though the plan marks it not shareable: it entitles, and that is noted",
            owned: owned(.otherMonthly, shared: true), now: start, notedUnshareable: true),
        Case(
            name: "family-shared, the plan ignoring it", owned: owned(.lifetime, shared: true), now: start, familySharingEntitles: false,
            reason: .familySharingIgnored),
        Case(name: "unverified, kept on the last day allowed", owned: owned(.lifetime, verified: false), kept: (30, 30), now: start),
        Case(
            name: "unverified, a day past what is kept", owned: owned(.lifetime, verified: false), kept: (31, 30), now: start,
            reason: .unverified(limit: 30)),
        Case(
            name: "unverified, the policy denying", owned: owned(.lifetime, verified: false), kept: (0, nil), now: start,
            reason: .unverified(limit: nil)),
        Case(
            name: "unverified, the original verified", owned: owned(.lifetime, verified: false), kept: nil, now: start,
            reason: .unverified(limit: nil)),
        Case(
            name: "a product not in the plan", owned: OwnedProduct(productID: "com.example.unknown"), now: start, reason: .unknownProduct),
    ]

    @Test("What entitles and what doesn't, each at its boundary", arguments: cases)
    func entitles(_ test: Case) {
        let rules = Self.rules(familySharingEntitles: test.familySharingEntitles)
        let resolution = rules.resolve(tier: nil, freeOn: .iOS, purchases: [test.owned], kept: test.kept, now: test.now)
        #expect(resolution.ignored.map(\.reason) == (test.reason.map { [$0] } ?? []))
        #expect(resolution.entitlements.activeProducts.isEmpty == (test.reason != nil))
        #expect(resolution.notes.contains { $0.note == .sharedThoughNotShareable } == test.notedUnshareable)
    }

    @Test("A tier's features and a bundle's contents are granted with their reasons; a family member's are only shared")
    func grants() {
        let rules = Self.rules()
        let resolved = rules.resolve(
            tier: .early, freeOn: .iOS, purchases: [Self.owned(.bundle), Self.owned(.monthly, shared: true)], kept: nil, now: Self.start
        ).entitlements
        #expect(resolved.features[.pro] == [.tier(.early), .product(.monthly)])
        #expect(resolved.features[.modeA] == [.bundle(.bundle, via: .modeA)])
        #expect(resolved.familySharedOnly == [.monthly])
    }

    @Test("A trial once started is taken, running or ended; one refunded is not")
    func takenTrials() {
        let rules = Self.rules()
        for (owned, taken) in [(Self.owned(.trial), true), (Self.owned(.trial, expired: true), true), (Self.owned(.trial, revoked: true), false)] {
            let resolved = rules.resolve(tier: nil, freeOn: .iOS, purchases: [owned], kept: nil, now: Self.start + 100 * Self.day)
            #expect(resolved.entitlements.takenTrials.contains(.trial) == taken)
            let upsell = rules.upsell(for: resolved.entitlements, tier: nil, originalPurchaseUnknown: false)
            #expect((upsell.withheld[.trial] == .trialTaken) == taken)
        }
    }

    // MARK: - Subscription periods

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T00:00:00Z")! }

    /// Each period App Store Connect offers, a start where the calendar must clamp to a shorter month, and the end and
    /// whole days it must give.
    static let periods: [(period: String, from: String, until: String, days: Int)] = [
        ("P1W", "2024-02-26", "2024-03-04", 7), ("P1M", "2024-01-31", "2024-02-29", 30), ("P2M", "2023-12-31", "2024-02-29", 60),
        ("P3M", "2023-11-30", "2024-02-29", 91), ("P6M", "2024-08-31", "2025-02-28", 182), ("P1Y", "2024-02-29", "2025-02-28", 365),
    ]

    @Test(
        "Each renewal period as the calendar adds it, and in whole days its average Gregorian length",
        arguments: periods.map { ($0.period, $0.from, $0.until, $0.days) })
    func renewalPeriod(period: String, from: String, until: String, days: Int) throws {
        #expect(Set(SubscriptionPeriods.lengths.keys) == Set(Self.periods.map(\.period)))
        let length = try #require(SubscriptionPeriods.lengths[period])
        #expect(Rules.end(of: length.calendar, from: Self.date(from)) == Self.date(until))
        // A Gregorian year is 365.2425 days on average: a month is a twelfth of it, rounded down to whole days.
        let months = Double((length.calendar.year ?? 0) * 12 + (length.calendar.month ?? 0))
        #expect(length.days == Int((months * 365.2425 / 12).rounded(.down)) + (length.calendar.day ?? 0))
        #expect(length.days == days)
    }

    // MARK: - What is offered

    static func upsell(
        _ owned: [OwnedProduct], tier: Tier? = nil, unknown: Bool = false, legacy: Rules.LegacyPrice.Charge? = nil, now: Date = start
    ) -> PlanUpsell<Product, Feature> {
        let rules = Self.rules(legacy: legacy)
        let entitlements = rules.resolve(tier: tier, freeOn: .iOS, purchases: owned, kept: nil, now: now).entitlements
        return rules.upsell(for: entitlements, tier: tier, originalPurchaseUnknown: unknown)
    }

    @Test("A bundle overlapping what is owned is withheld when what it adds is sold alone; the rest is offered cheapest first")
    func bundleOverlap() {
        let upsell = Self.upsell([Self.owned(.modeA)])
        #expect(upsell.withheld[.bundle] == .wouldChargeTwice(overlap: [.modeA], soldAloneAs: [.modeB]))
        #expect(upsell.offers.map(\.product).contains(.modeB))
        #expect(!upsell.offers.map(\.product).contains(.modeA))
        let prices = upsell.offers.map { Self.rules().prices[$0.product] ?? 0 }
        #expect(prices == prices.sorted())
    }

    @Test("An add-on is offered only with what it requires")
    func requirements() {
        #expect(Self.upsell([]).withheld[.addOn] == .requires([.modeA]))
        #expect(Self.upsell([Self.owned(.modeA)]).offers.contains { $0.product == .addOn })
    }

    @Test("A subscriber: another plan of the group adds nothing and is a switch; Lifetime says the subscription keeps renewing")
    func subscriber() {
        let upsell = Self.upsell([Self.owned(.monthly)])
        #expect(upsell.withheld[.yearly] == .switchAddsNothing(from: .monthly))
        #expect(upsell.offers.first { $0.product == .lifetime }?.keepsRenewing == [.monthly])
        #expect(upsell.withheld[.otherMonthly] == .addsNothing)
    }

    @Test("A family member's shared subscription is never switched from nor to be cancelled")
    func familyMember() {
        let upsell = Self.upsell([Self.owned(.monthly, shared: true)])
        #expect(upsell.withheld[.yearly] == .addsNothing)
        #expect(upsell.offers.first { $0.product == .lifetime }?.keepsRenewing == [])
    }

    @Test("During a trial the unlock is offered: what a trial lends is not owned")
    func duringTrial() {
        let offered = Self.upsell([Self.owned(.trial)], now: Self.start + Self.day).offers.map(\.product)
        // Lifetime adds more than the trial lends; the other plan grants only what the trial lends, and is still sold.
        #expect(offered.contains(.lifetime))
        #expect(offered.contains(.otherMonthly))
    }

    @Test("Unknown is not new: only what a tier could own is withheld while the original purchase can't be verified")
    func originalPurchaseUnknown() {
        let upsell = Self.upsell([], unknown: true)
        #expect(upsell.withheld[.lifetime] == .originalPurchaseUnknown(tierMayOwn: [.pro]))
        #expect(upsell.offers.contains { $0.product == .modeA })
    }

    @Test(
        "A tier's legacy price: how it is charged, and a legacy product sold only to its tier in place of the regular one",
        arguments: [
            (Rules.LegacyPrice.Charge.promotionalOffer(id: "legacy"), PlanLegacyCharge<Product>?.some(.promotionalOffer(id: "legacy"))),
            (.introductoryOffer, .introductoryOffer),
            (.displayOnly, nil),
            (.legacyProduct(.yearlyLegacy), .legacyProduct(.yearlyLegacy)),
        ])
    func legacyPrice(charge: Rules.LegacyPrice.Charge, expected: PlanLegacyCharge<Product>?) {
        let tierOffers = Self.upsell([], tier: .early, legacy: charge).offers
        let bought: Product = expected == .legacyProduct(.yearlyLegacy) ? .yearlyLegacy : .yearly
        let offer = tierOffers.first { $0.product == bought }
        #expect(offer?.legacyPrice == "9.99")
        #expect(offer?.legacyCharge == expected)
        // A legacy product says which regular product it is bought in place of; nothing else does.
        #expect(offer?.inPlaceOf == (bought == .yearlyLegacy ? .yearly : nil))
        #expect(!Self.upsell([], legacy: charge).offers.contains { $0.product == .yearlyLegacy })
        #expect(!Self.upsell([], legacy: charge).offers.contains { $0.legacyPrice != nil })
    }

    @Test("Everything unlocked: Restore can be hidden; a Volume Purchase install is offered nothing")
    func restoreAndVolume() {
        let rules = Self.rules()
        let everything = rules.resolve(
            tier: nil, freeOn: .iOS, purchases: [Self.owned(.lifetime), Self.owned(.bundle), Self.owned(.addOn)], kept: nil, now: Self.start
        ).entitlements
        #expect(!rules.upsell(for: everything, tier: nil, originalPurchaseUnknown: false).showsRestore)
        let volume = rules.upsell(
            for: PlanEntitlements(features: [:], activeProducts: []), tier: nil, originalPurchaseUnknown: false, isVolumePurchase: true)
        #expect(volume.offers.isEmpty && volume.showsRestore)
    }
}
