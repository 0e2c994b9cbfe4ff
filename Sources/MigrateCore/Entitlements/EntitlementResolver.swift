import Foundation
import FreemiumStoreKit
import MigratePlan
import MigrateSupport

/// Turns a cohort decision and a customer's transactions into features, with reasons: the layer's rules
/// (`CatalogRules.resolve`) over the plan's tables, with what they decided put in words.
public struct EntitlementResolver: Sendable {
    public let catalog: PlanCatalog
    public let rules: PlanRules

    public init(catalog: PlanCatalog) {
        self.init(catalog: catalog, rules: catalog.makeRules())
    }

    public init(catalog: PlanCatalog, rules: PlanRules) {
        self.catalog = catalog
        self.rules = rules
    }

    public func resolve(_ customer: Customer, decision: CohortDecision) -> Entitlements {
        var tier: String?
        if case .legacy(let id) = decision.cohort, catalog.tier(withID: id) != nil { tier = id }
        var cacheAge: Int?
        if case .failed(let age) = customer.appTransaction { cacheAge = age }
        var limit: Int?
        if case .keepLastVerified(let days) = catalog.plan.policies.verificationFailure { limit = days }
        let resolution = rules.resolve(
            tier: tier, freeOn: catalog.trackPlatform(for: customer.platform), purchases: customer.purchases.map(\.storeKit),
            kept: (cacheAge, limit), now: customer.now)

        let resolved = resolution.entitlements
        let features = catalog.ordered(resolved.features.keys).map { id in
            FeatureGrant(featureID: id, sources: resolved.features[id]!.map(GrantSource.init))
        }
        return Entitlements(
            features: features, activeProducts: resolved.activeProducts.map(\.rawValue).sorted(),
            ignored: resolution.ignored.map { IgnoredPurchase(productID: $0.productID, reason: text($0.reason, $0.productID)) },
            notes: resolution.notes.map { text($0.note, $0.product.rawValue, now: customer.now) },
            familySharedOnly: resolved.familySharedOnly.map(\.rawValue).sorted())
    }

    /// Why a transaction doesn't entitle, as `explain` says it.
    private func text(_ reason: IgnoreReason, _ id: String) -> String {
        let product = catalog.product(withID: id)
        let trial = product?.trial?.spoken ?? ""
        switch reason {
        case .unknownProduct:
            return "not a product in the plan.\(Suggestions.didYouMean(id, in: catalog.plan.products.map(\.id)))"
        case .consumable: return "a consumable; consumables never entitle"
        case .revoked: return "refunded or revoked (revocationDate is set)"
        case .expired: return "expired"
        case .trialUnverified: return "a trial whose signature did not verify: its dates can't be trusted"
        case .trialStartUnknown:
            return "a trial of \(trial) whose purchase date is unknown, so it can't be told whether it is still running"
        case .trialTimeUnknown: return "a trial of \(trial), and the time now is unknown"
        case .trialEnded(let end): return "a trial of \(trial) that ended \(Timestamp.format(end))"
        case .passEnded(let end):
            return "a non-renewing subscription of \(product?.duration?.spoken ?? "") that ended \(Timestamp.format(end))"
        case .familySharingIgnored: return "family-shared, and policies.familySharing is \"ignored\""
        case .unverified(let limit?): return "its signature did not verify, and no verified result from the last \(limit) days is cached"
        case .unverified(nil): return "its signature did not verify, and policies.verificationFailure is \"deny\""
        }
    }

    /// What was noticed about a transaction that entitles, as `explain` says it.
    private func text(_ note: EntitlementNote, _ id: String, now: Date?) -> String {
        let product = catalog.product(withID: id)
        switch note {
        case .sharedThoughNotShareable:
            if let product, product.familyShareable {
                // Marked shareable, of a type Family Sharing never shares ("Supporting Family Sharing in your app").
                return
                    "'\(id)' arrived family-shared, but Family Sharing shares only non-consumables and auto-renewable subscriptions; it entitles anyway"
            }
            return "'\(id)' arrived family-shared but the plan marks it not family shareable; it entitles anyway (check App Store Connect)"
        case .keptUnverified(let age):
            return "'\(id)' did not verify; the cached result (\(age ?? 0) days old) keeps it, as policies.verificationFailure allows"
        case .trialRunning(let start, let end):
            return "'\(id)' is a trial of \(product?.trial?.spoken ?? ""), from \(Timestamp.format(start)) until \(Timestamp.format(end))"
        case .pass(let start?, let end?):
            return "'\(id)' lasts \(product?.duration?.spoken ?? ""), from \(Timestamp.format(start)) until \(Timestamp.format(end))"
                + (now == nil ? "; the time now is unknown, so it is kept" : "")
        case .pass:
            return "'\(id)' lasts \(product?.duration?.spoken ?? ""); its purchase date is unknown, so it is kept"
        }
    }
}

extension GrantSource {
    init(_ grant: PlanGrant<ProductKey, String>) {
        switch grant {
        case .free: self = .free
        case .tier(let id): self = .tier(id)
        case .product(let id): self = .product(id.rawValue)
        case .bundle(let id, let via): self = .bundle(id.rawValue, via: via.rawValue)
        }
    }
}

extension OwnedProduct {
    /// The transaction as the layer's rules read it.
    var storeKit: FreemiumStoreKit.OwnedProduct {
        FreemiumStoreKit.OwnedProduct(
            productID: productID, ownership: ownership == .familyShared ? .familyShared : .purchased, isRevoked: isRevoked,
            isExpired: isExpired, isVerified: isVerified, purchaseDate: purchaseDate)
    }
}
