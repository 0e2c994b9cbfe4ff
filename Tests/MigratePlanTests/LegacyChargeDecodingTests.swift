import Foundation
import MigratePlan
import Testing

/// A plan whose tier gives a legacy price for a subscription and for a non-consumable; cases replace one discount.
let legacyPricePlan = """
    {
      "app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"] },
      "features": [ { "id": "pro", "name": "Pro" } ],
      "releases": [
        { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["pro"] },
        { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free" }
      ],
      "products": [
        { "id": "com.example.demo.yearly", "type": "autoRenewable", "price": "19.99", "grants": ["pro"], "subscription": { "group": "Pro", "period": "P1Y" } },
        { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "9.99", "grants": ["pro"] },
        { "id": "com.example.demo.pro.legacy", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] }
      ],
      "tiers": [
        {
          "id": "paid", "until": "2021-01-01T00:00:00Z",
          "discounts": [
            { "product": "com.example.demo.yearly", "price": "9.99", "promotionalOffer": "demo.legacy.yearly" },
            { "product": "com.example.demo.pro", "price": "4.99", "legacyProduct": "com.example.demo.pro.legacy" }
          ]
        }
      ]
    }
    """

@Suite("Legacy prices in the plan format", .timeLimit(.minutes(20)))
struct LegacyChargeDecodingTests {
    @Test("Both mechanisms decode, and the canonical encoder writes them back")
    func decodesAndRoundTrips() throws {
        let document = PlanDecoder.decode(legacyPricePlan)
        #expect(!document.hasErrors, "\(document.diagnostics.map(\.message))")
        let plan = try #require(document.plan)
        #expect(
            plan.tiers[0].discounts.map(\.charge) == [.promotionalOffer(id: "demo.legacy.yearly"), .legacyProduct("com.example.demo.pro.legacy")])
        let again = try #require(PlanDecoder.decode(PlanEncoder.encode(plan)).plan)
        #expect(again.tiers[0].discounts == plan.tiers[0].discounts)
    }

    @Test("\"introductoryOffer\": true decodes and round-trips; beside another mechanism it is an error naming both")
    func introductoryOffer() throws {
        let text = legacyPricePlan.replacingOccurrences(of: Self.offer, with: #""introductoryOffer": true"#)
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.tiers[0].discounts[0].charge == .introductoryOffer)
        let again = try #require(PlanDecoder.decode(PlanEncoder.encode(plan)).plan)
        #expect(again.tiers[0].discounts == plan.tiers[0].discounts)
        let both = PlanDecoder.decode(legacyPricePlan.replacingOccurrences(of: Self.offer, with: Self.offer + #", "introductoryOffer": true"#))
        let error = try #require(both.diagnostics.first { $0.code.rawValue == "discount-two-mechanisms" })
        #expect(error.message.contains("'promotionalOffer' and 'introductoryOffer'"), "\(error.message)")
        #expect(error.path?.description == "tiers[0].discounts[0].introductoryOffer")
    }

    struct BadDiscount: Sendable, CustomTestStringConvertible {
        var name: String
        var replace: String
        var with: String
        var code: String
        var path: String
        var message: String
        var hint: String? = nil

        var testDescription: String { name }
    }

    static let offer = #""promotionalOffer": "demo.legacy.yearly""#
    static let legacy = #""legacyProduct": "com.example.demo.pro.legacy""#

    static let cases: [BadDiscount] = [
        BadDiscount(
            name: "both mechanisms", replace: offer, with: offer + #", "legacyProduct": "com.example.demo.pro.legacy""#,
            code: "discount-two-mechanisms", path: "tiers[0].discounts[0].legacyProduct",
            message: "has 'promotionalOffer' and 'legacyProduct'", hint: "remove the others"),
        BadDiscount(
            name: "offer id with a space", replace: offer, with: #""promotionalOffer": "legacy yearly""#,
            code: "invalid-offer-id", path: "tiers[0].discounts[0].promotionalOffer",
            message: "'legacy yearly' is not an App Store offer identifier: it contains ' '", hint: "Promotional Offer Identifier"),
        BadDiscount(
            name: "offer id too long", replace: offer, with: #""promotionalOffer": "\#(String(repeating: "a", count: 65))""#,
            code: "invalid-offer-id", path: "tiers[0].discounts[0].promotionalOffer",
            message: "is 65 characters long; an offer identifier has at most 64"),
        BadDiscount(
            name: "empty offer id", replace: offer, with: #""promotionalOffer": """#,
            code: "empty-value", path: "tiers[0].discounts[0].promotionalOffer", message: "'promotionalOffer' must not be empty"),
        BadDiscount(
            name: "unknown legacy product", replace: legacy, with: #""legacyProduct": "com.example.demo.pro.legacyy""#,
            code: "unknown-reference", path: "tiers[0].discounts[1].legacyProduct",
            message: "unknown product 'com.example.demo.pro.legacyy'", hint: "Did you mean 'com.example.demo.pro.legacy'?"),
        BadDiscount(
            name: "misspelt mechanism", replace: offer, with: #""promotionalOfer": "demo.legacy.yearly""#,
            code: "unknown-key", path: "tiers[0].discounts[0].promotionalOfer", message: "unknown key 'promotionalOfer'",
            hint: "Did you mean 'promotionalOffer'?"),
    ]

    @Test("Bad discounts name the place, the problem and the fix", arguments: cases)
    func badDiscount(_ input: BadDiscount) throws {
        #expect(legacyPricePlan.contains(input.replace), "the case must change the plan")
        let document = PlanDecoder.decode(legacyPricePlan.replacingOccurrences(of: input.replace, with: input.with))
        let match = document.diagnostics.first { $0.code.rawValue == input.code && $0.path?.description == input.path }
        let diagnostic = try #require(
            match, "no \(input.code) at \(input.path); got \(document.diagnostics.map { "\($0.code) \($0.path?.description ?? "")" })")
        #expect(diagnostic.message.contains(input.message), "\(diagnostic.message)")
        if let hint = input.hint { #expect(diagnostic.hint?.contains(hint) == true, "\(diagnostic.hint ?? "no hint")") }
    }

    @Test(
        "Offer identifiers: letters, digits, '.', '_' and '-', at most 64 characters",
        arguments: [
            ("tally.legacy.yearly", true), ("Legacy_2017-yearly", true), (String(repeating: "x", count: 64), true),
            (String(repeating: "x", count: 65), false), ("légacy", false), ("a/b", false), ("a b", false),
        ])
    func offerIdentifiers(id: String, valid: Bool) {
        #expect((LegacyCharge.offerIDProblem(id) == nil) == valid)
    }

    @Test("A scenario's prices take no mechanism: they change what everyone pays")
    func scenarioPricesTakeNoMechanism() {
        #expect(!PlanKeys.ScenarioPrice.names.contains(PlanKeys.Discount.promotionalOffer.rawValue))
        #expect(
            PlanKeys.Discount.names.contains(PlanKeys.Discount.promotionalOffer.rawValue)
                && PlanKeys.Discount.names.contains(PlanKeys.Discount.legacyProduct.rawValue))
    }
}
