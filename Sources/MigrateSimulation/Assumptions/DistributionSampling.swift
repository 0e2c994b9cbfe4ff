import Foundation
import MigratePlan

extension Distribution {
    /// The value at probability `p` (0 < p < 1), by the inverse distribution function, so that one
    /// uniform draw gives one sample and medians and percentiles agree with sampling exactly.
    public func quantile(_ p: Double) -> Double {
        DistributionSampler(self).quantile(p)
    }

    /// The median: what a deterministic run uses.
    public var median: Double { quantile(0.5) }

}

/// A distribution's inverse distribution function with its parameters worked out once (a log-normal's μ
/// and σ take two logarithms), for the Monte Carlo's inner loop. `Distribution.quantile` is this, so the
/// two can't drift apart.
public struct DistributionSampler: Sendable {
    private enum Kind {
        case point
        case uniform
        case triangular
        case logNormal
    }

    private let kind: Kind
    // point: a = value; uniform: a = low, b = high − low; triangular: a = low, b = mode, c = high,
    // width = high − low, split = (mode − low) / width; log-normal: a = μ, b = σ.
    private let a: Double, b: Double, c: Double, width: Double, split: Double

    public init(_ distribution: Distribution) {
        switch distribution {
        case .point(let value):
            (kind, a, b, c, width, split) = (.point, value, 0, 0, 0, 0)
        case .uniform(let low, let high):
            (kind, a, b, c, width, split) = (.uniform, low, high - low, 0, 0, 0)
        case .triangular(let low, let mode, let high):
            let width = high - low
            (kind, a, b, c) = (.triangular, low, mode, high)
            self.width = width
            split = width > 0 ? (mode - low) / width : 0
        case .logNormal(let low, let high):
            // low and high are the 10th and 90th percentiles: z(0.9) = 1.2815515655446004.
            let mu = (log(low) + log(high)) / 2
            let sigma = (log(high) - log(low)) / (2 * 1.2815515655446004)
            (kind, a, b, c, width, split) = (.logNormal, mu, sigma, 0, 0, 0)
        }
    }

    /// The value at probability `p` (0 < p < 1).
    @inline(__always)
    public func quantile(_ p: Double) -> Double {
        switch kind {
        case .point:
            return a
        case .uniform:
            return a + p * b
        case .triangular:
            guard width > 0 else { return a }
            if p < split { return a + (p * width * (b - a)).squareRoot() }
            return c - ((1 - p) * width * (c - b)).squareRoot()
        case .logNormal:
            return exp(a + b * NormalDistribution.inverse(p))
        }
    }
}

/// The standard normal distribution's inverse, by Acklam's rational approximation (relative error
/// below 1.15e-9), which needs no tables and is fast enough to run once per draw.
enum NormalDistribution {
    // Acklam's coefficients, as literals in the expressions below: arrays here would be built on every call.
    @inline(__always)
    static func inverse(_ p: Double) -> Double {
        let p = min(max(p, 1e-300), 1 - 1e-16)
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return tail(q)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -tail(q)
        }
        let q = p - 0.5
        let r = q * q
        let numerator =
            (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r + -2.759285104469687e+02) * r + 1.383577518672690e+02) * r
                + -3.066479806614716e+01) * r + 2.506628277459239e+00) * q
        let denominator =
            ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r + -1.556989798598866e+02) * r + 6.680131188771972e+01) * r
                + -1.328068155288572e+01) * r + 1
        return numerator / denominator
    }

    @inline(__always)
    private static func tail(_ q: Double) -> Double {
        let numerator =
            ((((-7.784894002430293e-03 * q + -3.223964580411365e-01) * q + -2.400758277161838e+00) * q + -2.549732539343734e+00) * q
                + 4.374664141464968e+00) * q + 2.938163982698783e+00
        let denominator = (((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q + 3.754408661907416e+00) * q + 1
        return numerator / denominator
    }
}
