import Foundation
import MigrateCLI
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Legacy prices in check, explain and simulate", .timeLimit(.minutes(20)))
struct LegacyPriceCommandTests {
    static let tally = "Examples/tally-two-switches"
    static let quill = "Examples/quill-writer"
    /// A promotional offer for a tier of the free era, whose customers could have subscribed.
    static let freeEra = "Tests/Fixtures/plans/promotional-offer-free-era.json"

    @Test("check: a display-only legacy price is an error that names its place and both mechanisms; exit 1")
    func displayOnly() throws {
        let scratch = try Scratch()
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("\(Self.tally)/migration.json"), encoding: .utf8)
        try scratch.write("plan.json", text.replacingOccurrences(of: #", "legacyProduct": "com.example.tally.pro.yearly.legacy""#, with: ""))
        let run = Run("check", "plan.json", "--now", "2026-01-01T00:00:00Z", directory: scratch.url)
        #expect(run.status == .checkFailed)
        #expect(
            run.output.contains(
                "error: tiers[0].discounts[0]: display-only: nothing makes the App Store charge 9.99 for 'com.example.tally.pro.yearly'"))
        #expect(run.output.contains("Sell tier 'paid-era' a separate legacy subscription"))
        #expect(run.output.contains("promotionalOffer fits only a tier that was already subscribed."))
    }

    @Test("check's tier summary names the mechanism")
    func checkSummary() {
        let run = Run("check", Self.quill, "--now", "2026-01-01T00:00:00Z")
        #expect(run.status == .success)
        #expect(run.output.contains("com.example.quill.yearly at 29.99 via legacy product com.example.quill.yearly.legacy"))
        #expect(run.output.contains("com.example.quill.lifetime at 49.99 via legacy product com.example.quill.lifetime.legacy"))
    }

    @Test(
        "explain text shows how each legacy price is charged",
        arguments: [
            (tally, "25", "com.example.tally.pro.yearly.legacy", "9.99 (was 19.99) via legacy product com.example.tally.pro.yearly.legacy"),
            (quill, "280", "com.example.quill.yearly.legacy", "29.99 (was 39.99) via legacy product com.example.quill.yearly.legacy"),
            (freeEra, "44", "com.example.tally.pro.yearly", "9.99 (was 19.99) via promotional offer tally.legacy.yearly"),
            (quill, "280", "com.example.quill.lifetime.legacy", "49.99 (was 99.99) via legacy product com.example.quill.lifetime.legacy"),
        ])
    func explainText(plan: String, version: String, product: String, price: String) {
        let run = Run("explain", plan, "--original-version", version)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.split(separator: "\n").contains { $0.contains(" \(product) ") && $0.contains(price) }, "\(run.output)")
    }

    @Test("explain JSON keeps its keys and adds 'mechanism'; other cohorts never see the legacy product")
    func explainJSON() throws {
        let holder = try JSONParser.parse(Run("explain", Self.quill, "--original-version", "280", "--format", "json").output)
        let offers = try #require(holder["offers"]?.arrayValue)
        #expect(
            offers.compactMap { $0["product"]?.stringValue } == [
                "com.example.quill.monthly", "com.example.quill.yearly.legacy", "com.example.quill.lifetime.legacy",
            ])
        #expect(offers[0]["mechanism"] == nil)
        #expect(offers[1]["mechanism"]?["type"]?.stringValue == "legacyProduct")
        #expect(offers[1]["mechanism"]?["id"]?.stringValue == "com.example.quill.yearly.legacy")
        let subscriber = try JSONParser.parse(Run("explain", Self.freeEra, "--original-version", "44", "--format", "json").output)
        let offer = try #require(subscriber["offers"]?.arrayValue?.first { $0["product"]?.stringValue == "com.example.tally.pro.yearly" })
        #expect(offer["mechanism"]?["type"]?.stringValue == "promotionalOffer")
        #expect(offer["mechanism"]?["id"]?.stringValue == "tally.legacy.yearly")
        #expect(offers[2]["mechanism"]?["type"]?.stringValue == "legacyProduct")
        #expect(offers[2]["mechanism"]?["id"]?.stringValue == "com.example.quill.lifetime.legacy")
        #expect(offers[2]["price"]?.stringValue == "49.99" && offers[2]["regularPrice"]?.stringValue == "99.99")
        let newcomer = try JSONParser.parse(Run("explain", Self.quill, "--original-version", "300", "--format", "json").output)
        #expect(
            newcomer["offers"]?.arrayValue?.compactMap { $0["product"]?.stringValue }
                == ["com.example.quill.monthly", "com.example.quill.yearly", "com.example.quill.lifetime"])
    }

    @Test("simulate's cohort preview shows the mechanism in text and JSON")
    func simulate() throws {
        let text = Run("simulate", Self.quill, "--draws", "0", "--scenario", "plan")
        #expect(text.status == .success, "\(text.error)")
        // Text wraps at 80 columns: join the wrapped lines before looking.
        let unwrapped = text.output.replacingOccurrences(of: "\n +", with: " ", options: .regularExpression)
        #expect(unwrapped.contains("Quill (yearly, license holders) 29.99 (was 39.99) via legacy product com.example.quill.yearly.legacy"))
        #expect(unwrapped.contains("Quill Lifetime (license holders) 49.99 (was 99.99) via legacy product com.example.quill.lifetime.legacy"))
        let markdown = Run("simulate", Self.quill, "--draws", "0", "--scenario", "plan", "--format", "markdown")
        #expect(markdown.output.contains("via legacy product com.example.quill.yearly.legacy"))
        let json = try JSONParser.parse(Run("simulate", Self.quill, "--draws", "0", "--scenario", "plan", "--format", "json").output)
        let cohorts = try #require(json["scenarios"]?.arrayValue?.first?["cohorts"]?.arrayValue)
        let holders = try #require(cohorts.first { $0["tier"]?.stringValue == "license-holders" && $0["owns"]?.arrayValue?.isEmpty == true })
        let mechanisms = holders["offers"]?.arrayValue?.map { $0["mechanism"]?["type"]?.stringValue }
        #expect(mechanisms == [nil, "legacyProduct", "legacyProduct"])
        for cohort in cohorts where cohort["tier"]?.stringValue != "license-holders" {
            #expect(
                !(cohort["offers"]?.arrayValue ?? []).contains {
                    ["com.example.quill.lifetime.legacy", "com.example.quill.yearly.legacy"].contains($0["product"]?.stringValue ?? "")
                })
        }
    }
}
