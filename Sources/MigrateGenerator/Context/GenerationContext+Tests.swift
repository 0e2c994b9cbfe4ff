import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

// The generated tests: one value per test case, with the engine's expected answers.
extension GenerationContext {
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

    /// Below this many expected values (features and offers) in all, the test cases' values are made on one core.
    static let parallelTestValues = 20_000

    /// Each test case's value, in order. With thousands of products each case lists thousands of offers, and the
    /// cases are laid out on every core, a consecutive share each.
    var testValues: [TemplateValue] {
        let cases = testCases
        let values = cases.reduce(0) { $0 + $1.expected.entitlements.features.count + $1.expected.upsell.offers.count }
        let shares = min(cases.count, ProcessInfo.processInfo.activeProcessorCount)
        guard shares > 1, values >= Self.parallelTestValues else { return cases.enumerated().map { testValue($1, number: $0 + 1) } }
        var states = [Bool](repeating: false, count: shares)
        let context = self
        return ParallelShares.run(&states) { share, _ in
            ParallelShares.range(ofShare: share, of: shares, count: cases.count).map { context.testValue(cases[$0], number: $0 + 1) }
        }.flatMap { $0 }
    }

    func testValue(_ test: GeneratedTestCase, number: Int) -> TemplateValue {
        let customer = test.customer
        let report = test.expected
        var name = test.name
        // Only the customer's own products appear in a case name; longest first, so a bundle id
        // that extends another id is replaced whole.
        for id in Set(customer.purchases.map(\.productID)).sorted(by: { $0.count > $1.count }) {
            if let productCase = productCases[id] { name = name.replacingOccurrences(of: id, with: productCase) }
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
            "date": .string(date.map(Self.dateExpression) ?? "nil"),
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
            "ownsText": .string(
                Self.markdownCell(ownsText.isEmpty ? "—" : ownsText.joined(separator: ", "))
                    + (customer.isVolumePurchase ? " (VPP install)" : "") + (customer.isAppPurchaseRevoked ? " (download refunded)" : "")
                    + (verification == ".verified" ? "" : " (verification \(verificationText))")),
            "cohort": .string(cohortExpression(report.decision.cohort)),
            "cohortText": .string(cohortText(report.decision.cohort)),
            "rule": .string(report.decision.rule.rawValue),
            "features": .list(features.map(featureReference)),
            "featuresList": .string(Self.caseArgument(featureExpressions(features), label: "features")),
            "featuresText": .string(features.isEmpty ? "—" : features.joined(separator: ", ")),
            "offers": .list(offers.map(productReference)),
            "offersList": .string(Self.caseArgument(productExpressions(offers), label: "offers")),
            "offersText": .string(offers.isEmpty ? "—" : offers.map { productCases[$0] ?? $0 }.joined(separator: ", ")),
            "chargesList": .string(Self.caseArgument(report.upsell.offers.map { chargeExpression($0.charge) }, label: "charges")),
            "showsRestore": .bool(report.upsell.showsRestore),
            "restoreText": .string(report.upsell.showsRestore ? "shown" : "hidden"),
            "csv": .object(csvFields.mapValues { .string(Self.csvField($0)) }),
            "matrixCase": .string(matrixCase(test, name: name, verification: verification).rendered(at: 4, trailing: ")")),
        ]
    }

    /// `MatrixCase(…)` for one test case, its arguments at their defaults left out (a production
    /// purchase, verified and not refunded, owning nothing, not a Volume Purchase install).
    private func matrixCase(_ test: GeneratedTestCase, name: String, verification: String) -> SwiftLayout {
        let customer = test.customer
        let report = test.expected
        let date = customer.originalPurchaseDate.map(Self.dateExpression)
        var purchase: [SwiftLayout] = []
        if let version = customer.originalAppVersion { purchase.append(.text("originalAppVersion: " + SwiftIdentifier.stringLiteral(version))) }
        if let date { purchase.append(.text("originalPurchaseDate: " + date)) }
        purchase.append(.text("platform: .\(customer.platform.rawValue)"))
        if let original = customer.originalPlatform { purchase.append(.text("originalPlatform: .\(original.rawValue)")) }
        if customer.environment != .production { purchase.append(.text("environment: .\(customer.environment.rawValue)")) }
        if verification != ".verified" { purchase.append(.text("verification: " + verification)) }
        if customer.isAppPurchaseRevoked { purchase.append(.text("isRevoked: true")) }
        var arguments: [SwiftLayout] = [.text("name: " + SwiftIdentifier.stringLiteral(name)), .call("purchase: OriginalPurchase", purchase)]
        if !customer.purchases.isEmpty {
            arguments.append(
                .array(
                    "owns: ",
                    customer.purchases.map { owned in
                        var fields: [SwiftLayout] = [.text("productID: " + SwiftIdentifier.stringLiteral(owned.productID))]
                        if owned.ownership != .purchased { fields.append(.text("ownership: .\(owned.ownership.rawValue)")) }
                        if owned.isRevoked { fields.append(.text("isRevoked: true")) }
                        if owned.isExpired { fields.append(.text("isExpired: true")) }
                        if !owned.isVerified { fields.append(.text("isVerified: false")) }
                        return .call("OwnedProduct", fields)
                    }))
        }
        if customer.isVolumePurchase { arguments.append(.text("isVolumePurchase: true")) }
        return .call("MatrixCase", arguments + expectedArguments(report) + [.text("showsRestore: \(report.upsell.showsRestore)")])
    }

    /// What the engine expects for a case, as the arguments of `MatrixCase` and `ServerCase`: the cohort,
    /// the rule, the features and the offers with how each offer's legacy price is charged.
    func expectedArguments(_ report: CustomerReport) -> [SwiftLayout] {
        [
            .text("cohort: " + cohortExpression(report.decision.cohort)), .text("rule: .\(report.decision.rule.rawValue)"),
            .array("features: ", featureExpressions(report.entitlements.features.map(\.featureID)).map(SwiftLayout.text)),
            .array("offers: ", productExpressions(report.upsell.offers.map(\.productID)).map(SwiftLayout.text)),
            .array("charges: ", report.upsell.offers.map { .text(chargeExpression($0.charge)) }),
        ]
    }

    /// The inside of an array argument `label: [...]` of a test case, written where the generated tests
    /// append their cases (`cases.append(MatrixCase(…))`, six spaces in), wrapped as swift-format wraps it.
    static func caseArgument(_ items: [String], label: String) -> String {
        let indent = "      "
        return collectionItems(items, prefix: indent + label + ": ", indent: indent)
    }
}
