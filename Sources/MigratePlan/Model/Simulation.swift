import Foundation
import MigrateSupport

/// A number the revenue simulation assumes: one value, or a distribution to draw from.
public enum Distribution: Sendable, Hashable {
    /// Always this value.
    case point(Double)
    /// Every value between `low` and `high` equally likely.
    case uniform(low: Double, high: Double)
    /// From `low` to `high`, most likely at `mode`.
    case triangular(low: Double, mode: Double, high: Double)
    /// A log-normal whose 10th percentile is `low` and 90th is `high`: for multiples and counts
    /// that are positive and skewed (a launch burst, downloads).
    case logNormal(low: Double, high: Double)

    public var isPoint: Bool {
        if case .point = self { return true }
        return false
    }

    /// Every number the distribution is written with, for validation.
    public var parameters: [Double] {
        switch self {
        case .point(let value): [value]
        case .uniform(let low, let high), .logNormal(let low, let high): [low, high]
        case .triangular(let low, let mode, let high): [low, mode, high]
        }
    }
}

/// One assumption as written in the plan.
public struct AssumptionValue: Sendable, Hashable {
    public var name: String
    public var distribution: Distribution
    public var origin: JSONPath?

    public init(name: String, distribution: Distribution, origin: JSONPath? = nil) {
        self.name = name
        self.distribution = distribution
        self.origin = origin
    }
}

/// Apple's commission on what customers pay.
public enum Commission: String, Sendable, Hashable, CaseIterable {
    /// 30%; 15% for auto-renewable subscriptions after a subscriber's first paid year.
    case standard
    /// The App Store Small Business Program: 15% on everything (proceeds up to $1M in the previous calendar year).
    case smallBusiness

    /// The rate on a sale, or on a subscription in the subscriber's first paid year.
    public var rate: Double { self == .standard ? 0.30 : 0.15 }
    /// Apple's rate on auto-renewable subscriptions after a subscriber's first paid year.
    public static let afterFirstYearRate = 0.15
    /// The day the App Store Small Business Program began (1 January 2021): before it, every developer paid 30%.
    public static let smallBusinessProgramStart = Date(timeIntervalSince1970: 1_609_459_200)
}

/// A named variation of the plan to compare with the others: other assumptions, other prices,
/// or other legacy tiers (grandfather every paid era, or give a discount instead of free access).
public struct SimulationScenario: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Replaces the simulation's assumptions of the same name.
    public var assumptions: [AssumptionValue]
    /// Replaces products' prices.
    public var prices: [Discount]
    /// Replaces the plan's `tiers` when given.
    public var tiers: [LegacyTier]?
    public var commission: Commission?
    public var origin: JSONPath?

    public init(
        id: String, name: String, assumptions: [AssumptionValue] = [], prices: [Discount] = [], tiers: [LegacyTier]? = nil,
        commission: Commission? = nil, origin: JSONPath? = nil
    ) {
        self.id = id
        self.name = name
        self.assumptions = assumptions
        self.prices = prices
        self.tiers = tiers
        self.commission = commission
        self.origin = origin
    }
}

/// The plan's `simulation` section: what `migrate simulate` assumes, and the scenarios it compares.
public struct SimulationSettings: Sendable, Hashable {
    public static let defaultHorizonMonths = 24

    /// Nil means `defaultHorizonMonths`.
    public var horizonMonths: Int?
    public var commission: Commission?
    public var assumptions: [AssumptionValue]
    public var scenarios: [SimulationScenario]
    /// How downloads and sales rise and fall over the year: twelve relative weights, January first (`seasonality`).
    /// Nil: the install base's months say, when they cover a year, else every month alike.
    public var seasonality: Seasonality?

    public init(
        horizonMonths: Int? = nil, commission: Commission? = nil, assumptions: [AssumptionValue] = [], scenarios: [SimulationScenario] = [],
        seasonality: Seasonality? = nil
    ) {
        self.horizonMonths = horizonMonths
        self.commission = commission
        self.assumptions = assumptions
        self.scenarios = scenarios
        self.seasonality = seasonality
    }
}

/// Twelve relative weights of the calendar months, January first, as the plan writes them: `[2, 2, 1, …]` is a
/// January and February twice as busy as a March. Only their ratios matter.
public struct Seasonality: Sendable, Hashable {
    public static let months = 12

    /// As written, January first.
    public var weights: [Double]
    public var origin: JSONPath?

    public init(weights: [Double], origin: JSONPath? = nil) {
        self.weights = weights
        self.origin = origin
    }

    /// Each month's weight over the average month's: twelve factors whose mean is 1.
    public var factors: [Double] {
        let mean = weights.reduce(0, +) / Double(weights.count)
        return mean > 0 ? weights.map { $0 / mean } : weights.map { _ in 1 }
    }
}

/// The assumptions a plan may set, with the values each accepts. Defaults and their sources live in
/// MigrateSimulation (`AssumptionDefaults`); this list is what the decoder and the schema check against.
public enum SimulationAssumption: String, Sendable, Hashable, CaseIterable {
    case paidDownloadsPerMonth
    case paidPrice
    case legacyBuyers
    case launchMultiple
    case burstHalfLifeMonths
    case lastingMultiple
    case conversion
    case legacyUpgradeRate
    case monthlyChurn
    case refundRate
    case paidTrendPerMonth
    case priceElasticity
    case taxInPrice
    /// Used only when the plan has `directSales`: it sizes the license holders' cohort and moves no proceeds.
    case codeRedemptionRate

    public enum Bound: Sendable, Hashable {
        /// 0 or more.
        case nonNegative
        /// Above 0.
        case positive
        /// A probability: from 0 to 1.
        case probability
        /// A monthly rate of change: from −1 to 1 (−0.02 is 2% less each month).
        case change
    }

    public var bound: Bound {
        switch self {
        case .paidDownloadsPerMonth, .paidPrice, .legacyBuyers, .launchMultiple, .lastingMultiple: .nonNegative
        case .burstHalfLifeMonths: .positive
        case .conversion, .legacyUpgradeRate, .monthlyChurn, .refundRate, .codeRedemptionRate, .taxInPrice: .probability
        case .paidTrendPerMonth: .change
        case .priceElasticity: .nonNegative
        }
    }

    /// The largest value accepted (probabilities stop at 1 by their bound); see `Limits`.
    public var maximum: Double? {
        switch self {
        case .paidDownloadsPerMonth: Limits.downloadsPerMonth
        case .paidPrice: Limits.largestPrice
        case .legacyBuyers: Limits.people
        case .launchMultiple, .lastingMultiple: Limits.multiple
        case .burstHalfLifeMonths: Limits.halfLifeMonths
        case .priceElasticity: Limits.priceElasticity
        case .conversion, .legacyUpgradeRate, .monthlyChurn, .refundRate, .paidTrendPerMonth, .codeRedemptionRate, .taxInPrice: nil
        }
    }

    /// One line for the schema and help.
    public var meaning: String {
        switch self {
        case .paidDownloadsPerMonth: "Paid downloads a month if the app stays paid."
        case .paidPrice: "The download price if the app stays paid."
        case .legacyBuyers: "People who bought the app while it was paid."
        case .launchMultiple: "Downloads in the first free month, as a multiple of the paid downloads."
        case .burstHalfLifeMonths: "Months for the launch burst's excess over the lasting multiple to halve."
        case .lastingMultiple: "Downloads once the burst has passed, as a multiple of the paid downloads."
        case .conversion: "The share of new free downloads that buy an offer priced as the paid app was (mostly on day 0)."
        case .legacyUpgradeRate: "The share of legacy buyers who buy an offer shown to them."
        case .monthlyChurn: "The share of subscribers who cancel each month."
        case .refundRate: "The share of revenue refunded."
        case .paidTrendPerMonth: "If the app stays paid, how its paid downloads change each month (−0.02: 2% fewer each month)."
        case .priceElasticity:
            "How much buying falls as an offer's price rises above the paid app's price: the price elasticity of conversion at that price."
        case .taxInPrice:
            "The share of the customer's price that is VAT or GST, over the storefronts sales come from (0 where prices exclude tax, as in the US; 0.16 at 19% VAT)."
        case .codeRedemptionRate: "The share of direct-sale license seats whose offer code is redeemed (directSales)."
        }
    }
}
