import Foundation
import MigrateCore
import MigratePlan

/// Choices that change the generated code but not the plan.
public struct GenerationOptions: Sendable, Hashable {
    public enum Access: String, Sendable, CaseIterable {
        case `public`
        case `internal`
    }

    public var access: Access
    /// The Swift module the generated code lives in; the tests `@testable import` it.
    public var module: String
    /// The plan's file name as the header and docs show it (never an absolute path).
    public var sourceName: String

    public init(access: Access = .public, module: String = "Freemium", sourceName: String = "migration.json") {
        self.access = access
        self.module = module
        self.sourceName = sourceName
    }
}

/// Builds the context templates see from a plan: plain values, sorted, with every list in a stable
/// order. Templates/CONTEXT.md documents each key; it is the contract for custom templates.
public struct GenerationContext {
    public let catalog: PlanCatalog
    public let options: GenerationOptions
    let featureCases: [String: String]
    let productCases: [String: String]
    let tierCases: [String: String]
    let testCases: [GeneratedTestCase]
    let upsell: UpsellPolicy
    /// Each product id's position in the plan (its first), for listing products in plan order.
    let productPosition: [String: Int]
    /// Each feature's name, by id.
    let featureNames: [String: String]

    public init(catalog: PlanCatalog, options: GenerationOptions, testCases: [GeneratedTestCase]? = nil) {
        self.catalog = catalog
        self.options = options
        let plan = catalog.plan
        featureCases = SwiftIdentifier.featureCases(plan).cases
        productCases = SwiftIdentifier.productCases(plan).cases
        tierCases = SwiftIdentifier.unique(catalog.tiers.map(\.id))
        self.testCases = testCases ?? TestCaseBuilder.cases(for: catalog)
        upsell = UpsellPolicy(catalog: catalog)
        var positions: [String: Int] = [:]
        for (offset, product) in plan.products.enumerated() where positions[product.id] == nil { positions[product.id] = offset }
        productPosition = positions
        featureNames = Dictionary(plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    private var plan: MigrationPlan { catalog.plan }

    /// A tier's promotional offers that charge a legacy price, as the engine applies them
    /// (only below the regular price): product id and offer identifier, by product id.
    func promotionalOffers(of tier: ResolvedTier) -> [(product: String, offer: String)] {
        tier.discounts.compactMap { discount -> (product: String, offer: String)? in
            guard case .promotionalOffer(let id) = discount.charge, let product = catalog.product(withID: discount.product),
                discount.price < product.price
            else { return nil }
            return (discount.product, id)
        }.sorted { $0.product < $1.product }
    }

    /// The legacy products a tier buys instead of regular ones, as the engine substitutes them.
    func legacyProducts(of tier: ResolvedTier) -> [(regular: String, legacy: String)] {
        plan.products.compactMap { product in upsell.legacyTwin(of: product, in: tier).map { (product.id, $0.id) } }
            .sorted { $0.regular < $1.regular }
    }

    /// A Swift expression for how an offer is charged: `nil`, `.promotionalOffer(id: "…")` or `.legacyProduct(.case)`.
    private func chargeExpression(_ charge: LegacyCharge?) -> String {
        switch charge {
        case nil: "nil"
        case .promotionalOffer(let id): ".promotionalOffer(id: \(SwiftIdentifier.stringLiteral(id)))"
        case .legacyProduct(let id): ".legacyProduct(.\(productCases[id] ?? SwiftIdentifier.make(id)))"
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
            "app": [
                "name": .string(plan.app.name), "bundleID": .string(plan.app.bundleID),
                "universalPurchase": .bool(plan.app.universalPurchase),
            ],
            "platforms": .list(platforms.map(platformValue)),
            "hasMac": .bool(platforms.contains(.macOS)),
            "hasTiers": .bool(!catalog.tiers.isEmpty),
            "hasFallbacks": .bool(platforms.contains { catalog.tracks[$0] == nil && catalog.trackPlatform(for: $0) != nil }),
            "features": .list(features),
            "products": Self.swiftList(plan.products.map(productValue)),
            "productsWithRequires": Self.swiftList(plan.products.filter { !$0.requires.isEmpty }.map(productValue)),
            "tiersWithDiscounts": Self.swiftList(catalog.tiers.filter { !$0.discounts.isEmpty }.map(tierValue)),
            "consumablesList": productList(plan.products.filter { $0.kind == .consumable }.map(\.id)),
            "trials": Self.swiftList(
                plan.products.compactMap { product -> TemplateValue? in
                    guard let trial = product.trial else { return nil }
                    return [
                        "case": .string(productCases[product.id]!), "spoken": .string(trial.spoken), "years": .string(String(trial.years)),
                        "months": .string(String(trial.months)), "days": .string(String(trial.weeks * 7 + trial.days)),
                    ]
                }),
            "hasTrials": .bool(plan.products.contains { $0.trial != nil }),
            "familyShareableList": productList(plan.products.filter(\.familyShareable).map(\.id)),
            "forSaleList": productList(plan.products.filter(\.forSale).map(\.id)),
            "anyRequires": .bool(plan.products.contains { !$0.requires.isEmpty }),
            "tiers": Self.swiftList(catalog.tiers.map(tierValue)),
            "anyDiscounts": .bool(catalog.tiers.contains { !$0.discounts.isEmpty }),
            "tiersWithPromotionalOffers": Self.swiftList(catalog.tiers.filter { !promotionalOffers(of: $0).isEmpty }.map(tierValue)),
            "anyPromotionalOffers": .bool(catalog.tiers.contains { !promotionalOffers(of: $0).isEmpty }),
            "tiersWithLegacyProducts": Self.swiftList(catalog.tiers.filter { !legacyProducts(of: $0).isEmpty }.map(tierValue)),
            "anyLegacyProducts": .bool(catalog.tiers.contains { !legacyProducts(of: $0).isEmpty }),
            "legacyOnlyList": productList(plan.products.map(\.id).filter { upsell.legacyProductTiers[$0] != nil }),
            "tracks": Self.swiftList(catalog.tracks.keys.sorted().map(trackValue)),
            "fallbacks": Self.swiftList(
                platforms.compactMap { platform -> TemplateValue? in
                    guard catalog.tracks[platform] == nil, let fallback = catalog.trackPlatform(for: platform) else { return nil }
                    return ["platform": .string(platform.rawValue), "fallback": .string(fallback.rawValue)]
                }),
            "freeFeatures": Self.swiftList(
                catalog.tracks.keys.sorted().compactMap { platform -> TemplateValue? in
                    let free = catalog.freeFeatures(on: platform)
                    let ordered = catalog.ordered(free)
                    return ["platform": .string(platform.rawValue), "features": .list(ordered.map(featureReference)), "featuresList": featureList(ordered)]
                }),
            "policies": policiesValue,
            "restoreMessages": [
                "failed": .string(SwiftIdentifier.stringLiteral(RestoreOutcome.failed.message)),
                "nothingRestored": .string(SwiftIdentifier.stringLiteral(RestoreOutcome.nothingRestored.message)),
                "restored": .string(SwiftIdentifier.stringLiteral(RestoreOutcome.restored.message)),
            ],
            "testCount": .string(String(testCases.count)),
            "pairwiseLeftOut": TestCaseBuilder.includesPairwise(plan)
                ? .bool(false)
                : .string("\(Limits.pairwiseTestProducts) products or \(Limits.pairwiseTestReleases) releases"),
            "tests": Self.swiftList(testCases.enumerated().map { testValue($1, number: $0 + 1) }),
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
        members.merge(storeLayerValues) { _, layer in layer }
        return .object(members)
    }

    // MARK: - Pieces

    static func platforms(of catalog: PlanCatalog) -> [Platform] {
        Set(catalog.plan.app.platforms).union(catalog.tracks.keys).sorted()
    }

    private func platformValue(_ platform: Platform) -> TemplateValue {
        let storeKit: [Platform: String] = [.iOS: "iOS", .macOS: "macOS", .tvOS: "tvOS", .visionOS: "visionOS"]
        return [
            "case": .string(platform.rawValue),
            "storeKitPlatform": storeKit[platform].map { .string($0) } ?? .bool(false),
        ]
    }

    /// `.a, .b` for a one-line Swift collection literal (swift-format wants no trailing comma there).
    private func featureList(_ ids: [String]) -> TemplateValue {
        .string(ids.map { "." + (featureCases[$0] ?? SwiftIdentifier.make($0)) }.joined(separator: ", "))
    }

    private func productList(_ ids: [String]) -> TemplateValue {
        .string(ids.map { "." + (productCases[$0] ?? SwiftIdentifier.make($0)) }.joined(separator: ", "))
    }

    private func featureReference(_ id: String) -> TemplateValue {
        ["case": .string(featureCases[id] ?? SwiftIdentifier.make(id)), "id": .string(id)]
    }

    func productReference(_ id: String) -> TemplateValue {
        ["case": .string(productCases[id] ?? SwiftIdentifier.make(id)), "id": .string(id)]
    }

    private func productValue(_ product: Product) -> TemplateValue {
        let features = catalog.ordered(catalog.productFeatures[product.id] ?? [])
        let contents = productOrdered(catalog.productContents[product.id] ?? [])
        return [
            "id": .string(product.id),
            "case": .string(productCases[product.id]!),
            "literal": .string(SwiftIdentifier.stringLiteral(product.id)),
            "name": .string(Self.oneLine(product.name)),
            "type": .string(product.kind.rawValue),
            "isConsumable": .bool(product.kind == .consumable),
            "forSale": .bool(product.forSale),
            "familyShareable": .bool(product.familyShareable),
            "price": .string(product.price.description),
            "priceUnits": .string(Self.grouped(product.price.tenThousandths)),
            "grants": .list(catalog.ordered(Set(product.grants)).map(featureReference)),
            "contents": .list(contents.map(productReference)),
            "requires": .list(catalog.ordered(Set(product.requires)).map(featureReference)),
            "hasRequires": .bool(!product.requires.isEmpty),
            "effectiveFeatures": .list(features.map(featureReference)),
            "grantsList": featureList(catalog.ordered(Set(product.grants))),
            "contentsList": productList(contents),
            "requiresList": featureList(catalog.ordered(Set(product.requires))),
            "effectiveFeaturesList": featureList(features),
        ]
    }

    private func tierValue(_ tier: ResolvedTier) -> TemplateValue {
        [
            "id": .string(tier.id),
            "case": .string(tierCases[tier.id]!),
            "literal": .string(SwiftIdentifier.stringLiteral(tier.id)),
            "name": .string(Self.oneLine(tier.name)),
            "grants": .list(tier.grants.map(featureReference)),
            "grantsList": featureList(tier.grants),
            "hasDiscounts": .bool(!tier.discounts.isEmpty),
            "promotionalOffersList": .string(
                promotionalOffers(of: tier).map { ".\(productCases[$0.product] ?? SwiftIdentifier.make($0.product)): \(SwiftIdentifier.stringLiteral($0.offer))" }
                    .joined(separator: ", ")),
            "legacyProductsList": .string(
                legacyProducts(of: tier).map {
                    ".\(productCases[$0.regular] ?? SwiftIdentifier.make($0.regular)): .\(productCases[$0.legacy] ?? SwiftIdentifier.make($0.legacy))"
                }.joined(separator: ", ")),
            "discountsList": .string(
                tier.discounts.sorted { $0.product < $1.product }.map { discount in
                    let product = productCases[discount.product] ?? SwiftIdentifier.make(discount.product)
                    return ".\(product): (\(SwiftIdentifier.stringLiteral(discount.price.description)), \(Self.grouped(discount.price.tenThousandths)))"
                }.joined(separator: ", ")),
            "discounts": .list(
                tier.discounts.sorted { $0.product < $1.product }.map { discount in
                    [
                        "product": .string(productCases[discount.product] ?? SwiftIdentifier.make(discount.product)),
                        "price": .string(discount.price.description),
                        "priceLiteral": .string(SwiftIdentifier.stringLiteral(discount.price.description)),
                        "priceUnits": .string(Self.grouped(discount.price.tenThousandths)),
                    ]
                }),
        ]
    }

    private func trackValue(_ platform: Platform) -> TemplateValue {
        let meaning = platform.originalVersionMeaning
        let releases = (catalog.tracks[platform] ?? []).compactMap { index -> TemplateValue? in
            let release = plan.releases[index]
            guard let key = release.receiptVersion(meaning) else { return nil }
            let tier = catalog.tier(ofRelease: index).map { ".\(tierCases[$0.id]!)" } ?? "nil"
            return [
                "versionLiteral": .string(SwiftIdentifier.stringLiteral(key.text)),
                "components": .string(key.components.map { Self.grouped(Int64(clamping: $0)) }.joined(separator: ", ")),
                "timestamp": .string(Self.grouped(Int64(release.released.timeIntervalSince1970.rounded(.down)))),
                "iso": .string(Timestamp.format(release.released)),
                "tier": .string(tier),
                "paid": .bool(release.model.isPaid),
                "displayName": .string(release.displayName),
            ]
        }
        func date(_ value: Date?) -> String {
            value.map { "Date(timeIntervalSince1970: \(Self.grouped(Int64($0.timeIntervalSince1970.rounded(.down)))))" } ?? "nil"
        }
        let windows = catalog.windows(on: platform).map { window -> TemplateValue in
            [
                "tier": .string(".\(tierCases[catalog.tiers[window.tier].id]!)"),
                "from": .string(date(window.from)),
                "until": .string(date(window.until)),
            ]
        }
        return [
            "windows": Self.swiftList(windows),
            "hasWindows": .bool(!windows.isEmpty),
            "platform": .string(platform.rawValue),
            "versionRuleIsSound": .bool(catalog.cutoffs[platform]?.isVersionRuleSound ?? false),
            "releases": Self.swiftList(releases),
        ]
    }

    private var policiesValue: TemplateValue {
        let policies = plan.policies
        var nonProduction = ".newCustomer"
        if case .tier(let id) = policies.nonProduction, let tier = tierCases[id] { nonProduction = ".legacy(.\(tier))" }
        var keep = "nil"
        var failureText = "deny"
        if case .keepLastVerified(let days) = policies.verificationFailure {
            keep = String(days)
            failureText = "keep the last verified result for \(days) days"
        }
        return [
            "nonProductionCohort": .string(nonProduction),
            "keepLastVerifiedDays": .string(keep),
            "keepWhileUnreachableDays": .string(String(policies.daysKeptWhileStoreUnreachable)),
            "verificationFailureText": .string(failureText),
            "familySharingEntitles": .bool(policies.familySharing == .entitles),
            "cutoffRuleLiteral": .string(SwiftIdentifier.stringLiteral(policies.cutoffRule.rawValue)),
        ]
    }

    // MARK: - Tests

    func cohortExpression(_ cohort: Cohort) -> String {
        switch cohort {
        case .legacy(let id): ".legacy(.\(tierCases[id] ?? SwiftIdentifier.make(id)))"
        case .newCustomer: ".newCustomer"
        }
    }

    private func cohortText(_ cohort: Cohort) -> String {
        switch cohort {
        case .legacy(let id): "legacy \(id)"
        case .newCustomer: "new customer"
        }
    }

    private func testValue(_ test: GeneratedTestCase, number: Int) -> TemplateValue {
        let customer = test.customer
        let report = test.expected
        var name = test.name
        // Only the customer's own products appear in a case name; longest first, so a bundle id
        // that extends another id is replaced whole.
        for id in Set(customer.purchases.map(\.productID)).sorted(by: { $0.count > $1.count }) {
            if let name_ = productCases[id] { name = name.replacingOccurrences(of: id, with: name_) }
        }
        name = Self.oneLine(name)
        if name.count > 72 { name = String(name.prefix(71)) + "…" }
        let verification: String
        let verificationText: String
        switch customer.appTransaction {
        case .verified:
            verification = ".verified"
            verificationText = "verified"
        case .failed(let age):
            verification = ".failed(lastVerifiedDaysAgo: \(age.map(String.init) ?? "nil"))"
            verificationText = "failed" + (age.map { " (cache \($0) d)" } ?? " (no cache)")
        }
        let owns = customer.purchases.map { owned -> TemplateValue in
            [
                "literal": .string(SwiftIdentifier.stringLiteral(owned.productID)),
                "ownership": .string(owned.ownership.rawValue),
                "isRevoked": .bool(owned.isRevoked), "isExpired": .bool(owned.isExpired), "isVerified": .bool(owned.isVerified),
            ]
        }
        let ownsText = customer.purchases.map { owned -> String in
            let states = owned.stateNames
            let label = productCases[owned.productID] ?? owned.productID
            return label + (states.isEmpty ? "" : " (\(states.joined(separator: ", ")))")
        }
        let features = report.entitlements.features.map(\.featureID)
        let offers = report.upsell.offers.map(\.productID)
        let date = customer.originalPurchaseDate
        let csvFields: [String: String] = [
            "name": name,
            "originalPlatform": customer.originalPlatform?.rawValue ?? "",
            "version": customer.originalAppVersion ?? "",
            "date": date.map(Timestamp.format) ?? "",
            "verification": verificationText,
            "owns": ownsText.joined(separator: "; "),
            "cohort": cohortText(report.decision.cohort),
            "features": features.joined(separator: "; "),
            "offers": offers.joined(separator: "; "),
        ]
        return [
            "number": .string(String(number)),
            "name": .string(Self.markdownCell(name)),
            "nameLiteral": .string(SwiftIdentifier.stringLiteral(name)),
            "version": .string(customer.originalAppVersion.map(SwiftIdentifier.stringLiteral) ?? "nil"),
            "versionText": .string(customer.originalAppVersion.map { "`\($0)`" } ?? "—"),
            "date": .string(date.map { "Date(timeIntervalSince1970: \(Self.grouped(Int64($0.timeIntervalSince1970.rounded(.down)))))" } ?? "nil"),
            "dateText": .string(date.map(Timestamp.format) ?? "—"),
            "platform": .string(customer.platform.rawValue),
            "platformText": .string(customer.platform.rawValue + (customer.originalPlatform.map { " (first bought on \($0))" } ?? "")),
            "originalPlatform": .string(customer.originalPlatform.map { ".\($0.rawValue)" } ?? "nil"),
            "environment": .string(customer.environment.rawValue),
            "verification": .string(verification),
            "isRevoked": .bool(customer.isAppPurchaseRevoked),
            "isVolumePurchase": .bool(customer.isVolumePurchase),
            "owns": Self.swiftList(owns),
            "hasOwns": .bool(!owns.isEmpty),
            "ownsText": .string(Self.markdownCell(ownsText.isEmpty ? "—" : ownsText.joined(separator: ", "))
                + (customer.isVolumePurchase ? " (VPP install)" : "") + (customer.isAppPurchaseRevoked ? " (download refunded)" : "")
                + (verification == ".verified" ? "" : " (verification \(verificationText))")),
            "cohort": .string(cohortExpression(report.decision.cohort)),
            "cohortText": .string(cohortText(report.decision.cohort)),
            "rule": .string(report.decision.rule.rawValue),
            "features": .list(features.map(featureReference)),
            "featuresList": featureList(features),
            "featuresText": .string(features.isEmpty ? "—" : features.joined(separator: ", ")),
            "offers": .list(offers.map(productReference)),
            "offersList": productList(offers),
            "offersText": .string(offers.isEmpty ? "—" : offers.map { productCases[$0] ?? $0 }.joined(separator: ", ")),
            "chargesList": .string(Self.collectionItems(report.upsell.offers.map { chargeExpression($0.charge) }, prefix: "    charges: ")),
            "showsRestore": .bool(report.upsell.showsRestore),
            "restoreText": .string(report.upsell.showsRestore ? "shown" : "hidden"),
            "csv": .object(csvFields.mapValues { .string(Self.csvField($0)) }),
        ]
    }

    // MARK: - Documentation tables

    private var rulesValue: [TemplateValue] {
        PlanChecker.rules(of: catalog).map { rule in
            ["platform": .string(rule.platform.rawValue), "rule": .string(rule.rule.displayName), "reason": .string(Self.markdownCell(rule.reason))]
        }
    }

    /// Whether the Markdown tables have a column per feature. Past `maximumFeatureColumns` they list each
    /// row's features instead: a product × feature grid grows with the square of the catalogue (400 MB of
    /// Markdown at 10,000 products), and no one reads a table that wide.
    var featureColumns: Bool { plan.features.count <= Self.maximumFeatureColumns }

    /// `cells` and `cellsText` for a row of a feature table (empty without feature columns), and `featuresText`:
    /// the names of the features in `marked`, in plan order.
    private func featureCells(_ marked: Set<String>, yes: String, no: String) -> [String: TemplateValue] {
        let names = catalog.ordered(marked).map { Self.markdownCell(featureNames[$0] ?? $0) }
        var members: [String: TemplateValue] = ["featuresText": .string(names.isEmpty ? "—" : names.joined(separator: ", "))]
        let cells: [TemplateValue] = featureColumns ? plan.features.map { ["mark": .string(marked.contains($0.id) ? yes : no)] } : []
        members["cells"] = .list(cells)
        members["cellsText"] = Self.cellsText(cells)
        return members
    }

    private var cohortRows: [TemplateValue] {
        var rows: [TemplateValue] = []
        let free = Set(plan.app.platforms.flatMap { catalog.freeFeatures(on: $0) })
        for tier in catalog.tiers {
            var row = featureCells(free.union(tier.grants), yes: "✓", no: "—")
            row["title"] = .string(Self.markdownCell("\(tier.name) (`\(tier.id)`)"))
            rows.append(.object(row))
        }
        var row = featureCells(free, yes: "✓", no: "—")
        row["title"] = "New customers (free download)"
        rows.append(.object(row))
        return rows
    }

    private var productRows: [TemplateValue] {
        plan.products.map { product in
            let features = catalog.productFeatures[product.id] ?? []
            var row = featureCells(features, yes: "✓", no: " ")
            row["id"] = .string(product.id)
            row["name"] = .string(Self.markdownCell(product.name == product.id ? "" : product.name))
            row["price"] = .string(product.price.description)
            row["forSale"] = .string(product.forSale ? "yes" : "retired")
            // `cells` of a product row leave unmarked features empty rather than "—".
            if featureColumns { row["cells"] = .list(plan.features.map { ["mark": .string(features.contains($0.id) ? "✓" : "")] }) }
            return .object(row)
        }
    }

    /// For each cohort with nothing bought, and with each lasting product bought, what is offered and withheld.
    private var offerRows: [TemplateValue] {
        let advisor = Advisor(catalog: catalog)
        var seen = Set<Cohort>()
        var bases: [(String, Customer)] = []
        for test in testCases where test.customer.environment == .production && test.customer.purchases.isEmpty
            && test.expected.decision.rule != .undetermined && test.customer.appTransaction == .verified
            && !test.customer.isVolumePurchase && !test.customer.isAppPurchaseRevoked
        {
            if seen.insert(test.expected.decision.cohort).inserted {
                let title: String
                if let tier = test.expected.tier { title = "\(tier.name) (`\(tier.id)`)" } else { title = "New customers" }
                bases.append((title, test.customer))
            }
        }
        var rows: [TemplateValue] = []
        for (title, base) in bases {
            // One row per lasting product shows how bundles and add-ons behave; past a few dozen
            // products the table would only repeat itself, so it stops there.
            let ownings: [[String]] = [[]] + plan.products.filter { $0.kind != .consumable }.prefix(Self.maximumOfferTableProducts).map { [$0.id] }
            for owning in ownings {
                var customer = base
                customer.purchases = owning.map { OwnedProduct(productID: $0) }
                let report = advisor.report(for: customer)
                let offered = Self.abbreviated(
                    report.upsell.offers.map { offer in
                        "`\(offer.productID)` \(offer.priceText)"
                    })
                let withheld = Self.abbreviated(report.upsell.withheld.filter { $0.reason.hasPrefix("would charge again") }.map { "`\($0.productID)`" })
                rows.append([
                    "cohort": .string(Self.markdownCell(title)),
                    "owns": .string(owning.isEmpty ? "—" : owning.map { "`\($0)`" }.joined(separator: ", ")),
                    "offered": .string(offered.isEmpty ? "nothing (Restore can be hidden)" : offered.joined(separator: ", ")),
                    "withheld": .string(withheld.isEmpty ? "—" : withheld.joined(separator: ", ") + " (would charge twice)"),
                ])
            }
        }
        return rows
    }

    // MARK: - StoreKit configuration

    private var storeKitValue: TemplateValue {
        func json(_ text: String) -> TemplateValue { .string(JSONWriter.quoted(text)) }
        func internalID(_ seed: String) -> TemplateValue { json(String(Checksum.of(seed).prefix(8)).uppercased()) }
        func withCommas(_ items: [TemplateValue]) -> TemplateValue {
            .list(
                items.enumerated().map { offset, item in
                    guard case .object(var members) = item else { return item }
                    members["comma"] = .string(offset == items.count - 1 ? "" : ",")
                    return .object(members)
                })
        }
        let sorted = plan.products.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        func item(_ product: Product) -> TemplateValue {
            [
                "productID": json(product.id), "name": json(product.name), "price": json(product.price.description),
                "familyShareable": .string(product.familyShareable ? "true" : "false"), "internalID": internalID("product " + product.id),
                "type": json(product.kind == .consumable ? "Consumable" : "NonConsumable"),
            ]
        }
        let products = sorted.filter { $0.kind == .nonConsumable || $0.kind == .consumable }.map(item)
        let nonRenewing = sorted.filter { $0.kind == .nonRenewing }.map(item)
        let subscriptions = sorted.filter { $0.kind == .autoRenewable && $0.subscription != nil }
        let groupNames = Set(subscriptions.map { $0.subscription!.group }).sorted()
        let groups = groupNames.map { group -> TemplateValue in
            let groupID = internalID("group " + group)
            let members = subscriptions.filter { $0.subscription!.group == group }.map { product -> TemplateValue in
                guard case .object(var members) = item(product) else { return .null }
                // Promotional offers that charge a tier's legacy price, one period paid up front, so they can be tried in Xcode.
                var seen = Set<String>()
                var offers: [TemplateValue] = []
                for tier in catalog.tiers {
                    for discount in tier.discounts where discount.product == product.id {
                        guard case .promotionalOffer(let id) = discount.charge, seen.insert(id).inserted else { continue }
                        offers.append([
                            "price": json(discount.price.description), "internalID": internalID("offer \(product.id) \(id)"), "offerID": json(id),
                            "name": json("\(tier.name): \(discount.price)"), "period": json(product.subscription!.period),
                        ])
                    }
                }
                members["promotionalOffers"] = withCommas(offers)
                members["level"] = .string(String(product.subscription!.level))
                members["period"] = json(product.subscription!.period)
                members["groupID"] = groupID
                return .object(members)
            }
            return ["id": groupID, "name": json(group), "subscriptions": withCommas(members)]
        }
        return [
            "identifier": internalID("configuration " + plan.app.bundleID),
            "products": withCommas(products),
            "nonRenewing": withCommas(nonRenewing),
            "groups": withCommas(groups),
        ]
    }

    // MARK: - Helpers

    static let maximumOfferTableProducts = 24
    /// The most features the Markdown tables give a column each (`featureColumns`).
    public static let maximumFeatureColumns = 40

    /// Product ids in the plan's order.
    private func productOrdered(_ ids: Set<String>) -> [String] {
        ids.compactMap { id in productPosition[id].map { ($0, id) } }.sorted { $0 < $1 }.map(\.1)
    }

    /// The first few items of a long list, and how many more there are.
    static func abbreviated(_ items: [String], limit: Int = 6) -> [String] {
        items.count <= limit ? items : Array(items.prefix(limit)) + ["and \(items.count - limit) more"]
    }

    static func cellsText(_ cells: [TemplateValue]) -> TemplateValue {
        .string(cells.compactMap { cell -> String? in if case .string(let mark)? = cell["mark"] { return mark } else { return nil } }.joined(separator: " | "))
    }

    /// Items of a multi-line Swift collection, each with the `comma` swift-format expects after it:
    /// a trailing comma on every element, except when there is only one.
    static func swiftList(_ items: [TemplateValue]) -> TemplateValue {
        .list(
            items.enumerated().map { offset, item in
                guard case .object(var members) = item else { return item }
                members["comma"] = .string(items.count == 1 ? "" : ",")
                members["isLast"] = .bool(offset == items.count - 1)
                return .object(members)
            })
    }

    /// The inside of a Swift collection literal that follows `prefix`: on one line when it fits in
    /// swift-format's 100 columns, else one element per line, with the trailing commas it wants.
    static func collectionItems(_ items: [String], prefix: String, indent: String = "    ") -> String {
        let line = items.joined(separator: ", ")
        guard prefix.count + line.count + 3 > 100, !items.isEmpty else { return line }
        let comma = items.count == 1 ? "" : ","
        return "\n" + items.map { indent + "  " + $0 + comma + "\n" }.joined() + indent
    }

    /// `1_299_776_400`, the grouping swift-format asks for.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        guard digits.count > 4 else { return String(value) }
        var groups: [String] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(String(digits[start..<end]), at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: "_")
    }

    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    static func markdownCell(_ text: String) -> String {
        let line = oneLine(text)
        guard line.utf8.contains(UInt8(ascii: "|")) else { return line }
        return line.replacingOccurrences(of: "|", with: "\\|")
    }

    static func csvField(_ text: String) -> String {
        let clean = oneLine(text)
        if clean.contains(",") || clean.contains("\"") { return "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return clean
    }
}
