/// The constraints of a model compiled into forbidden combinations ("nogoods") and clauses ("at least
/// one of these factors takes one of these values", checked as they are, never enumerated), with a
/// small backtracking search that tells whether a partial row can still be completed into a valid row.
///
/// The generator asks it before every value it places, so a row it builds can never dead-end;
/// the required tuples are exactly those it can extend.
final class ConstraintSolver {
    struct Nogood {
        var factors: [Int]
        var levels: [Int]
    }

    /// A disjunction: satisfied when some literal's factor takes an allowed level.
    struct Clause {
        var factors: [Int]
        /// `allowed[i][level]` for `factors[i]`.
        var allowed: [[Bool]]
    }

    let levelCounts: [Int]
    let nogoods: [Nogood]
    let clauses: [Clause]
    /// Clause indices per factor.
    let clausesOfFactor: [[Int]]
    /// Nogood indices per factor.
    let nogoodsOfFactor: [[Int]]
    /// Nogood indices per factor and level: a row only needs the nogoods that match the level it has,
    /// which keeps a rule over two wide factors (a version and the dates it was live) cheap to check.
    let nogoodsOfLevel: [[[Int]]]
    /// Factors that appear in some nogood, most constrained first (the search order).
    let constrainedFactors: [Int]
    let isConstrained: [Bool]
    private var cache: [[Int16]: Bool] = [:]

    /// The largest scope product a constraint may enumerate when compiled.
    static let scopeLimit = 4_000_000

    init(model: CoverageModel) throws(ModelError) {
        let levelCounts = model.levelCounts
        self.levelCounts = levelCounts
        var nogoods: [Nogood] = []
        var clauses: [Clause] = []
        for constraint in model.constraints {
            if let literals = constraint.clause {
                clauses.append(
                    Clause(
                        factors: literals.map(\.factor),
                        allowed: literals.map { literal in (0..<levelCounts[literal.factor]).map { literal.levels.contains($0) } }))
                continue
            }
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
        var clausesByFactor = [[Int]](repeating: [], count: levelCounts.count)
        for (index, clause) in clauses.enumerated() {
            for factor in clause.factors { clausesByFactor[factor].append(index) }
        }
        var byLevel = levelCounts.map { [[Int]](repeating: [], count: $0) }
        for (index, nogood) in nogoods.enumerated() {
            for (position, factor) in nogood.factors.enumerated() { byLevel[factor][nogood.levels[position]].append(index) }
        }
        self.nogoods = nogoods
        self.nogoodsOfFactor = byFactor
        self.nogoodsOfLevel = byLevel
        self.clauses = clauses
        self.clausesOfFactor = clausesByFactor
        let weight = (0..<levelCounts.count).map { byFactor[$0].count + clausesByFactor[$0].count }
        var constrained = (0..<levelCounts.count).filter { weight[$0] > 0 }
        constrained.sort { (-weight[$0], $0) < (-weight[$1], $1) }
        self.constrainedFactors = constrained
        self.isConstrained = weight.map { $0 > 0 }
        self.hasEmptyNogood = nogoods.contains { $0.factors.isEmpty } || clauses.contains { $0.factors.isEmpty }
    }

    let hasEmptyNogood: Bool

    var hasConstraints: Bool { !nogoods.isEmpty || !clauses.isEmpty }

    /// False when every factor of a clause on `factor` is assigned and none takes an allowed level.
    @inline(__always)
    private func clausesHold(_ factor: Int, _ value: (Int) -> Int) -> Bool {
        for index in clausesOfFactor[factor] {
            let clause = clauses[index]
            var open = false
            var satisfied = false
            for (position, other) in clause.factors.enumerated() {
                let level = value(other)
                if level < 0 {
                    open = true
                } else if clause.allowed[position][level] {
                    satisfied = true
                    break
                }
            }
            if !satisfied && !open { return false }
        }
        return true
    }

    /// True when no nogood involving `factor` is fully matched by the assigned values of `row` (-1 is unassigned).
    func isLocallyConsistent(_ row: [Int], changed factor: Int) -> Bool {
        let level = row[factor]
        guard level >= 0 else { return true }
        for index in nogoodsOfLevel[factor][level] {
            let nogood = nogoods[index]
            var matches = true
            for (position, other) in nogood.factors.enumerated() where row[other] != nogood.levels[position] {
                matches = false
                break
            }
            if matches { return false }
        }
        return clausesHold(factor) { row[$0] }
    }

    /// True when the complete row stored at `cells[offset...]` breaks no nogood involving `factors`.
    func isValid(cells: [Int], offset: Int, changed factors: [(factor: Int, level: Int)]) -> Bool {
        if hasEmptyNogood { return false }
        for (factor, _) in factors {
            for index in nogoodsOfLevel[factor][cells[offset + factor]] {
                let nogood = nogoods[index]
                var matches = true
                for (position, other) in nogood.factors.enumerated() where cells[offset + other] != nogood.levels[position] {
                    matches = false
                    break
                }
                if matches { return false }
            }
            if !clausesHold(factor, { cells[offset + $0] }) { return false }
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
        if !hasConstraints { return true }
        var work = row
        for factor in constrainedFactors where work[factor] >= 0 {
            if !isLocallyConsistent(work, changed: factor) { return false }
        }
        // Most partial rows complete with the first value that fits each factor in turn: try that before
        // the cache (whose key spans every constrained factor) and the backtracking search.
        if greedilyCompletes(work) { return true }
        let key = constrainedFactors.map { Int16(truncatingIfNeeded: row[$0]) }
        if let known = cache[key] { return known }
        let result = search(&work, from: 0)
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = result
        return result
    }

    /// Entries the search's cache keeps before it starts again, so a wide model's memory stays bounded.
    static let cacheLimit = 200_000

    /// Assigns each unassigned constrained factor its first locally consistent level, without going back.
    private func greedilyCompletes(_ row: [Int]) -> Bool {
        var work = row
        for factor in constrainedFactors where work[factor] < 0 {
            var placed = false
            for level in 0..<levelCounts[factor] {
                work[factor] = level
                if isLocallyConsistent(work, changed: factor) {
                    placed = true
                    break
                }
            }
            if !placed { return false }
        }
        return true
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
