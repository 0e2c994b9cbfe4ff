import Foundation
import MigrateTestSupport
import Testing

/// The layer's tables are made by generated code only: their initializers are `@_spi(Generated)`, so an app's own code,
/// which imports the layer plainly, can't build rules `check` hasn't seen. Type-checked against the `FreemiumStoreKit`
/// module this suite was built with, both ways: the generated files' import builds every table, a plain one none.
@Suite("The layer's tables are fenced", .timeLimit(.minutes(20)))
struct SPIFenceTests {
    /// The modules `swift build` made for these tests (`.build/debug` links the platform's folder), or nil where the
    /// tests were built another way.
    static let modules: URL? = {
        let folder = repositoryRoot.appendingPathComponent(".build/debug/Modules")
        let module = folder.appendingPathComponent("FreemiumStoreKit.swiftmodule")
        return FileManager.default.fileExists(atPath: module.path) ? folder : nil
    }()

    /// Every fenced initializer, called as the generated `OriginalPurchase.swift` and `Upsell.swift` call them.
    static let probe = """
        import Foundation
        @_spi(Generated) import FreemiumStoreKit

        enum Tier: Hashable, Sendable { case paid }
        enum Platform: Hashable, Sendable { case iOS }
        enum Product: String, Hashable, Sendable { case lifetime }
        enum Feature: Hashable, Sendable { case pro }

        let cohortRules = CohortRules<Tier, Platform>(
          platforms: [.iOS], buildNumberPlatforms: [.iOS],
          releases: [.iOS: [.init(version: BundleVersion("1"), released: Date(), tier: .paid, paid: true)]],
          windows: [.iOS: [.init(tier: .paid, from: nil, until: nil)]], versionRuleIsSound: [.iOS: true],
          fallbacks: [:], isUniversalPurchase: false, cutoffRule: .automatic, nonProductionCohort: .newCustomer,
          keepLastVerifiedDays: 7, keepWhileUnreachableDays: 30, tierFeatureCounts: [.paid: 1])
        let catalogRules = CatalogRules<Product, Feature, Tier, Platform>(
          tierFeatures: [.paid: [.pro]], productGrants: [.lifetime: [.pro]], productContents: [:],
          freeFeatures: [.iOS: []], consumables: [], subscriptionGroups: [:], subscriptionLevels: [:],
          subscriptionPeriods: [:], nonRenewing: [], trials: [:], passes: [:], familyShareable: [],
          familySharingEntitles: false, forSale: [.lifetime], prices: [.lifetime: 1], requirements: [:],
          legacyPrices: [.paid: [.lifetime: .init("0.99", 9_900, .displayOnly)]], legacyOnly: [])

        """

    static let fenced = [
        "'CohortRules<Tier, Platform>'", "'CohortRules<Tier, Platform>.Release'", "'CohortRules<Tier, Platform>.Window'",
        "'CatalogRules<Product, Feature, Tier, Platform>'", "'CatalogRules<Product, Feature, Tier, Platform>.LegacyPrice'",
    ]

    @Test(
        "A plain import can't make the rules' tables; the generated files' @_spi(Generated) import makes every one",
        .enabled(if: modules != nil, "needs the FreemiumStoreKit module `swift build` makes in .build/debug/Modules"))
    func fence() async throws {
        let modules = try #require(Self.modules)
        let scratch = try Scratch()
        let plainImport = "\nimport FreemiumStoreKit\n"
        let plain = Self.probe.replacingOccurrences(of: "\n@_spi(Generated) import FreemiumStoreKit\n", with: plainImport)
        #expect(plain.contains(plainImport) && plain != Self.probe)
        try scratch.write("Generated.swift", Self.probe)
        try scratch.write("App.swift", plain)
        let generated = try await shell(["swiftc", "-typecheck", "-I", modules.path, "Generated.swift"], in: scratch.url)
        #expect(generated.status == 0, "\(generated.output)")
        let app = try await shell(["swiftc", "-typecheck", "-I", modules.path, "App.swift"], in: scratch.url)
        #expect(app.status != 0)
        for initializer in Self.fenced {
            #expect(app.output.contains("\(initializer) initializer is inaccessible due to '@_spi' protection level"), "\(app.output)")
        }
    }
}
