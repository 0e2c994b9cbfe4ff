import Foundation
import MigrateCore
import MigratePlan

/// What one direct-sale license comes to: its edition, the tier its holder joins, the product a code gives them, the
/// features that product unlocks once redeemed (decided by the engine, like any customer's), and the code the ledger
/// gave, if any. `explain --licenses` prints it.
public struct LicenseDecision: Sendable {
    public var license: License
    public var verdict: LicenseVerdict
    public var edition: DirectEdition?
    public var product: String?
    /// The features a holder who redeemed the code has, in the plan's order.
    public var features: [String]
    public var codes: [String]
    /// Why the holder has no code yet (no edition, no product, not assigned); nil when every seat has one.
    public var waiting: String?

    /// Decides every license read. `ledger` gives the codes already assigned.
    public static func decide(_ holders: LicenseHolders, catalog: PlanCatalog, ledger: CodeLedger?, now: Date) -> [LicenseDecision] {
        let plan = catalog.plan
        let sales = plan.directSales
        let advisor = Advisor(catalog: catalog)
        var codes: [String: [String]] = [:]
        for assignment in ledger?.renamingLegacyKeys(for: holders.holders).assignments ?? [] {
            codes["\(assignment.license)|\(assignment.product)", default: []].append(assignment.code)
        }
        // A holder downloads the app as it is now: the newest release of the app's first platform, and owns the product.
        let platform = plan.app.platforms.first ?? .iOS
        let newest = plan.releases.filter { $0.platform == platform }.max { $0.released < $1.released }
        var featuresByProduct: [String: [String]] = [:]
        func features(_ product: String) -> [String] {
            if let known = featuresByProduct[product] { return known }
            let customer = Customer(
                platform: platform, originalAppVersion: newest?.receiptVersion(platform.originalVersionMeaning)?.text,
                originalPurchaseDate: newest?.released, purchases: [OwnedProduct(productID: product, purchaseDate: now)], now: now)
            let granted = advisor.report(for: customer).entitlements.featureIDs
            let ordered = plan.features.map(\.id).filter(granted.contains)
            featuresByProduct[product] = ordered
            return ordered
        }
        return holders.decided.map { license, verdict in
            let edition = sales?.edition(forSource: license.label)
            var decision = LicenseDecision(
                license: license, verdict: verdict, edition: edition, product: edition?.legacyProduct, features: [], codes: [])
            guard verdict == .holder else { return decision }
            guard let edition else {
                decision.waiting = "'\(license.label)' is no edition's source in the plan"
                return decision
            }
            guard let product = edition.legacyProduct else {
                decision.waiting = "edition '\(edition.id)' has no legacyProduct"
                return decision
            }
            decision.features = features(product)
            decision.codes = codes["\(license.key)|\(product)"] ?? []
            if decision.codes.count < license.seats {
                decision.waiting = "\(license.seats - decision.codes.count) of \(license.seats) seat\(license.seats == 1 ? "" : "s") without a code"
            }
            return decision
        }
    }
}
