import MigratePlan

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
                    "installBase: the fitted trend's last month with \(TrendFit.minimumMonths) or more months of reports, else paid downloads ÷ months the reports cover",
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
                assumption: assumption, distribution: .logNormal(low: 10, high: 90), derivation: nil,
                source:
                    "judgement: a burst of up to thousands × for days (7 Minute Workout: 28/day paid, 216,718 in 3 days free; Stuart Hall, “An App Store Experiment”, 2013), +1,665% over 5 days (Distimo, “The Impact of Price Changes”, 2013), averaged over the first month"
            )
        case .burstHalfLifeMonths:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.5, high: 2), derivation: nil,
                source:
                    "judgement: the burst lasts days to weeks (Stuart Hall, “An App Store Experiment”, 2013; Distimo, “The Impact of Price Changes”, 2013)"
            )
        case .lastingMultiple:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 5, high: 20), derivation: nil,
                source:
                    "judgement: a lasting multiple of roughly 10× (range 5–20×) once the burst fades; no published figure, so set it from your own downloads"
            )
        case .conversion:
            return AssumptionDefault(
                assumption: assumption, distribution: .logNormal(low: 0.01, high: 0.04), derivation: nil,
                source: "RevenueCat, State of Subscription Apps 2025/2026: freemium ~2% by day 35 (1–5%), most on day 0")
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
                source: "judgement: refunds about 3% of revenue (1–5%); measure yours from the negative Units in your App Store Connect Sales reports"
            )
        case .paidTrendPerMonth:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: -0.04, high: 0.01), derivation: nil,
                source:
                    "judgement: a paid app's sales usually drift down once its launch and updates are behind it (−4% to +1% a month); used when the install base has fewer than 6 months of paid downloads to fit"
            )
        case .priceElasticity:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.5, high: 2), derivation: nil,
                source: "judgement: no published figure for in-app unlocks; 0.5–2 spans inelastic to elastic, so sweep it with the price")
        case .codeRedemptionRate:
            return AssumptionDefault(
                assumption: assumption, distribution: .uniform(low: 0.2, high: 0.8), derivation: nil,
                source:
                    "judgement: no public figure for how many license holders redeem a one-time offer code; 20–80% spans holders who no longer use the app to most redeeming, so set it from your own redemptions once the codes are out"
            )
        }
    }
}

/// One assumption as a simulation uses it: its distribution and where it came from.
public struct ResolvedAssumption: Sendable, Hashable {
    public var assumption: SimulationAssumption
    public var distribution: Distribution
    /// `plan: simulation.assumptions.conversion`, `default: …`.
    public var source: String
    /// The range the sensitivity table moves it over.
    public var sensitivityRange: ClosedRange<Double>
    /// Measured from the plan (its install base, its price), not assumed: the verdict doesn't ask what
    /// would have to be true of it.
    public var measured: Bool = false
}
