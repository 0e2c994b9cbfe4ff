import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

// The server's decisions (`generate --server`): the same customers as the app's tests, written as the
// App Store Server API's decoded payloads in Apple's field names.
extension GenerationContext {
    /// The moment the server's generated tests decide at: after every plausible release, fixed so the
    /// output is the same on every run.
    static let serverNow = Timestamp.parse("2030-01-01T00:00:00Z")!

    /// Whether a test case can be told to a server exactly: every fact comes from a verified payload
    /// (a server sees no failed verification and no unverified transaction), and its original platform,
    /// if any, is one the App Store names. A refunded paid download is told as the server hears it
    /// (`serverCase(_:)`).
    static func servesAsPayload(_ customer: Customer) -> Bool {
        customer.appTransaction == .verified && !customer.isVolumePurchase && customer.purchases.allSatisfy(\.isVerified)
            && customer.originalPlatform.map { storeKitPlatforms[$0] != nil } ?? true
    }

    /// A test case as the server hears it. The App Store Server API's `JWSAppTransactionDecodedPayload`
    /// has no revocation date, and no notification or refund history covers the paid download: a
    /// refunded download reaches the server as the purchase it was, and the server keeps its tier.
    func serverCase(_ test: GeneratedTestCase) -> GeneratedTestCase {
        guard test.customer.isAppPurchaseRevoked else { return test }
        var customer = test.customer
        customer.isAppPurchaseRevoked = false
        return GeneratedTestCase(
            name: test.name + " (server keeps tier)", customer: customer,
            expected: Advisor(catalog: catalog).report(for: customer))
    }

    var serverValues: [String: TemplateValue] {
        // Only with --server: the cases repeat the app's tests, and nothing else reads them.
        let cases = options.server ? testCases.filter { Self.servesAsPayload($0.customer) }.map(serverCase) : []
        return [
            "server": .bool(options.server),
            // Sorted as swift-format wants, whatever the module is called.
            "serverImports": .list(serverImports(["Foundation", options.module]).map { .string($0) }),
            // The server's tests read the payloads through the test double's `ServerPayloads`: the library's, or its
            // copy in the test target.
            "serverTestImports": .list(
                serverImports(
                    ["Foundation", "Testing", options.module, options.module + "Server"]
                        + (options.storeLayer == .dependency ? [StoreLayerSources.testingFolder] : [])
                ).map { .string($0) }),
            "serverBundleID": .string(SwiftIdentifier.stringLiteral(plan.app.bundleID)),
            "serverNow": .string(Self.grouped(Int64(Self.serverNow.timeIntervalSince1970))),
            "serverTestCount": .string(String(cases.count)),
            "serverTests": Self.swiftList(cases.enumerated().map { serverTestValue($1, number: $0 + 1) }),
            "serverNotifications": options.server ? serverNotificationsValue : false,
        ]
    }

    /// The products the notification tests buy, renew, change, refund and revoke: the plan's first auto-renewable
    /// subscription, another plan of its group, and a non-consumable. False when the plan sells no subscription.
    private var serverNotificationsValue: TemplateValue {
        let products = plan.products.filter { $0.kind != .consumable }
        guard let subscription = products.first(where: { $0.kind == .autoRenewable }) else { return false }
        let other = products.first {
            $0.kind == .autoRenewable && $0.id != subscription.id && $0.subscription?.group == subscription.subscription?.group
        }
        let oneTime = products.first { $0.kind == .nonConsumable }
        return [
            "subscription": .string(SwiftIdentifier.stringLiteral(subscription.id)),
            "other": other.map { .string(SwiftIdentifier.stringLiteral($0.id)) } ?? false,
            "oneTime": oneTime.map { .string(SwiftIdentifier.stringLiteral($0.id)) } ?? false,
            "familySharingEntitles": .bool(plan.policies.familySharing != .ignored),
        ]
    }

    private func serverImports(_ modules: [String]) -> [String] {
        (modules + (options.storeLayer == .dependency ? [StoreLayerSources.folder] : [])).sorted()
    }

    /// `JWSAppTransactionDecodedPayload`'s name for an environment.
    static func receiptType(_ environment: StoreEnvironment) -> String {
        switch environment {
        case .production: "Production"
        case .sandbox: "Sandbox"
        case .xcode: "Xcode"
        }
    }

    private static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// A JSON object with members in the order given, nil values left out (what Apple's servers send),
    /// as a raw Swift multi-line string literal whose lines are indented by `indent` spaces.
    private static func jsonObject(_ members: [(String, String?)], indent: Int = 8) -> String {
        let pad = String(repeating: " ", count: indent)
        let lines = members.compactMap { key, value in value.map { "\"\(key)\": \($0)" } }
        let body = lines.enumerated().map { pad + "  " + $1 + ($0 == lines.count - 1 ? "" : ",") }
        // A raw literal, so a backslash JSON writes reaches the decoder as it is.
        return (["#\"\"\"", pad + "{"] + body + [pad + "}", pad + "\"\"\"#"]).joined(separator: "\n")
    }

    func serverTestValue(_ test: GeneratedTestCase, number: Int) -> TemplateValue {
        let customer = test.customer
        let environment = Self.receiptType(customer.environment)
        let app = Self.jsonObject([
            ("receiptType", "\"\(environment)\""),
            ("bundleId", JSONWriter.quoted(plan.app.bundleID)),
            ("originalApplicationVersion", customer.originalAppVersion.map(JSONWriter.quoted)),
            ("originalPurchaseDate", customer.originalPurchaseDate.map(Self.milliseconds)),
            ("originalPlatform", customer.originalPlatform.flatMap { Self.storeKitPlatforms[$0] }.map { "\"\($0)\"" }),
            ("appTransactionId", "\"70500000000\(number)\""),
        ])
        let transactions = customer.purchases.enumerated().map { offset, owned -> String in
            let json = Self.jsonObject([
                ("transactionId", "\"2000000\(number)\(offset)\""),
                ("productId", JSONWriter.quoted(owned.productID)),
                ("inAppOwnershipType", owned.ownership == .familyShared ? "\"FAMILY_SHARED\"" : "\"PURCHASED\""),
                ("purchaseDate", owned.purchaseDate.map(Self.milliseconds)),
                ("expiresDate", owned.isExpired ? Self.milliseconds(Self.serverNow.addingTimeInterval(-3_600)) : nil),
                ("revocationDate", owned.isRevoked ? Self.milliseconds(Self.serverNow.addingTimeInterval(-7_200)) : nil),
                ("environment", "\"\(environment)\""),
            ])
            return json
        }
        let value = testValue(test, number: number)
        guard case .object(var members) = value, case .string(let name)? = members["nameLiteral"] else { return value }
        var arguments: [SwiftLayout] = [.text("name: " + name), .text("appTransaction: " + app)]
        if !transactions.isEmpty { arguments.append(.array("transactions: ", transactions.map(SwiftLayout.text))) }
        arguments.append(.text("platform: .\(customer.platform.rawValue)"))
        members["serverCase"] = .string(SwiftLayout.call("ServerCase", arguments + expectedArguments(test.expected)).rendered(at: 4, trailing: ")"))
        return .object(members)
    }
}
