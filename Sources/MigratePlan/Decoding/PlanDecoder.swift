import Foundation
import MigrateSupport

/// The result of reading a plan: the model when it could be built, the parsed document for
/// locating problems, and every problem found.
public struct PlanDocument: Sendable {
    public var plan: MigrationPlan?
    public var root: JSONNode?
    public var diagnostics: [Diagnostic]

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Turns `migration.json` text into a `MigrationPlan`, reporting every problem it can see.
///
/// Structural problems (syntax, types, unknown keys, bad versions, dates and prices) are found
/// here; cross-references and semantics are `PlanValidator`'s and MigrateCore's job.
public enum PlanDecoder {
    public static func decode(_ text: String) -> PlanDocument {
        decode(bytes: Array(text.utf8))
    }

    public static func decode(bytes: [UInt8]) -> PlanDocument {
        if let offset = UTF8Check.firstInvalidByte(in: bytes) {
            let diagnostic = Diagnostic(
                .error, code: .invalidUTF8,
                "the file is not valid UTF-8: byte \(offset) (0x\(String(bytes[offset], radix: 16, uppercase: true))) does not start a UTF-8 character",
                location: UTF8Check.location(of: offset, in: bytes),
                hint: "Save the plan as UTF-8 (in Xcode: File inspector → Text Encoding → Unicode (UTF-8)); migrate does not guess other encodings.")
            return PlanDocument(plan: nil, root: nil, diagnostics: [diagnostic])
        }
        let root: JSONNode
        do {
            // Duplicate keys are reported by `ObjectReader` with their JSON path, beside every other problem.
            root = try JSONParser.parse(bytes: bytes, keepingDuplicateKeys: true)
        } catch {
            let diagnostic = Diagnostic(
                .error, code: .jsonSyntax, error.message, location: error.location,
                hint: "Fix the JSON syntax first; other checks run once the file parses.")
            return PlanDocument(plan: nil, root: nil, diagnostics: [diagnostic])
        }
        let sink = DiagnosticSink()
        let plan = decodePlan(root, sink: sink)
        var diagnostics = sink.diagnostics
        if let plan {
            diagnostics += PlanValidator.validate(plan)
        }
        return PlanDocument(plan: plan, root: root, diagnostics: diagnostics.located(in: root))
    }

    static func decodePlan(_ root: JSONNode, sink: DiagnosticSink) -> MigrationPlan? {
        guard let reader = ObjectReader(root, at: .root, sink: sink, describing: "A migration plan", keys: PlanKeys.Root.self) else { return nil }
        let formatVersion = reader.integer(.formatVersion) ?? MigrationPlan.currentFormatVersion
        if formatVersion != MigrationPlan.currentFormatVersion {
            sink.error(
                .unsupportedFormat,
                "formatVersion \(formatVersion) is not supported; this migrate reads version \(MigrationPlan.currentFormatVersion)",
                at: reader.path(.formatVersion))
        }
        let app = reader.object(.app, as: PlanKeys.App.self, required: true).flatMap { decodeApp($0) }
        let features = (reader.array(.features) ?? []).compactMap { decodeFeature($0.node, $0.path, sink) }
        let releases = (reader.array(.releases) ?? []).compactMap { decodeRelease($0.node, $0.path, sink) }
        let products = (reader.array(.products) ?? []).compactMap { decodeProduct($0.node, $0.path, sink) }
        let tiers = (reader.array(.tiers) ?? []).compactMap { decodeTier($0.node, $0.path, sink) }
        let policies = reader.object(.policies, as: PlanKeys.Policies.self).map { decodePolicies($0) } ?? Policies()
        let installBase = reader.object(.installBase, as: PlanKeys.InstallBase.self).map { decodeInstallBase($0) }
        let simulation = reader.object(.simulation, as: PlanKeys.Simulation.self).map { decodeSimulation($0) }
        let directSales = reader.object(.directSales, as: PlanKeys.DirectSales.self).map { decodeDirectSales($0) }
        guard let app else { return nil }
        return MigrationPlan(
            schemaReference: reader.string(.schema), formatVersion: formatVersion, app: app, features: features, releases: releases,
            products: products,
            tiers: tiers, policies: policies, installBase: installBase, simulation: simulation, directSales: directSales)
    }

    private static func decodeInstallBase(_ reader: ObjectReader<PlanKeys.InstallBase>) -> InstallBase {
        var base = InstallBase(from: readDate(reader, .from, required: false), until: readDate(reader, .until, required: false))
        func count<Key>(_ reader: ObjectReader<Key>, _ key: Key) -> Int {
            guard let value = reader.integer(key) else { return 0 }
            if value < 0 { reader.sink.error(.invalidValue, "'\(key)' must not be negative, found \(value)", at: reader.path(key)) }
            return max(0, value)
        }
        for item in reader.array(.downloads) ?? [] {
            guard
                let row = ObjectReader(item.node, at: item.path, sink: reader.sink, describing: "A download count", keys: PlanKeys.DownloadCount.self)
            else { continue }
            let platform = row.string(.platform).flatMap { readPlatform($0, at: row.path(.platform), sink: reader.sink) }
            let version = readVersion(row, .version, required: false, meaning: "the marketing version")
            base.downloads.append(
                DownloadCount(
                    platform: platform, version: version, paid: count(row, .paid), free: count(row, .free), refunds: count(row, .refunds)))
        }
        for item in reader.array(.products) ?? [] {
            guard let row = ObjectReader(item.node, at: item.path, sink: reader.sink, describing: "A product count", keys: PlanKeys.ProductCount.self)
            else { continue }
            guard let product = row.identifier(.product) else { continue }
            base.products.append(ProductCount(product: product, units: count(row, .units), refunds: count(row, .refunds)))
        }
        for item in reader.array(.months) ?? [] {
            guard
                let row = ObjectReader(
                    item.node, at: item.path, sink: reader.sink, describing: "A month's paid downloads", keys: PlanKeys.MonthlyDownloads.self)
            else { continue }
            guard let month = row.identifier(.month) else { continue }
            guard MonthlyDownloads.isMonth(month) else {
                reader.sink.error(.invalidValue, "'\(month)' is not a month written YYYY-MM, such as 2011-03", at: row.path(.month))
                continue
            }
            if base.months.contains(where: { $0.month == month }) {
                reader.sink.error(.duplicate, "month '\(month)' is listed twice", at: row.path(.month))
                continue
            }
            base.months.append(MonthlyDownloads(month: month, paid: count(row, .paid)))
        }
        base.months.sort { $0.month < $1.month }
        return base
    }

    private static func decodeApp(_ reader: ObjectReader<PlanKeys.App>) -> AppInfo? {
        let name = reader.identifier(.name)
        let bundleID = reader.identifier(.bundleID)
        let platforms = decodePlatforms(reader, key: .platforms, required: true) ?? []
        if reader.has(.platforms) && platforms.isEmpty {
            reader.sink.error(.emptyValue, "'platforms' must list at least one platform", at: reader.path(.platforms))
        }
        let universal = reader.bool(.universalPurchase) ?? false
        let appleID = reader.string(.appleID)
        if let appleID, appleID.isEmpty || !appleID.allSatisfy({ $0.isASCII && $0.isNumber }) || appleID.count > 20 {
            reader.sink.error(
                .invalidValue, "'appleID' is the number in the app's App Store URL (apps.apple.com/app/id1234567890), digits only",
                at: reader.path(.appleID))
        }
        guard let name, let bundleID else { return nil }
        var app = AppInfo(name: name, bundleID: bundleID, platforms: platforms, universalPurchase: universal)
        app.sku = reader.string(.sku).flatMap { $0.isEmpty ? nil : $0 }
        app.appleID = appleID
        return app
    }

    static func decodePlatforms<Key>(_ reader: ObjectReader<Key>, key: Key, required: Bool) -> [Platform]? {
        guard let items = reader.array(key, required: required) else { return nil }
        var platforms: [Platform] = []
        for item in items {
            guard let text = item.node.stringValue else {
                reader.sink.error(.wrongType, "expected a platform name, found \(item.node.value.kindName)", at: item.path)
                continue
            }
            if let platform = readPlatform(text, at: item.path, sink: reader.sink) {
                if platforms.contains(platform) {
                    reader.sink.error(.duplicateID, "platform '\(platform)' is listed twice", at: item.path)
                } else {
                    platforms.append(platform)
                }
            }
        }
        return platforms
    }

    static func readPlatform(_ text: String, at path: JSONPath, sink: DiagnosticSink) -> Platform? {
        if let platform = Platform(rawValue: text) { return platform }
        let names = Platform.allCases.map(\.rawValue)
        if let platform = Platform(named: text) {
            sink.error(.invalidValue, "platform '\(text)' must be written '\(platform)'", at: path, hint: "Did you mean '\(platform)'?")
            return platform
        }
        let hint = Suggestions.closest(to: text, in: names).map { "Did you mean '\($0)'?" } ?? "Use one of: \(names.joined(separator: ", "))."
        sink.error(.unknownPlatform, "unknown platform '\(text)'", at: path, hint: hint)
        return nil
    }

    private static func decodeFeature(_ node: JSONNode, _ path: JSONPath, _ sink: DiagnosticSink) -> Feature? {
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A feature", keys: PlanKeys.Feature.self) else { return nil }
        guard let id = reader.identifier(.id) else { return nil }
        let name = reader.identifier(.name, required: false) ?? id
        return Feature(id: id, name: name, origin: path)
    }

    /// The text of a value written as a string or, with a warning, as a JSON number (which a developer means the
    /// same way, but which tools may reformat): versions and prices.
    static func stringOrNumber<Key>(
        _ reader: ObjectReader<Key>, _ key: Key, required: Bool, missing: String, expected: String, numberCode: DiagnosticCode,
        numberMessage: (String) -> String
    ) -> String? {
        guard let node = reader.value(key) else {
            if required { reader.sink.error(.missingKey, "missing '\(key)' (\(missing))", at: reader.path(key)) }
            return nil
        }
        switch node.value {
        case .string(let string):
            return string
        case .number(let literal):
            reader.sink.warning(numberCode, numberMessage(literal), at: reader.path(key))
            return literal
        default:
            reader.sink.error(.wrongType, "'\(key)' must be \(expected), found \(node.value.kindName)", at: reader.path(key))
            return nil
        }
    }

    static func readVersion<Key>(_ reader: ObjectReader<Key>, _ key: Key, required: Bool, meaning: String) -> Version? {
        // A bare 31 is what a developer means; say how to write it so no tool reformats it.
        guard
            let text = stringOrNumber(
                reader, key, required: required, missing: meaning, expected: "a string such as \"1.2.5\"", numberCode: .numberAsVersion,
                numberMessage: { "'\(key)' is a JSON number; write it as a string (\"\($0)\") so that 1.10 stays 1.10" })
        else { return nil }
        do {
            let version = try Version(text)
            if version.hasExtraComponents {
                reader.sink.warning(
                    .versionComponents, "'\(text)' has \(version.components.count) components; Apple documents at most three",
                    at: reader.path(key))
            }
            return version
        } catch {
            reader.sink.error(
                .invalidVersion, error.description, at: reader.path(key),
                hint: "Use one to three period-separated integers, such as \"31\" or \"1.2.5\".")
            return nil
        }
    }

    /// A date-time; for a `goLive`, a date alone is the end of that day everywhere (`Timestamp.parseGoLive`).
    static func readDate<Key>(_ reader: ObjectReader<Key>, _ key: Key, required: Bool, goLive: Bool = false) -> Date? {
        guard let text = reader.string(key, required: required) else { return nil }
        guard let date = goLive ? Timestamp.parseGoLive(text) : Timestamp.parse(text) else {
            reader.sink.error(
                .invalidDate, "'\(text)' is not an ISO 8601 date-time", at: reader.path(key),
                hint: "Write it in UTC, such as \"2012-02-08T17:00:00Z\", or with an offset such as \"+01:00\".")
            return nil
        }
        return date
    }

    static func readPrice<Key>(_ reader: ObjectReader<Key>, _ key: Key, required: Bool) -> Price? {
        guard
            let text = stringOrNumber(
                reader, key, required: required, missing: "a decimal string such as \"4.99\"", expected: "a decimal string such as \"4.99\"",
                numberCode: .numberAsPrice, numberMessage: { "'\(key)' is a JSON number; write prices as strings (\"\($0)\") so no tool rounds them" }
            )
        else { return nil }
        do {
            return try Price(text)
        } catch {
            reader.sink.error(.invalidPrice, error.description, at: reader.path(key))
            return nil
        }
    }

    private static func decodeRelease(_ node: JSONNode, _ path: JSONPath, _ sink: DiagnosticSink) -> Release? {
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A release", keys: PlanKeys.Release.self) else { return nil }
        let platformName = reader.string(.platform, required: true)
        let platform = platformName.flatMap { readPlatform($0, at: reader.path(.platform), sink: sink) }
        let version = readVersion(reader, .version, required: true, meaning: "the marketing version, CFBundleShortVersionString")
        let build = readVersion(
            reader, .build, required: platform != nil && platform != .macOS,
            meaning: "the build number, CFBundleVersion, which iOS receipts carry")
        let released = readDate(reader, .released, required: true, goLive: true)
        let releasedSource = reader.choice(.releasedSource, from: PlanKeys.releasedSources).flatMap(ReleaseDateSource.init(rawValue:))
        let modelName = reader.choice(.model, from: PlanKeys.models, required: true)
        let price = readPrice(reader, .price, required: modelName == "paid")
        let includes = reader.strings(.includes)
        var model = BusinessModel.free
        if modelName == "paid" {
            if let price, price.isZero {
                sink.error(
                    .invalidPrice, "a paid release must have a price above zero; use \"model\": \"free\" for a free one", at: reader.path(.price))
            }
            model = .paid(price ?? .zero)
        } else if modelName == "free", let price, !price.isZero {
            sink.error(
                .invalidPrice, "a free release cannot have a price of \(price)", at: reader.path(.price),
                hint: "Remove 'price' or set \"model\": \"paid\".")
        }
        guard let platform, let version, let released, modelName != nil else { return nil }
        return Release(
            platform: platform, version: version, build: build, released: released, releasedSource: releasedSource, model: model,
            includes: includes, origin: path)
    }

    private static func decodeProduct(_ node: JSONNode, _ path: JSONPath, _ sink: DiagnosticSink) -> Product? {
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A product", keys: PlanKeys.Product.self) else { return nil }
        let id = reader.identifier(.id)
        let name = reader.identifier(.name, required: false)
        let kind = reader.choice(.type, from: PlanKeys.productTypes, required: true).flatMap(Product.Kind.init(rawValue:))
        let price = readPrice(reader, .price, required: true)
        let grants = reader.strings(.grants) ?? []
        let contains = reader.strings(.contains) ?? []
        let requires = reader.strings(.requires) ?? []
        let forSale = reader.bool(.forSale) ?? true
        let familyShareable = reader.bool(.familyShareable) ?? false
        var subscription: SubscriptionInfo?
        if let subscriptionReader = reader.object(.subscription, as: PlanKeys.Subscription.self, required: kind == .autoRenewable) {
            let group = subscriptionReader.identifier(.group)
            let level = subscriptionReader.integer(.level) ?? 1
            if level < 1 {
                sink.error(
                    .invalidValue, "'level' must be 1 or more (1 is the highest level of service)",
                    at: reader.path(.subscription) / PlanKeys.Subscription.level)
            }
            let period = subscriptionReader.choice(.period, from: PlanKeys.subscriptionPeriods, required: true)
            if kind != nil && kind != .autoRenewable {
                sink.error(.invalidValue, "'subscription' applies only to products of type 'autoRenewable'", at: reader.path(.subscription))
            }
            let offer = subscriptionReader.object(.introductoryOffer, as: PlanKeys.IntroductoryOffer.self).flatMap {
                decodeIntroductoryOffer($0, sink)
            }
            if let group, let period {
                subscription = SubscriptionInfo(group: group, level: level, period: period, introductoryOffer: offer)
            }
        }
        /// The ISO 8601 period `text` read at `key`, reported with `code` and `hint` when it doesn't parse.
        func period(_ text: String?, at key: PlanKeys.Product, _ code: DiagnosticCode, hint: String) -> TrialPeriod? {
            guard let text else { return nil }
            do {
                return try TrialPeriod(text, for: key == .duration ? .purchase : .trial)
            } catch {
                sink.error(code, error.message, at: reader.path(key), hint: hint)
                return nil
            }
        }
        let trialText = reader.string(.trial)
        let trial = period(
            trialText, at: .trial, .invalidTrial, hint: "Write the trial's length as an ISO 8601 duration, such as \"P14D\" or \"P1M\".")
        if trialText != nil {
            if let kind, kind != .nonConsumable {
                sink.error(
                    .invalidTrial,
                    "'trial' applies only to a nonConsumable (a free \"14-day Trial\" product); a subscription's trial is its introductory offer",
                    at: reader.path(.trial), hint: "Make the trial product a nonConsumable at price \"0\", or remove 'trial'.")
            }
            if let price, !price.isZero {
                sink.error(
                    .invalidTrial, "a trial product must be free: App Review allows time-based trials as a non-consumable at the free price tier",
                    at: reader.path(.price), hint: "Set \"price\": \"0\", or remove 'trial' from a product that is sold.")
            }
        }
        let durationText = reader.string(.duration)
        let duration = period(
            durationText, at: .duration, .invalidDuration,
            hint: "Write how long one purchase lasts as an ISO 8601 duration, such as \"P1Y\" or \"P3M\".")
        if durationText != nil {
            if let kind, kind != .nonRenewing {
                sink.error(
                    .invalidDuration,
                    "'duration' applies only to a nonRenewing subscription (StoreKit ends the others itself, or they never end)",
                    at: reader.path(.duration), hint: "Remove 'duration', or make the product a nonRenewing subscription.")
            }
        }
        if kind == .consumable && !grants.isEmpty {
            sink.error(
                .consumableGrants, "a consumable cannot grant features: it is used up and never restored", at: reader.path(.grants),
                hint: "Make it a nonConsumable, or remove 'grants'.")
        }
        guard let id, let kind else { return nil }
        return Product(
            id: id, name: name ?? id, kind: kind, price: price ?? .zero, grants: grants, contains: contains, requires: requires,
            forSale: forSale, familyShareable: familyShareable, subscription: subscription, trial: trial, duration: duration, origin: path)
    }

    /// A subscription's introductory offer: a free trial has no price, the paid ones need one, and only a
    /// pay-as-you-go offer lasts several periods.
    static func decodeIntroductoryOffer(_ reader: ObjectReader<PlanKeys.IntroductoryOffer>, _ sink: DiagnosticSink) -> IntroductoryOffer? {
        let mode = reader.choice(.paymentMode, from: PlanKeys.paymentModes, required: true).flatMap(IntroductoryOffer.PaymentMode.init(rawValue:))
        let period = reader.choice(.period, from: PlanKeys.introductoryPeriods, required: true)
        let periods = reader.integer(.periods)
        let price = readPrice(reader, .price, required: mode == .payUpFront || mode == .payAsYouGo)
        if let periods {
            if mode != nil && mode != .payAsYouGo {
                sink.error(
                    .invalidIntroductoryOffer, "'periods' applies only to a payAsYouGo offer; a \(mode!.rawValue) offer lasts its 'period'",
                    at: reader.path(.periods), hint: "Remove 'periods', or make the offer payAsYouGo.")
            } else if !PlanKeys.introductoryPeriodCounts.contains(periods) {
                sink.error(
                    .invalidIntroductoryOffer,
                    "a pay-as-you-go offer lasts \(PlanKeys.introductoryPeriodCounts.lowerBound) to \(PlanKeys.introductoryPeriodCounts.upperBound) periods, not \(periods)",
                    at: reader.path(.periods))
            }
        }
        if mode == .freeTrial, let price, !price.isZero {
            sink.error(
                .invalidIntroductoryOffer, "a free trial charges nothing, but 'price' is \(price)", at: reader.path(.price),
                hint: "Remove 'price', or make the offer payUpFront or payAsYouGo.")
        }
        if mode != nil && mode != .freeTrial, let price, price.isZero {
            sink.error(
                .invalidIntroductoryOffer, "a \(mode!.rawValue) offer at 0 is a free trial", at: reader.path(.price),
                hint: "Write \"paymentMode\": \"freeTrial\" and remove 'price'.")
        }
        guard let mode, let period else { return nil }
        return IntroductoryOffer(
            paymentMode: mode, period: period, periods: mode == .payAsYouGo ? (periods ?? 1) : 1, price: mode == .freeTrial ? nil : price)
    }

    static func decodeTier(_ node: JSONNode, _ path: JSONPath, _ sink: DiagnosticSink) -> LegacyTier? {
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A tier", keys: PlanKeys.Tier.self) else { return nil }
        let id = reader.identifier(.id)
        let name = reader.identifier(.name, required: false)
        let from = readDate(reader, .from, required: false)
        let until = readDate(reader, .until, required: false)
        if let from, let until, from >= until {
            sink.error(.invalidWindow, "'from' must be before 'until'", at: reader.path(.until))
        }
        let platforms = decodePlatforms(reader, key: .platforms, required: false)
        let grants = reader.strings(.grants)
        let takesAway = reader.strings(.takesAway) ?? []
        var discounts: [Discount] = []
        for item in reader.array(.discounts) ?? [] {
            guard let discountReader = ObjectReader(item.node, at: item.path, sink: sink, describing: "A discount", keys: PlanKeys.Discount.self)
            else { continue }
            let product = discountReader.identifier(.product)
            let price = readPrice(discountReader, .price, required: true)
            let charge = decodeCharge(discountReader)
            if let product, let price { discounts.append(Discount(product: product, price: price, charge: charge)) }
        }
        guard let id else { return nil }
        return LegacyTier(
            id: id, name: name ?? id, from: from, until: until, platforms: platforms, grants: grants, takesAway: takesAway, discounts: discounts,
            origin: path)
    }

    /// The mechanism that charges a discount: `promotionalOffer` or `legacyProduct`, never both. A
    /// discount with neither decodes (so `check` can explain what to add) and is rejected there.
    private static func decodeCharge(_ reader: ObjectReader<PlanKeys.Discount>) -> LegacyCharge? {
        let offer = reader.identifier(.promotionalOffer, required: false)
        let legacyProduct = reader.identifier(.legacyProduct, required: false)
        let introductory = reader.bool(.introductoryOffer) == true
        let named = [(offer != nil, PlanKeys.Discount.promotionalOffer), (legacyProduct != nil, .legacyProduct), (introductory, .introductoryOffer)]
            .filter(\.0).map(\.1)
        if named.count > 1 {
            reader.sink.error(
                .discountTwoMechanisms,
                "a discount names one mechanism that charges it, but this one has "
                    + named.map { "'\($0.rawValue)'" }.joined(separator: " and "),
                at: reader.path(named[1]),
                hint:
                    "Keep 'legacyProduct' (a separate product), 'promotionalOffer' (for a tier already subscribed) or 'introductoryOffer' "
                    + "(first periods only); remove the others.")
            return nil
        }
        if introductory { return .introductoryOffer }
        if let offer {
            if let problem = LegacyCharge.offerIDProblem(offer) {
                reader.sink.error(
                    .invalidOfferID, "'\(offer)' is not an App Store offer identifier: it \(problem)", at: reader.path(.promotionalOffer),
                    hint: "Use the Promotional Offer Identifier from App Store Connect, such as \"legacy.yearly\".")
                return nil
            }
            return .promotionalOffer(id: offer)
        }
        return legacyProduct.map { .legacyProduct($0) }
    }

    private static func decodePolicies(_ reader: ObjectReader<PlanKeys.Policies>) -> Policies {
        var policies = Policies()
        if let nonProduction = reader.object(.nonProduction, as: PlanKeys.NonProduction.self) {
            switch nonProduction.choice(.treatAs, from: PlanKeys.nonProductionChoices, required: true) {
            case "tier":
                if let tier = nonProduction.identifier(.tier) { policies.nonProduction = .tier(tier) }
            case "newCustomer":
                if nonProduction.has(.tier) {
                    reader.sink.error(.invalidValue, "'tier' applies only when 'treatAs' is \"tier\"", at: nonProduction.path(.tier))
                }
            default: break
            }
        }
        if let failure = reader.object(.verificationFailure, as: PlanKeys.VerificationFailure.self) {
            switch failure.choice(.action, from: PlanKeys.verificationFailureChoices, required: true) {
            case "keepLastVerified":
                if let days = failure.integer(.days, required: true) {
                    let bounds = PlanKeys.keepLastVerifiedDays
                    if !bounds.contains(days) {
                        reader.sink.error(
                            .invalidValue, "'days' must be between \(bounds.lowerBound) and \(bounds.upperBound), found \(days)",
                            at: failure.path(.days),
                            hint: "A week (7) covers most outages without turning a cache into a free pass.")
                    } else {
                        policies.verificationFailure = .keepLastVerified(days: days)
                    }
                }
            case "deny":
                if failure.has(.days) {
                    reader.sink.error(.invalidValue, "'days' applies only when 'action' is \"keepLastVerified\"", at: failure.path(.days))
                }
            default: break
            }
        }
        if let sharing = reader.choice(.familySharing, from: PlanKeys.familySharingChoices) {
            policies.familySharing = Policies.FamilySharing(rawValue: sharing)!
        }
        if let rule = reader.choice(.cutoffRule, from: PlanKeys.cutoffRuleChoices) {
            policies.cutoffRule = Policies.CutoffRule(rawValue: rule)!
        }
        if let grant = reader.object(.provisionalGrant, as: PlanKeys.ProvisionalGrant.self) {
            let tier = grant.identifier(.tier)
            if let days = grant.integer(.days, required: true) {
                let bounds = PlanKeys.provisionalGrantDays
                if !bounds.contains(days) {
                    reader.sink.error(
                        .invalidValue, "'days' must be between \(bounds.lowerBound) and \(bounds.upperBound), found \(days)",
                        at: grant.path(.days),
                        hint: "A few days (3) cover a first launch offline; forged evidence gains no more than that.")
                } else if let tier {
                    policies.provisionalGrant = Policies.ProvisionalGrant(tier: tier, days: days)
                }
            }
        }
        return policies
    }
}
