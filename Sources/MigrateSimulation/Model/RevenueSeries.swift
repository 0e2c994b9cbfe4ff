/// Monthly proceeds of staying paid and of the freemium plan, with running totals.
public struct RevenueSeries: Sendable, Hashable {
    public var paid: [Double]
    public var freemium: [Double]

    public var cumulativePaid: [Double] { running(paid) }
    public var cumulativeFreemium: [Double] { running(freemium) }

    /// The first month from which freemium's running total stays at or above staying paid's, through the
    /// horizon; nil when it is behind at the end, or level with it (a tie, such as 0 against 0, is not a break-even).
    public var breakEvenMonth: Int? {
        guard !isTie else { return nil }
        let paidTotals = cumulativePaid
        let freemiumTotals = cumulativeFreemium
        var lastBehind = -1
        for month in paidTotals.indices where freemiumTotals[month] < paidTotals[month] { lastBehind = month }
        return lastBehind + 1 < paidTotals.count ? lastBehind + 2 : nil
    }

    /// Freemium's cumulative proceeds minus staying paid's, at the horizon.
    public var advantage: Double { (cumulativeFreemium.last ?? 0) - (cumulativePaid.last ?? 0) }

    /// Freemium and staying paid end level, within `MonteCarlo.tieTolerance`.
    public var isTie: Bool { abs(advantage) <= MonteCarlo.tieTolerance }

    private func running(_ values: [Double]) -> [Double] {
        var total = 0.0
        return values.map { value in
            total += value
            return total
        }
    }

    /// One deterministic run of a model.
    public static func evaluate(_ model: RevenueModel, values: AssumptionValues) -> RevenueSeries {
        var paid = [Double](repeating: 0, count: model.months)
        var freemium = paid
        var ledger = [Double](repeating: 0, count: model.scratchSize)
        model.evaluate(values, paid: &paid, freemium: &freemium, ledger: &ledger)
        return RevenueSeries(paid: paid, freemium: freemium)
    }
}
