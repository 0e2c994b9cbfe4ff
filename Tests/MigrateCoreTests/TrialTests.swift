import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

/// A free trial: a non-consumable at the free price that grants for a while after its purchase date.
@Suite("Free trials", .timeLimit(.minutes(20)))
struct TrialTests {
    static let trialID = "com.example.inkwell.trial"
    static let bought = date("2026-11-20T10:00:00Z")

    func report(now: Date?, bought: Date? = bought, verified: Bool = true) throws -> CustomerReport {
        let plan = try examplePlan("inkwell-universal")
        var customer = Customer(platform: .iOS, originalPlatform: .iOS, originalAppVersion: "900", originalPurchaseDate: date("2024-01-01T00:00:00Z"))
        customer.purchases = [OwnedProduct(productID: Self.trialID, isVerified: verified, purchaseDate: bought)]
        customer.now = now
        return Advisor(plan: plan).report(for: customer)
    }

    @Test(
        "A 14-day trial grants until the instant it ends, and not after",
        arguments: [
            ("2026-11-20T10:00:00Z", true), ("2026-12-04T09:59:59Z", true), ("2026-12-04T10:00:00Z", false), ("2027-01-01T00:00:00Z", false),
        ])
    func beforeAndAfter(now: String, grants: Bool) throws {
        let report = try report(now: date(now))
        #expect(report.entitlements.has("sync") == grants, "\(now)")
        if !grants {
            #expect(
                report.entitlements.ignored.contains {
                    $0.productID == Self.trialID && $0.reason.contains("a trial of 14 days that ended 2026-12-04T10:00:00Z")
                })
        }
    }

    @Test("Without a purchase date, a trusted now or a verified signature, a trial ends: no one who paid loses anything")
    func failsClosed() throws {
        #expect(try !report(now: nil).entitlements.has("sync"))
        #expect(try !report(now: date("2026-11-21T00:00:00Z"), bought: nil).entitlements.has("sync"))
        #expect(try !report(now: date("2026-11-21T00:00:00Z"), verified: false).entitlements.has("sync"))
    }

    @Test("During a trial the unlock is offered; a trial once started is never offered again; a new customer is offered both")
    func upsell() throws {
        let running = try report(now: date("2026-11-21T00:00:00Z"))
        #expect(running.upsell.offers.map(\.productID) == ["com.example.inkwell.pro"])
        #expect(running.upsell.withheld.isEmpty, "the running trial is owned, so it isn't withheld, just not offered")
        let ended = try report(now: date("2026-12-21T00:00:00Z"))
        #expect(ended.upsell.offers.map(\.productID) == ["com.example.inkwell.pro"])
        #expect(ended.upsell.withheld.contains { $0.productID == Self.trialID && $0.reason == "a free trial the customer has already started" })

        let plan = try examplePlan("inkwell-universal")
        let fresh = Advisor(plan: plan).report(
            for: Customer(platform: .iOS, originalPlatform: .iOS, originalAppVersion: "900", originalPurchaseDate: date("2024-01-01T00:00:00Z")))
        #expect(fresh.upsell.offers.map(\.productID) == ["com.example.inkwell.trial", "com.example.inkwell.pro"])
    }

    @Test(
        "trial is an ISO 8601 duration of days, weeks, months and years, up to a year",
        arguments: [
            ("P14D", "P14D", 14), ("P1M", "P1M", 31), ("P1W3D", "P1W3D", 10), ("P1Y", "P1Y", 366), ("P0Y14D", "P14D", 14),
        ])
    func parses(text: String, canonical: String, longest: Int) throws {
        let period = try TrialPeriod(text)
        #expect(period.description == canonical && period.longestDays == longest)
    }

    @Test("Bad trials are errors that say why", arguments: ["14D", "P", "PT12H", "P2Y", "P14", "P1D1M", "P0D", "P99999D", "P1D1D"])
    func refuses(text: String) {
        #expect(throws: TrialPeriod.ParseError.self) { try TrialPeriod(text) }
    }

    @Test("A trial must be a free nonConsumable: the plan says so at the product")
    func planRules() throws {
        let text = """
            {"formatVersion": 1, "app": {"name": "A", "bundleID": "a", "platforms": ["iOS"]},
             "features": [{"id": "pro"}],
             "releases": [{"platform": "iOS", "version": "1.0", "build": "1", "released": "2020-01-01T00:00:00Z", "model": "free"}],
             "products": [
               {"id": "a.trial", "type": "nonConsumable", "price": "0.99", "grants": ["pro"], "trial": "P14D"},
               {"id": "a.sub", "type": "autoRenewable", "price": "0", "grants": ["pro"], "trial": "P7D", "subscription": {"group": "g", "period": "P1M"}},
               {"id": "a.bad", "type": "nonConsumable", "price": "0", "grants": ["pro"], "trial": "14 days"}
             ]}
            """
        let diagnostics = PlanDecoder.decode(text).diagnostics.filter { $0.code == .invalidTrial }
        #expect(diagnostics.map { $0.path?.description ?? "" } == ["products[0].price", "products[1].trial", "products[2].trial"])
        #expect(diagnostics[0].message.contains("must be free") && diagnostics[1].message.contains("only to a nonConsumable"))
        #expect(diagnostics[2].message.hasPrefix("'14 days' is not an ISO 8601 duration"))
    }

    @Test("A duration belongs to a nonRenewing subscription and is an ISO 8601 period: the plan says so at the product")
    func durationRules() throws {
        let text = """
            {"formatVersion": 1, "app": {"name": "A", "bundleID": "a", "platforms": ["iOS"]},
             "features": [{"id": "pro"}],
             "releases": [{"platform": "iOS", "version": "1.0", "build": "1", "released": "2020-01-01T00:00:00Z", "model": "free"}],
             "products": [
               {"id": "a.pass", "type": "nonRenewing", "price": "9.99", "grants": ["pro"], "duration": "P1Y"},
               {"id": "a.life", "type": "nonConsumable", "price": "9.99", "grants": ["pro"], "duration": "P1Y"},
               {"id": "a.bad", "type": "nonRenewing", "price": "9.99", "grants": ["pro"], "duration": "a year"},
               {"id": "a.num", "type": "nonRenewing", "price": "9.99", "grants": ["pro"], "duration": 365}
             ]}
            """
        let document = PlanDecoder.decode(text)
        let diagnostics = document.diagnostics.filter { $0.code == .invalidDuration }
        #expect(diagnostics.map { $0.path?.description ?? "" } == ["products[1].duration", "products[2].duration"])
        #expect(diagnostics[0].message.contains("only to a nonRenewing subscription"))
        #expect(diagnostics[1].message.hasPrefix("'a year' is not an ISO 8601 duration"))
        // A number is the wrong type, said once.
        #expect(document.diagnostics.filter { $0.path?.description == "products[3].duration" }.count == 1)
        #expect(document.plan?.products.first?.duration?.description == "P1Y")
    }

    @Test(
        "A non-renewing product's duration may be long (a lifetime pass), and its limit speaks of the product, not a trial",
        arguments: [
            ("P10Y", nil), ("P100Y", nil), ("P6M", nil), ("P36500D", nil),
            ("P101Y", "'P101Y' is longer than the 100 years one purchase of a non-renewing subscription may last"),
            ("P1D1M", "'P1D1M' is not how long a purchase lasts: units are Y, M, W and D"),
        ] as [(String, String?)])
    func longDurations(text: String, message: String?) throws {
        let plan = """
            {"formatVersion": 1, "app": {"name": "A", "bundleID": "a", "platforms": ["iOS"]},
             "features": [{"id": "pro"}],
             "releases": [{"platform": "iOS", "version": "1.0", "build": "1", "released": "2020-01-01T00:00:00Z", "model": "free"}],
             "products": [{"id": "a.lifetime", "type": "nonRenewing", "price": "199.99", "grants": ["pro"], "duration": "\(text)"}]}
            """
        let document = PlanDecoder.decode(plan)
        let diagnostics = document.diagnostics.filter { $0.code == .invalidDuration }
        if let message {
            #expect(diagnostics.count == 1 && diagnostics.allSatisfy { $0.message.hasPrefix(message) }, "\(diagnostics.map(\.message))")
            #expect(!message.contains("trial"))
        } else {
            #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
            let product = try #require(document.plan?.products.first)
            #expect(product.duration?.description == text)
            // Bought today, it is still held in ten years, and `check` has no complaint about its length.
            let errors = PlanChecker.check(try #require(document.plan), now: date("2026-01-01T00:00:00Z")).diagnostics
                .filter { $0.severity == .error && $0.path?.description.hasPrefix("products[0]") == true }
            #expect(errors.isEmpty, "\(errors.map(\.message))")
        }
    }

    @Test(
        "A subscription's introductory offer is read, written back and checked",
        arguments: [
            (#"{"paymentMode": "freeTrial", "period": "P3M"}"#, nil),
            (#"{"paymentMode": "payUpFront", "period": "P3M", "price": "8.99"}"#, nil),
            (#"{"paymentMode": "payAsYouGo", "period": "P1M", "periods": 3, "price": "2.49"}"#, nil),
            (#"{"paymentMode": "freeTrial", "period": "P3M", "price": "1.99"}"#, "a free trial charges nothing"),
            (#"{"paymentMode": "payUpFront", "period": "P3M"}"#, "subscription.introductoryOffer.price"),
            (#"{"paymentMode": "payUpFront", "period": "P3M", "periods": 2, "price": "1.99"}"#, "'periods' applies only to a payAsYouGo offer"),
            (#"{"paymentMode": "payAsYouGo", "period": "P1M", "periods": 13, "price": "1.99"}"#, "lasts 1 to 12 periods, not 13"),
            (#"{"paymentMode": "free", "period": "P3M"}"#, "'free' is not a valid value for 'paymentMode'"),
            (#"{"paymentMode": "freeTrial", "period": "P5D"}"#, "'P5D' is not a valid value for 'period'"),
        ] as [(String, String?)])
    func introductoryOffers(offer: String, problem: String?) throws {
        let text = """
            {"formatVersion": 1, "app": {"name": "A", "bundleID": "a", "platforms": ["iOS"]},
             "features": [{"id": "pro"}],
             "releases": [{"platform": "iOS", "version": "1.0", "build": "1", "released": "2020-01-01T00:00:00Z", "model": "free"}],
             "products": [{"id": "a.monthly", "type": "autoRenewable", "price": "2.99", "grants": ["pro"],
                           "subscription": {"group": "g", "period": "P1M", "introductoryOffer": \(offer)}}]}
            """
        let document = PlanDecoder.decode(text)
        let errors = document.diagnostics.filter { $0.severity == .error }
        if let problem {
            #expect(
                errors.contains { $0.message.contains(problem) || ($0.path?.description ?? "").contains(problem) },
                "\(errors.map { "\($0.path?.description ?? ""): \($0.message)" })")
            return
        }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        let plan = try #require(document.plan)
        let read = try #require(plan.products.first?.subscription?.introductoryOffer)
        // Written and read again, the offer is the same.
        let again = PlanDecoder.decode(PlanEncoder.encode(plan))
        #expect(again.plan?.products.first?.subscription?.introductoryOffer == read)
    }
}
