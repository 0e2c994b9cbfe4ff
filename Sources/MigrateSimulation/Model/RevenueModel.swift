import Foundation
import MigratePlan

/// A product a cohort is shown, reduced to what revenue needs.
public struct OfferSpec: Sendable, Hashable {
    public var productID: String
    public var price: Double
    /// Nil for a one-time purchase; the renewal period in months for a subscription.
    public var periodMonths: Int?
    /// Charges per period: about 4.35 for a weekly subscription counted monthly, else 1.
    public var chargesPerPeriod: Double
    /// Index into the subscription ledger, for subscriptions.
    public var slot: Int?
    /// The price `conversion` is quoted at (`ReferencePrice`): the paid app's own price, which editing an offer's
    /// price doesn't move.
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

    /// How many buy at `price` for each who would at the reference price: `exp(−elasticity × (price ÷ reference − 1))`.
    /// The elasticity of conversion at a price p is `−elasticity × p ÷ reference`, so proceeds per download,
    /// `p × exp(…)`, are highest at `reference ÷ elasticity`: a price sweep has an optimum inside the range, and
    /// the plan's own price is just one point on the same curve.
    @inline(__always)
    public func priceResponse(elasticity: Double) -> Double {
        Self.priceResponse(ratio: referencePrice > 0 ? price / referencePrice : 1, elasticity: elasticity)
    }

    /// The response at `price ÷ reference` = `ratio`: the one formula the model, the cohort sizes and the actuals use.
    @inline(__always)
    public static func priceResponse(ratio: Double, elasticity: Double) -> Double {
        ratio == 1 ? 1 : exp(-elasticity * (ratio - 1))
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
/// Per month m = 0, 1, … (month 1 in reports is m = 0), with s(m) the season's factor of its calendar month
/// (1 in every month when the season is flat) and every amount net of the tax in the customer's price:
/// - staying paid: `paidDownloadsPerMonth × (1 + paidTrendPerMonth)^m × s(m) × paidPrice × (1 − taxInPrice) ×
///   (1 − refundRate) × (1 − commission)`;
/// - downloads when free: `paidDownloadsPerMonth × multiple(m) × s(m)`, where
///   `multiple(m) = lasting + (launch − lasting) × 0.5^(m / burstHalfLifeMonths)`;
/// - new customers: `downloads × share × conversion` buyers in the month they download (most conversions
///   happen on day 0), split over the offers their cohort is shown by `OfferSpec.splitWeights`, each offer's
///   share times its `priceResponse(elasticity: priceElasticity)` against the reference price;
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
    /// Months the paid releases were on sale, for a `legacyBuyers` the model derives.
    public var paidMonthsOnSale: Double
    /// One offer per subscription slot.
    public var subscriptions: [OfferSpec] {
        didSet {
            (renewalGroupOfSlot, renewalGroups) = Self.renewalGroups(subscriptions)
            compiled = Compiled(cohorts: cohorts, groupOfSlot: renewalGroupOfSlot)
        }
    }
    /// The season's factor of each month of the horizon (`Season`): its calendar month's weight over the average
    /// month's. All 1 when the season is flat.
    public var season: [Double]
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

    /// The offers summed ahead of any draw. An offer at the reference price brings the same in every draw, so
    /// its part is added up once here; the others are added up by their price ÷ the reference price (offers in a
    /// large catalog share a few price points), so a draw takes one `exp` per distinct ratio, not per offer.
    struct Compiled: Sendable {
        /// Proceeds before commission per new and per legacy buyer from one-time purchases, and first charges
        /// per renewal group, of the offers whose price response is always 1.
        var newPerBuyer = 0.0, legacyPerBuyer = 0.0
        var newGroups: [Double], legacyGroups: [Double]
        /// The other offers, summed by what they share: share of a buyer times price, new or legacy, the price ÷
        /// the reference price, and the renewal group (nil for a one-time purchase).
        var elastic: [(isNew: Bool, value: Double, ratio: Double, group: Int?)] = []

        init(cohorts: [RevenueCohort], groupOfSlot: [Int]) {
            let groups = Set(groupOfSlot).count
            newGroups = [Double](repeating: 0, count: groups)
            legacyGroups = newGroups
            struct Key: Hashable {
                var isNew: Bool
                var ratio: Double
                var group: Int?
            }
            var positions: [Key: Int] = [:]
            for cohort in cohorts {
                let isNew: Bool
                switch cohort.kind {
                case .newCustomers: isNew = true
                case .legacy: isNew = false
                }
                for offer in cohort.offers {
                    let value = cohort.share * offer.weight * offer.price
                    let group = offer.slot.map { groupOfSlot[$0] }
                    let ratio = offer.referencePrice > 0 ? offer.price / offer.referencePrice : 1
                    guard ratio != 1 else {
                        switch (group, isNew) {
                        case (let group?, true): newGroups[group] += value
                        case (let group?, false): legacyGroups[group] += value
                        case (nil, true): newPerBuyer += value
                        case (nil, false): legacyPerBuyer += value
                        }
                        continue
                    }
                    let key = Key(isNew: isNew, ratio: ratio, group: group)
                    if let position = positions[key] {
                        elastic[position].value += value
                    } else {
                        positions[key] = elastic.count
                        elastic.append((isNew, value, ratio, group))
                    }
                }
            }
        }
    }

    private(set) var compiled: Compiled

    public init(
        months: Int, commission: Commission, cohorts: [RevenueCohort], paidMonthsOnSale: Double, subscriptions: [OfferSpec], season: [Double]? = nil
    ) {
        self.months = months
        self.commission = commission
        self.cohorts = cohorts
        self.paidMonthsOnSale = paidMonthsOnSale
        self.subscriptions = subscriptions
        self.season = season ?? [Double](repeating: 1, count: months)
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

    /// The season's factor of month m (from 0); 1 past the table, which covers the horizon.
    @inline(__always)
    func seasonFactor(_ month: Int) -> Double { month < season.count ? season[month] : 1 }

    /// Free downloads in month m (from 0): the one place the downloads formula is written, for the model, the
    /// cohort sizes, the actuals' bands and the calibration.
    @inline(__always)
    public func downloads(_ values: AssumptionValues, month: Int) -> Double {
        let excess = (values.launchMultiple - values.lastingMultiple) * pow(0.5, Double(month) / values.burstHalfLifeMonths)
        return values.paidDownloadsPerMonth * (values.lastingMultiple + excess) * seasonFactor(month)
    }

    /// Legacy buyers: the plan's, or the paid downloads a month times the months the paid releases were on sale.
    public func legacyBuyers(_ values: AssumptionValues) -> Double {
        values.legacyBuyers ?? values.paidDownloadsPerMonth * paidMonthsOnSale
    }

    /// Fills `paid` and `freemium` (each `months` long) with monthly proceeds. `ledger` is scratch space of
    /// `scratchSize` doubles, so that a caller running many draws allocates it once.
    ///
    /// Each offer's share of its cohort's buyers is fixed within a draw, so the offers are summed once, before
    /// the months: what one new buyer and one legacy buyer bring in one-time purchases, and in first charges of
    /// each renewal group's subscriptions. The month loop and the renewals then cost the same for ten offers or
    /// ten thousand.
    public func evaluate(_ values: AssumptionValues, paid: inout [Double], freemium: inout [Double], ledger: inout [Double]) {
        let rate = values.paidDownloadsPerMonth
        let price = values.paidPrice
        let legacyBuyers = legacyBuyers(values)
        let lasting = values.lastingMultiple
        let conversion = values.conversion
        let upgrade = values.legacyUpgradeRate
        let trend = 1 + values.paidTrendPerMonth
        let elasticity = values.priceElasticity
        let keep = 1 - values.refundRate
        // The customer's price holds the storefront's VAT or GST; Apple's commission and the proceeds are of the rest.
        let net = 1 - values.taxInPrice
        let cut = commission.rate
        let laterCut = min(cut, Commission.afterFirstYearRate)
        let decay = pow(0.5, 1 / values.burstHalfLifeMonths)
        let staying = 1 - values.monthlyChurn
        let groups = renewalGroups.count
        // Scratch: per renewal group and month, the first charges (before commission) of that month's new
        // subscribers; then per group those of one new buyer, and of one legacy buyer.
        let newGroups = groups * months
        let legacyGroups = newGroups + groups
        for index in 0..<min(ledger.count, legacyGroups + groups) { ledger[index] = 0 }
        // One-time proceeds (before commission) per new buyer and per legacy buyer: each offer's share of its
        // cohort's buyers, times the cohort's share, times its price; those at the reference price summed ahead,
        // the others with their price response (an `exp`) once per price ratio.
        var newPerBuyer = compiled.newPerBuyer
        var legacyPerBuyer = compiled.legacyPerBuyer
        for group in 0..<groups {
            ledger[newGroups + group] = compiled.newGroups[group]
            ledger[legacyGroups + group] = compiled.legacyGroups[group]
        }
        for offer in compiled.elastic {
            let value = offer.value * OfferSpec.priceResponse(ratio: offer.ratio, elasticity: elasticity)
            if let group = offer.group {
                ledger[(offer.isNew ? newGroups : legacyGroups) + group] += value
            } else if offer.isNew {
                newPerBuyer += value
            } else {
                legacyPerBuyer += value
            }
        }

        var excess = values.launchMultiple - lasting
        var paidRate = rate
        for month in 0..<months {
            let season = seasonFactor(month)
            paid[month] = paidRate * season * price * net * keep * (1 - cut)
            paidRate *= trend
            let downloads = rate * (lasting + excess) * season
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
        for month in 0..<months { freemium[month] *= keep * net }
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
    public func expectedBuyers(_ values: AssumptionValues) -> [[Double]] {
        let legacyBuyers = legacyBuyers(values)
        let downloads = totalDownloads(values)
        return cohorts.map { cohort in
            guard !cohort.offers.isEmpty else { return [] }
            let buyers: Double
            switch cohort.kind {
            case .newCustomers: buyers = downloads * cohort.share * values.conversion
            case .legacy: buyers = legacyBuyers * cohort.share * values.legacyUpgradeRate
            }
            return cohort.offers.map { buyers * $0.weight * $0.priceResponse(elasticity: values.priceElasticity) }
        }
    }

    /// New downloads over the horizon.
    public func totalDownloads(_ values: AssumptionValues) -> Double {
        (0..<months).reduce(0) { $0 + downloads(values, month: $1) }
    }
}
