import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Generated output", .timeLimit(.minutes(20)))
struct GoldenTests {
    @Test("Each example's generated files match the golden files, and the golden folder holds no other file", arguments: exampleNames)
    func golden(name: String) throws {
        let files = try Generator().generate(try examplePlan(name))
        // In path order, as the outputs are: `PlanStore+Types.swift` before `PlanStore.swift`.
        let layer = StoreLayerSources.names.map { "Freemium/FreemiumStoreKit/\($0).swift" }.sorted()
        let testing = StoreLayerSources.appTestingNames.map { "FreemiumTests/FreemiumStoreKitTesting/\($0).swift" }.sorted()
        #expect(
            files.map(\.path)
                == [
                    "ENTITLEMENTS.md", "Freemium/Entitlements.swift", "Freemium/FreemiumStore.swift",
                ] + layer + [
                    "Freemium/OriginalPurchase.swift", "Freemium/Upsell.swift",
                ] + testing + [
                    "FreemiumTests/FreemiumTests.swift", "FreemiumTests/StoreTests.swift", "INTEGRATION.md", "Products.storekit",
                    "TEST_MATRIX.csv", "TEST_MATRIX.md",
                ])
        // The layer's copies are the library's sources (one test below), so they have no golden per example.
        let planned = files.filter { !StoreLayerSources.isCopy($0.path) }
        for file in planned {
            try expectMatchesGolden(
                GeneratedFileHeader.content(for: file, source: "migration.json"), at: "Tests/Goldens/\(name)/\(file.path)")
        }
        // A golden no output matches any more (a file generation dropped) is stale: it fails, and a recording run removes it.
        let folder = repositoryRoot.appendingPathComponent("Tests/Goldens/\(name)")
        let expected = Set(planned.map(\.path) + ["context.json"])
        for stale in textFiles(in: folder).keys.filter({ !expected.contains($0) }).sorted() {
            if isRecording { try FileManager.default.removeItem(at: folder.appendingPathComponent(stale)) }
            Issue.record(
                "Tests/Goldens/\(name)/\(stale) is no generated file's golden\(isRecording ? "; removed" : "; re-record with MIGRATE_RECORD=1 to remove it")"
            )
        }
    }

    @Test("The StoreKit layer in generated code is the FreemiumStoreKit library's sources, byte for byte, without a header")
    func layerIsTheLibrary() throws {
        let folder = repositoryRoot.appendingPathComponent("Sources/FreemiumStoreKit")
        let sources = textFiles(in: folder).filter { $0.key.hasSuffix(".swift") }.map { (path: $0.key, text: $0.value) }
        #expect(StoreLayerSources.names == sources.map { String($0.path.dropLast(".swift".count)) }.sorted())
        for options in [GenerationOptions(), GenerationOptions(access: .internal, module: "Store")] {
            for package in [false, true] {
                let files = try Generator(options: options, package: package).generate(try examplePlan("quill-writer"), only: [.swift])
                for source in sources {
                    let copy = try #require(files.first { $0.path.hasSuffix("\(options.module)/FreemiumStoreKit/\(source.path)") })
                    #expect(GeneratedFileHeader.content(for: copy, source: "migration.json") == source.text, "\(copy.path)")
                }
            }
        }
        #expect(StoreLayerSources.version.split(separator: ".").count == 3)
    }

    @Test("The test double is copied into the test target only: FreemiumStoreKitTesting's sources, but for the one import line")
    func testDoubleIsTheTestingLibrary() throws {
        let folder = repositoryRoot.appendingPathComponent("Sources/FreemiumStoreKitTesting")
        let sources = textFiles(in: folder).filter { $0.key.hasSuffix(".swift") }.map { (path: $0.key, text: $0.value) }
        #expect(StoreLayerSources.testingNames == sources.map { String($0.path.dropLast(".swift".count)) }.sorted())
        #expect(sources.contains { $0.path == "AppStoreModel.swift" })
        // The library an app runs holds no model of the App Store.
        #expect(Set(StoreLayerSources.names).isDisjoint(with: StoreLayerSources.testingNames))
        // The layer is imported by one plain line, which the copy rewrites, or not at all (`JourneyChecks` needs only Foundation).
        for source in sources {
            let imports = source.text.components(separatedBy: "import FreemiumStoreKit").count - 1
            #expect(imports <= 1 && source.text.components(separatedBy: "\nimport FreemiumStoreKit\n").count - 1 == imports, "\(source.path)")
        }
        for options in [GenerationOptions(), GenerationOptions(access: .internal, module: "Store")] {
            for package in [false, true] {
                let files = try Generator(options: options, package: package).generate(try examplePlan("quill-writer"))
                let tests = (package ? "Tests/" : "") + "\(options.module)Tests/"
                // Nothing of the model in the app's module: its sources are the plan's code and the layer.
                let app = files.filter { $0.path.hasPrefix((package ? "Sources/" : "") + "\(options.module)/") }
                #expect(!app.isEmpty)
                #expect(!app.contains { $0.path.contains("AppStoreModel") || $0.body.contains("class AppStoreModel") }, "\(app.map(\.path))")
                // The server's payloads and journeys are copied into a server's tests only (`serverOnlyTestingNames`).
                let serverOnly = Set(StoreLayerSources.serverOnlyTestingNames.map { $0 + ".swift" })
                #expect(!files.contains { file in serverOnly.contains { file.path.hasSuffix("/" + $0) } })
                for source in sources where !serverOnly.contains(source.path) {
                    let copy = try #require(files.first { $0.path == tests + "FreemiumStoreKitTesting/\(source.path)" })
                    let expected = source.text.replacingOccurrences(
                        of: "\nimport FreemiumStoreKit\n", with: "\n@testable import \(options.module)\n")
                    #expect(GeneratedFileHeader.content(for: copy, source: "migration.json") == expected, "\(copy.path)")
                }
            }
        }
        // With the layer as a dependency, nothing is copied: the tests import the testing library.
        let dependency = try Generator(options: GenerationOptions(storeLayer: .dependency)).generate(try examplePlan("quill-writer"))
        #expect(!dependency.contains { StoreLayerSources.isCopy($0.path) })
        let storeTests = try #require(dependency.first { $0.path == "FreemiumTests/StoreTests.swift" })
        #expect(storeTests.body.hasPrefix("import Foundation\nimport FreemiumStoreKit\nimport FreemiumStoreKitTesting\n"))
        let vendoredTests = try #require(
            try Generator().generate(try examplePlan("quill-writer")).first { $0.path == "FreemiumTests/StoreTests.swift" })
        #expect(!vendoredTests.body.contains("import FreemiumStoreKit"))
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

    @Test("A legacy price charged as the introductory offer is the subscription's introductory offer, as Xcode writes one")
    func storeKitIntroductoryOffer() throws {
        let file = try #require(
            try Generator().generate(try examplePlan("Tests/Fixtures/plans/introductory-offer-paid-era.json"), only: [.storekit]).first)
        let subscriptions = (try JSONParser.parse(file.body)["subscriptionGroups"]?.arrayValue ?? []).flatMap {
            $0["subscriptions"]?.arrayValue ?? []
        }
        let yearly = try #require(subscriptions.first { $0["productID"]?.stringValue == "com.example.tally.pro.yearly" })
        guard case .object(let members)? = yearly["introductoryOffer"]?.value else {
            Issue.record("no introductory offer: \(String(describing: yearly["introductoryOffer"]))")
            return
        }
        #expect(members.map(\.key) == ["displayPrice", "internalID", "paymentMode", "subscriptionPeriod"])
        #expect(yearly["introductoryOffer"]?["displayPrice"]?.stringValue == "9.99")
        #expect(yearly["introductoryOffer"]?["paymentMode"]?.stringValue == "payUpFront")
        #expect(yearly["introductoryOffer"]?["subscriptionPeriod"]?.stringValue == "P1Y")
        // The monthly subscription's legacy price is a promotional offer: it has no introductory offer.
        let monthly = try #require(subscriptions.first { $0["productID"]?.stringValue == "com.example.tally.pro.monthly" })
        #expect(monthly["introductoryOffer"].map { if case .null = $0.value { true } else { false } } == true)
    }

    @Test(
        "A subscription's own introductory offer is written into Products.storekit as Xcode writes one (the keys of the real files)",
        arguments: [
            (IntroductoryOffer(paymentMode: .freeTrial, period: "P3M"), ["internalID", "paymentMode", "subscriptionPeriod"], "free"),
            (
                // Apple's Food Truck sample writes its 3 months for 8.99 up front with no period count.
                IntroductoryOffer(paymentMode: .payUpFront, period: "P3M", price: try! Price("8.99")),
                ["displayPrice", "internalID", "paymentMode", "subscriptionPeriod"], "payUpFront"
            ),
            (
                IntroductoryOffer(paymentMode: .payAsYouGo, period: "P1M", periods: 3, price: try! Price("2.49")),
                ["displayPrice", "internalID", "numberOfPeriods", "paymentMode", "subscriptionPeriod"], "payAsYouGo"
            ),
        ] as [(IntroductoryOffer, [String], String)])
    func storeKitOwnIntroductoryOffer(offer: IntroductoryOffer, keys: [String], mode: String) throws {
        var plan = try examplePlan("quill-writer")
        let index = try #require(plan.products.firstIndex { $0.id == "com.example.quill.monthly" && $0.subscription != nil })
        plan.products[index].subscription?.introductoryOffer = offer
        let file = try #require(try Generator().generate(plan, only: [.storekit]).first)
        let subscriptions = (try JSONParser.parse(file.body)["subscriptionGroups"]?.arrayValue ?? []).flatMap {
            $0["subscriptions"]?.arrayValue ?? []
        }
        let written = try #require(subscriptions.first { $0["productID"]?.stringValue == "com.example.quill.monthly" }?["introductoryOffer"])
        guard case .object(let members) = written.value else {
            Issue.record("no introductory offer")
            return
        }
        #expect(members.map(\.key) == keys)
        #expect(written["paymentMode"]?.stringValue == mode)
        #expect(written["subscriptionPeriod"]?.stringValue == offer.period)
        #expect(written["displayPrice"]?.stringValue == offer.price?.description)
        if offer.paymentMode == .payAsYouGo { #expect(written["numberOfPeriods"]?.value == .number(String(offer.periods))) }
    }

    @Test("Promotional offers are declared under their subscription as Xcode writes them; legacy products are ordinary products")
    func storeKitPromotionalOffers() throws {
        let fixture = try #require(
            try Generator().generate(try examplePlan("Tests/Fixtures/plans/promotional-offer-free-era.json"), only: [.storekit]).first)
        let fixtureSubscriptions = (try JSONParser.parse(fixture.body)["subscriptionGroups"]?.arrayValue ?? []).flatMap {
            $0["subscriptions"]?.arrayValue ?? []
        }
        let offered = try #require(fixtureSubscriptions.first { $0["productID"]?.stringValue == "com.example.tally.pro.yearly" })
        let offers = try #require(offered["adHocOffers"]?.arrayValue)
        #expect(offers.count == 1)
        guard case .object(let members)? = offers.first?.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["displayPrice", "internalID", "offerID", "paymentMode", "referenceName", "subscriptionPeriod"])
        #expect(offers[0]["offerID"]?.stringValue == "tally.legacy.yearly")
        #expect(offers[0]["displayPrice"]?.stringValue == "9.99")
        #expect(offers[0]["paymentMode"]?.stringValue == "payUpFront")
        #expect(offers[0]["subscriptionPeriod"]?.stringValue == "P1Y")
        // Quill's license holders buy a legacy subscription in a group of its own, and a legacy Lifetime.
        let file = try #require(try Generator().generate(try examplePlan("quill-writer"), only: [.storekit]).first)
        let parsed = try JSONParser.parse(file.body)
        let groups = parsed["subscriptionGroups"]?.arrayValue ?? []
        let legacyGroup = try #require(groups.first { $0["name"]?.stringValue == "Quill (license holders)" })
        #expect(legacyGroup["subscriptions"]?.arrayValue?.compactMap { $0["productID"]?.stringValue } == ["com.example.quill.yearly.legacy"])
        let subscriptions = groups.flatMap { $0["subscriptions"]?.arrayValue ?? [] }
        #expect(subscriptions.allSatisfy { $0["adHocOffers"]?.arrayValue?.isEmpty ?? true })
        let products = parsed["products"]?.arrayValue ?? []
        #expect(
            products.contains { $0["productID"]?.stringValue == "com.example.quill.lifetime.legacy" && $0["type"]?.stringValue == "NonConsumable" })
    }

    @Test(
        "The promotional offer's keys are those of a real Xcode adHocOffers entry",
        .enabled(
            if: SharedFixtures.has("storekit/v2.0_storehelper_SampleProducts.storekit"),
            "../shared/fixtures/storekit/v2.0_storehelper_SampleProducts.storekit is absent (it exists only beside the developers' checkout)"))
    func storeKitOfferKeysMatchXcode() throws {
        let text = try String(contentsOf: SharedFixtures.url("storekit/v2.0_storehelper_SampleProducts.storekit"), encoding: .utf8)
        let real = try JSONParser.parse(text)
        let realOffers = (real["subscriptionGroups"]?.arrayValue ?? []).flatMap { $0["subscriptions"]?.arrayValue ?? [] }
            .flatMap { $0["adHocOffers"]?.arrayValue ?? [] }
        let paidUpFront = try #require(realOffers.first { $0["paymentMode"]?.stringValue == "payUpFront" })
        guard case .object(let realMembers) = paidUpFront.value else {
            Issue.record("the real payUpFront offer is not an object: \(paidUpFront.value)")
            return
        }
        let file = try #require(
            try Generator().generate(try examplePlan("Tests/Fixtures/plans/promotional-offer-free-era.json"), only: [.storekit]).first)
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
