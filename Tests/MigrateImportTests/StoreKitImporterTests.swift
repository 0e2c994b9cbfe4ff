import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Import: .storekit", .timeLimit(.minutes(20)))
struct StoreKitImporterTests {
    @Test("Format 1.0 with numeric ids, nonRenewingSubscriptions, introductoryOffer object and null, _storeKitError")
    func formatOne() throws {
        let result = try StoreKitImporter.read(try fixture("storekit/format-1.0-numeric-ids.storekit"), file: "a.storekit")
        let byID = Dictionary(uniqueKeysWithValues: result.products.map { ($0.id, $0) })
        #expect(
            result.products.map(\.id) == [
                "com.example.shelf.pro", "com.example.shelf.tip", "com.example.shelf.season", "com.example.shelf.monthly", "com.example.shelf.yearly",
            ])
        let pro = try #require(byID["com.example.shelf.pro"])
        #expect(pro.kind == .nonConsumable && pro.price.description == "4.99" && pro.familyShareable && pro.name == "Shelf Pro")
        #expect(byID["com.example.shelf.tip"]?.kind == .consumable)
        #expect(byID["com.example.shelf.tip"]?.name == "Tip", "falls back to referenceName when there is no display name")
        #expect(byID["com.example.shelf.season"]?.kind == .nonRenewing)
        #expect(byID["com.example.shelf.season"]?.name == "Season Pass", "a non-en_US localization is used when it is the only one")
        // The group has an empty name and a numeric id: the id names it.
        #expect(byID["com.example.shelf.monthly"]?.subscription == SubscriptionInfo(group: "21482433", level: 2, period: "P1M"))
        #expect(
            byID["com.example.shelf.yearly"]?.subscription
                == SubscriptionInfo(
                    group: "21482433", level: 1, period: "P1Y", introductoryOffer: IntroductoryOffer(paymentMode: .freeTrial, period: "P1W")))
        #expect(byID["com.example.shelf.yearly"]?.price.description == "24.99")
        #expect(result.ignored.isEmpty, "the introductory offer is read; null offers and _storeKitError 0 are nothing")
        #expect(result.issues.isEmpty)
    }

    @Test("Format 5.0: introductoryOffers[], enabled _storeKitErrors, a bad price, and the private key never copied")
    func formatFive() throws {
        let result = try StoreKitImporter.read(try fixture("storekit/format-5.0-offers.storekit"), file: "b.storekit")
        #expect(result.products.map(\.id) == ["com.example.shelf.lifetime", "com.example.shelf.plus.monthly"])
        #expect(result.products[0].price.description == "12.00")
        #expect(
            result.products[1].subscription
                == SubscriptionInfo(
                    group: "Shelf Plus", level: 1, period: "P1M", introductoryOffer: IntroductoryOffer(paymentMode: .freeTrial, period: "P1W")))
        #expect(result.ignored.contains("com.example.shelf.plus.monthly: 1 more introductory offer (the first is read)"))
        #expect(result.ignored.contains("settings._storeKitErrors: Xcode simulates 'Purchase' failing with this file"))
        #expect(result.ignored.contains { $0.hasPrefix("subscriptionOffersKeyPair") })
        let issue = try #require(result.issues.first)
        #expect(issue.placeDescription == "products[1].displayPrice" && issue.location == SourceLocation(line: 29, column: 24))
        #expect(issue.message.contains("'abc' is not a price"))
        #expect(!"\(result)".contains("XYZZY"), "the private key is never read into the result")
    }

    @Test(
        "Introductory offers are read into the subscription: free trials, pay up front, pay as you go",
        arguments: [
            ("storekit/ledger-products.storekit", "com.example.ledger.monthly", IntroductoryOffer(paymentMode: .freeTrial, period: "P3M")),
            ("storekit/ledger-products.storekit", "com.example.ledger.yearly", IntroductoryOffer(paymentMode: .freeTrial, period: "P3M")),
            (
                "storekit/ledger-vendor-sample.storekit", "com.vendorkit.demo.weekly",
                IntroductoryOffer(paymentMode: .payAsYouGo, period: "P1W", periods: 3, price: try! Price("0.49"))
            ),
        ] as [(String, String, IntroductoryOffer)])
    func introductoryOffers(file: String, id: String, offer: IntroductoryOffer) throws {
        let result = try StoreKitImporter.read(try fixture(file), file: file)
        #expect(result.products.first { $0.id == id }?.subscription?.introductoryOffer == offer)
        #expect(!result.ignored.contains { $0.contains("introductory") }, "\(result.ignored)")
        #expect(result.issues.isEmpty)
    }

    @Test(
        "The real files' introductory offers",
        .enabled(if: SharedFixtures.has("storekit"), "../shared/fixtures/storekit is absent (it exists only beside the developers' checkout)"),
        arguments: [
            ("v2.0_apple_sample-food-truck_Products.storekit", "socialfeedplus.monthly", "payAsYouGo", "P1M", 3, "2.49"),
            ("v2.0_apple_sample-food-truck_Products.storekit", "socialfeedplus.yearly", "payUpFront", "P3M", 1, "8.99"),
            ("v3.0_apple_sample-backyard-birds_Store.storekit", "pass.family", "freeTrial", "P1M", 1, nil),
            ("v1.0_revenuecat_SwiftUIExample.storekit", "annual_freetrial", "freeTrial", "P2W", 1, nil),
        ] as [(String, String, String, String, Int, String?)])
    func realIntroductoryOffers(file: String, id: String, mode: String, period: String, periods: Int, price: String?) throws {
        let data = try Data(contentsOf: SharedFixtures.url("storekit/" + file))
        let result = try StoreKitImporter.read(Array(data), file: file)
        let offer = try #require(result.products.first { $0.id == id }?.subscription?.introductoryOffer)
        #expect(offer.paymentMode.rawValue == mode && offer.period == period && offer.periods == periods && offer.price?.description == price)
    }

    @Test("A plan without the offer gains it on import; one that says another keeps its own and reports the conflict")
    func offerMerge() throws {
        let imported = try StoreKitImporter.read(try fixture("storekit/ledger-products.storekit"), file: "Products.storekit")
        var plan = MigrationPlan(app: AppInfo(name: "Ledger", bundleID: "com.example.ledger", platforms: [.iOS]))
        var bare = try #require(imported.products.first { $0.id == "com.example.ledger.monthly" })
        bare.subscription?.introductoryOffer = nil
        plan.products = [bare]
        let merged = try PlanMerger.merge(imported, into: plan)
        #expect(merged.plan.products.first { $0.id == bare.id }?.subscription?.introductoryOffer?.paymentMode == .freeTrial)
        #expect(merged.report.changed.map(\.description).contains("product com.example.ledger.monthly: introductory offer a free trial of 3 months"))

        var own = bare
        own.subscription?.introductoryOffer = IntroductoryOffer(paymentMode: .freeTrial, period: "P1W")
        plan.products = [own]
        let kept = try PlanMerger.merge(imported, into: plan)
        #expect(kept.plan.products.first { $0.id == own.id }?.subscription?.introductoryOffer?.period == "P1W")
        #expect(kept.report.conflicts.contains { $0.hasPrefix("product com.example.ledger.monthly: introductory offer") })
    }

    @Test(
        "Importing into a plan leaves out Xcode's placeholders, Apple's samples and other apps' products, saying why",
        arguments: [
            ("com.temporary.id.nonconsumable.a", "a placeholder Xcode's StoreKit template writes"),
            ("com.temporary.id.nonconsumable.b", "a placeholder Xcode's StoreKit template writes"),
            ("com.example.apple-samplecode.Ledger.tip", "a product of Apple's sample code"),
            ("com.vendorkit.demo.pro", "another app's product (its id is under com.vendorkit"),
            ("com.vendorkit.demo.season", "another app's product"),
        ])
    func leftOut(id: String, reason: String) throws {
        var imported = try StoreKitImporter.read(try fixture("storekit/ledger-products.storekit"), file: "Products.storekit")
        imported.append(try StoreKitImporter.read(try fixture("storekit/ledger-vendor-sample.storekit"), file: "Demo.storekit"))
        let plan = MigrationPlan(app: AppInfo(name: "Ledger", bundleID: "com.example.ledger", platforms: [.iOS]))
        let merged = try PlanMerger.merge(imported, into: plan)
        #expect(!merged.plan.products.contains { $0.id == id })
        #expect(merged.report.ignored.contains { $0.hasPrefix("product \(id): \(reason)") }, "\(merged.report.ignored)")
        #expect(
            merged.plan.products.map(\.id).sorted() == [
                "com.example.ledger.export", "com.example.ledger.lifetime", "com.example.ledger.monthly", "com.example.ledger.yearly",
            ])
    }

    @Test("Truncated JSON names the file and the place")
    func truncated() throws {
        #expect {
            try StoreKitImporter.read(try fixture("storekit/truncated.storekit"), file: "t.storekit")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .badData && error.file == "t.storekit" && error.location != nil && error.description.contains("not valid JSON")
        }
        #expect(throws: ImportError.self) { try StoreKitImporter.read(Array("[1, 2]".utf8), file: "x.storekit") }
    }

    @Test("The command never prints the private key, and a second import changes nothing")
    func command() throws {
        let scratch = try Scratch()
        let path = fixtures.appendingPathComponent("storekit/format-5.0-offers.storekit").path
        let first = Run(
            "import", "storekit", path, "--app-name", "Shelf", "--bundle-id", "com.example.shelf", "--platform", "iOS", directory: scratch.url)
        #expect(first.status == .success, "\(first.error)")
        #expect(first.output.contains("+ product com.example.shelf.lifetime (nonConsumable, 12.00)"))
        #expect(first.output.contains("Created migration.json and migration.schema.json."))
        #expect(first.error.contains("b.storekit") == false)
        #expect(
            first.error.contains("format-5.0-offers.storekit:29:24: warning: products[1].displayPrice:")
                && first.error.contains("'abc' is not a price"))
        let plan = try #require(scratch.read("migration.json"))
        #expect(!(first.output + first.error + plan).contains("XYZZY"))
        let second = Run("import", "storekit", path, directory: scratch.url)
        #expect(second.status == .success)
        #expect(second.output.contains("migration.json is unchanged."))
        #expect(scratch.read("migration.json") == plan, "deterministic: the same import gives the same bytes")
    }
}
