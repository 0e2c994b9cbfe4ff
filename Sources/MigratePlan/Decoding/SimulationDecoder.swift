import Foundation
import MigrateSupport

/// Reads the plan's `simulation` section, reporting every bad assumption with its path.
extension PlanDecoder {
    static func decodeSimulation(_ reader: ObjectReader<PlanKeys.Simulation>) -> SimulationSettings {
        var settings = SimulationSettings()
        if let months = reader.integer(.horizonMonths) {
            if months < 1 || months > 120 {
                reader.sink.error(
                    .invalidValue, "'horizonMonths' must be from 1 to 120, found \(months)", at: reader.path(.horizonMonths),
                    hint: "The default, 24, covers the launch burst and a subscriber's second year.")
            } else {
                settings.horizonMonths = months
            }
        }
        settings.commission = reader.choice(.commission, from: PlanKeys.commissions).flatMap(Commission.init(rawValue:))
        settings.assumptions = reader.object(.assumptions, as: SimulationAssumption.self).map { decodeAssumptions($0) } ?? []
        if let items = reader.array(.seasonality) {
            settings.seasonality = decodeSeasonality(items, at: reader.path(.seasonality), sink: reader.sink)
        }
        var seen: [String: JSONPath] = [:]
        for item in reader.array(.scenarios) ?? [] {
            guard let scenario = decodeScenario(item.node, item.path, reader.sink) else { continue }
            if let first = seen[scenario.id] {
                reader.sink.error(
                    .duplicateID, "scenario '\(scenario.id)' is defined twice (first at \(first))", at: item.path / PlanKeys.Scenario.id)
            } else {
                seen[scenario.id] = item.path
                settings.scenarios.append(scenario)
            }
        }
        return settings
    }

    /// Twelve numbers, 0 or more and not all 0: the calendar months' relative weights, January first.
    static func decodeSeasonality(_ items: [(node: JSONNode, path: JSONPath)], at path: JSONPath, sink: DiagnosticSink) -> Seasonality? {
        var weights: [Double] = []
        var good = true
        for item in items {
            guard let value = number(item.node) else {
                sink.error(.wrongType, "a month's weight must be a number, found \(item.node.value.kindName)", at: item.path)
                good = false
                continue
            }
            guard value >= 0 else {
                sink.error(.invalidValue, "a month's weight must not be negative, found \(format(value))", at: item.path)
                good = false
                continue
            }
            weights.append(value)
        }
        guard items.count == Seasonality.months else {
            sink.error(
                .invalidValue, "'seasonality' needs one weight for each of the 12 calendar months, January first; found \(items.count)", at: path,
                hint:
                    "Write twelve numbers, such as a month's paid downloads in each calendar month: [310, 280, 150, 60, 40, 30, 30, 35, 40, 60, 180, 290]."
            )
            return nil
        }
        guard good else { return nil }
        guard weights.contains(where: { $0 > 0 }) else {
            sink.error(
                .invalidValue, "'seasonality' has no month above 0", at: path, hint: "Only the weights' ratios matter: give each month's downloads.")
            return nil
        }
        return Seasonality(weights: weights, origin: path)
    }

    private static func decodeScenario(_ node: JSONNode, _ path: JSONPath, _ sink: DiagnosticSink) -> SimulationScenario? {
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A scenario", keys: PlanKeys.Scenario.self) else { return nil }
        let id = reader.identifier(.id)
        let name = reader.identifier(.name, required: false)
        let assumptions = reader.object(.assumptions, as: SimulationAssumption.self).map { decodeAssumptions($0) } ?? []
        var prices: [Discount] = []
        for item in reader.array(.prices) ?? [] {
            guard let row = ObjectReader(item.node, at: item.path, sink: sink, describing: "A price", keys: PlanKeys.ScenarioPrice.self) else {
                continue
            }
            let product = row.identifier(.product)
            let price = readPrice(row, .price, required: true)
            if let product, let price { prices.append(Discount(product: product, price: price)) }
        }
        let tiers = reader.array(.tiers).map { items in items.compactMap { decodeTier($0.node, $0.path, sink) } }
        let commission = reader.choice(.commission, from: PlanKeys.commissions).flatMap(Commission.init(rawValue:))
        guard let id else { return nil }
        if id == "plan" {
            sink.error(
                .reservedID, "a scenario may not be called 'plan': that id is the plan itself, the baseline every scenario is compared with",
                at: reader.path(.id), hint: "Pick another id, such as 'plan-b'; 'migrate simulate --scenario plan' always runs the plan as written.")
            return nil
        }
        return SimulationScenario(
            id: id, name: name ?? id, assumptions: assumptions, prices: prices, tiers: tiers, commission: commission, origin: path)
    }

    /// `{ "conversion": 0.02, "lastingMultiple": { "distribution": "triangular", "low": 5, "mode": 10, "high": 20 } }`.
    static func decodeAssumptions(_ reader: ObjectReader<SimulationAssumption>) -> [AssumptionValue] {
        var result: [AssumptionValue] = []
        for assumption in SimulationAssumption.allCases {
            guard let node = reader.value(assumption) else { continue }
            let path = reader.path(assumption)
            guard let distribution = decodeDistribution(node, at: path, sink: reader.sink) else { continue }
            if check(distribution, against: assumption, at: path, sink: reader.sink) {
                result.append(AssumptionValue(name: assumption.rawValue, distribution: distribution, origin: path))
            }
        }
        return result
    }

    static func number(_ node: JSONNode) -> Double? {
        guard case .number(let literal) = node.value, let value = Double(literal), value.isFinite else { return nil }
        return value
    }

    static func decodeDistribution(_ node: JSONNode, at path: JSONPath, sink: DiagnosticSink) -> Distribution? {
        if let value = number(node) { return .point(value) }
        guard node.objectValue != nil else {
            sink.error(
                .wrongType, "an assumption must be a number or a distribution object, found \(node.value.kindName)", at: path,
                hint: "Write 0.02, or { \"distribution\": \"uniform\", \"low\": 0.01, \"high\": 0.05 }.")
            return nil
        }
        guard let reader = ObjectReader(node, at: path, sink: sink, describing: "A distribution", keys: PlanKeys.Distribution.self) else {
            return nil
        }
        guard let kind = reader.choice(.distribution, from: PlanKeys.distributions, required: true) else { return nil }
        let needed: [PlanKeys.Distribution]
        switch kind {
        case "point": needed = [.value]
        case "uniform", "logNormal": needed = [.low, .high]
        default: needed = [.low, .mode, .high]
        }
        for key in PlanKeys.Distribution.allCases.dropFirst() where reader.has(key) && !needed.contains(key) {
            sink.error(
                .invalidValue, "'\(key)' does not apply to a \(kind) distribution", at: reader.path(key),
                hint: "A \(kind) distribution takes \(needed.map { "'\($0)'" }.joined(separator: ", ")).")
        }
        var values: [PlanKeys.Distribution: Double] = [:]
        for key in needed {
            guard let valueNode = reader.value(key) else {
                sink.error(.missingKey, "missing '\(key)' (a number) for a \(kind) distribution", at: reader.path(key))
                continue
            }
            guard let value = number(valueNode) else {
                sink.error(.wrongType, "'\(key)' must be a number, found \(valueNode.value.kindName)", at: reader.path(key))
                continue
            }
            values[key] = value
        }
        guard values.count == needed.count else { return nil }
        switch kind {
        case "point":
            return .point(values[.value]!)
        case "uniform":
            let low = values[.low]!
            let high = values[.high]!
            guard low <= high else {
                sink.error(.invalidValue, "'low' (\(format(low))) must not be above 'high' (\(format(high)))", at: reader.path(.low))
                return nil
            }
            return .uniform(low: low, high: high)
        case "logNormal":
            let low = values[.low]!
            let high = values[.high]!
            guard low > 0, low <= high else {
                sink.error(
                    .invalidValue, "a logNormal distribution needs 0 < low <= high, found low \(format(low)) and high \(format(high))",
                    at: reader.path(.low), hint: "'low' and 'high' are the 10th and 90th percentiles; both must be above zero.")
                return nil
            }
            return .logNormal(low: low, high: high)
        default:
            let low = values[.low]!
            let mode = values[.mode]!
            let high = values[.high]!
            guard low <= mode, mode <= high, low < high || low == high else {
                sink.error(
                    .invalidValue, "a triangular distribution needs low <= mode <= high, found \(format(low)), \(format(mode)), \(format(high))",
                    at: reader.path(.mode))
                return nil
            }
            return .triangular(low: low, mode: mode, high: high)
        }
    }

    /// Reports values the assumption can't take (a negative rate, a probability above 1), naming the path.
    public static func check(_ distribution: Distribution, against assumption: SimulationAssumption, at path: JSONPath, sink: DiagnosticSink) -> Bool
    {
        let keys: [String]
        switch distribution {
        case .point: keys = [""]
        case .uniform, .logNormal: keys = ["low", "high"]
        case .triangular: keys = ["low", "mode", "high"]
        }
        for (key, value) in zip(keys, distribution.parameters) {
            let at = key.isEmpty ? path : path / key
            let name = assumption.rawValue
            switch assumption.bound {
            case .nonNegative where value < 0:
                sink.error(.invalidValue, "'\(name)' must not be negative, found \(format(value))", at: at)
                return false
            case .positive where value <= 0:
                sink.error(.invalidValue, "'\(name)' must be above zero, found \(format(value))", at: at)
                return false
            case .probability where value < 0 || value > 1:
                let hint =
                    value > 1 && value <= 100
                    ? "Write a share from 0 to 1: \(format(value))% is \(format(value / 100))." : "Write a share from 0 to 1."
                sink.error(.invalidValue, "'\(name)' is a probability and must be from 0 to 1, found \(format(value))", at: at, hint: hint)
                return false
            case .change where value < -1 || value > 1:
                let hint =
                    value > 1 && value <= 100
                    ? "Write a share of change from −1 to 1: \(format(value))% a month is \(format(value / 100))."
                    : "Write a share of change from −1 to 1."
                sink.error(.invalidValue, "'\(name)' is a monthly change and must be from -1 to 1, found \(format(value))", at: at, hint: hint)
                return false
            default: break
            }
            if let maximum = assumption.maximum, value > maximum {
                sink.error(
                    .tooLarge, "'\(name)' must be at most \(Limits.display(maximum)), found \(format(value))", at: at,
                    hint:
                        "\(Limits.display(maximum)) is migrate's limit for '\(name)' (the manual, \"Limits and exit codes\"); simulate works in doubles and prints whole amounts."
                )
                return false
            }
        }
        return true
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension PlanValidator {
    /// Scenario prices and tiers must name products and features the plan declares.
    static func validateSimulation(_ plan: MigrationPlan) -> [Diagnostic] {
        guard let simulation = plan.simulation else { return [] }
        var diagnostics: [Diagnostic] = []
        let references = References(plan)
        for scenario in simulation.scenarios {
            for (index, price) in scenario.prices.enumerated() {
                let path = scenario.origin.map { $0 / PlanKeys.Scenario.prices / index / PlanKeys.ScenarioPrice.product }
                if let problem = references.check(price.product, kind: .product, at: path) { diagnostics.append(problem) }
            }
            for tier in scenario.tiers ?? [] {
                diagnostics += references.check(tier)
            }
        }
        return diagnostics
    }
}
