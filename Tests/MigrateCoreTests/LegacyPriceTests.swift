import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// A plan with a subscription and a non-consumable, two paid eras, and a tier whose discounts each test sets.
private func plan(discounts: [Discount], extraProducts: [Product] = []) -> MigrationPlan {
    MigrationPlan(
        app: AppInfo(name: "Demo", bundleID: "com.example.demo", platforms: [.iOS]),
        features: features("pro", "extra"),
        releases: [
            release("1.0", build: "10", "2019-01-01T00:00:00Z", paid: "2.99", includes: ["pro"]),
            release("1.5", build: "15", "2019-06-01T00:00:00Z", paid: "2.99"),
            release("2.0", build: "20", "2020-01-01T00:00:00Z", includes: []),
        ],
        products: [
            product("com.example.demo.yearly", "19.99", grants: ["pro", "extra"], kind: .autoRenewable),
            product("com.example.demo.pro", "9.99", grants: ["pro", "extra"]),
            product("com.example.demo.pro.legacy", "4.99", contains: ["com.example.demo.pro"]),
        ] + extraProducts,
        tiers: [
            LegacyTier(
                id: "early", name: "Early", until: date("2019-06-01T00:00:00Z"), grants: ["pro"], discounts: discounts, origin: .root / "tiers" / 0),
            LegacyTier(
                id: "late", name: "Late", from: date("2019-06-01T00:00:00Z"), until: date("2020-01-01T00:00:00Z"), grants: ["pro"],
                origin: .root / "tiers" / 1),
        ])
}

private func price(_ text: String) -> Price { try! Price(text) }
private let offer = Discount(product: "com.example.demo.yearly", price: price("9.99"), charge: .promotionalOffer(id: "demo.legacy.yearly"))
private let legacy = Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .legacyProduct("com.example.demo.pro.legacy"))

private let trialSubscription: Product = {
    var product = product("com.example.demo.trial", "19.99", grants: ["pro", "extra"], kind: .autoRenewable)
    product.subscription?.introductoryOffer = IntroductoryOffer(paymentMode: .freeTrial, period: "P1W")
    return product
}()

@Suite("Legacy prices must be chargeable", .timeLimit(.minutes(20)))
struct LegacyPriceTests {
    struct CheckCase: Sendable, CustomTestStringConvertible {
        var name: String
        var discount: Discount
        var extraProducts: [Product] = []
        var code: String
        var path: String
        var message: String
        var hint: String

        var testDescription: String { name }
    }

    static let checkCases: [CheckCase] = [
        CheckCase(
            name: "display-only subscription price", discount: Discount(product: "com.example.demo.yearly", price: price("9.99")),
            code: "discount-display-only", path: "tiers[0].discounts[0]",
            message: "display-only: nothing makes the App Store charge 9.99 for 'com.example.demo.yearly' (regularly 19.99)",
            hint: "in a subscription group of its own"),
        CheckCase(
            name: "promotional offer for paid-app buyers", discount: offer, code: "promotional-offer-ineligible",
            path: "tiers[0].discounts[0].promotionalOffer",
            message: "tier 'early' bought the paid app and may never have subscribed",
            hint: "a separate legacy subscription: a product such as 'com.example.demo.yearly.legacy'"),
        CheckCase(
            name: "display-only non-consumable price", discount: Discount(product: "com.example.demo.pro", price: price("4.99")),
            code: "discount-display-only", path: "tiers[0].discounts[0]", message: "display-only: nothing makes the App Store charge 4.99",
            hint: "Add \"legacyProduct\""),
        CheckCase(
            name: "promotional offer on a non-consumable",
            discount: Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .promotionalOffer(id: "nope")),
            code: "offer-not-subscription", path: "tiers[0].discounts[0].promotionalOffer",
            message: "'com.example.demo.pro' is nonConsumable, and promotional offers exist only for auto-renewable subscriptions",
            hint: "Replace it with \"legacyProduct\""),
        CheckCase(
            name: "introductory offer on a non-consumable",
            discount: Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .introductoryOffer),
            code: "offer-not-subscription", path: "tiers[0].discounts[0].introductoryOffer",
            message: "'com.example.demo.pro' is nonConsumable, and introductory offers exist only for auto-renewable subscriptions",
            hint: "Replace it with \"legacyProduct\""),
        CheckCase(
            name: "introductory offer on a subscription whose introductory offer is its free trial",
            discount: Discount(product: "com.example.demo.trial", price: price("9.99"), charge: .introductoryOffer),
            extraProducts: [trialSubscription],
            code: "introductory-offer-for-everyone", path: "tiers[0].discounts[0].introductoryOffer",
            message: "as 'com.example.demo.trial''s introductory offer (and it already has one: a free trial of 1 week)",
            hint: "a separate legacy subscription"),
        CheckCase(
            name: "legacy product is the regular product",
            discount: Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .legacyProduct("com.example.demo.pro")),
            code: "legacy-product-is-regular", path: "tiers[0].discounts[0].legacyProduct",
            message: "the legacy product is 'com.example.demo.pro' itself", hint: "Create a separate product, such as 'com.example.demo.pro.legacy'"),
        CheckCase(
            name: "legacy product at another price",
            discount: Discount(product: "com.example.demo.pro", price: price("3.99"), charge: .legacyProduct("com.example.demo.pro.legacy")),
            code: "legacy-product-price", path: "tiers[0].discounts[0].legacyProduct",
            message: "legacy product 'com.example.demo.pro.legacy' costs 4.99, but the discount promises 3.99",
            hint: "Set the product's 'price' to \"3.99\""),
        CheckCase(
            name: "legacy product grants less",
            discount: Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .legacyProduct("com.example.demo.pro.lite")),
            extraProducts: [product("com.example.demo.pro.lite", "4.99", grants: ["pro"])],
            code: "legacy-product-grants-less", path: "tiers[0].discounts[0].legacyProduct",
            message: "legacy product 'com.example.demo.pro.lite' doesn't grant 'extra', which 'com.example.demo.pro' grants",
            hint: "Add 'extra' to its 'grants'"),
        CheckCase(
            name: "legacy product not for sale",
            discount: Discount(product: "com.example.demo.pro", price: price("4.99"), charge: .legacyProduct("com.example.demo.pro.retired")),
            extraProducts: [product("com.example.demo.pro.retired", "4.99", grants: ["pro", "extra"], forSale: false)],
            code: "legacy-product-not-for-sale", path: "tiers[0].discounts[0].legacyProduct",
            message: "legacy product 'com.example.demo.pro.retired' has \"forSale\": false", hint: "Remove \"forSale\": false"),
    ]

    @Test("check names each unchargeable legacy price, its place and its fix", arguments: checkCases)
    func checkErrors(_ input: CheckCase) throws {
        let report = PlanChecker.check(plan(discounts: [input.discount], extraProducts: input.extraProducts), now: date("2026-01-01T00:00:00Z"))
        let match = report.diagnostics.first { $0.code.rawValue == input.code && $0.path?.description == input.path }
        let diagnostic = try #require(
            match, "no \(input.code) at \(input.path); got \(report.diagnostics.map { "\($0.code) \($0.path?.description ?? "")" })")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains(input.message), "\(diagnostic.message)")
        #expect(diagnostic.hint?.contains(input.hint) == true, "\(diagnostic.hint ?? "no hint")")
    }

    @Test("A legacy price charged as an introductory offer is refused: the App Store gives that offer to every new subscriber")
    func introductoryOfferForPaidAppBuyers() throws {
        let plan = try examplePlan("Tests/Fixtures/plans/introductory-offer-paid-era.json")
        #expect(plan.tiers[0].discounts.map(\.charge) == [.introductoryOffer])
        let report = PlanChecker.check(plan, now: date("2026-01-01T00:00:00Z"))
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.introductoryOfferForEveryone], "\(report.diagnostics.map(\.message))")
        let error = try #require(errors.first)
        #expect(error.message.contains("every customer who never subscribed in its group"), "\(error.message)")
        #expect(error.hint?.contains("\"legacyProduct\"") == true && error.hint?.contains("introductoryOffer") == false, "\(error.hint ?? "")")
    }

    @Test("A promotional offer passes for a tier of the free era, whose customers could have subscribed")
    func promotionalOfferForSubscribers() throws {
        let plan = try examplePlan("Tests/Fixtures/plans/promotional-offer-free-era.json")
        let report = PlanChecker.check(plan, now: date("2026-01-01T00:00:00Z"))
        #expect(!report.diagnostics.contains { $0.code == .promotionalOfferIneligible }, "\(report.diagnostics.map(\.message))")
        #expect(!report.diagnostics.contains { $0.severity == .error })
    }

    @Test("A legacy subscription sharing the regular subscribers' group is a warning; a group of its own passes")
    func legacySubscriptionGroup() throws {
        func legacyYearly(group: String) -> Product {
            Product(
                id: "com.example.demo.yearly.legacy", name: "Legacy", kind: .autoRenewable, price: price("9.99"), grants: ["pro", "extra"],
                subscription: SubscriptionInfo(group: group, level: 1, period: "P1Y"))
        }
        let discount = Discount(product: "com.example.demo.yearly", price: price("9.99"), charge: .legacyProduct("com.example.demo.yearly.legacy"))
        let shared = PlanChecker.check(plan(discounts: [discount], extraProducts: [legacyYearly(group: "g")]), now: date("2026-01-01T00:00:00Z"))
        let warning = try #require(shared.diagnostics.first { $0.code == .legacyProductSubscription })
        #expect(warning.severity == .warning && warning.message.contains("shares the group 'g'"))
        let own = PlanChecker.check(plan(discounts: [discount], extraProducts: [legacyYearly(group: "g (early)")]), now: date("2026-01-01T00:00:00Z"))
        #expect(!own.diagnostics.contains { $0.code == .legacyProductSubscription || $0.code == .promotionalOfferIneligible })
    }

    @Test("Chargeable legacy prices pass, and every problem is reported at once")
    func allAtOnce() {
        let good = PlanChecker.check(plan(discounts: [offer, legacy]), now: date("2026-01-01T00:00:00Z"))
        #expect(
            !good.diagnostics.contains {
                $0.code.rawValue.hasPrefix("legacy-product") || $0.code.rawValue.hasPrefix("discount-") || $0.code == .offerNotSubscription
            })
        let bad = PlanChecker.check(
            plan(discounts: [
                Discount(product: "com.example.demo.yearly", price: price("9.99")),
                Discount(product: "com.example.demo.pro", price: price("3.99"), charge: .promotionalOffer(id: "x")),
            ]), now: date("2026-01-01T00:00:00Z"))
        #expect(
            bad.diagnostics.filter { $0.severity == .error }.map(\.code.rawValue).filter {
                ["discount-display-only", "offer-not-subscription"].contains($0)
            }
            .count == 2)
    }

    // MARK: Engine

    private static func offers(_ plan: MigrationPlan, version: String, owns: [String] = []) -> [Offer] {
        Advisor(plan: plan).report(
            for: Customer(platform: .iOS, originalAppVersion: version, purchases: owns.map { OwnedProduct(productID: $0) })
        ).upsell.offers
    }

    struct OfferCase: Sendable, CustomTestStringConvertible {
        var name: String
        var version: String
        var owns: [String] = []
        /// Product, price and mechanism of each offer, cheapest first.
        var offers: [String]

        var testDescription: String { name }
    }

    static let offerCases: [OfferCase] = [
        OfferCase(
            name: "the tier: the subscription through its offer, the legacy product instead of the regular one", version: "10",
            offers: [
                "com.example.demo.pro.legacy 4.99 (was 9.99) via legacy product com.example.demo.pro.legacy",
                "com.example.demo.yearly 9.99 (was 19.99) via promotional offer demo.legacy.yearly",
            ]),
        OfferCase(
            name: "another tier never sees the legacy product", version: "15",
            offers: ["com.example.demo.pro 9.99", "com.example.demo.yearly 19.99"]),
        OfferCase(
            name: "new customers never see the legacy product", version: "20",
            offers: ["com.example.demo.pro 9.99", "com.example.demo.yearly 19.99"]),
        OfferCase(
            name: "the tier owning the legacy product is never charged again", version: "10", owns: ["com.example.demo.pro.legacy"], offers: []),
        OfferCase(
            name: "the tier owning the regular product is not sold its twin", version: "10", owns: ["com.example.demo.pro"], offers: []),
    ]

    @Test("Offers per cohort carry the mechanism that charges the legacy price", arguments: offerCases)
    func offersPerCohort(_ input: OfferCase) {
        let offers = Self.offers(plan(discounts: [offer, legacy]), version: input.version, owns: input.owns)
        #expect(offers.map { "\($0.productID) \($0.priceText)" } == input.offers)
    }

    @Test("The legacy product is offered to no cohort but its tier, whatever they own")
    func legacyProductNeverOfferedToOthers() {
        let plan = plan(discounts: [offer, legacy])
        for version in ["15", "20", "99"] {
            for owns in [[], ["com.example.demo.yearly"], ["com.example.demo.pro"]] {
                #expect(
                    !Self.offers(plan, version: version, owns: owns).contains { $0.productID == "com.example.demo.pro.legacy" }, "\(version) \(owns)")
            }
        }
        #expect(PlanCatalog(plan).makeRules().legacyOnly == [ProductKey("com.example.demo.pro.legacy")])
    }

    @Test("Owning the legacy product grants its features like any product, in any cohort")
    func legacyProductEntitles() {
        for version in ["10", "20"] {
            let report = Advisor(plan: plan(discounts: [offer, legacy])).report(
                for: Customer(platform: .iOS, originalAppVersion: version, purchases: [OwnedProduct(productID: "com.example.demo.pro.legacy")]))
            #expect(report.entitlements.has("pro") && report.entitlements.has("extra"), "\(version)")
        }
    }

    @Test("Quill: license holders get no features but both legacy prices; new customers the regular ones")
    func quill() throws {
        let quill = try examplePlan("quill-writer")
        let holder = Self.offers(quill, version: "280")
        #expect(
            holder.map(\.charge) == [nil, .legacyProduct("com.example.quill.yearly.legacy"), .legacyProduct("com.example.quill.lifetime.legacy")])
        #expect(holder.map(\.productID) == ["com.example.quill.monthly", "com.example.quill.yearly.legacy", "com.example.quill.lifetime.legacy"])
        let newcomer = Self.offers(quill, version: "300")
        #expect(newcomer.allSatisfy { $0.charge == nil && $0.regularPrice == nil })
        #expect(newcomer.map(\.productID) == ["com.example.quill.monthly", "com.example.quill.yearly", "com.example.quill.lifetime"])
    }
}
