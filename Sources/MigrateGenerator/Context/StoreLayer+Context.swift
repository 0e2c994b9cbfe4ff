import Foundation
import FreemiumStoreKit
import MigrateCore
import MigratePlan

/// The part of the context for the StoreKit layer (`FreemiumStore`, `AppStoreFront`, the cache),
/// its generated tests and INTEGRATION.md: messages, the running platform, and customers chosen by
/// migrate's engine for the layer's tests.
extension GenerationContext {
    /// The OS a binary is built for, and the plan platform its purchases count as.
    static let runningOperatingSystems: [(os: String, platform: Platform)] = [
        ("iOS", .iOS), ("macOS", .macOS), ("tvOS", .tvOS), ("watchOS", .watchOS), ("visionOS", .visionOS),
    ]

    /// A fixed "now" for the generated layer tests, after every plausible release.
    static let storeTestsNow: Int64 = 4_102_444_800  // 2100-01-01

    var storeLayerValues: [String: TemplateValue] {
        let access = options.access == .public ? "public " : ""
        let platforms = Self.platforms(of: catalog)
        var running: [String: TemplateValue] = [:]
        for (os, platform) in Self.runningOperatingSystems {
            let chosen =
                platforms.contains(platform) ? platform : (platform == .iOS && platforms.contains(.iPadOS) ? .iPadOS : platforms.first ?? .iOS)
            running[os] = .string(chosen.rawValue)
        }
        return [
            // The layer's words (`StoreMessages.english`), listed in INTEGRATION.md.
            "purchaseMessageRows": .list(
                StoreMessages.english.entries.map { entry in ["key": .string(entry.name), "text": .string(entry.text)] }),
            "runningPlatforms": .object(running),
            "layerVersion": .string(StoreLayerSources.version),
            "cacheServiceDeclaration": .string(
                Self.declaration("\(access)static let service =", SwiftIdentifier.stringLiteral("\(catalog.plan.app.bundleID).migrate"), indent: 4)),
            "storeTests": storeTestsValue,
            "isPublic": .bool(options.access == .public),
            "packagePlatforms": .string(packagePlatforms),
            "appTypeName": .string(SwiftIdentifier.typeName(catalog.plan.app.name)),
            "firstFeature": catalog.plan.features.first.map { feature -> TemplateValue in
                ["case": .string(featureCases[feature.id] ?? SwiftIdentifier.make(feature.id)), "name": .string(Self.oneLine(feature.name))]
            } ?? .bool(false),
            "nonProductionText": .string(nonProductionText),
        ]
    }

    /// `prefix value` on one line when it fits swift-format's 100 columns, otherwise the value on a
    /// line of its own, indented once more, as swift-format breaks it.
    static func declaration(_ prefix: String, _ value: String, indent: Int) -> String {
        let line = prefix + " " + value
        if indent + line.count <= 100 { return line }
        return prefix + "\n" + String(repeating: " ", count: indent + 2) + value
    }

    /// `.iOS(.v16), .macOS(.v13)` and the plan's other platforms, at the first OS with `AppTransaction`.
    private var packagePlatforms: String {
        let minimums: [(Platform, String)] = [
            (.iOS, ".iOS(.v16)"), (.macOS, ".macOS(.v13)"), (.tvOS, ".tvOS(.v16)"), (.watchOS, ".watchOS(.v9)"), (.visionOS, ".visionOS(.v1)"),
        ]
        let named = Set(catalog.plan.app.platforms.map { $0 == .iPadOS ? .iOS : $0 })
        return minimums.filter { $0.0 == .iOS || $0.0 == .macOS || named.contains($0.0) }.map(\.1).joined(separator: ", ")
    }

    private var nonProductionText: String {
        if case .tier(let id) = catalog.plan.policies.nonProduction, let tier = catalog.tiers.first(where: { $0.id == id }) {
            return "in the tier \"\(Self.oneLine(tier.name))\""
        }
        return "a new customer"
    }

    // MARK: - Customers for the layer's tests

    private var storeTestsValue: TemplateValue {
        let plan = catalog.plan
        let plain = testCases.filter {
            let customer = $0.customer
            // The layer reads the original platform as the App Store names it: none is iPadOS.
            let storeKitNamesOriginal = customer.originalPlatform.map { Self.storeKitPlatforms[$0] != nil } ?? true
            return storeKitNamesOriginal && customer.environment == .production && customer.appTransaction == .verified
                && !customer.isAppPurchaseRevoked
                && !customer.isVolumePurchase && customer.purchases.isEmpty && customer.originalAppVersion != nil
                && customer.originalPurchaseDate != nil
        }
        let legacy = plain.first { if case .legacy = $0.expected.decision.cohort { true } else { false } }
        let newCustomer = plain.first { $0.expected.decision.cohort == .newCustomer && $0.expected.decision.rule != .undetermined }
        let consumable = plan.products.first { $0.forSale && $0.kind == .consumable }
        let sellable = newCustomer.flatMap { customer in
            // A free trial is bought like any product but grants only with a purchase date: not this test's product.
            customer.expected.upsell.offers.first { offer in
                catalog.product(withID: offer.productID).map { $0.kind != .consumable && $0.trial == nil } ?? false
            }
        }
        // Tilt to Live HD's double charge: a product a legacy customer must not be sold though a new
        // customer may buy it.
        var refusal: (test: GeneratedTestCase, product: String)?
        if let newCustomer {
            let offeredToNew = Set(newCustomer.expected.upsell.offers.map(\.productID))
            for test in plain {
                guard case .legacy = test.expected.decision.cohort else { continue }
                let withheld = test.expected.upsell.withheld.map(\.productID).filter(offeredToNew.contains)
                let preferred = withheld.first { id in catalog.product(withID: id)?.contains.isEmpty == false } ?? withheld.first
                if let preferred {
                    refusal = (test, preferred)
                    break
                }
            }
        }
        // Legacy prices: a promotional offer the app's server signs, and a legacy product.
        func charged(_ matches: (LegacyCharge) -> Bool) -> (test: GeneratedTestCase, offer: MigrateCore.Offer)? {
            for test in plain {
                guard case .legacy = test.expected.decision.cohort else { continue }
                if let offer = test.expected.upsell.offers.first(where: { $0.charge.map(matches) ?? false }) { return (test, offer) }
            }
            return nil
        }
        let promo = charged { if case .promotionalOffer = $0 { true } else { false } }
        let legacyProduct = charged { if case .legacyProduct = $0 { true } else { false } }
        let introductory = charged { $0 == .introductoryOffer }
        var value: [String: TemplateValue] = [
            "now": .string("Date(timeIntervalSince1970: \(Self.grouped(Self.storeTestsNow)))"),
            "hasLegacy": .bool(legacy != nil),
            "hasSellable": .bool(sellable != nil && newCustomer != nil),
            "hasRefusal": .bool(refusal != nil),
            "hasConsumable": .bool(consumable != nil && newCustomer != nil),
        ]
        if let legacy { value["legacy"] = customerValue(legacy) }
        // INTEGRATION.md's trial: a legacy customer when there is one.
        if let trial = legacy ?? newCustomer ?? plain.first ?? testCases.first { value["trial"] = customerValue(trial) }
        if let newCustomer { value["newCustomer"] = customerValue(newCustomer, id: "new-1", indent: 6) }
        if let refusal {
            value["refusal"] = customerValue(refusal.test, id: "refused-1", indent: 8)
            value["refused"] = productReference(refusal.product)
            let reason = refusal.test.expected.upsell.withheld.first { $0.productID == refusal.product }?.reason ?? ""
            value["refusedReason"] = .string(Self.oneLine(reason))
        }
        // The App Store model's catalog: the plan's products as App Store Connect would declare them.
        value["modelProducts"] = Self.swiftList(plan.products.map { ["declaration": .string(modelProduct($0))] })
        // A subscriber's next steps, as the engine offers them: another plan in the group, and Lifetime.
        value["hasSubscriberJourney"] = false
        let advisor = Advisor(catalog: catalog)
        if let newCustomer {
            for offer in newCustomer.expected.upsell.offers where catalog.product(withID: offer.productID)?.kind == .autoRenewable {
                var customer = newCustomer.customer
                customer.purchases = [OwnedProduct(productID: offer.productID)]
                let upsell = advisor.report(for: customer).upsell
                let lifetime = upsell.offers.first { $0.keepsRenewing == [offer.productID] }
                let switchTo = upsell.offers.first { $0.switchesFrom == offer.productID }
                let switchWithheld = upsell.withheld.first { $0.switchesFrom == offer.productID }
                guard lifetime != nil || switchTo != nil || switchWithheld != nil else { continue }
                value["hasSubscriberJourney"] = true
                value["subscriberJourney"] = [
                    "subscription": productReference(offer.productID),
                    "lifetime": lifetime.map { productReference($0.productID) } ?? false,
                    "switchTo": switchTo.map { productReference($0.productID) } ?? false,
                    "switchWithheld": switchWithheld.map { productReference($0.productID) } ?? false,
                    // When the App Store makes that change (the layer's rule): at the next renewal, or at once.
                    "switchDeferred": .bool(
                        switchWithheld.map {
                            catalog.makeRules().change(from: ProductKey(offer.productID), to: ProductKey($0.productID)).timing == .nextRenewal
                        } ?? false),
                ]
                break
            }
        }
        // App Review's fresh sandbox account: in the plan's tier for testers, buying that tier's legacy price.
        value["hasTesterJourney"] = false
        if let newCustomer, case .tier = plan.policies.nonProduction {
            var tester = newCustomer.customer
            tester.environment = .sandbox
            let report = advisor.report(for: tester)
            if case .legacy = report.decision.cohort, let offer = report.upsell.offers.first(where: { $0.charge != nil }) {
                value["hasTesterJourney"] = true
                value["testerProduct"] = productReference(offer.productID)
            }
        }
        // A shared subscription first: its journey also proves a family member is never told to switch or cancel it.
        let shareable = plan.products.filter { $0.isSharedByFamily && $0.forSale && $0.trial == nil }
        let shared = shareable.first { $0.kind == .autoRenewable } ?? shareable.first
        value["hasFamilyShared"] = .bool(shared != nil && newCustomer != nil)
        if let shared {
            value["familyShared"] = productReference(shared.id)
            value["familySharingEntitles"] = .bool(plan.policies.familySharing == .entitles)
        }
        // An offer code: for the product a direct sale's license holders redeem, else for what a new customer may buy.
        let codeProduct =
            plan.directSales?.editions.lazy.compactMap(\.legacyProduct).compactMap { self.catalog.product(withID: $0) }
            .first { $0.kind == .nonConsumable || $0.kind == .autoRenewable } ?? sellable.flatMap { catalog.product(withID: $0.productID) }
        value["hasOfferCode"] = .bool(codeProduct != nil && sellable != nil && newCustomer != nil)
        if let codeProduct {
            value["codeProduct"] = productReference(codeProduct.id)
            value["codeShareable"] = .bool(codeProduct.isSharedByFamily)
        }
        // A lapsed subscriber: a subscription a new customer may buy, without a free trial.
        let lapse = newCustomer.flatMap { customer in
            customer.expected.upsell.offers.first { offer in
                catalog.product(withID: offer.productID).map { $0.kind == .autoRenewable && $0.trial == nil } ?? false
            }
        }
        // A pass a new customer may buy, bought again while it runs.
        let pass = newCustomer?.expected.upsell.offers.first { offer in
            catalog.product(withID: offer.productID).map { $0.kind == .nonRenewing && $0.duration != nil } ?? false
        }
        value["pass"] = pass.map { productReference($0.productID) } ?? false
        value["hasLapseJourney"] = .bool(lapse != nil)
        if let lapse { value["lapse"] = productReference(lapse.productID) }
        value["hasPromo"] = .bool(promo != nil)
        if let promo, case .promotionalOffer(let id)? = promo.offer.charge {
            value["promo"] = customerValue(promo.test, id: "promo-1", indent: 8)
            value["promoProduct"] = productReference(promo.offer.productID)
            value["promoOfferID"] = .string(id)
        }
        value["hasIntroductoryJourney"] = .bool(introductory != nil)
        if let introductory {
            value["introBuyer"] = customerValue(introductory.test, id: "paid-app-buyer", indent: 8)
            value["introProduct"] = productReference(introductory.offer.productID)
        }
        value["hasLegacyProduct"] = .bool(legacyProduct != nil && newCustomer != nil)
        if let legacyProduct {
            value["legacyBuyer"] = customerValue(legacyProduct.test, id: "paid-app-buyer", indent: 8)
            value["legacyProduct"] = productReference(legacyProduct.offer.productID)
        }
        return .object(value)
    }

    /// `.init(id: …, kind: …)`: how the App Store model declares a product of the plan.
    private func modelProduct(_ product: Product) -> String {
        let kind: String
        switch product.kind {
        case .consumable: kind = ".consumable"
        case .nonConsumable: kind = ".nonConsumable"
        case .nonRenewing: kind = ".nonRenewing"
        case .autoRenewable:
            let info = product.subscription
            let days = info.flatMap { SubscriptionPeriods.lengths[$0.period]?.days } ?? 30
            kind =
                ".autoRenewable(group: \(SwiftIdentifier.stringLiteral(info?.group ?? "")), level: \(info?.level ?? 1), period: \(Self.grouped(Int64(days * 86_400))))"
        }
        var arguments = ["id: \(SwiftIdentifier.stringLiteral(product.id))", "kind: \(kind)"]
        if product.familyShareable { arguments.append("isFamilyShareable: true") }
        let discounts = catalog.tiers.flatMap(\.discounts).filter { $0.product == product.id }
        let offers = discounts.compactMap { discount -> String? in
            guard case .promotionalOffer(let id)? = discount.charge else { return nil }
            return id
        }
        if !offers.isEmpty {
            arguments.append("promotionalOffers: [\(Set(offers).sorted().map(SwiftIdentifier.stringLiteral).joined(separator: ", "))]")
        }
        if discounts.contains(where: { $0.charge == .introductoryOffer }) {
            arguments.append("hasIntroductoryOffer: true")
        }
        return Self.call("AppStoreModel.Product", arguments, indent: 2)
    }

    /// `name(a, b)` as swift-format writes it at `indent`, before the comma an element of a list
    /// takes: on one line when it fits its 100 columns, else the arguments on the next line, else
    /// one argument a line.
    static func call(_ name: String, _ arguments: [String], indent: Int) -> String {
        let packed = arguments.joined(separator: ", ")
        if indent + name.count + packed.count + 3 <= 100 { return "\(name)(\(packed))" }
        let inner = String(repeating: " ", count: indent + 2)
        if inner.count + packed.count + 2 <= 100 { return "\(name)(\n\(inner)\(packed))" }
        return "\(name)(\n" + arguments.map { inner + $0 }.joined(separator: ",\n") + ")"
    }

    /// A customer of the layer's journeys. `facts` is their `AppTransactionFacts(…)` with the id
    /// `id`, laid out to start a line `indent` spaces in.
    private func customerValue(_ test: GeneratedTestCase, id: String = "customer-1", indent: Int = 6) -> TemplateValue {
        let customer = test.customer
        let date = customer.originalPurchaseDate ?? .distantPast
        let originalPlatform = customer.originalPlatform.flatMap { Self.storeKitPlatforms[$0] }.map { ".\($0)" } ?? "nil"
        let version = SwiftIdentifier.stringLiteral(customer.originalAppVersion ?? "")
        let facts = SwiftLayout.call(
            "AppTransactionFacts",
            [
                .text("appTransactionID: " + SwiftIdentifier.stringLiteral(id)), .text("originalAppVersion: " + version),
                .text("originalPurchaseDate: " + Self.dateExpression(date)), .text("originalPlatform: " + originalPlatform),
            ])
        return [
            "facts": .string(facts.rendered(at: indent)),
            "name": .string(Self.oneLine(test.name)),
            "platform": .string(customer.platform.rawValue),
            // The App Store's name for it (`StorePlatform`); the customers chosen have one.
            "originalPlatform": .string(originalPlatform),
            "version": .string(version),
            "date": .string(Self.dateExpression(date)),
            "cohort": .string(cohortExpression(test.expected.decision.cohort)),
        ]
    }
}
