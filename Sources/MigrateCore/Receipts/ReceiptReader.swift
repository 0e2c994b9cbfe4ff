import Foundation
import MigratePlan
import MigrateSupport

/// What a receipt or app transaction says about a customer.
public struct ReceiptFacts: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        /// A `verifyReceipt` response, or the `receipt` object from one.
        case legacyReceipt
        /// A decoded AppTransaction JWS payload, with the server's key names.
        case appTransactionPayload
        /// A decoded Transaction JWS payload: one product the customer owns, not the app's purchase.
        case transactionPayload
        /// An App Store Server API transaction-history response (`signedTransactions`).
        case transactionHistory
        /// An App Store Server API subscription-status response (`data[].lastTransactions[]`).
        case subscriptionStatus

        /// What the kind is called in messages.
        public var displayName: String {
            switch self {
            case .legacyReceipt: "a verifyReceipt response"
            case .appTransactionPayload: "a decoded AppTransaction"
            case .transactionPayload: "a decoded Transaction (a product the customer owns, not the app's purchase)"
            case .transactionHistory: "an App Store Server API transaction history"
            case .subscriptionStatus: "an App Store Server API subscription status"
            }
        }

        /// Whether it says anything about the app's own purchase (original version and date).
        public var describesAppPurchase: Bool { self == .legacyReceipt || self == .appTransactionPayload }
    }

    public var source: Source
    public var environment: StoreEnvironment?
    public var bundleID: String?
    public var originalAppVersion: String?
    public var originalPurchaseDate: Date?
    public var originalPlatform: Platform?
    public var preorderDate: Date?
    public var isVolumePurchase: Bool
    public var isAppPurchaseRevoked: Bool
    public var purchases: [OwnedProduct]
    /// How many compact JWS strings were decoded to read it, none of them verified.
    public var unverifiedSignatures = 0
    /// A transaction history's `hasMore`: true when the App Store Server API has pages not given here;
    /// nil for every other kind of response.
    public var historyHasMore: Bool?

    /// What the reader of these facts must be told before trusting a decision made from them, for the plan's
    /// app: the same for `explain --receipt` and `explain --batch`.
    public func doubts(forBundleID expected: String) -> [ReceiptDoubt] {
        var doubts: [ReceiptDoubt] = []
        if let bundleID, bundleID != expected { doubts.append(.otherApp(found: bundleID, expected: expected)) }
        if historyHasMore == true { doubts.append(.incompleteHistory) }
        return doubts
    }
}

/// A doubt about a receipt or response, found in one place for every command that reads one.
public enum ReceiptDoubt: Sendable, Hashable {
    /// The response is another app's (`bundleId`): a decision from it would be about the wrong app, so it is refused.
    case otherApp(found: String, expected: String)
    /// A transaction history with `hasMore: true`: products on the pages not given are missing.
    case incompleteHistory

    /// Whether no decision may be made from the response.
    public var refuses: Bool {
        if case .otherApp = self { return true }
        return false
    }

    public var message: String {
        switch self {
        case .otherApp(let found, let expected):
            "it is for the app '\(found)', but the plan is for '\(expected)'; pass this app's responses, or the plan of '\(found)'"
        case .incompleteHistory:
            "the transaction history has more pages (hasMore: true): products on the pages not given are missing, so offers may be wrong; fetch every page with the revision each response gives"
        }
    }
}

/// A compact JWS string that can't be decoded.
public struct JWSError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Where in the file, when the file is JSON that doesn't parse.
    public var location: SourceLocation?
    public var description: String { message }
}

/// Compact JWS (`header.payload.signature`, each base64url), as the App Store signs transactions.
public enum CompactJWS {
    /// Whether text looks like a compact JWS rather than JSON: three dot-separated parts, the first
    /// starting `eyJ` (base64url of `{"`).
    public static func looksLikeJWS(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // JSON starts with '{', '[' or '"'; base64url never does.
        guard let first = trimmed.first, first.isASCII, first.isLetter || first.isNumber || first == "-" || first == "_" else { return false }
        return trimmed.hasPrefix("eyJ") || (trimmed.split(separator: ".", omittingEmptySubsequences: false).count == 3 && !trimmed.hasPrefix("{"))
    }

    /// The payload of a compact JWS as JSON, decoded without verifying the signature.
    public static func payload(_ text: String) throws(JWSError) -> JSONNode {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWSError(
                message: "not a compact JWS: expected three base64url parts separated by '.' (header.payload.signature), found \(parts.count)")
        }
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (index, part) in parts.enumerated() {
            guard !part.isEmpty, let bytes = base64URL(String(part)) else {
                throw JWSError(message: "not a compact JWS: its \(names[index]) (part \(index + 1) of 3) is not base64url")
            }
            decoded.append(bytes)
        }
        let header: JSONNode
        do { header = try JSONParser.parse(bytes: decoded[0]) } catch {
            throw JWSError(message: "not a compact JWS: its header is not JSON (\(error.message))")
        }
        guard header["alg"]?.stringValue != nil else {
            throw JWSError(message: "not a compact JWS: its header has no 'alg'")
        }
        do { return try JSONParser.parse(bytes: decoded[1]) } catch {
            throw JWSError(message: "a compact JWS whose payload is not JSON (\(error.message))")
        }
    }

    static func base64URL(_ text: String) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}

/// Reads the JSON developers see on their servers into customer facts.
///
/// Legacy receipts send numbers as strings or as numbers; AppTransaction payloads use
/// different key names from the Swift API (`originalApplicationVersion`, `receiptType`) and
/// milliseconds for dates (Apple, "JWSAppTransactionDecodedPayload" and "AppTransaction").
public enum ReceiptReader {
    /// Reads a receipt; `now` decides whether a subscription has expired.
    public static func read(_ root: JSONNode, now: Date) -> (facts: ReceiptFacts?, diagnostics: [Diagnostic]) {
        let sink = DiagnosticSink()
        guard root.objectValue != nil else {
            sink.error(.wrongType, "a receipt must be a JSON object, found \(root.value.kindName)", at: .root)
            return (nil, sink.diagnostics)
        }
        // Most specific first: a Transaction payload also carries `appTransactionId` and `originalPurchaseDate`.
        if root["signedTransactions"] != nil {
            return (history(root, now: now, sink: sink), sink.diagnostics)
        }
        if root["data"]?.arrayValue != nil, root["bundleId"] != nil || root["environment"] != nil {
            return (status(root, now: now, sink: sink), sink.diagnostics)
        }
        if root["productId"] != nil || root["transactionId"] != nil {
            var facts = transactions([(root, .root)], source: .transactionPayload, now: now, sink: sink)
            facts.environment = root["environment"].flatMap(scalar).flatMap(StoreEnvironment.init(appleName:))
            return (facts, sink.diagnostics)
        }
        if root["receipt"] != nil || root["status"] != nil || root["original_application_version"] != nil || root["receipt_type"] != nil {
            return (legacy(root, now: now, sink: sink), sink.diagnostics)
        }
        if root["originalApplicationVersion"] != nil || root["receiptType"] != nil || root["appTransactionId"] != nil {
            return (payload(root, sink: sink), sink.diagnostics)
        }
        sink.error(
            .unknownReceipt,
            "not a receipt migrate knows: neither a verifyReceipt response ('receipt'), a decoded AppTransaction ('originalApplicationVersion'), a decoded Transaction ('productId'), a transaction history ('signedTransactions') nor a subscription status ('data')",
            at: .root,
            hint:
                "Pass the JSON your server got from verifyReceipt or the App Store Server API, a decoded AppTransaction or Transaction payload, or the compact JWS itself."
        )
        return (nil, sink.diagnostics)
    }

    /// Reads a file's bytes: JSON of any kind above, a Get App Transaction Info response
    /// (`signedAppTransactionInfo`), or a compact JWS of an AppTransaction or a Transaction (decoded without verifying its signature; `unverifiedSignatures` says so).
    /// `root` is the JSON read, for locating diagnostics.
    public static func read(bytes: [UInt8], now: Date) throws(JWSError) -> (
        facts: ReceiptFacts?, diagnostics: [Diagnostic], root: JSONNode?, isJWS: Bool
    ) {
        let text = String(decoding: bytes, as: UTF8.self)
        if CompactJWS.looksLikeJWS(text) {
            let root = try CompactJWS.payload(text)
            var (facts, diagnostics) = read(root, now: now)
            facts?.unverifiedSignatures += 1
            return (facts, diagnostics, root, true)
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw JWSError(message: error.message, location: error.location)
        }
        if let jws = root.stringValue {
            // A JSON string holding the JWS, as APIs and logs quote it.
            let inner = try CompactJWS.payload(jws)
            var (facts, diagnostics) = read(inner, now: now)
            facts?.unverifiedSignatures += 1
            return (facts, diagnostics, inner, true)
        }
        if let signed = root["signedAppTransactionInfo"] {
            // App Store Server API, Get App Transaction Info: `{"signedAppTransactionInfo": "<JWS>"}`.
            guard let jws = signed.stringValue else {
                throw JWSError(message: "'signedAppTransactionInfo' must be the compact JWS string the App Store Server API returned")
            }
            let inner = try CompactJWS.payload(jws)
            var (facts, diagnostics) = read(inner, now: now)
            facts?.unverifiedSignatures += 1
            return (facts, diagnostics, inner, true)
        }
        let (facts, diagnostics) = read(root, now: now)
        return (facts, diagnostics, root, false)
    }

    /// Decoded Transaction payloads (`productId`, `inAppOwnershipType`, `expiresDate`, `revocationDate`,
    /// dates in milliseconds) as owned products; renewals of one product merge as in a receipt.
    private static func transactions(
        _ items: [(node: JSONNode, path: JSONPath)], source: ReceiptFacts.Source, now: Date, sink: DiagnosticSink,
        status: [String: Int] = [:]
    ) -> ReceiptFacts {
        var purchases: [String: OwnedProduct] = [:]
        var latestExpiry: [String: Date] = [:]
        var bundleID: String?
        for (node, path) in items {
            guard let productID = node["productId"].flatMap(scalar) else {
                sink.error(.missingKey, "a Transaction without 'productId'", at: path / "productId")
                continue
            }
            bundleID = bundleID ?? node["bundleId"].flatMap(scalar)
            let revoked = milliseconds(node["revocationDate"], at: path / "revocationDate", sink: sink) != nil
            let shared = node["inAppOwnershipType"].flatMap(scalar) == "FAMILY_SHARED"
            var owned = purchases[productID] ?? OwnedProduct(productID: productID, ownership: shared ? .familyShared : .purchased)
            if let bought = milliseconds(node["purchaseDate"], at: path / "purchaseDate", sink: sink) {
                owned.purchaseDate = min(bought, owned.purchaseDate ?? bought)
            }
            if let expires = milliseconds(node["expiresDate"], at: path / "expiresDate", sink: sink) {
                let newest = max(expires, latestExpiry[productID] ?? expires)
                latestExpiry[productID] = newest
                owned.isExpired = newest <= now
            }
            owned.isRevoked = purchases[productID].map { $0.isRevoked && revoked } ?? revoked
            if !shared { owned.ownership = .purchased }
            // The subscription status says it outright: 2 expired, 3 billing retry, 4 grace period, 5 revoked.
            if let code = node["originalTransactionId"].flatMap(scalar).flatMap({ status[$0] }) {
                owned.isExpired = code == 2 || code == 3
                owned.isRevoked = code == 5
            }
            purchases[productID] = owned
        }
        return ReceiptFacts(
            source: source, environment: nil, bundleID: bundleID, originalAppVersion: nil, originalPurchaseDate: nil,
            originalPlatform: nil, preorderDate: nil, isVolumePurchase: false, isAppPurchaseRevoked: false,
            purchases: purchases.keys.sorted().map { purchases[$0]! })
    }

    /// A signed string inside a response, decoded; an error at its path when it can't be.
    private static func signed(_ node: JSONNode, at path: JSONPath, sink: DiagnosticSink) -> JSONNode? {
        guard let text = node.stringValue else {
            sink.error(.wrongType, "expected a compact JWS string, found \(node.value.kindName)", at: path)
            return nil
        }
        do {
            return try CompactJWS.payload(text)
        } catch {
            sink.error(.malformedJWS, error.message, at: path, hint: "Copy the string exactly as the App Store Server API returned it.")
            return nil
        }
    }

    private static func history(_ root: JSONNode, now: Date, sink: DiagnosticSink) -> ReceiptFacts? {
        guard let list = root["signedTransactions"]?.arrayValue else {
            sink.error(.wrongType, "'signedTransactions' must be an array of compact JWS strings", at: .root / "signedTransactions")
            return nil
        }
        var items: [(JSONNode, JSONPath)] = []
        for (offset, node) in list.enumerated() {
            let path = JSONPath.root / "signedTransactions" / offset
            if let payload = signed(node, at: path, sink: sink) { items.append((payload, path)) }
        }
        var facts = transactions(items, source: .transactionHistory, now: now, sink: sink)
        facts.environment = root["environment"].flatMap(scalar).flatMap(StoreEnvironment.init(appleName:))
        facts.bundleID = root["bundleId"].flatMap(scalar) ?? facts.bundleID
        facts.unverifiedSignatures = items.count
        switch root["hasMore"]?.value {
        case .bool(let more)?: facts.historyHasMore = more
        case nil, .null?: facts.historyHasMore = false
        case let other?:
            sink.error(.wrongType, "'hasMore' must be true or false, found \(other.kindName)", at: .root / "hasMore")
        }
        return facts
    }

    private static func status(_ root: JSONNode, now: Date, sink: DiagnosticSink) -> ReceiptFacts? {
        var items: [(JSONNode, JSONPath)] = []
        var codes: [String: Int] = [:]
        for (groupOffset, group) in (root["data"]?.arrayValue ?? []).enumerated() {
            for (offset, last) in (group["lastTransactions"]?.arrayValue ?? []).enumerated() {
                let path = JSONPath.root / "data" / groupOffset / "lastTransactions" / offset
                guard let info = last["signedTransactionInfo"] else {
                    sink.error(.missingKey, "missing 'signedTransactionInfo'", at: path)
                    continue
                }
                guard let payload = signed(info, at: path / "signedTransactionInfo", sink: sink) else { continue }
                if let id = last["originalTransactionId"].flatMap(scalar), let code = last["status"].flatMap(scalar).flatMap(Int.init) {
                    codes[id] = code
                }
                items.append((payload, path / "signedTransactionInfo"))
            }
        }
        var facts = transactions(items, source: .subscriptionStatus, now: now, sink: sink, status: codes)
        facts.environment = root["environment"].flatMap(scalar).flatMap(StoreEnvironment.init(appleName:))
        facts.bundleID = root["bundleId"].flatMap(scalar) ?? facts.bundleID
        facts.unverifiedSignatures = items.count
        return facts
    }

    private static func legacy(_ root: JSONNode, now: Date, sink: DiagnosticSink) -> ReceiptFacts? {
        var receipt = root
        var path = JSONPath.root
        if let status = root["status"], let code = scalar(status), code != "0" {
            let meaning =
                code == "21007" ? " (a sandbox receipt sent to production)" : code == "21008" ? " (a production receipt sent to the sandbox)" : ""
            sink.error(.receiptStatus, "verifyReceipt returned status \(code)\(meaning); the receipt was not validated", at: .root / "status")
            return nil
        }
        guard root["receipt"] != nil || root["original_application_version"] != nil || root["receipt_type"] != nil else {
            sink.error(.missingKey, "a verifyReceipt response without 'receipt'", at: .root / "receipt")
            return nil
        }
        if let inner = root["receipt"] {
            receipt = inner
            path = .root / "receipt"
        }
        guard receipt.objectValue != nil else {
            sink.error(.wrongType, "'receipt' must be an object", at: path)
            return nil
        }
        let receiptType = receipt["receipt_type"].flatMap(scalar)
        var environment = receiptType.flatMap(StoreEnvironment.init(appleName:))
        if environment == nil, let top = root["environment"].flatMap(scalar) {
            environment = StoreEnvironment(appleName: top)
        }
        var purchases: [String: OwnedProduct] = [:]
        var latestExpiry: [String: Date] = [:]
        for (offset, item) in (receipt["in_app"]?.arrayValue ?? []).enumerated() {
            let itemPath = path / "in_app" / offset
            guard let productID = item["product_id"].flatMap(scalar) else {
                sink.error(.missingKey, "missing 'product_id'", at: itemPath)
                continue
            }
            let revoked = item["cancellation_date_ms"].flatMap(scalar).map { !$0.isEmpty } ?? false
            let expires = milliseconds(item["expires_date_ms"], at: itemPath / "expires_date_ms", sink: sink)
            let shared = item["in_app_ownership_type"].flatMap(scalar) == "FAMILY_SHARED"
            var owned = purchases[productID] ?? OwnedProduct(productID: productID, ownership: shared ? .familyShared : .purchased)
            if let bought = milliseconds(item["purchase_date_ms"], at: itemPath / "purchase_date_ms", sink: sink) {
                owned.purchaseDate = min(bought, owned.purchaseDate ?? bought)
            }
            // Renewals repeat a product; the newest expiry and any non-revoked transaction win.
            if let expires {
                let newest = max(expires, latestExpiry[productID] ?? expires)
                latestExpiry[productID] = newest
                owned.isExpired = newest <= now
            }
            owned.isRevoked = purchases[productID].map { $0.isRevoked && revoked } ?? revoked
            if !shared { owned.ownership = .purchased }
            purchases[productID] = owned
        }
        return ReceiptFacts(
            source: .legacyReceipt, environment: environment, bundleID: receipt["bundle_id"].flatMap(scalar),
            originalAppVersion: receipt["original_application_version"].flatMap(scalar),
            originalPurchaseDate: milliseconds(receipt["original_purchase_date_ms"], at: path / "original_purchase_date_ms", sink: sink)
                ?? receipt["original_purchase_date"].flatMap(legacyDate),
            originalPlatform: nil, preorderDate: milliseconds(receipt["preorder_date_ms"], at: path / "preorder_date_ms", sink: sink),
            isVolumePurchase: receiptType?.contains("VPP") ?? false, isAppPurchaseRevoked: false,
            purchases: purchases.keys.sorted().map { purchases[$0]! })
    }

    private static func payload(_ root: JSONNode, sink: DiagnosticSink) -> ReceiptFacts? {
        let receiptType = root["receiptType"].flatMap(scalar)
        var platform: Platform?
        if let name = root["originalPlatform"].flatMap(scalar) {
            platform = Platform(named: name)
            if platform == nil {
                sink.warning(.unknownPlatform, "unknown originalPlatform '\(name)'; ignored", at: .root / "originalPlatform")
            }
        }
        return ReceiptFacts(
            source: .appTransactionPayload, environment: receiptType.flatMap(StoreEnvironment.init(appleName:)),
            bundleID: root["bundleId"].flatMap(scalar), originalAppVersion: root["originalApplicationVersion"].flatMap(scalar),
            originalPurchaseDate: milliseconds(root["originalPurchaseDate"], at: .root / "originalPurchaseDate", sink: sink),
            originalPlatform: platform,
            preorderDate: milliseconds(root["preorderDate"], at: .root / "preorderDate", sink: sink),
            isVolumePurchase: receiptType?.contains("VPP") ?? false,
            isAppPurchaseRevoked: root["revocationDate"] != nil
                && milliseconds(root["revocationDate"], at: .root / "revocationDate", sink: sink) != nil,
            purchases: [])
    }

    /// A string or number as text; receipts use both for the same fields.
    private static func scalar(_ node: JSONNode) -> String? {
        switch node.value {
        case .string(let text): text
        case .number(let literal): literal
        default: nil
        }
    }

    /// Milliseconds since 1970 within `Limits.receiptMilliseconds`; a date outside it is an error at `path`
    /// (a date in the year 300 million traps when formatted, and no App Store receipt carries one).
    private static func milliseconds(_ node: JSONNode?, at path: JSONPath, sink: DiagnosticSink) -> Date? {
        guard let node, let text = scalar(node), let value = Double(text) else { return nil }
        guard value.isFinite, Limits.receiptMilliseconds.contains(value) else {
            sink.error(
                .dateOutOfRange,
                "'\(text)' is not a receipt date: milliseconds since 1970 must be from \(Limits.display(Limits.receiptMilliseconds.lowerBound)) to \(Limits.display(Limits.receiptMilliseconds.upperBound)) (0000-01-01 to 9999-12-31)",
                at: path, hint: "Receipts give dates in milliseconds, such as \"1700000000000\" for 2023-11-14.")
            return nil
        }
        return Date(timeIntervalSince1970: value / 1000)
    }

    /// `2017-10-08 02:47:56 Etc/GMT`.
    private static func legacyDate(_ node: JSONNode) -> Date? {
        guard let text = scalar(node) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count >= 2, parts.count == 2 || parts[2] == "Etc/GMT" || parts[2] == "GMT" || parts[2] == "UTC" else { return nil }
        return Timestamp.parse("\(parts[0])T\(parts[1])Z")
    }
}

extension Customer {
    /// Takes what a receipt says: its environment, the app's own purchase when it describes one (a
    /// Transaction or a history doesn't), and the products. Everything else stays as it was.
    public mutating func take(_ facts: ReceiptFacts) {
        if let environment = facts.environment { self.environment = environment }
        if facts.source.describesAppPurchase {
            originalAppVersion = facts.originalAppVersion
            originalPurchaseDate = facts.originalPurchaseDate
            originalPlatform = facts.originalPlatform
            preorderDate = facts.preorderDate
            isVolumePurchase = facts.isVolumePurchase
            isAppPurchaseRevoked = facts.isAppPurchaseRevoked
        }
        purchases = facts.purchases
    }
}
