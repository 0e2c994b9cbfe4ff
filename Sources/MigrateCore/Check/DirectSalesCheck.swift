import Foundation
import MigratePlan
import MigrateSupport

extension DiagnosticCode {
    /// The codes of the direct-sale channel's checks (licenses sold outside the App Store, reached by offer codes).
    public enum DirectSales: String, DiagnosticCodes {
        case editionUnreached = "direct-edition-unreached"
        case legacyProductKind = "direct-legacy-product-kind"
        case legacyProductGrantsLess = "direct-legacy-product-grants-less"
        case subscriptionCodeRenews = "direct-subscription-code-renews"
        case codesQuota = "offer-codes-quota"
        case activeOffers = "offer-codes-active-offers"
        case codesExpired = "offer-codes-expired"
        case codesExpiring = "offer-codes-expiring"
        case codesTooLong = "offer-codes-validity"
        case codesAppID = "offer-codes-app-id"
        case codesPerSeat = "offer-codes-per-seat"
        case codesRedemption = "offer-codes-redemption"
        case redemptionRateUnused = "code-redemption-rate-unused"
    }
}

/// What `check` knows of offer codes and the direct-sale channel: the limits App Store Connect sets, and the holders
/// the plan can't reach.
///
/// Apple's pages, as of App Store Connect API 4.2: "Create offer codes for In-App Purchases" and "Set up offer codes"
/// (App Store Connect Help): up to 10 active offers at a time, 1,000,000 codes per app per quarter, each customer
/// redeems one code per offer, one-time-use codes redeemed once and expiring at most six months after they are made;
/// "Supporting offer codes in your app" (StoreKit): codes exist for every in-app purchase type; in-app redemption of a
/// non-subscription's code needs iOS 16.3, iPadOS 16.3, macOS 15.0 or visionOS 1.0 (the App Store and the redemption
/// URL work everywhere). Where Apple is silent (whether a product redeemed with a code is shared with the family, what
/// happens to a code's product when the redeemer asks for a refund) migrate gives one code per seat, which reaches every
/// holder whatever the answer.
public enum DirectSalesCheck {
    /// One-time-use and custom codes App Store Connect creates per app per quarter.
    public static let codesPerQuarter = 1_000_000
    /// Active offer codes an app may have at a time.
    public static let activeOffers = 10
    /// The longest a one-time-use code stays valid after it is created.
    public static let maximumValidity: TimeInterval = 183 * 86_400
    /// Codes expiring this soon deserve a warning.
    public static let expiringWithin: TimeInterval = 30 * 86_400

    static func code(_ code: DiagnosticCode.DirectSales) -> DiagnosticCode { DiagnosticCode(code) }

    public static func check(_ catalog: PlanCatalog, now: Date) -> [Diagnostic] {
        guard let sales = catalog.plan.directSales, !sales.editions.isEmpty else { return redemptionRateUnused(catalog.plan) }
        let plan = catalog.plan
        let root = JSONPath.root / PlanKeys.Root.directSales
        var diagnostics: [Diagnostic] = []
        var products = Set<String>()
        var seats = 0
        // What every customer has for free needs no product.
        let free = Set(plan.releases.indices.filter { !plan.releases[$0].model.isPaid }.flatMap { catalog.includes[$0] })
        for (index, edition) in sales.editions.enumerated() {
            let path = edition.origin ?? (root / PlanKeys.DirectSales.editions / index)
            guard let id = edition.legacyProduct else {
                guard edition.seats > 0 else { continue }
                diagnostics.append(
                    .warning(
                        code(.editionUnreached),
                        "edition '\(edition.id)' names no legacyProduct, so its \(edition.holders) holder\(edition.holders == 1 ? "" : "s") (\(edition.seats) seat\(edition.seats == 1 ? "" : "s")) can be given no code",
                        at: path,
                        hint:
                            "Add \"legacyProduct\": a non-consumable (free by code) that grants what the edition's buyers keep, and \"tier\" for the tier they join."
                    ))
                continue
            }
            guard let product = plan.product(withID: id) else { continue }  // the validator reports the unknown id
            products.insert(id)
            seats += edition.seats
            let productPath = path / PlanKeys.DirectEdition.legacyProduct
            switch product.kind {
            case .consumable:
                diagnostics.append(
                    .error(
                        code(.legacyProductKind),
                        "edition '\(edition.id)' is reached through '\(id)', a consumable: it is used up and restores nothing",
                        at: productPath, hint: "Use a non-consumable, which the App Store restores on every device for good."))
            case .nonRenewing:
                diagnostics.append(
                    .warning(
                        code(.legacyProductKind),
                        "edition '\(edition.id)' is reached through '\(id)', a non-renewing subscription: its holders lose it when its duration ends",
                        at: productPath, hint: "Buyers of a perpetual license keep it for good: use a non-consumable."))
            case .autoRenewable:
                diagnostics.append(
                    .warning(
                        code(.subscriptionCodeRenews),
                        "edition '\(edition.id)' is reached through a subscription offer code for '\(id)': after the offer's free periods it renews at full price unless the holder cancels",
                        at: productPath,
                        hint:
                            "A perpetual license's buyers keep what they paid for: give a non-consumable unless the edition itself was a subscription."
                    ))
            case .nonConsumable:
                break
            }
            if let tierID = edition.tier, let tier = catalog.tiers.first(where: { $0.id == tierID }) {
                let granted = catalog.productFeatures[id] ?? []
                let lacking = tier.grants.filter { !granted.contains($0) && !free.contains($0) }
                if !lacking.isEmpty {
                    diagnostics.append(
                        .warning(
                            code(.legacyProductGrantsLess),
                            "'\(id)' grants less than tier '\(tierID)' that edition '\(edition.id)' joins: \(lacking.joined(separator: ", ")) missing",
                            at: productPath, hint: "Add the missing features to the product's grants (or a bundle it contains)."))
                }
            }
            if edition.seats > edition.holders && !product.familyShareable {
                diagnostics.append(
                    Diagnostic(
                        .note, code: code(.codesPerSeat),
                        "edition '\(edition.id)' has \(edition.seats) seats for \(edition.holders) holders: each customer redeems one code per offer, so each seat's code must reach a different Apple Account",
                        at: path, hint: "The mail merge lists one code per seat; tell multi-seat buyers to pass the extra codes on."))
            }
        }
        if products.count > activeOffers {
            diagnostics.append(
                .warning(
                    code(.activeOffers),
                    "\(products.count) legacy products need an offer each, and an app can have \(activeOffers) active offers at a time (App Store Connect Help, \"Create offer codes for In-App Purchases\")",
                    at: root / PlanKeys.DirectSales.editions, hint: "Send the codes in rounds, or let editions share a legacy product."))
        }
        if seats > codesPerQuarter {
            let quarters = (seats + codesPerQuarter - 1) / codesPerQuarter
            diagnostics.append(
                .warning(
                    code(.codesQuota),
                    "\(seats) seats need a code each, and App Store Connect creates \(codesPerQuarter) codes per app per quarter: reaching every holder takes \(quarters) quarters",
                    at: root / PlanKeys.DirectSales.editions, hint: "Serve the oldest licenses first ('codes assign' does) and plan the rounds."))
        }
        let codesPath = root / PlanKeys.DirectSales.offerCodes
        if !products.isEmpty && sales.offerCodes?.appID == nil {
            diagnostics.append(
                Diagnostic(
                    .note, code: code(.codesAppID), "directSales.offerCodes.appID is not set; 'codes assign' needs it for the redemption URLs",
                    at: root, hint: "Add \"offerCodes\": { \"appID\": \"…\" } with the number in the app's App Store URL."))
        }
        if let expires = sales.offerCodes?.expires {
            let path = codesPath / PlanKeys.OfferCodes.expires
            if expires <= now {
                diagnostics.append(
                    .error(
                        code(.codesExpired), "the offer codes expired on \(Timestamp.formatDate(expires)): no holder can redeem one", at: path,
                        hint: "Create new one-time-use codes in App Store Connect and set the new expiry date here."))
            } else if expires <= now.addingTimeInterval(expiringWithin) {
                diagnostics.append(
                    .warning(
                        code(.codesExpiring), "the offer codes expire on \(Timestamp.formatDate(expires)), within 30 days", at: path,
                        hint: "Send the mail merge now, or create codes that last longer."))
            } else if expires > now.addingTimeInterval(maximumValidity) {
                diagnostics.append(
                    .warning(
                        code(.codesTooLong),
                        "the offer codes are said to expire on \(Timestamp.formatDate(expires)), more than six months away; one-time-use codes expire at most six months after they are made",
                        at: path, hint: "Copy the expiry date App Store Connect shows for the codes."))
            }
        }
        let needsRecentOS = products.contains { plan.product(withID: $0)?.kind != .autoRenewable }
        if needsRecentOS {
            diagnostics.append(
                Diagnostic(
                    .note, code: code(.codesRedemption),
                    "redeeming a non-subscription's offer code inside the app needs iOS 16.3, iPadOS 16.3, macOS 15.0 or visionOS 1.0 (StoreKit, \"Supporting offer codes in your app\"); the redemption URL and the App Store's Redeem work on every version",
                    at: root, hint: "The mail merge gives each holder the redemption URL; on older systems they redeem in the App Store."))
        }
        return diagnostics
    }

    /// `codeRedemptionRate` given where no direct-sale edition could use it: the simulation prints it among the
    /// assumptions but nothing reads it, so say so instead of letting it look like it counts.
    static func redemptionRateUnused(_ plan: MigrationPlan) -> [Diagnostic] {
        let name = SimulationAssumption.codeRedemptionRate.rawValue
        let settings = plan.simulation
        let given = (settings?.assumptions ?? []) + (settings?.scenarios.flatMap(\.assumptions) ?? [])
        return given.filter { $0.name == name }.map { value in
            .warning(
                code(.redemptionRateUnused),
                "'\(name)' is set, but the plan has no direct-sale editions for it to apply to: the simulation lists it and nothing uses it",
                at: value.origin,
                hint:
                    "Remove it, or add the license holders with 'migrate import licenses' (the plan's \"\(PlanKeys.Root.directSales)\"), whose seats it sizes."
            )
        }
    }

}
