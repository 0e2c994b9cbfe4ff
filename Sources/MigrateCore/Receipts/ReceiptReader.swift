import Foundation
import MigratePlan

/// What a receipt or app transaction says about a customer.
public struct ReceiptFacts: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        /// A `verifyReceipt` response, or the `receipt` object from one.
        case legacyReceipt
        /// A decoded AppTransaction JWS payload, with the server's key names.
        case appTransactionPayload
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
            sink.error("wrong-type", "a receipt must be a JSON object, found \(root.value.kindName)", at: .root)
            return (nil, sink.diagnostics)
        }
        if root["receipt"] != nil || root["status"] != nil || root["original_application_version"] != nil || root["receipt_type"] != nil {
            return (legacy(root, now: now, sink: sink), sink.diagnostics)
        }
        if root["originalApplicationVersion"] != nil || root["receiptType"] != nil || root["appTransactionId"] != nil {
            return (payload(root, sink: sink), sink.diagnostics)
        }
        sink.error(
            "unknown-receipt", "neither a verifyReceipt response (with 'receipt') nor a decoded AppTransaction payload (with 'originalApplicationVersion')",
            at: .root, hint: "Pass the JSON your server got from verifyReceipt, or the decoded payload of AppTransaction.jwsRepresentation.")
        return (nil, sink.diagnostics)
    }

    private static func legacy(_ root: JSONNode, now: Date, sink: DiagnosticSink) -> ReceiptFacts? {
        var receipt = root
        var path = JSONPath.root
        if let status = root["status"], let code = scalar(status), code != "0" {
            let meaning = code == "21007" ? " (a sandbox receipt sent to production)" : code == "21008" ? " (a production receipt sent to the sandbox)" : ""
            sink.error("receipt-status", "verifyReceipt returned status \(code)\(meaning); the receipt was not validated", at: .root / "status")
            return nil
        }
        guard root["receipt"] != nil || root["original_application_version"] != nil || root["receipt_type"] != nil else {
            sink.error("missing-key", "a verifyReceipt response without 'receipt'", at: .root / "receipt")
            return nil
        }
        if let inner = root["receipt"] {
            receipt = inner
            path = .root / "receipt"
        }
        guard receipt.objectValue != nil else {
            sink.error("wrong-type", "'receipt' must be an object", at: path)
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
                sink.error("missing-key", "missing 'product_id'", at: itemPath)
                continue
            }
            let revoked = item["cancellation_date_ms"].flatMap(scalar).map { !$0.isEmpty } ?? false
            let expires = milliseconds(item["expires_date_ms"], at: itemPath / "expires_date_ms", sink: sink)
            let shared = item["in_app_ownership_type"].flatMap(scalar) == "FAMILY_SHARED"
            var owned = purchases[productID] ?? OwnedProduct(productID: productID, ownership: shared ? .familyShared : .purchased)
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
                sink.warning("unknown-platform", "unknown originalPlatform '\(name)'; ignored", at: .root / "originalPlatform")
            }
        }
        return ReceiptFacts(
            source: .appTransactionPayload, environment: receiptType.flatMap(StoreEnvironment.init(appleName:)),
            bundleID: root["bundleId"].flatMap(scalar), originalAppVersion: root["originalApplicationVersion"].flatMap(scalar),
            originalPurchaseDate: milliseconds(root["originalPurchaseDate"], at: .root / "originalPurchaseDate", sink: sink), originalPlatform: platform,
            preorderDate: milliseconds(root["preorderDate"], at: .root / "preorderDate", sink: sink), isVolumePurchase: receiptType?.contains("VPP") ?? false,
            isAppPurchaseRevoked: root["revocationDate"] != nil && milliseconds(root["revocationDate"], at: .root / "revocationDate", sink: sink) != nil,
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
                "date-out-of-range", "'\(text)' is not a receipt date: milliseconds since 1970 must be from 0 to \(Limits.display(Limits.receiptMilliseconds.upperBound)) (9999-12-31)",
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
