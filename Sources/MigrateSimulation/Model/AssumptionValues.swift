import MigratePlan

/// One value of each assumption: a draw of the Monte Carlo, or the medians a deterministic run uses.
///
/// Named, so the model reads `values.conversion`, never an index. `legacyBuyers` is nil when the plan doesn't
/// measure it: the model then derives it from the paid downloads a month, the months the paid releases were on
/// sale (`RevenueModel.paidMonthsOnSale`).
public struct AssumptionValues: Sendable, Hashable {
    public var paidDownloadsPerMonth = 0.0
    public var paidPrice = 0.0
    /// Nil: `paidDownloadsPerMonth × paidMonthsOnSale`, worked out by the model in each draw.
    public var legacyBuyers: Double?
    public var launchMultiple = 0.0
    public var burstHalfLifeMonths = 1.0
    public var lastingMultiple = 0.0
    public var conversion = 0.0
    public var legacyUpgradeRate = 0.0
    public var monthlyChurn = 0.0
    public var refundRate = 0.0
    public var paidTrendPerMonth = 0.0
    public var priceElasticity = 0.0
    public var taxInPrice = 0.0
    public var codeRedemptionRate = 0.0

    public init() {}

    /// The value of `assumption`; nil only for a `legacyBuyers` the model derives.
    public subscript(_ assumption: SimulationAssumption) -> Double? {
        get {
            switch assumption {
            case .paidDownloadsPerMonth: paidDownloadsPerMonth
            case .paidPrice: paidPrice
            case .legacyBuyers: legacyBuyers
            case .launchMultiple: launchMultiple
            case .burstHalfLifeMonths: burstHalfLifeMonths
            case .lastingMultiple: lastingMultiple
            case .conversion: conversion
            case .legacyUpgradeRate: legacyUpgradeRate
            case .monthlyChurn: monthlyChurn
            case .refundRate: refundRate
            case .paidTrendPerMonth: paidTrendPerMonth
            case .priceElasticity: priceElasticity
            case .taxInPrice: taxInPrice
            case .codeRedemptionRate: codeRedemptionRate
            }
        }
        set {
            // Only legacyBuyers may be derived; a nil for any other assumption leaves it as it was.
            if assumption == .legacyBuyers {
                legacyBuyers = newValue
                return
            }
            guard let value = newValue else { return }
            set(assumption, value)
        }
    }

    /// Sets one assumption's value: the Monte Carlo's inner loop, so no optional.
    @inline(__always)
    public mutating func set(_ assumption: SimulationAssumption, _ value: Double) {
        switch assumption {
        case .paidDownloadsPerMonth: paidDownloadsPerMonth = value
        case .paidPrice: paidPrice = value
        case .legacyBuyers: legacyBuyers = value
        case .launchMultiple: launchMultiple = value
        case .burstHalfLifeMonths: burstHalfLifeMonths = value
        case .lastingMultiple: lastingMultiple = value
        case .conversion: conversion = value
        case .legacyUpgradeRate: legacyUpgradeRate = value
        case .monthlyChurn: monthlyChurn = value
        case .refundRate: refundRate = value
        case .paidTrendPerMonth: paidTrendPerMonth = value
        case .priceElasticity: priceElasticity = value
        case .taxInPrice: taxInPrice = value
        case .codeRedemptionRate: codeRedemptionRate = value
        }
    }
}
