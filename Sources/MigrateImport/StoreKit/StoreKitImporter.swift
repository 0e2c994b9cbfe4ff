import MigratePlan
import MigrateSupport

/// Reads an Xcode StoreKit configuration file (`.storekit`, formats 1.0 to 5.0) into products.
///
/// Apple publishes no schema, so every key is optional and unknown keys are ignored. The file's
/// `subscriptionOffersKeyPair.privateKey` is a secret: it is never read, printed or copied.
public enum StoreKitImporter {
    /// The newest format this reader knows; newer files are read with a warning.
    public static let newestKnownFormat = 5

    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportResult {
        let root = try JSONSource.parse(bytes, file: file, expecting: "the StoreKit configuration")
        guard root.objectValue != nil else {
            throw ImportError(
                .badData, file: file, location: root.location, "a StoreKit configuration is a JSON object, found \(root.value.kindName)")
        }
        var reader = Reader(file: file)
        reader.read(root)
        return reader.result
    }

    private struct Reader {
        let file: String
        var result = ImportResult(source: "storekit")
        var seen = Set<String>()

        init(file: String) { self.file = file }

        mutating func warn(_ code: DiagnosticCode, _ node: JSONNode?, _ path: JSONPath, _ message: String, hint: String? = nil) {
            result.issues.append(Diagnostic(.warning, code: code, message, at: path, location: node?.location, hint: hint, file: file))
        }

        mutating func read(_ root: JSONNode) {
            if let version = root["version"], let major = version["major"]?.scalarText.flatMap({ Int($0) }),
                major > StoreKitImporter.newestKnownFormat
            {
                let minor = version["minor"]?.scalarText ?? "0"
                warn(
                    .formatNewer, version, .root / "version",
                    "format \(major).\(minor) is newer than the formats this version of migrate knows (1.0–5.0); read as far as understood")
            }
            for key in ["products", "nonRenewingSubscriptions"] {
                for (index, node) in (root[key]?.arrayValue ?? []).enumerated() {
                    readProduct(node, at: .root / key / index, group: nil)
                }
            }
            for (groupIndex, group) in (root["subscriptionGroups"]?.arrayValue ?? []).enumerated() {
                let groupPath = JSONPath.root / "subscriptionGroups" / groupIndex
                // Group ids are 8-hex strings in Xcode files and numbers in synced ones; the name is what people read.
                let name = group["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? group["id"]?.scalarText
                for (index, node) in (group["subscriptions"]?.arrayValue ?? []).enumerated() {
                    readProduct(node, at: groupPath / "subscriptions" / index, group: name ?? "group-\(groupIndex + 1)")
                }
            }
            readSettings(root["settings"])
            if root["subscriptionOffersKeyPair"] != nil {
                // Deliberately not looked into: it holds a private key.
                result.ignored.append("subscriptionOffersKeyPair (its private key is never read or copied)")
            }
        }

        mutating func readProduct(_ node: JSONNode, at path: JSONPath, group: String?) {
            guard node.objectValue != nil else {
                warn(.entrySkipped, node, path, "expected a product object, found \(node.value.kindName); skipped")
                return
            }
            guard let id = node["productID"]?.scalarText, !id.isEmpty else {
                warn(.entrySkipped, node, path, "a product without 'productID'; skipped", hint: "Give the product an id in Xcode's StoreKit editor.")
                return
            }
            guard seen.insert(id).inserted else {
                warn(.duplicateID, node["productID"], path / "productID", "product '\(id)' appears twice; the first one is kept")
                return
            }
            let typeName = node["type"]?.stringValue
            let kind: Product.Kind
            switch typeName {
            case "Consumable": kind = .consumable
            case "NonConsumable": kind = .nonConsumable
            case "NonRenewingSubscription": kind = .nonRenewing
            case "RecurringSubscription", "AutoRenewableSubscription": kind = .autoRenewable
            case nil where group != nil: kind = .autoRenewable
            default:
                warn(
                    .unknownProductType, node["type"] ?? node, path / "type", "'\(id)': unknown product type '\(typeName ?? "none")'; skipped",
                    hint: "Known types: Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription.")
                return
            }
            guard let price = readPrice(node["displayPrice"], at: path / "displayPrice", id: id) else { return }
            var subscription: SubscriptionInfo?
            if kind == .autoRenewable {
                let period = node["recurringSubscriptionPeriod"]?.stringValue ?? ""
                guard PlanKeys.subscriptionPeriods.contains(period) else {
                    warn(
                        .unsupportedPeriod, node["recurringSubscriptionPeriod"] ?? node, path / "recurringSubscriptionPeriod",
                        "'\(id)': subscription period '\(period)' is not one the App Store sells (\(PlanKeys.subscriptionPeriods.joined(separator: ", "))); skipped"
                    )
                    return
                }
                let level = node["groupNumber"]?.scalarText.flatMap { Int($0) } ?? 1
                subscription = SubscriptionInfo(
                    group: group ?? "subscriptions", level: max(1, level), period: period,
                    introductoryOffer: readIntroductoryOffer(node, at: path, id: id))
            }
            result.products.append(
                Product(
                    id: id, name: displayName(node) ?? id, kind: kind, price: price,
                    familyShareable: node["familyShareable"]?.boolValue ?? false, subscription: subscription))
            noteOffers(node, id: id, kind: kind)
        }

        /// The en_US display name, else the first non-empty one, else the reference name.
        func displayName(_ node: JSONNode) -> String? {
            let localizations = node["localizations"]?.arrayValue ?? []
            let names = localizations.compactMap { item -> (String, String)? in
                guard let name = item["displayName"]?.stringValue, !name.isEmpty else { return nil }
                return (item["locale"]?.stringValue ?? "", name)
            }
            if let english = names.first(where: { $0.0 == "en_US" }) { return english.1 }
            if let first = names.first { return first.1 }
            if let reference = node["referenceName"]?.stringValue, !reference.isEmpty { return reference }
            return nil
        }

        mutating func readPrice(_ node: JSONNode?, at path: JSONPath, id: String) -> Price? {
            guard let node, var text = node.scalarText else {
                warn(.entrySkipped, node, path, "'\(id)' has no displayPrice; skipped", hint: "Set a price in Xcode's StoreKit editor.")
                return nil
            }
            text = text.trimmingCharacters(in: .whitespaces)
            // Some locales write "1,99"; the digits are exact either way, so read them as a decimal.
            if !text.contains("."), text.filter({ $0 == "," }).count == 1 { text = text.replacingOccurrences(of: ",", with: ".") }
            do {
                return try Price(text)
            } catch {
                warn(.invalidPrice, node, path, "'\(id)': \(error.description); skipped")
                return nil
            }
        }

        /// The subscription's introductory offer. Formats up to 4.0 hold one `introductoryOffer`, an object or null;
        /// 5.0 `introductoryOffers[]`, of which the first is read (App Store Connect runs one at a time per storefront).
        /// `paymentMode` is `free`, `payUpFront` or `payAsYouGo`; `displayPrice` is absent for a free trial, and
        /// `numberOfPeriods` counts pay-as-you-go periods.
        mutating func readIntroductoryOffer(_ node: JSONNode, at path: JSONPath, id: String) -> IntroductoryOffer? {
            var candidates: [(JSONNode, JSONPath)] = []
            if let offer = node["introductoryOffer"], offer.objectValue != nil { candidates.append((offer, path / "introductoryOffer")) }
            for (index, offer) in (node["introductoryOffers"]?.arrayValue ?? []).enumerated() where offer.objectValue != nil {
                candidates.append((offer, path / "introductoryOffers" / index))
            }
            guard let (offer, offerPath) = candidates.first else { return nil }
            if candidates.count > 1 {
                result.ignored.append("\(id): \(candidates.count - 1) more introductory offer\(candidates.count == 2 ? "" : "s") (the first is read)")
            }
            let modeText = offer["paymentMode"]?.stringValue ?? ""
            let mode: IntroductoryOffer.PaymentMode
            switch modeText {
            case "free", "freeTrial": mode = .freeTrial
            case "payUpFront": mode = .payUpFront
            case "payAsYouGo": mode = .payAsYouGo
            default:
                warn(
                    .entrySkipped, offer["paymentMode"] ?? offer, offerPath / "paymentMode",
                    "'\(id)': introductory offer with payment mode '\(modeText)'; the offer is skipped",
                    hint: "Known payment modes: free, payUpFront, payAsYouGo.")
                return nil
            }
            let period = offer["subscriptionPeriod"]?.stringValue ?? ""
            guard PlanKeys.introductoryPeriods.contains(period) else {
                warn(
                    .unsupportedPeriod, offer["subscriptionPeriod"] ?? offer, offerPath / "subscriptionPeriod",
                    "'\(id)': introductory offer period '\(period)' is not one App Store Connect offers (\(PlanKeys.introductoryPeriods.joined(separator: ", "))); the offer is skipped"
                )
                return nil
            }
            var price: Price?
            if mode != .freeTrial {
                guard let read = readPrice(offer["displayPrice"], at: offerPath / "displayPrice", id: "\(id)'s introductory offer") else {
                    return nil
                }
                price = read
            }
            let count = offer["numberOfPeriods"]?.scalarText.flatMap { Int($0) } ?? 1
            let periods =
                mode == .payAsYouGo ? min(max(count, PlanKeys.introductoryPeriodCounts.lowerBound), PlanKeys.introductoryPeriodCounts.upperBound) : 1
            return IntroductoryOffer(paymentMode: mode, period: period, periods: periods, price: price)
        }

        mutating func noteOffers(_ node: JSONNode, id: String, kind: Product.Kind) {
            if kind != .autoRenewable {
                // Only an auto-renewable subscription has introductory offers; anywhere else one is not read.
                var offers = 0
                if let offer = node["introductoryOffer"], offer.objectValue != nil { offers += 1 }
                offers += node["introductoryOffers"]?.arrayValue?.count ?? 0
                if offers > 0 { result.ignored.append("\(id): \(offers) introductory offer\(offers == 1 ? "" : "s")") }
            }
            for key in ["codeOffers", "adHocOffers", "promotionalOffers", "winBackOffers"] {
                let count = node[key]?.arrayValue?.count ?? 0
                if count > 0 { result.ignored.append("\(id): \(count) \(key)") }
            }
        }

        mutating func readSettings(_ settings: JSONNode?) {
            guard let settings else { return }
            // Formats 2.0 on: the storefront Xcode tests purchases in, whose currency the displayPrices are in.
            if let storefront = settings["_storefront"]?.stringValue, !storefront.isEmpty { result.storefront = storefront }
            // Older files: `_storeKitError` is a number, 0 for none. Newer: `_storeKitErrors[]` with `enabled`.
            if let single = settings["_storeKitError"]?.scalarText, single != "0" {
                result.ignored.append("settings._storeKitError \(single): Xcode simulates a StoreKit error with this file")
            }
            for item in settings["_storeKitErrors"]?.arrayValue ?? [] where item["enabled"]?.boolValue == true {
                let name = item["name"]?.stringValue ?? "an error"
                result.ignored.append("settings._storeKitErrors: Xcode simulates '\(name)' failing with this file")
            }
        }
    }
}
