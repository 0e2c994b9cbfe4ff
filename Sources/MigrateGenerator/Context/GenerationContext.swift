import Foundation
import FreemiumStoreKit
import MigrateCore
import MigratePlan
import MigrateSupport

/// Choices that change the generated code but not the plan.
public struct GenerationOptions: Sendable, Hashable {
    public enum Access: String, Sendable, CaseIterable {
        case `public`
        case `internal`
    }

    /// How the StoreKit layer (the FreemiumStoreKit library) reaches the app.
    public enum StoreLayer: String, Sendable, CaseIterable {
        /// Its sources copied verbatim into `MODULE/FreemiumStoreKit/`, its test double's into
        /// `MODULETests/FreemiumStoreKitTesting/`: nothing to depend on.
        case vendored
        /// Not copied: the generated code imports the FreemiumStoreKit library product of migrate's
        /// package (the tests also FreemiumStoreKitTesting), so `swift package update` brings the layer's fixes.
        case dependency
    }

    public var access: Access
    /// The Swift module the generated code lives in; the tests `@testable import` it.
    public var module: String
    /// The plan's file name as the header and docs show it (never an absolute path).
    public var sourceName: String
    public var storeLayer: StoreLayer
    /// Where a generated `Package.swift` finds migrate's package in `.dependency` mode: a git URL
    /// (depended on from this migrate's version) or a local path. Nil outside a package.
    public var storeLayerPackage: String?
    /// Also the server's decisions (`MODULEServer`, its tests and SERVER.md), `generate --server`.
    public var server: Bool

    public init(
        access: Access = .public, module: String = "Freemium", sourceName: String = "migration.json", storeLayer: StoreLayer = .vendored,
        storeLayerPackage: String? = nil, server: Bool = false
    ) {
        self.server = server
        self.access = access
        self.module = module
        self.sourceName = sourceName
        self.storeLayer = storeLayer
        self.storeLayerPackage = storeLayerPackage
    }

    /// The identity SwiftPM gives that package: the last component of its URL or path, without `.git`.
    public var storeLayerPackageIdentity: String {
        let location = storeLayerPackage ?? "migrate"
        var name = location.split(separator: "/").last.map(String.init) ?? location
        if name.hasSuffix(".git") { name.removeLast(4) }
        return name.lowercased()
    }

    /// The `.package(…)` a generated manifest names for the layer: a path, or a URL from `version`.
    public func storeLayerPackageDeclaration(version: String) -> String {
        guard let storeLayerPackage else { return "" }
        let location = SwiftIdentifier.stringLiteral(storeLayerPackage)
        guard storeLayerPackage.contains("://") || storeLayerPackage.hasPrefix("git@") else { return ".package(path: \(location))" }
        return ".package(url: \(location), from: \(SwiftIdentifier.stringLiteral(version)))"
    }
}

/// Builds the context templates see from a plan: plain values, sorted, with every list in a stable
/// order. Templates/CONTEXT.md documents each key; it is the contract for custom templates.
public struct GenerationContext: Sendable {
    public let catalog: PlanCatalog
    public let options: GenerationOptions
    let featureCases: [String: String]
    let productCases: [String: String]
    let tierCases: [String: String]
    let testCases: [GeneratedTestCase]
    let upsell: UpsellPolicy
    /// The engine over `catalog`, made once for the test cases and the offer table.
    let advisor: Advisor
    /// The cutoff rules' tables the engine runs, printed as the generated app's (`trackValue`).
    let cohortRules: PlanCohortRules
    /// Each product id's position in the plan (its first), for listing products in plan order.
    let productPosition: [String: Int]
    /// Each feature's name, by id.
    let featureNames: [String: String]
    /// `featureReference` and `productReference` of every feature and product of the plan, made once: the test cases
    /// name them tens of thousands of times on a large plan, and one shared value each is a few megabytes where a
    /// value a mention was a hundred.
    let featureReferences: [String: TemplateValue]
    let productReferences: [String: TemplateValue]

    public init(catalog: PlanCatalog, options: GenerationOptions, testCases: [GeneratedTestCase]? = nil) {
        self.catalog = catalog
        self.options = options
        let plan = catalog.plan
        featureCases = SwiftIdentifier.featureCases(plan).cases
        productCases = SwiftIdentifier.productCases(plan).cases
        tierCases = SwiftIdentifier.unique(catalog.tiers.map(\.id))
        advisor = Advisor(catalog: catalog)
        cohortRules = catalog.makeCohortRules()
        self.testCases = testCases ?? TestCaseBuilder.cases(for: catalog, advisor: advisor)
        upsell = advisor.upsellPolicy
        var positions: [String: Int] = [:]
        for (offset, product) in plan.products.enumerated() where positions[product.id] == nil { positions[product.id] = offset }
        productPosition = positions
        featureNames = Dictionary(plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let features = self.featureCases
        let products = self.productCases
        featureReferences = Dictionary(
            plan.features.map { ($0.id, Self.reference(id: $0.id, case: features[$0.id])) }, uniquingKeysWith: { first, _ in first })
        productReferences = Dictionary(
            plan.products.map { ($0.id, Self.reference(id: $0.id, case: products[$0.id])) }, uniquingKeysWith: { first, _ in first })
    }

    var plan: MigrationPlan { catalog.plan }

    /// A tier's legacy prices as the layer's rules apply them (below the regular price, a legacy product only
    /// where it exists), by regular product id.
    func legacyPrices(of tier: ResolvedTier) -> [(product: String, price: PlanRules.LegacyPrice)] {
        (upsell.rules.legacyPrices[tier.id] ?? [:]).map { ($0.key.rawValue, $0.value) }.sorted { $0.product < $1.product }
    }

    /// Whether some tier's legacy price is charged as `matches` says.
    func anyLegacyPrice(_ matches: (PlanRules.LegacyPrice.Charge) -> Bool) -> Bool {
        upsell.rules.legacyPrices.values.contains { $0.values.contains { matches($0.charge) } }
    }

    /// A Swift expression for how an offer is charged: `nil`, `.promotionalOffer(id: "…")` or `.legacyProduct(.case)`.
    func chargeExpression(_ charge: LegacyCharge?) -> String {
        switch charge {
        case nil: "nil"
        case .promotionalOffer(let id): ".promotionalOffer(id: \(SwiftIdentifier.stringLiteral(id)))"
        case .legacyProduct(let id): ".legacyProduct(.\(productCases[id] ?? SwiftIdentifier.make(id)))"
        case .introductoryOffer: ".introductoryOffer"
        }
    }

    /// A Swift expression for how a legacy price is charged, as the rules' tables write it.
    func chargeExpression(_ charge: PlanRules.LegacyPrice.Charge) -> String {
        switch charge {
        case .displayOnly: ".displayOnly"
        case .promotionalOffer(let id): ".promotionalOffer(id: \(SwiftIdentifier.stringLiteral(id)))"
        case .legacyProduct(let id): ".legacyProduct(.\(productCases[id.rawValue] ?? SwiftIdentifier.make(id.rawValue)))"
        case .introductoryOffer: ".introductoryOffer"
        }
    }

    /// The whole context.
    public var value: TemplateValue {
        let platforms = Self.platforms(of: catalog)
        let features = plan.features.map { feature -> TemplateValue in
            [
                "id": .string(feature.id), "case": .string(featureCases[feature.id]!), "name": .string(Self.oneLine(feature.name)),
                "literal": .string(SwiftIdentifier.stringLiteral(feature.id)),
            ]
        }
        let base: TemplateValue = [
            "generator": "migrate",
            "source": .string(options.sourceName),
            "access": .string(options.access == .public ? "public " : ""),
            "accessName": .string(options.access.rawValue),
            "module": .string(options.module),
            "storeLayer": .string(options.storeLayer.rawValue),
            "importsStoreLayer": .bool(options.storeLayer == .dependency),
            "storeLayerPackageIdentity": .string(SwiftIdentifier.stringLiteral(options.storeLayerPackageIdentity)),
            "storeLayerPackage": .string(options.storeLayerPackageDeclaration(version: ToolVersion.current)),
            "app": [
                "name": .string(plan.app.name), "bundleID": .string(plan.app.bundleID),
                "universalPurchase": .bool(plan.app.universalPurchase),
            ],
            "platforms": .list(platforms.map(platformValue)),
            "hasMac": .bool(platforms.contains(.macOS)),
            "buildNumberPlatformsList": buildNumberPlatformsList,
            "hasTiers": .bool(!catalog.tiers.isEmpty),
            "hasFallbacks": .bool(platforms.contains { catalog.tracks[$0] == nil && catalog.trackPlatform(for: $0) != nil }),
            "features": .list(features),
            "products": Self.swiftList(plan.products.map(productValue)),
            "productsWithRequires": Self.swiftList(
                planOrdered(catalogRules.requirements.keys).compactMap(catalog.product(withID:)).map(productValue)),
            "tiersWithLegacyPrices": Self.swiftList(catalog.tiers.filter { !legacyPrices(of: $0).isEmpty }.map(tierValue)),
            "tiers": Self.swiftList(catalog.tiers.map(tierValue)),
            "anyPromotionalOffers": .bool(anyLegacyPrice { if case .promotionalOffer = $0 { true } else { false } }),
            "anyIntroductoryOffers": .bool(anyLegacyPrice { $0 == .introductoryOffer }),
            "tracks": Self.swiftList(catalog.tracks.keys.sorted().map(trackValue)),
            "fallbacks": Self.swiftList(
                platforms.compactMap { platform -> TemplateValue? in
                    guard catalog.tracks[platform] == nil, let fallback = catalog.trackPlatform(for: platform) else { return nil }
                    return ["platform": .string(platform.rawValue), "fallback": .string(fallback.rawValue)]
                }),
            "policies": policiesValue,
            "testCount": .string(String(testCases.count)),
            "pairwiseLeftOut": TestCaseBuilder.includesPairwise(plan)
                ? .bool(false)
                : .string("\(Limits.pairwiseTestProducts) products or \(Limits.pairwiseTestReleases) releases"),
            "tests": Self.swiftList(testValues),
            "rules": .list(rulesValue),
            "featureColumns": .bool(featureColumns),
            "featureHeader": .string(featureColumns ? plan.features.map { Self.markdownCell($0.name) }.joined(separator: " | ") : ""),
            "featureAlignment": .string(featureColumns ? String(repeating: ":-:|", count: plan.features.count) : ""),
            "cohortRows": .list(cohortRows),
            "productRows": .list(productRows),
            "offerRows": .list(offerRows),
            "storekit": storeKitValue,
        ]
        guard case .object(var members) = base else { return base }
        members.merge(catalogTableValues) { _, table in table }
        members.merge(storeLayerValues) { _, layer in layer }
        members.merge(serverValues) { _, server in server }
        return .object(members)
    }
}
