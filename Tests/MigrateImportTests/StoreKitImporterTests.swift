import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Import: .storekit")
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
        #expect(byID["com.example.shelf.yearly"]?.subscription == SubscriptionInfo(group: "21482433", level: 1, period: "P1Y"))
        #expect(byID["com.example.shelf.yearly"]?.price.description == "24.99")
        #expect(result.ignored == ["com.example.shelf.yearly: 1 introductory offer"], "null offers and _storeKitError 0 are nothing")
        #expect(result.issues.isEmpty)
    }

    @Test("Format 5.0: introductoryOffers[], enabled _storeKitErrors, a bad price, and the private key never copied")
    func formatFive() throws {
        let result = try StoreKitImporter.read(try fixture("storekit/format-5.0-offers.storekit"), file: "b.storekit")
        #expect(result.products.map(\.id) == ["com.example.shelf.lifetime", "com.example.shelf.plus.monthly"])
        #expect(result.products[0].price.description == "12.00")
        #expect(result.products[1].subscription == SubscriptionInfo(group: "Shelf Plus", level: 1, period: "P1M"))
        #expect(result.ignored.contains("com.example.shelf.plus.monthly: 2 introductory offers"))
        #expect(result.ignored.contains("settings._storeKitErrors: Xcode simulates 'Purchase' failing with this file"))
        #expect(result.ignored.contains { $0.hasPrefix("subscriptionOffersKeyPair") })
        let issue = try #require(result.issues.first)
        #expect(issue.placeDescription == "products[1].displayPrice" && issue.location == SourceLocation(line: 29, column: 24))
        #expect(issue.message.contains("'abc' is not a price"))
        #expect(!"\(result)".contains("XYZZY"), "the private key is never read into the result")
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
