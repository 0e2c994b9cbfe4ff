import MigrateCore
import MigratePlan

/// What the cohort preview says of one direct-sale edition's license holders: how many redeem their code, as a
/// range, and what that can cost.
public struct DirectSaleFigures: Sendable, Hashable {
    public var editionID: String
    public var editionName: String
    /// Licenses that count, their seats (one code each) and the refunded licenses left out, as the plan has them.
    public var holders: Int
    public var seats: Int
    public var refunded: Int
    /// Seats whose code is redeemed: `seats × codeRedemptionRate` at its P10, median and P90.
    public var redeemersLow: Double
    public var redeemers: Double
    public var redeemersHigh: Double
    /// What redeemers could otherwise have bought for the same access; nil when no single offer sells it.
    public var forgone: ForgoneSale?
}

/// The sales a redeemed code can cost: redeemers get the legacy product free instead of buying `productID`.
///
/// Only a bound is known. At most, every redeemer would otherwise have bought it (`upperBound`); at least, none
/// would (people who paid once outside the App Store may never pay again), and no public figure says which.
public struct ForgoneSale: Sendable, Hashable {
    /// The cheapest offer a new free user is shown that grants every feature the legacy product grants.
    public var productID: String
    public var name: String
    /// List price, before Apple's commission.
    public var price: Double
    /// The renewal period in months for a subscription (the bound is then per period); nil for a one-time purchase.
    public var periodMonths: Int?
    /// P90 redeemers × price: the most a redeemed code can cost in sales (per period for a subscription).
    public var upperBound: Double
}

extension CohortPreview {
    /// One row per direct-sale edition: its holders as the engine sees them once they redeem (owning the legacy
    /// product, on the first free track), sized by `codeRedemptionRate`.
    static func directSaleRows(for scenario: PreparedScenario) -> [CohortPreviewRow] {
        guard let sales = scenario.plan.directSales, !sales.editions.isEmpty,
            let rate = scenario.assumptions.first(where: { $0.assumption == .codeRedemptionRate })?.distribution
        else { return [] }
        let catalog = scenario.catalog
        let advisor = Advisor(catalog: catalog)
        // Holders download the free app like anyone new; with no free track, the first cohort's customer stands in.
        let index = scenario.model.cohorts.firstIndex { $0.kind == .newCustomers } ?? 0
        guard scenario.representatives.indices.contains(index) else { return [] }
        let newcomer = scenario.representatives[index]
        let newcomerOffers = advisor.report(for: newcomer).upsell.offers
        return sales.editions.map { edition in
            let seats = Double(edition.seats)
            var figures = DirectSaleFigures(
                editionID: edition.id, editionName: edition.name, holders: edition.holders, seats: edition.seats, refunded: edition.refunded,
                redeemersLow: seats * rate.quantile(0.1), redeemers: seats * rate.median, redeemersHigh: seats * rate.quantile(0.9))
            let label = "license holders '\(edition.id)'"
            guard let productID = edition.legacyProduct, let product = catalog.product(withID: productID) else {
                return CohortPreviewRow(
                    cohort: label, tierID: edition.tier, platform: newcomer.platform, owns: [], size: figures.redeemers, entitlements: [],
                    offers: [], withheld: [], reason: "sold directly as \(edition.name); no legacyProduct, so no code to redeem yet",
                    directSale: figures)
            }
            let granted = catalog.productFeatures[productID] ?? []
            let covering = newcomerOffers.filter { granted.isSubset(of: catalog.productFeatures[$0.productID] ?? []) }
            if let cheapest = covering.min(by: { $0.price < $1.price }) {
                let period = catalog.product(withID: cheapest.productID)?.subscription?.period
                figures.forgone = ForgoneSale(
                    productID: cheapest.productID, name: cheapest.name, price: cheapest.price.doubleValue,
                    periodMonths: period.flatMap { RenewalPeriod($0)?.months },
                    upperBound: figures.redeemersHigh * cheapest.price.doubleValue)
            }
            var owner = newcomer
            owner.purchases = [OwnedProduct(productID: productID)]
            var row = row(
                label, tierID: edition.tier, customer: owner, owns: [productID], size: figures.redeemers, report: advisor.report(for: owner),
                origin: "sold directly as \(edition.name), redeemed a code for \(product.name)")
            row.directSale = figures
            return row
        }
    }
}

extension DirectSaleFigures {
    /// `120 (48–192)`: the median redeemers and their P10–P90.
    public var redeemersText: String {
        let low = FigureText.people(redeemersLow)
        let high = FigureText.people(redeemersHigh)
        let mid = FigureText.people(redeemers)
        return low == high ? mid : "\(mid) (\(low)–\(high))"
    }

    /// Who is counted: seats, not licenses, since each seat gets a code.
    public var redeemText: String {
        var text =
            "\(redeemersText) of \(FigureText.count(seats)) seat\(seats == 1 ? "" : "s") (\(FigureText.count(holders)) license"
            + "\(holders == 1 ? "" : "s")) redeem their code: seats × codeRedemptionRate, its median (P10–P90)"
        if refunded > 0 { text += "; \(FigureText.count(refunded)) refunded license\(refunded == 1 ? "" : "s") left out" }
        return text
    }

    /// What a redeemed code can cost, as the bound it is.
    public var costText: String {
        guard let forgone else {
            return "no offer a new user is shown sells everything the code gives, so no sale it replaces is bounded here; redeemers pay nothing"
        }
        let per = forgone.periodMonths.map { $0 == 1 ? " a month" : " every \($0) months" } ?? ""
        return "at most \(FigureText.money(forgone.upperBound))\(per) in sales (P90 redeemers × \(forgone.name) at "
            + "\(FigureText.price(forgone.price))\(per), before Apple's commission), if every redeemer would otherwise have bought it; "
            + "as little as nothing, as people who paid outside the App Store may never pay again, and no public figure says how many would"
    }
}
