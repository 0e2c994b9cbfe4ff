import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Generated output")
struct GoldenTests {
    @Test("Each example's generated files match the golden files", arguments: exampleNames)
    func golden(name: String) throws {
        let files = try Generator().generate(try examplePlan(name))
        #expect(
            files.map(\.path) == [
                "ENTITLEMENTS.md", "Freemium/AppStoreFront.swift", "Freemium/Entitlements.swift", "Freemium/FreemiumStore.swift",
                "Freemium/OriginalPurchase.swift", "Freemium/PurchaseCache.swift", "Freemium/StoreFront.swift", "Freemium/Upsell.swift",
                "FreemiumTests/FreemiumTests.swift", "FreemiumTests/StoreTests.swift", "INTEGRATION.md", "Products.storekit",
                "TEST_MATRIX.csv", "TEST_MATRIX.md",
            ])
        for file in files {
            try expectMatchesGolden(
                GeneratedFileHeader.content(for: file, source: "migration.json"), at: "Tests/Goldens/\(name)/\(file.path)")
        }
    }

    @Test("Generating twice gives byte-identical output, with no timestamps or absolute paths")
    func deterministic() throws {
        for name in exampleNames {
            let plan = try examplePlan(name)
            let first = try Generator().generate(plan)
            let second = try Generator().generate(plan)
            #expect(first == second)
            for file in first {
                #expect(!file.body.contains(repositoryRoot.path), "\(file.path) has an absolute path")
                #expect(!file.body.contains("\r"))
            }
        }
    }

    @Test("The StoreKit configuration is JSON the way Xcode writes it: sorted keys, \"key\" : value")
    func storeKitFormat() throws {
        for name in exampleNames {
            let file = try #require(try Generator().generate(try examplePlan(name), only: [.storekit]).first)
            let parsed = try JSONParser.parse(file.body)
            #expect(JSONWriter.xcode.string(from: parsed) == file.body, "\(firstDifference(JSONWriter.xcode.string(from: parsed), file.body) ?? "")")
            let products =
                (parsed["products"]?.arrayValue ?? []) + (parsed["nonRenewingSubscriptions"]?.arrayValue ?? [])
                + (parsed["subscriptionGroups"]?.arrayValue ?? []).flatMap { $0["subscriptions"]?.arrayValue ?? [] }
            #expect(products.count == (try examplePlan(name)).products.count, "\(name): every product is in the configuration")
        }
    }

    @Test("Promotional offers are declared under their subscription as Xcode writes them; legacy products are ordinary products")
    func storeKitPromotionalOffers() throws {
        let file = try #require(try Generator().generate(try examplePlan("quill-writer"), only: [.storekit]).first)
        let parsed = try JSONParser.parse(file.body)
        let subscriptions = (parsed["subscriptionGroups"]?.arrayValue ?? []).flatMap { $0["subscriptions"]?.arrayValue ?? [] }
        let yearly = try #require(subscriptions.first { $0["productID"]?.stringValue == "com.example.quill.yearly" })
        let offers = try #require(yearly["adHocOffers"]?.arrayValue)
        #expect(offers.count == 1)
        guard case .object(let members)? = offers.first?.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["displayPrice", "internalID", "offerID", "paymentMode", "referenceName", "subscriptionPeriod"])
        #expect(offers[0]["offerID"]?.stringValue == "quill.license-holders.yearly")
        #expect(offers[0]["displayPrice"]?.stringValue == "29.99")
        #expect(offers[0]["paymentMode"]?.stringValue == "payUpFront")
        #expect(offers[0]["subscriptionPeriod"]?.stringValue == "P1Y")
        let monthly = try #require(subscriptions.first { $0["productID"]?.stringValue == "com.example.quill.monthly" })
        #expect(monthly["adHocOffers"]?.arrayValue?.isEmpty == true)
        let products = parsed["products"]?.arrayValue ?? []
        #expect(
            products.contains { $0["productID"]?.stringValue == "com.example.quill.lifetime.legacy" && $0["type"]?.stringValue == "NonConsumable" })
    }

    @Test("The promotional offer's keys are those of a real Xcode adHocOffers entry (skips without shared/fixtures)")
    func storeKitOfferKeysMatchXcode() throws {
        let fixture = repositoryRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/fixtures/storekit/v2.0_storehelper_SampleProducts.storekit")
        guard let text = try? String(contentsOf: fixture, encoding: .utf8) else {
            print("skipped: \(fixture.path) is absent")
            return
        }
        let real = try JSONParser.parse(text)
        let realOffers = (real["subscriptionGroups"]?.arrayValue ?? []).flatMap { $0["subscriptions"]?.arrayValue ?? [] }
            .flatMap { $0["adHocOffers"]?.arrayValue ?? [] }
        let paidUpFront = try #require(realOffers.first { $0["paymentMode"]?.stringValue == "payUpFront" })
        guard case .object(let realMembers) = paidUpFront.value else { return }
        let file = try #require(try Generator().generate(try examplePlan("tally-two-switches"), only: [.storekit]).first)
        let ours = (try JSONParser.parse(file.body)["subscriptionGroups"]?.arrayValue ?? []).flatMap { $0["subscriptions"]?.arrayValue ?? [] }
            .flatMap { $0["adHocOffers"]?.arrayValue ?? [] }
        guard case .object(let members)? = ours.first?.value else {
            Issue.record("Tally declares no promotional offer")
            return
        }
        #expect(members.map(\.key) == realMembers.map(\.key))
    }

    @Test(
        "Swift identifiers are unique and readable",
        arguments: [
            ("code-red", "codeRed"), ("paid-1.0", "paid1Dot0"), ("paid-10", "paid10"), ("default", "`default`"), ("2x", "v2x"),
            ("VPN", "vpn"), ("com.example.app.pro_unlock", "comExampleAppProUnlock"),
        ])
    func identifiers(id: String, expected: String) {
        #expect(SwiftIdentifier.make(id) == expected)
    }

    @Test("Colliding identifiers are numbered")
    func collisions() {
        let cases = SwiftIdentifier.unique(["a-b", "a.b", "aB"])
        #expect(Set(cases.values) == ["aB", "aB2", "aB3"])
    }
}
