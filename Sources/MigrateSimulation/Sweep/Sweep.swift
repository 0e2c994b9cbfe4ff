import Foundation
import MigratePlan
import MigrateSupport

/// What a sweep moves: an assumption, or a product's price (`price.PRODUCT-ID`).
public enum SweepTarget: Sendable, Hashable, CustomStringConvertible {
    case assumption(SimulationAssumption)
    case price(productID: String)

    public var description: String {
        switch self {
        case .assumption(let assumption): assumption.rawValue
        case .price(let id): "price.\(id)"
        }
    }
}

/// `--sweep name=low:high:step`: a grid over one number.
public struct SweepSpec: Sendable, Hashable {
    public static let maximumPoints = 1_000
    public static let maximumGrid = 20_000

    public var target: SweepTarget
    public var values: [Double]

    /// Parses `conversion=0.01:0.05:0.01` or `price.com.example.pro=2.99:9.99:1` for `plan`.
    public static func parse(_ text: String, plan: MigrationPlan) throws(SimulationError) -> SweepSpec {
        let example = "such as conversion=0.01:0.05:0.01 or price.\(plan.products.first?.id ?? "PRODUCT")=2.99:9.99:1"
        guard let equals = text.firstIndex(of: "=") else {
            throw SimulationError("'\(text)' is not a sweep: expected NAME=LOW:HIGH:STEP, \(example)", isUsage: true)
        }
        let name = String(text[..<equals])
        let range = text[text.index(after: equals)...].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let target: SweepTarget
        if name.hasPrefix("price.") {
            let id = String(name.dropFirst("price.".count))
            guard plan.product(withID: id) != nil else {
                let hint = Suggestions.closest(to: id, in: plan.products.map(\.id)).map { " Did you mean 'price.\($0)'?" } ?? ""
                throw SimulationError("--sweep: unknown product '\(id)'.\(hint)", isUsage: true)
            }
            target = .price(productID: id)
        } else if let assumption = SimulationAssumption(rawValue: name) {
            guard assumption != .codeRedemptionRate else {
                throw SimulationError(
                    "--sweep codeRedemptionRate: redeemers pay nothing for their code, so it moves no proceeds; the cohort preview gives the license holders who redeem as a range",
                    isUsage: true)
            }
            target = .assumption(assumption)
        } else {
            let names = SimulationAssumption.names + plan.products.map { "price.\($0.id)" }
            let hint =
                Suggestions.closest(to: name, in: names).map { " Did you mean '\($0)'?" }
                ?? " Use one of: \(SimulationAssumption.names.joined(separator: ", ")), or price.PRODUCT."
            throw SimulationError("--sweep: unknown assumption '\(name)'.\(hint)", isUsage: true)
        }
        guard range.count == 3, let low = Double(range[0]), let high = Double(range[1]), let step = Double(range[2]),
            low.isFinite, high.isFinite, step.isFinite
        else {
            throw SimulationError("--sweep \(name): '\(text[text.index(after: equals)...])' is not LOW:HIGH:STEP, \(example)", isUsage: true)
        }
        guard step > 0 else { throw SimulationError("--sweep \(name): the step must be above zero, found \(range[2])", isUsage: true) }
        guard low <= high else { throw SimulationError("--sweep \(name): LOW (\(range[0])) is above HIGH (\(range[1]))", isUsage: true) }
        // In doubles first: (high - low) / step can be infinite, and Int(_:) of that traps.
        let steps = ((high - low) / step + 1e-9).rounded(.down)
        guard steps.isFinite, steps < Double(maximumPoints) else {
            throw SimulationError(
                "--sweep \(name): \(steps.isFinite && steps < 1e15 ? String(Int64(steps) + 1) : "too many") values is too many (at most \(maximumPoints)); use a larger step",
                isUsage: true)
        }
        let count = Int(steps) + 1
        // Computed from the index rather than added up, so 0.1 steps don't drift.
        let values = (0..<count).map { index in ((low + Double(index) * step) * 1e9).rounded() / 1e9 }
        let spec = SweepSpec(target: target, values: values)
        if case .assumption(let assumption) = target {
            let sink = DiagnosticSink()
            for value in values where !PlanDecoder.check(.point(value), against: assumption, at: JSONPath.root, sink: sink) {
                throw SimulationError("--sweep \(name): \(sink.diagnostics.first?.message ?? "\(value) is out of range")", isUsage: true)
            }
        } else if values.contains(where: { $0 < 0 }) {
            throw SimulationError("--sweep \(name): a price must not be negative", isUsage: true)
        } else if let largest = values.first(where: { $0 > Limits.largestPrice }) {
            throw SimulationError(
                "--sweep \(name): a price must be at most \(Limits.display(Limits.largestPrice)) (migrate's limit), found \(largest)", isUsage: true)
        }
        return spec
    }
}

/// One point of a sweep grid.
public struct SweepPoint: Sendable, Hashable {
    public var settings: [(SweepTarget, Double)]
    public var series: RevenueSeries

    public static func == (lhs: SweepPoint, rhs: SweepPoint) -> Bool {
        lhs.series == rhs.series && lhs.settings.map(\.0) == rhs.settings.map(\.0) && lhs.settings.map(\.1) == rhs.settings.map(\.1)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(series) }
}

/// How far one assumption moves the answer over its range, the others held at their medians.
public struct SensitivityRow: Sendable, Hashable {
    public var assumption: SimulationAssumption
    public var low: Double
    public var high: Double
    /// Freemium minus staying paid, cumulative at the horizon, with the assumption at `low` and at `high`.
    public var advantageAtLow: Double
    public var advantageAtHigh: Double
    public var swing: Double { abs(advantageAtHigh - advantageAtLow) }
}

public enum Sensitivity {
    /// A tornado table, biggest swing first (ties by name, so the order is stable).
    public static func rows(for scenario: PreparedScenario) -> [SensitivityRow] {
        let medians = scenario.medians
        var rows: [SensitivityRow] = []
        for resolved in scenario.assumptions {
            let range = resolved.sensitivityRange
            // Redeemers pay nothing for their code: the rate sizes their cohort, not the proceeds.
            guard range.lowerBound < range.upperBound, resolved.assumption != .codeRedemptionRate else { continue }
            func advantage(_ value: Double) -> Double {
                var values = medians
                values.set(resolved.assumption, value)
                return RevenueSeries.evaluate(scenario.model, values: values).advantage
            }
            rows.append(
                SensitivityRow(
                    assumption: resolved.assumption, low: range.lowerBound, high: range.upperBound, advantageAtLow: advantage(range.lowerBound),
                    advantageAtHigh: advantage(range.upperBound)))
        }
        return rows.sorted { $0.swing != $1.swing ? $0.swing > $1.swing : $0.assumption.rawValue < $1.assumption.rawValue }
    }
}
