import Foundation
import MigratePlan
import MigrateSupport

/// Turns a cohort decision and a customer's transactions into features, with reasons.
public struct EntitlementResolver: Sendable {
    public let catalog: PlanCatalog

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
    }

    public func resolve(_ customer: Customer, decision: CohortDecision) -> Entitlements {
        let plan = catalog.plan
        var sources: [String: [GrantSource]] = [:]
        func grant(_ feature: String, _ source: GrantSource) {
            if !(sources[feature]?.contains(source) ?? false) { sources[feature, default: []].append(source) }
        }

        for feature in catalog.freeFeatures(on: customer.platform) { grant(feature, .free) }
        if case .legacy(let id) = decision.cohort, let tier = catalog.tier(withID: id) {
            for feature in tier.grants { grant(feature, .tier(id)) }
        }

        var active: [String] = []
        var bought: Set<String> = []
        var ignored: [IgnoredPurchase] = []
        var notes: [String] = []
        var cacheAge: Int?
        if case .failed(let age) = customer.appTransaction { cacheAge = age }

        for purchase in customer.purchases {
            guard let product = catalog.product(withID: purchase.productID) else {
                let suggestion = Suggestions.didYouMean(purchase.productID, in: plan.products.map(\.id))
                ignored.append(IgnoredPurchase(productID: purchase.productID, reason: "not a product in the plan.\(suggestion)"))
                continue
            }
            if let reason = reasonToIgnore(purchase, product: product, cacheAge: cacheAge, now: customer.now) {
                ignored.append(IgnoredPurchase(productID: product.id, reason: reason))
                continue
            }
            if purchase.ownership == .familyShared && !product.familyShareable {
                notes.append(
                    "'\(product.id)' arrived family-shared but the plan marks it not family shareable; it entitles anyway (check App Store Connect)")
            }
            if !purchase.isVerified {
                notes.append(
                    "'\(product.id)' did not verify; the cached result (\(cacheAge ?? 0) days old) keeps it, as policies.verificationFailure allows")
            }
            if let trial = product.trial, let start = purchase.purchaseDate, let end = trial.end(after: start) {
                notes.append("'\(product.id)' is a trial of \(trial.spoken), from \(Timestamp.format(start)) until \(Timestamp.format(end))")
            }
            if let duration = product.duration {
                if let start = purchase.purchaseDate, let end = duration.end(after: start) {
                    notes.append(
                        "'\(product.id)' lasts \(duration.spoken), from \(Timestamp.format(start)) until \(Timestamp.format(end))"
                            + (customer.now == nil ? "; the time now is unknown, so it is kept" : ""))
                } else {
                    notes.append("'\(product.id)' lasts \(duration.spoken); its purchase date is unknown, so it is kept")
                }
            }
            if !active.contains(product.id) { active.append(product.id) }
            if purchase.ownership != .familyShared { bought.insert(product.id) }
        }

        for id in active.sorted() {
            guard let product = catalog.product(withID: id) else { continue }
            for feature in product.grants { grant(feature, .product(id)) }
            for inner in (catalog.productContents[id] ?? []).sorted() {
                for feature in catalog.product(withID: inner)?.grants ?? [] { grant(feature, .bundle(id, via: inner)) }
            }
        }

        let features = catalog.ordered(sources.keys).map { FeatureGrant(featureID: $0, sources: sources[$0]!) }
        return Entitlements(
            features: features, activeProducts: active.sorted(), ignored: ignored, notes: notes,
            familySharedOnly: active.filter { !bought.contains($0) }.sorted())
    }

    private func reasonToIgnore(_ purchase: OwnedProduct, product: Product, cacheAge: Int?, now: Date?) -> String? {
        if product.kind == .consumable { return "a consumable; consumables never entitle" }
        if purchase.isRevoked { return "refunded or revoked (revocationDate is set)" }
        if purchase.isExpired { return "expired" }
        if let trial = product.trial {
            // A trial is free: when its time can't be told, it ends, and no one who paid loses anything.
            guard purchase.isVerified else { return "a trial whose signature did not verify: its dates can't be trusted" }
            guard let start = purchase.purchaseDate, let end = trial.end(after: start) else {
                return "a trial of \(trial.spoken) whose purchase date is unknown, so it can't be told whether it is still running"
            }
            guard let now else { return "a trial of \(trial.spoken), and the time now is unknown" }
            if now >= end { return "a trial of \(trial.spoken) that ended \(Timestamp.format(end))" }
        }
        if let duration = product.duration, let start = purchase.purchaseDate, let end = duration.end(after: start), let now, now >= end {
            // A paid pass: it ends only when its dates say so. Unknown dates keep it, so no payer is locked out.
            return "a non-renewing subscription of \(duration.spoken) that ended \(Timestamp.format(end))"
        }
        if purchase.ownership == .familyShared && catalog.plan.policies.familySharing == .ignored {
            return "family-shared, and policies.familySharing is \"ignored\""
        }
        if !purchase.isVerified {
            switch catalog.plan.policies.verificationFailure {
            case .deny:
                return "its signature did not verify, and policies.verificationFailure is \"deny\""
            case .keepLastVerified(let days):
                guard let cacheAge, cacheAge <= days else {
                    return "its signature did not verify, and no verified result from the last \(days) days is cached"
                }
            }
        }
        return nil
    }
}
