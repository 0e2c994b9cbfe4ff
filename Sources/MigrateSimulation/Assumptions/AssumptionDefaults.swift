import Foundation
import MigratePlan
import MigrateSupport

/// What a simulation assumes when the plan says nothing, with where each figure comes from.
public struct AssumptionDefault: Sendable, Hashable {
    public var assumption: SimulationAssumption
    /// The default distribution; nil when the default is derived from the plan (see `derivation`).
    public var distribution: Distribution?
    /// How the default is derived from the plan, when it is.
    public var derivation: String?
    public var source: String

    /// The default's median: what a deterministic run uses.
    public var value: Double? { distribution?.median }
    /// The default's P10–P90, which the sensitivity table also uses when the plan gives a single value.
    public var range: ClosedRange<Double>? { distribution.map { $0.quantile(0.1)...$0.quantile(0.9) } }
}

/// The documented defaults (the manual, "Simulation's model and sources"): every assumption the plan doesn't derive has a
/// range, never a single value, each naming the public source of its figure, or "judgement".
public enum AssumptionDefaults {
    public static func of(_ assumption: SimulationAssumption) -> AssumptionDefault {
        switch assumption {
        case .paidDownloadsPerMonth:
            return AssumptionDefault(
                assumption: assumption, distribution: nil,
                derivation:
                    "installBase: the fitted trend's last month with \(TrendFit.minimumMonths) or more months of reports, else paid downloads ÷ months the reports cover; a log-normal over the count's uncertainty",
                source: "the plan's install base (App Store Connect sales reports)")
        case .paidPrice:
            return AssumptionDefault(
                assumption: assumption, distribution: nil, derivation: "the price of the newest paid release",
                source: "the plan's releases")
        case .legacyBuyers:
            return AssumptionDefault(
                assumption: assumption, distribution: nil,
                derivation: "installBase: paid downloads; else paidDownloadsPerMonth × months the paid releases were on sale",
                source: "the plan's install base, or its release dates")
        case .launchMultiple:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 7, high: 400), derivation: nil,
                source:
                    "judgement, from published switches' first days: 216,718 downloads in 3 days “up from an average of 28 per day at paid, or over 2500x” (7 Minute Workout; Stuart Hall, “An App Store Experiment”, 2013); “On freemium launch day the app got 2009 downloads” against 266 paid sales in the 30 days before (iOctocat; Dennis Reimann, “Switching to Freemium”, 2013); “Day 2: 4,400 downloads, 800x avg” (Slopes; Curtis Herbert, “Slopes Diaries #7”, 2015); averaged over the first month"
            )
        case .burstHalfLifeMonths:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.15, high: 0.8), derivation: nil,
                source:
                    "judgement: after an App Store feature “your daily download figures will fall by around 85%” within 30 days (Priori Data, via Pollen, “What happens when your App Store feature ends”, 2015), a half-life of about 0.37 months; Slopes went from 4,400 downloads on day 2 to 211 on day 7 (Curtis Herbert, “Slopes Diaries #7”, 2015)"
            )
        case .lastingMultiple:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 4.5, high: 100), derivation: nil,
                source:
                    "judgement, from published switches once the burst had passed: iOctocat “still has about 100 downloads per day” against about 9 paid (Dennis Reimann, 2013), about 11×; Poo Keeper 12,680 new users in 6 months against 281, “45 times more” (Ong Jun Da, 2015); Slopes “over 50k” in 4 months against 5.5 a day (Curtis Herbert, 2016), about 75× in its season; 7 Minute Workout 2.3 million in 18 months against 28 a day (Stuart Hall, 2015), about 150× with Apple features"
            )
        case .conversion:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.005, high: 0.082), derivation: nil,
                source:
                    "RevenueCat, State of Subscription Apps 2026, freemium D35 download-to-paid: bottom quartile 0.3%, median 2.1%, top quartile 4.5%, top 10% 8.2%; a log-normal whose P90 is their top 10% and median about theirs; quoted at the paid app's price (judgement: their figure is at each app's own price)"
            )
        case .legacyUpgradeRate:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.02, high: 0.125), derivation: nil,
                source: "judgement: no published figure; sweep it or set it from your own data")
        case .monthlyChurn:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.05, high: 0.15), derivation: nil,
                source: "judgement: no published figure; set it from your own data")
        case .refundRate:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.01, high: 0.05), derivation: nil,
                source:
                    "RevenueCat, State of Subscription Apps 2026 (scorecard): refund rate “3% to 4%” at the median, “under 2.5%” in the top quartile, “over 5%” in the bottom; measure yours from the negative Units in your App Store Connect Sales reports"
            )
        case .paidTrendPerMonth:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: -0.04, high: 0.01), derivation: nil,
                source:
                    "judgement: a paid app's sales usually drift down once its launch and updates are behind it (−4% to +1% a month); used when the install base has fewer than 6 months of paid downloads to fit"
            )
        case .priceElasticity:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.1, high: 1), derivation: nil,
                source:
                    "judgement: one published in-app price test, Reminder+ at $0.99 and $1.99: “The conversion rate dropped from 8.9% to 6.9%” (outside-xcode.com, “Results: Price Increase Experiment”, 2016), about 0.25 here; 0.1 to 1 puts the best price at 1 to 10 times the paid app's, so sweep it with the price"
            )
        case .taxInPrice:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.04, high: 0.12), derivation: nil,
                source:
                    "judgement, from a storefront mix: US prices exclude sales tax, elsewhere the price holds VAT or GST and the developer's proceeds are of the rest (iOctocat's 266 sales at 8.99 € brought 1,397 €, 5.25 each: 8.99 ÷ 1.19 × 70%; Dennis Reimann, 2013); half the sales in the US (7 Minute Workout: “More than 50% of the downloads have always been from the US”; Slopes: “only 59% domestic sales”) and half at about 19% VAT, 0.16 of the price, give 0.08"
            )
        case .codeRedemptionRate:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.2, high: 0.8), derivation: nil,
                source:
                    "judgement: no public figure for how many license holders redeem a one-time offer code; 20–80% spans holders who no longer use the app to most redeeming, so set it from your own redemptions once the codes are out"
            )
        }
    }
}

/// Where an assumption's value comes from: a type, so the engine decides on it and the text is written only at
/// the edge (`description`).
public enum AssumptionOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A `--sweep` point.
    case sweep
    /// A scenario's `assumptions`, at its path.
    case scenario(id: String, path: JSONPath?)
    /// The plan's `simulation.assumptions`, at its path.
    case plan(SimulationAssumption, path: JSONPath?)
    /// The documented default range.
    case documentedDefault(AssumptionDefault)
    /// Staying paid's trend, fitted to the install base's months.
    case trendFit(TrendFit)
    /// The paid downloads a month the install base measures, with the uncertainty of counting them.
    case installBaseRate(PaidRateMeasure)
    /// The install base's paid downloads: everyone who bought the app.
    case installBasePaidDownloads
    /// The price of the newest paid release.
    case releasePrice(Platform, release: String)
    /// Worked out in each draw from the paid downloads a month and the months the paid releases were on sale.
    case derivedFromPaidRate(months: Double)
    /// Refitted by `simulate --actuals` from the sales after the switch.
    case refit

    /// Measured from the plan (its install base, its releases) rather than assumed: the verdict doesn't ask
    /// what would have to be true of it.
    public var isMeasured: Bool {
        switch self {
        case .installBaseRate, .installBasePaidDownloads, .releasePrice, .derivedFromPaidRate: true
        case .sweep, .scenario, .plan, .documentedDefault, .trendFit, .refit: false
        }
    }

    /// Worked out from other assumptions in each draw, so it has no distribution of its own.
    public var isDerived: Bool {
        if case .derivedFromPaidRate = self { return true }
        return false
    }

    /// `plan: simulation.assumptions.conversion`, `default: …`.
    public var description: String {
        switch self {
        case .sweep: "--sweep"
        case .scenario(let id, let path): "scenario: \(path?.description ?? id)"
        case .plan(let assumption, let path): "plan: \(path?.description ?? "simulation.assumptions.\(assumption.rawValue)")"
        case .documentedDefault(let known): "default: \(known.source)"
        case .trendFit(let fit): fit.description
        case .installBaseRate(let measure): measure.description
        case .installBasePaidDownloads: "installBase: paid downloads"
        case .releasePrice(let platform, let release): "plan: the price of \(platform) \(release)"
        case .derivedFromPaidRate(let months):
            "derived: paidDownloadsPerMonth × \(FigureText.style.localized(String(format: "%.1f", months))) months the paid releases were on sale"
        case .refit: "refit from the actuals"
        }
    }
}

/// One assumption as a simulation uses it: its distribution and where it came from.
public struct ResolvedAssumption: Sendable, Hashable {
    public var assumption: SimulationAssumption
    /// What each draw takes it from; for a derived value (`origin.isDerived`), the value at the medians.
    public var distribution: Distribution
    public var origin: AssumptionOrigin
    /// The range the sensitivity table moves it over.
    public var sensitivityRange: ClosedRange<Double>
    /// The value the simulation works out from other assumptions at their medians (legacyBuyers from the paid
    /// downloads), which the tables show; nil when it is drawn from `distribution`.
    public var derived: Double?

    /// Where the value comes from, in words.
    public var source: String { origin.description }
    /// Measured from the plan, not assumed.
    public var measured: Bool { origin.isMeasured }

    /// The values it may plausibly take: the whole range of a bounded distribution (uniform, triangular), a
    /// log-normal's P1 to P99, and for a single value the documented default's, or ±50% around it. "What would have
    /// to be true" only names values inside it.
    public var plausibleRange: ClosedRange<Double> {
        switch distribution {
        case .uniform(let low, let high), .triangular(let low, _, let high): return low...high
        case .logNormal: return distribution.quantile(0.01)...distribution.quantile(0.99)
        case .point(let value):
            if let known = AssumptionDefaults.of(assumption).distribution, !origin.isMeasured {
                return min(value, known.plausibleLow)...max(value, known.plausibleHigh)
            }
            let value = derived ?? value
            return min(value * 0.5, value * 1.5)...max(value * 0.5, value * 1.5)
        }
    }
}

extension Distribution {
    /// The low end of `ResolvedAssumption.plausibleRange` for a distribution: its low, or a log-normal's P1.
    var plausibleLow: Double {
        switch self {
        case .point(let value): value
        case .uniform(let low, _), .triangular(let low, _, _): low
        case .logNormal: quantile(0.01)
        }
    }

    /// The high end: its high, or a log-normal's P99.
    var plausibleHigh: Double {
        switch self {
        case .point(let value): value
        case .uniform(_, let high), .triangular(_, _, let high): high
        case .logNormal: quantile(0.99)
        }
    }
}
