import Foundation
import MigratePlan

/// A product a cohort is shown, reduced to what revenue needs.
public struct OfferSpec: Sendable, Hashable {
    public var productID: String
    public var price: Double
    /// Nil for a one-time purchase; the renewal period in months for a subscription.
    public var periodMonths: Int?
    /// Charges per period: 52/12 for a weekly subscription counted monthly, else 1.
    public var chargesPerPeriod: Double
    /// Index into the subscription ledger, for subscriptions.
    public var slot: Int?
    /// The product's price as the plan writes it: conversion is the assumption's value at this price.
    public var referencePrice: Double
    /// This offer's share of its cohort's buyers (`splitWeights`).
    public var weight: Double = 1
    /// For a subscription whose introductory offer its buyers get: when, and at what share of the price, they pay.
    public var introductory: IntroductorySchedule? = nil

    /// How a cohort's buyers split over the offers it is shown, in the order shown (cheapest useful first):
    /// offer i (from 0) weighs `1 / (i + 1) × cheapest price / its price`, and the weights add up to 1.
    /// So the first and cheapest offer takes the most buyers, and an offer twice the price half as many.
    public static func splitWeights(_ prices: [Double]) -> [Double] {
        guard !prices.isEmpty else { return [] }
        let cheapest = prices.filter { $0 > 0 }.min() ?? 1
        let raw = prices.enumerated().map { index, price in 1 / Double(index + 1) * (price > 0 ? cheapest / price : 1) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// How many buy at `price` for each who would at the plan's own price: `exp(−elasticity × (price ÷ reference − 1))`.
    /// The elasticity of conversion at a price p is `−elasticity × p ÷ reference`, so proceeds per download,
    /// `p × exp(…)`, are highest at `reference ÷ elasticity`: a price sweep has an optimum inside the range.
    @inline(__always)
    public func priceResponse(elasticity: Double) -> Double {
        guard referencePrice > 0, price != referencePrice else { return 1 }
        return exp(-elasticity * (price / referencePrice - 1))
    }
}

/// A group of customers that buys: legacy buyers of a tier on a platform, or new free users on a platform.
public struct RevenueCohort: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case legacy(tierID: String)
        case newCustomers
    }

    public var kind: Kind
    public var platform: Platform
    /// Its share of the legacy buyers (legacy) or of the new downloads (new customers).
    public var share: Double
    public var offers: [OfferSpec]
}

/// The revenue arithmetic of one scenario, compiled once so that each Monte Carlo draw is a few
/// hundred floating-point operations and allocates nothing.
///
/// Per month m = 0, 1, … (month 1 in reports is m = 0):
/// - staying paid: `paidDownloadsPerMonth × (1 + paidTrendPerMonth)^m × paidPrice × (1 − refundRate) × (1 − commission)`;
/// - downloads when free: `paidDownloadsPerMonth × multiple(m)`, where
///   `multiple(m) = lasting + (launch − lasting) × 0.5^(m / burstHalfLifeMonths)`;
/// - new customers: `downloads × share × conversion` buyers in the month they download (most conversions
///   happen on day 0), split over the offers their cohort is shown by `OfferSpec.splitWeights`, each offer's
///   share times its `priceResponse(elasticity: priceElasticity)`;
/// - legacy buyers: `legacyBuyers × share × legacyUpgradeRate` buyers in month 1, when the update shows them
///   the offer, split the same way;
/// - subscriptions: each month's new subscribers renew every period, `(1 − monthlyChurn)` of them staying
///   each month; Apple takes the commission in a subscriber's first paid year and 15% after it;
/// - introductory offers (`IntroductorySchedule`): the offer's charges first, then the regular price every period
///   from its end, churn and the first paid year counted from the first payment;
/// - every sale keeps `(1 − refundRate)`: a refund returns the whole price, and Apple its commission.
public struct RevenueModel: Sendable {
    public var months: Int
    public var commission: Commission
    public var cohorts: [RevenueCohort] {
        didSet { compiled = Compiled(cohorts: cohorts, groupOfSlot: renewalGroupOfSlot) }
    }
    /// Months the paid releases were on sale, for the derived `legacyBuyers`.
    public var paidMonthsOnSale: Double
    /// One offer per subscription slot.
    public var subscriptions: [OfferSpec] {
        didSet {
            (renewalGroupOfSlot, renewalGroups) = Self.renewalGroups(subscriptions)
            compiled = Compiled(cohorts: cohorts, groupOfSlot: renewalGroupOfSlot)
        }
    }
    public var subscriptionSlots: Int { subscriptions.count }
    /// Subscriptions that renew alike (the same period, the same charges a period) are one renewal group:
    /// their new subscribers' first charges are added up before the renewals are worked out, so renewals cost
    /// the same for one subscription or a thousand. The group of each slot, and each group's period and charges.
    private(set) var renewalGroupOfSlot: [Int]
    private(set) var renewalGroups: [RenewalGroup]

    struct RenewalGroup: Sendable, Hashable {
        var periodMonths: Int
        var chargesPerPeriod: Double
        var introductory: IntroductorySchedule? = nil
    }

    /// The offers summed ahead of any draw. An offer at the plan's own price (most of them: every one but a
    /// scenario's or a sweep's prices) brings the same in every draw, so its part is added up once here; only
    /// the others need their price response (an `exp`) in each draw.
    struct Compiled: Sendable {
        /// Proceeds before commission per new and per legacy buyer from one-time purchases, and first charges
        /// per renewal group, of the offers whose price response is always 1.
        var newPerBuyer = 0.0, legacyPerBuyer = 0.0
        var newGroups: [Double], legacyGroups: [Double]
        /// The other offers: share of a buyer times price, the price ÷ the reference price, and the renewal
        /// group (nil for a one-time purchase).
        var elastic: [(isNew: Bool, value: Double, ratio: Double, group: Int?)] = []

        init(cohorts: [RevenueCohort], groupOfSlot: [Int]) {
            let groups = Set(groupOfSlot).count
            newGroups = [Double](repeating: 0, count: groups)
            legacyGroups = newGroups
            for cohort in cohorts {
                let isNew: Bool
                switch cohort.kind {
                case .newCustomers: isNew = true
                case .legacy: isNew = false
                }
                for offer in cohort.offers {
                    let value = cohort.share * offer.weight * offer.price
                    let group = offer.slot.map { groupOfSlot[$0] }
                    guard offer.referencePrice > 0, offer.price != offer.referencePrice else {
                        switch (group, isNew) {
                        case (let group?, true): newGroups[group] += value
                        case (let group?, false): legacyGroups[group] += value
                        case (nil, true): newPerBuyer += value
                        case (nil, false): legacyPerBuyer += value
                        }
                        continue
                    }
                    elastic.append((isNew, value, offer.price / offer.referencePrice, group))
                }
            }
        }
    }

    private(set) var compiled: Compiled

    public init(months: Int, commission: Commission, cohorts: [RevenueCohort], paidMonthsOnSale: Double, subscriptions: [OfferSpec]) {
        self.months = months
        self.commission = commission
        self.cohorts = cohorts
        self.paidMonthsOnSale = paidMonthsOnSale
        self.subscriptions = subscriptions
        (renewalGroupOfSlot, renewalGroups) = Self.renewalGroups(subscriptions)
        compiled = Compiled(cohorts: cohorts, groupOfSlot: renewalGroupOfSlot)
    }

    static func renewalGroups(_ subscriptions: [OfferSpec]) -> ([Int], [RenewalGroup]) {
        var groups: [RenewalGroup] = []
        var index: [RenewalGroup: Int] = [:]
        let ofSlot = subscriptions.map { offer -> Int in
            let group = RenewalGroup(
                periodMonths: offer.periodMonths ?? 1, chargesPerPeriod: offer.chargesPerPeriod, introductory: offer.introductory)
            if let known = index[group] { return known }
            index[group] = groups.count
            groups.append(group)
            return groups.count - 1
        }
        return (ofSlot, groups)
    }

    /// The values of one draw, indexed like `SimulationAssumption.allCases`; a NaN `legacyBuyers`
    /// means "derive it from the paid downloads".
    public typealias Values = [Double]

    static let index = Dictionary(uniqueKeysWithValues: SimulationAssumption.allCases.enumerated().map { ($1, $0) })

    /// Fills `paid` and `freemium` (each `months` long) with monthly proceeds. `ledger` is scratch space of
    /// `scratchSize` doubles, so that a caller running many draws allocates it once.
    ///
    /// Each offer's share of its cohort's buyers is fixed within a draw, so the offers are summed once, before
    /// the months: what one new buyer and one legacy buyer bring in one-time purchases, and in first charges of
    /// each renewal group's subscriptions. The month loop and the renewals then cost the same for ten offers or
    /// ten thousand.
    public func evaluate(_ values: Values, paid: inout [Double], freemium: inout [Double], ledger: inout [Double]) {
        let rate = values[0]
        let price = values[1]
        let legacyBuyers = values[2].isNaN ? rate * paidMonthsOnSale : values[2]
        let launch = values[3]
        let halfLife = values[4]
        let lasting = values[5]
        let conversion = values[6]
        let upgrade = values[7]
        let churn = values[8]
        let refund = values[9]
        let trend = 1 + values[10]
        let elasticity = values[11]
        let keep = 1 - refund
        let cut = commission.rate
        let laterCut = min(cut, Commission.afterFirstYearRate)
        let decay = pow(0.5, 1 / halfLife)
        let staying = 1 - churn
        let groups = renewalGroups.count
        // Scratch: per renewal group and month, the first charges (before commission) of that month's new
        // subscribers; then per group those of one new buyer, and of one legacy buyer.
        let newGroups = groups * months
        let legacyGroups = newGroups + groups
        for index in 0..<min(ledger.count, legacyGroups + groups) { ledger[index] = 0 }
        // One-time proceeds (before commission) per new buyer and per legacy buyer: each offer's share of its
        // cohort's buyers, times the cohort's share, times its price; those at the plan's price summed ahead, the
        // others with their price response (an `exp`) once per offer.
        var newPerBuyer = compiled.newPerBuyer
        var legacyPerBuyer = compiled.legacyPerBuyer
        for group in 0..<groups {
            ledger[newGroups + group] = compiled.newGroups[group]
            ledger[legacyGroups + group] = compiled.legacyGroups[group]
        }
        for offer in compiled.elastic {
            let value = offer.value * exp(-elasticity * (offer.ratio - 1))
            if let group = offer.group {
                ledger[(offer.isNew ? newGroups : legacyGroups) + group] += value
            } else if offer.isNew {
                newPerBuyer += value
            } else {
                legacyPerBuyer += value
            }
        }

        var excess = launch - lasting
        var paidRate = rate
        for month in 0..<months {
            paid[month] = paidRate * price * keep * (1 - cut)
            paidRate *= trend
            let downloads = rate * (lasting + excess)
            excess *= decay
            // New free users buy in the month they download; legacy buyers in month 1, when the update shows the offers.
            let newBuyers = downloads * conversion
            let upgrading = month == 0 ? legacyBuyers * upgrade : 0
            freemium[month] = (newBuyers * newPerBuyer + upgrading * legacyPerBuyer) * (1 - cut)
            for group in 0..<groups {
                ledger[group * months + month] = newBuyers * ledger[newGroups + group] + upgrading * ledger[legacyGroups + group]
            }
        }
        for (group, renewal) in renewalGroups.enumerated() {
            if let introductory = renewal.introductory {
                chargeIntroductory(
                    introductory, renewal, ledger: ledger, group: group, staying: staying, cut: cut, laterCut: laterCut, into: &freemium)
                continue
            }
            for start in 0..<months {
                let charged = ledger[group * months + start]
                guard charged > 0 else { continue }
                var alive = charged
                for month in start..<months {
                    let age = month - start
                    if age % renewal.periodMonths == 0 {
                        let rateCut = age >= 12 ? laterCut : cut
                        freemium[month] += alive * renewal.chargesPerPeriod * (1 - rateCut)
                    }
                    alive *= staying
                }
            }
        }
        for month in 0..<months { freemium[month] *= keep }
    }

    /// A renewal group whose subscribers get an introductory offer: the offer's charges, then the regular price
    /// every period from the offer's end. Churn and Apple's first paid year count from the first payment (a free
    /// trial's days are not paid service); the subscribers `conversion` counts all reach it.
    private func chargeIntroductory(
        _ schedule: IntroductorySchedule, _ renewal: RenewalGroup, ledger: [Double], group: Int, staying: Double, cut: Double, laterCut: Double,
        into freemium: inout [Double]
    ) {
        for start in 0..<months {
            let charged = ledger[group * months + start]
            guard charged > 0 else { continue }
            for charge in schedule.charges where start + charge.offset < months {
                let alive = charged * pow(staying, Double(charge.paidMonths))
                freemium[start + charge.offset] += alive * charge.share * (1 - (charge.afterFirstYear ? laterCut : cut))
            }
            for first in schedule.regular {
                // Whole periods after the first regular charge; the paid months before it are the same for each.
                for month in stride(from: start + first.offset, to: months, by: renewal.periodMonths) {
                    let paid = schedule.paidMonthsAtRegular + Double(month - start - first.offset)
                    let alive = charged * first.share * pow(staying, paid.rounded(.down))
                    freemium[month] += alive * renewal.chargesPerPeriod * (1 - (paid >= 12 ? laterCut : cut))
                }
            }
        }
    }

    /// Per renewal group, the ledger of first charges by month and the charges per new and per legacy buyer.
    public var scratchSize: Int { renewalGroups.count * (months + 2) }

    /// Expected buyers of each offer per cohort over the horizon, for sizing the cohort preview.
    public func expectedBuyers(_ values: Values) -> [[Double]] {
        let rate = values[0]
        let legacyBuyers = values[2].isNaN ? rate * paidMonthsOnSale : values[2]
        let downloads = totalDownloads(values)
        return cohorts.map { cohort in
            guard !cohort.offers.isEmpty else { return [] }
            let buyers: Double
            switch cohort.kind {
            case .newCustomers: buyers = downloads * cohort.share * values[6]
            case .legacy: buyers = legacyBuyers * cohort.share * values[7]
            }
            return cohort.offers.map { buyers * $0.weight * $0.priceResponse(elasticity: values[11]) }
        }
    }

    /// New downloads over the horizon.
    public func totalDownloads(_ values: Values) -> Double {
        let rate = values[0]
        let launch = values[3]
        let halfLife = values[4]
        let lasting = values[5]
        let decay = pow(0.5, 1 / halfLife)
        var excess = launch - lasting
        var total = 0.0
        for _ in 0..<months {
            total += rate * (lasting + excess)
            excess *= decay
        }
        return total
    }

    public func legacyBuyers(_ values: Values) -> Double {
        values[2].isNaN ? values[0] * paidMonthsOnSale : values[2]
    }
}
