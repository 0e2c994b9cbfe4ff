/// The constraints of a model compiled into forbidden combinations ("nogoods"), with a small
/// backtracking search that tells whether a partial row can still be completed into a valid row.
///
/// The generator asks it before every value it places, so a row it builds can never dead-end;
/// the required tuples are exactly those it can extend.
final class ConstraintSolver {
    struct Nogood {
        var factors: [Int]
        var levels: [Int]
    }

    let levelCounts: [Int]
    let nogoods: [Nogood]
    /// Nogood indices per factor.
    let nogoodsOfFactor: [[Int]]
    /// Factors that appear in some nogood, most constrained first (the search order).
    let constrainedFactors: [Int]
    let isConstrained: [Bool]
    private var cache: [[Int16]: Bool] = [:]

    /// The largest scope product a constraint may enumerate when compiled.
    static let scopeLimit = 4_000_000

    init(model: CoverageModel) throws(ModelError) {
        levelCounts = model.levelCounts
        var nogoods: [Nogood] = []
        for constraint in model.constraints {
            let scope = constraint.scope
            var size = 1
            for factor in scope {
                size *= levelCounts[factor]
                if size > Self.scopeLimit {
                    throw ModelError("the constraint '\(constraint.label)' involves too many combinations (more than \(Self.scopeLimit)); split it")
                }
            }
            if scope.isEmpty {
                if !constraint.allows([]) { nogoods.append(Nogood(factors: [], levels: [])) }
                continue
            }
            var values = [Int](repeating: 0, count: scope.count)
            enumerate: while true {
                if !constraint.allows(values) { nogoods.append(Nogood(factors: scope, levels: values)) }
                var position = scope.count - 1
                while position >= 0 {
                    values[position] += 1
                    if values[position] < levelCounts[scope[position]] { break }
                    values[position] = 0
                    position -= 1
                }
                if position < 0 { break enumerate }
            }
        }
        // Unary nogoods shrink domains; keep them like any other.
        var byFactor = [[Int]](repeating: [], count: levelCounts.count)
        for (index, nogood) in nogoods.enumerated() {
            for factor in nogood.factors { byFactor[factor].append(index) }
        }
        self.nogoods = nogoods
        self.nogoodsOfFactor = byFactor
        var constrained = (0..<levelCounts.count).filter { !byFactor[$0].isEmpty }
        constrained.sort { (-byFactor[$0].count, $0) < (-byFactor[$1].count, $1) }
        self.constrainedFactors = constrained
        self.isConstrained = byFactor.map { !$0.isEmpty }
        self.hasEmptyNogood = nogoods.contains { $0.factors.isEmpty }
    }

    let hasEmptyNogood: Bool

    var hasConstraints: Bool { !nogoods.isEmpty }

    /// True when no nogood involving `factor` is fully matched by the assigned values of `row` (-1 is unassigned).
    func isLocallyConsistent(_ row: [Int], changed factor: Int) -> Bool {
        for index in nogoodsOfFactor[factor] {
            let nogood = nogoods[index]
            var matches = true
            for (position, other) in nogood.factors.enumerated() where row[other] != nogood.levels[position] {
                matches = false
                break
            }
            if matches { return false }
        }
        return true
    }

    /// True when the complete row stored at `cells[offset...]` breaks no nogood involving `factors`.
    func isValid(cells: [Int], offset: Int, changed factors: [(factor: Int, level: Int)]) -> Bool {
        if hasEmptyNogood { return false }
        for (factor, _) in factors {
            for index in nogoodsOfFactor[factor] {
                let nogood = nogoods[index]
                var matches = true
                for (position, other) in nogood.factors.enumerated() where cells[offset + other] != nogood.levels[position] {
                    matches = false
                    break
                }
                if matches { return false }
            }
        }
        return true
    }

    /// True when a complete row violates no constraint.
    func isValid(_ row: [Int]) -> Bool {
        if hasEmptyNogood { return false }
        for factor in constrainedFactors where !isLocallyConsistent(row, changed: factor) { return false }
        return true
    }

    /// True when the assigned values of `row` (-1 is unassigned) extend to a complete valid row.
    func isExtendable(_ row: [Int]) -> Bool {
        if hasEmptyNogood { return false }
        if nogoods.isEmpty { return true }
        let key = constrainedFactors.map { Int16(truncatingIfNeeded: row[$0]) }
        if let known = cache[key] { return known }
        var work = row
        for factor in constrainedFactors where work[factor] >= 0 {
            if !isLocallyConsistent(work, changed: factor) {
                cache[key] = false
                return false
            }
        }
        let result = search(&work, from: 0)
        cache[key] = result
        return result
    }

    private func search(_ row: inout [Int], from position: Int) -> Bool {
        var position = position
        while position < constrainedFactors.count && row[constrainedFactors[position]] >= 0 { position += 1 }
        if position == constrainedFactors.count { return true }
        let factor = constrainedFactors[position]
        for level in 0..<levelCounts[factor] {
            row[factor] = level
            if isLocallyConsistent(row, changed: factor) && search(&row, from: position + 1) {
                row[factor] = -1
                return true
            }
        }
        row[factor] = -1
        return false
    }

    /// Completes the unassigned factors of an extendable row into a valid row, choosing the first
    /// value that keeps it extendable.
    func complete(_ row: [Int]) -> [Int]? {
        var row = row
        guard isExtendable(row) else { return nil }
        for factor in row.indices where row[factor] < 0 {
            var placed = false
            for level in 0..<levelCounts[factor] {
                row[factor] = level
                if !isConstrained[factor] || isExtendable(row) {
                    placed = true
                    break
                }
            }
            if !placed { return nil }
        }
        return row
    }
}
