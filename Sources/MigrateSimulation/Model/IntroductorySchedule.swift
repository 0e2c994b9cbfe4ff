import Foundation
import MigratePlan

/// When a subscription with an introductory offer charges a new subscriber, in months from the purchase:
/// the offer's own charges, then the regular price from the offer's end.
///
/// Revenue is counted by month, so a charge that falls between two months is split over them by the fraction
/// of the month it falls into (a 1-week trial moves about a quarter of a month's first charges into the next
/// month). Who converts is not changed: `conversion` counts the subscribers who pay, and the offer only moves
/// when, and at what price, they pay.
public struct IntroductorySchedule: Sendable, Hashable {
    /// One charge of the offer: `share` of the regular price, `offset` whole months after the purchase.
    public struct Charge: Sendable, Hashable {
        public var offset: Int
        public var share: Double
        /// Whole months of paid service before it: churn has thinned the subscribers this much.
        public var paidMonths: Int
        /// A charge past a subscriber's first paid year, when Apple takes 15%.
        public var afterFirstYear: Bool
    }

    /// What the offer itself charges (none for a free trial), each split over the months it falls between.
    public var charges: [Charge]
    /// The first regular charge, split over the months it falls between (`share` is the part of the subscribers
    /// charged that month); the later ones follow it every period.
    public var regular: [Charge]
    /// Months of paid service before the first regular charge (0 after a free trial: it is the first payment).
    public var paidMonthsAtRegular: Double

    /// - Parameters:
    ///   - offer: the plan's introductory offer.
    ///   - price: the subscription's regular price as this cohort pays it, which the offer's price is a share of.
    public init(_ offer: IntroductoryOffer, price: Double) {
        let length = Self.months(offer.period)
        var charges: [Charge] = []
        let paidStart: Double
        let regularStart: Double
        switch offer.paymentMode {
        case .freeTrial:
            paidStart = length
            regularStart = length
        case .payUpFront:
            paidStart = 0
            regularStart = length
            charges += Self.split(at: 0, share: Self.share(offer.price, of: price), paidStart: 0)
        case .payAsYouGo:
            paidStart = 0
            regularStart = length * Double(offer.periods)
            for period in 0..<offer.periods {
                charges += Self.split(at: length * Double(period), share: Self.share(offer.price, of: price), paidStart: 0)
            }
        }
        self.charges = charges
        regular = Self.split(at: regularStart, share: 1, paidStart: paidStart)
        paidMonthsAtRegular = regularStart - paidStart
    }

    /// An ISO 8601 duration in months: a week is 7 of the 30.44 days of an average month.
    static func months(_ period: String) -> Double {
        guard let parsed = try? TrialPeriod(period) else { return 0 }
        return Double(parsed.years * 12 + parsed.months) + Double(parsed.weeks * 7 + parsed.days) / InstallBase.daysPerMonth
    }

    static func share(_ offerPrice: Price?, of price: Double) -> Double {
        guard let offerPrice, price > 0 else { return 0 }
        return offerPrice.doubleValue / price
    }

    /// A charge at `age` months, split over the month it starts in and the next by the fraction past the start.
    static func split(at age: Double, share: Double, paidStart: Double) -> [Charge] {
        let whole = age.rounded(.down)
        let fraction = age - whole
        let paid = max(0, age - paidStart)
        let parts = [(Int(whole), 1 - fraction), (Int(whole) + 1, fraction)].filter { $0.1 > 0 }
        return parts.map { Charge(offset: $0.0, share: share * $0.1, paidMonths: Int(paid.rounded(.down)), afterFirstYear: paid >= 12) }
    }
}
