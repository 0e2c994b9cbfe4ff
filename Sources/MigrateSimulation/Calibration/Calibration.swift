import Foundation
import MigratePlan
import MigrateSupport

/// What the forecast said about one published outcome.
public struct CalibrationFigure: Sendable, Hashable {
    public var outcome: CalibrationOutcome
    /// The forecast's P10, P50 and P90 of the same figure.
    public var band: Percentiles
    /// Whether the published value falls inside P10–P90 (for a floor, whether P90 reaches it).
    public var inside: Bool
    /// Above P90, or below P10, when it is outside.
    public var above: Bool
}

/// One case held against its forecast.
public struct CalibrationResult: Sendable, Hashable {
    public var id: String
    public var app: String
    public var figures: [CalibrationFigure]
    /// The share of draws where freemium ends ahead at the plan's horizon, under its assumptions.
    public var probabilityAhead: Double
    public var months: Int
    /// Whether the forecast's answer (ahead in more than half the draws) is the published one; nil when no
    /// source says which way it went.
    public var verdictRight: Bool?
    public var publishedAhead: Bool?
}

/// How often the calibration set's outcomes fell inside the forecast's P10–P90, and its verdicts were right.
public struct CalibrationSummary: Sendable, Hashable {
    public var cases: Int
    public var figures: Int
    public var inside: Int
    public var verdicts: Int
    public var verdictsRight: Int

    public init(cases: Int, figures: Int, inside: Int, verdicts: Int, verdictsRight: Int) {
        self.cases = cases
        self.figures = figures
        self.inside = inside
        self.verdicts = verdicts
        self.verdictsRight = verdictsRight
    }

    public init(_ results: [CalibrationResult]) {
        cases = results.count
        figures = results.reduce(0) { $0 + $1.figures.count }
        inside = results.reduce(0) { $0 + $1.figures.filter(\.inside).count }
        verdicts = results.filter { $0.verdictRight != nil }.count
        verdictsRight = results.filter { $0.verdictRight == true }.count
    }

    /// The share of outcomes inside P10–P90.
    public var hitRate: Double { figures == 0 ? 0 : Double(inside) / Double(figures) }
}

/// Holds the forecast against real switches: each case's plan, run with the tool's defaults for whatever the
/// developer didn't know, against what happened.
public enum Calibration {
    /// Draws per case: the figures are exact percentiles over them, so a run takes a fraction of a second.
    public static let draws = 4_000
    public static let seed: UInt64 = 1

    /// The calibration set's result with the defaults as they are, which the verdict quotes ("held against N
    /// published switches"); `CalibrationTests` run the set and keep this equal to what it finds.
    public static let published = CalibrationSummary(cases: 10, figures: 16, inside: 12, verdicts: 6, verdictsRight: 1)

    public static func run(_ cases: [CalibrationCase], draws: Int = draws, seed: UInt64 = seed) throws(SimulationError) -> [CalibrationResult] {
        var results: [CalibrationResult] = []
        for item in cases { results.append(try run(item, draws: draws, seed: seed)) }
        return results
    }

    public static func run(_ item: CalibrationCase, draws: Int = draws, seed: UInt64 = seed) throws(SimulationError) -> CalibrationResult {
        let scenario = try PreparedScenario.prepare(item.plan, scenario: nil)
        let model = scenario.model
        let sampling = DrawSampling(scenario)
        var values = scenario.medians
        var paid = [Double](repeating: 0, count: model.months)
        var freemium = paid
        var ledger = [Double](repeating: 0, count: model.scratchSize)
        var samples = [[Double]](repeating: [], count: item.outcomes.count)
        var ahead = 0
        var generator = MonteCarlo.generator(seed: seed, chunk: 0)
        for draw in 0..<draws {
            if draw > 0, draw % MonteCarlo.chunkSize == 0 { generator = MonteCarlo.generator(seed: seed, chunk: draw / MonteCarlo.chunkSize) }
            sampling.draw(into: &values, using: &generator)
            model.evaluate(values, paid: &paid, freemium: &freemium, ledger: &ledger)
            for (index, outcome) in item.outcomes.enumerated() {
                let months = 0..<min(outcome.months, model.months)
                let value: Double
                switch outcome.figure {
                case .freeDownloads: value = months.reduce(0) { $0 + model.downloads(values, month: $1) }
                case .freemiumProceeds: value = months.reduce(0) { $0 + freemium[$1] }
                case .proceedsRatio:
                    let stay = months.reduce(0) { $0 + paid[$1] }
                    value = stay > 0 ? months.reduce(0) { $0 + freemium[$1] } / stay : .infinity
                case .monthlyProceedsRatio:
                    let month = outcome.months - 1
                    value = paid[month] > 0 ? freemium[month] / paid[month] : .infinity
                }
                samples[index].append(value)
            }
            if freemium.reduce(0, +) - paid.reduce(0, +) > MonteCarlo.tieTolerance { ahead += 1 }
        }
        let figures = zip(item.outcomes, samples).map { outcome, drawn -> CalibrationFigure in
            let band = percentiles(drawn)
            let inside: Bool
            switch outcome.bound {
            case .exact: inside = outcome.value >= band.p10 && outcome.value <= band.p90
            case .atLeast: inside = outcome.value <= band.p90
            }
            return CalibrationFigure(outcome: outcome, band: band, inside: inside, above: outcome.value > band.p90)
        }
        let probability = Double(ahead) / Double(max(1, draws))
        return CalibrationResult(
            id: item.id, app: item.app, figures: figures, probabilityAhead: probability, months: model.months,
            verdictRight: item.verdict.map { ($0.freemiumAhead) == (probability > 0.5) }, publishedAhead: item.verdict?.freemiumAhead)
    }

    /// Exact P10, P50 and P90 at the nearest rank.
    static func percentiles(_ samples: [Double]) -> Percentiles {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return Percentiles(p10: 0, p50: 0, p90: 0) }
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))] }
        return Percentiles(p10: at(0.1), p50: at(0.5), p90: at(0.9))
    }
}
