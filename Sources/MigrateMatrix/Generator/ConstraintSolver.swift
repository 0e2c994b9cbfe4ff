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
    /// Factors that appear in some nogood, most constrained first (the search order).
    let constrainedFactors: [Int]
    let isConstrained: [Bool]
    private var cache: [[Int16]: Bool] = [:]

    // Flat forms of the above (see init).
    /// Nogood `i` is the (factor, level) pairs `nogoodPairs[nogoodStart[i]..<nogoodStart[i + 1]]`, two entries each.
    private let nogoodStart: [Int]
    private let nogoodPairs: [Int]
    /// The nogoods with `factor` at `level` are `levelNogoods[levelStart[b]..<levelStart[b + 1]]`, b = `factorLevelBase[factor] + level`
    /// (the levels of all factors, one after another).
    private let factorLevelBase: [Int]
    private let levelStart: [Int]
    private let levelNogoods: [Int]
    /// Clause `i`'s literals are `clauseStart[i]..<clauseStart[i + 1]`: a factor each, and whether its level `l`
    /// is allowed at `clauseAllowed[clauseAllowedBase[literal] + l]`.
    private let clauseStart: [Int]
    private let clauseFactors: [Int]
    private let clauseAllowedBase: [Int]
    private let clauseAllowed: [Bool]
    /// The clauses on `factor` are `factorClauses[factorClauseStart[factor]..<factorClauseStart[factor + 1]]`.
    private let factorClauseStart: [Int]
    private let factorClauses: [Int]

    /// Dense rules, as tables of the combinations they allow: checking one is a lookup once its factors
    /// are all set, where its nogoods (a version and each date it wasn't live: hundreds per level)
    /// would be a scan. Table `t` covers factors `tableFactors[tableStart[t]..<tableStart[t + 1]]`, and a
    /// combination is allowed at `tableAllowed[tableBase[t] + Σ level × stride]` (`tableStrides`, same
    /// positions). The tables on `factor` are `factorTables[factorTableStart[factor]..<factorTableStart[factor + 1]]`.
    private let tableStart: [Int]
    private let tableFactors: [Int]
    private let tableStrides: [Int]
    private let tableBase: [Int]
    private let tableAllowed: [Bool]
    private let factorTableStart: [Int]
    private let factorTables: [Int]

    /// The largest scope product a constraint may enumerate when compiled.
    static let scopeLimit = 4_000_000

    init(model: CoverageModel) throws(ModelError) {
        let levelCounts = model.levelCounts
        self.levelCounts = levelCounts
        var nogoods: [Nogood] = []
        var clauses: [Clause] = []
        var tables: [(scope: [Int], allowed: [Bool])] = []
        // What the tables' nogoods would have added to each factor's weight, so the search order is the same.
        var tableWeight = [Int](repeating: 0, count: levelCounts.count)
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
            // Enumerated once: the combinations it forbids become nogoods, or a table when they are
            // dense (more than two per factor level on average), where a lookup beats a scan.
            var values = [Int](repeating: 0, count: scope.count)
            var allowed = [Bool](repeating: true, count: size)
            var forbidden: [[Int]] = []
            var index = 0
            enumerate: while true {
                if !constraint.allows(values) {
                    forbidden.append(values)
                    allowed[index] = false
                }
                index += 1
                var position = scope.count - 1
                while position >= 0 {
                    values[position] += 1
                    if values[position] < levelCounts[scope[position]] { break }
                    values[position] = 0
                    position -= 1
                }
                if position < 0 { break enumerate }
            }
            let levels = scope.reduce(0) { $0 + levelCounts[$1] }
            if scope.count > 1 && Set(scope).count == scope.count && forbidden.count * scope.count > 2 * levels {
                tables.append((scope, allowed))
                for factor in scope { tableWeight[factor] += forbidden.count }
            } else {
                nogoods += forbidden.map { Nogood(factors: scope, levels: $0) }
            }
        }
        // Unary nogoods shrink domains; keep them like any other. A row only needs the nogoods that
        // match the level it has (`byLevel`), which keeps a rule over two wide factors (a version and
        // the dates it was live) cheap to check.
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
        // The same, flattened into plain integer arrays for the checks the generator runs millions of
        // times: reading a `Nogood` or `Clause` out of an array retains and releases its arrays, which
        // was most of the time on wide plans.
        (self.nogoodStart, self.nogoodPairs) = Self.flattened(nogoods.map { zip($0.factors, $0.levels).flatMap { [$0, $1] } })
        (self.levelStart, self.levelNogoods) = Self.flattened(byLevel.flatMap { $0 })
        self.factorLevelBase = Array(levelCounts.reduce(into: [0]) { $0.append($0.last! + $1) }.dropLast())
        var clauseStart: [Int] = [0]
        var clauseFactors: [Int] = []
        var clauseAllowedBase: [Int] = []
        var clauseAllowed: [Bool] = []
        for clause in clauses {
            for (factor, allowed) in zip(clause.factors, clause.allowed) {
                clauseFactors.append(factor)
                clauseAllowedBase.append(clauseAllowed.count)
                clauseAllowed += allowed
            }
            clauseStart.append(clauseFactors.count)
        }
        self.clauseStart = clauseStart
        self.clauseFactors = clauseFactors
        self.clauseAllowedBase = clauseAllowedBase
        self.clauseAllowed = clauseAllowed
        (self.factorClauseStart, self.factorClauses) = Self.flattened(clausesByFactor)
        var tableStart: [Int] = [0]
        var tableFactors: [Int] = []
        var tableStrides: [Int] = []
        var tableBase: [Int] = []
        var tableAllowed: [Bool] = []
        var tablesByFactor = [[Int]](repeating: [], count: levelCounts.count)
        for (index, table) in tables.enumerated() {
            var stride = 1
            var strides = [Int](repeating: 0, count: table.scope.count)
            for position in table.scope.indices.reversed() {
                strides[position] = stride
                stride *= levelCounts[table.scope[position]]
            }
            tableFactors += table.scope
            tableStrides += strides
            tableStart.append(tableFactors.count)
            tableBase.append(tableAllowed.count)
            tableAllowed += table.allowed
            for factor in table.scope { tablesByFactor[factor].append(index) }
        }
        self.tableStart = tableStart
        self.tableFactors = tableFactors
        self.tableStrides = tableStrides
        self.tableBase = tableBase
        self.tableAllowed = tableAllowed
        (self.factorTableStart, self.factorTables) = Self.flattened(tablesByFactor)
        self.hasConstraints = !nogoods.isEmpty || !clauses.isEmpty || !tables.isEmpty
        let weight = (0..<levelCounts.count).map { byFactor[$0].count + tableWeight[$0] + clausesByFactor[$0].count }
        var constrained = (0..<levelCounts.count).filter { weight[$0] > 0 }
        // Most constrained first, then in factor order.
        constrained.sort { weight[$0] != weight[$1] ? weight[$0] > weight[$1] : $0 < $1 }
        self.constrainedFactors = constrained
        self.isConstrained = weight.map { $0 > 0 }
        self.hasEmptyNogood = nogoods.contains { $0.factors.isEmpty } || clauses.contains { $0.factors.isEmpty }
        self.partialStrides = Self.partialStrides(constrained, levelCounts: levelCounts)
        if !partialStrides.isEmpty { self.extendsPartial = extendsPartialTable() }
    }

    /// Whether each assignment of the constrained factors, some left unassigned, extends to a valid row,
    /// at `Σ (level + 1) × partialStrides[position]` over `constrainedFactors`; empty when there are more
    /// than `partialLimit`. Where constraints involve a few small factors (PICT's examples: a size and
    /// a file system) the generator asks this for every value it places, and a lookup is a fraction of
    /// a check against the constraints.
    private var extendsPartial: [Bool] = []
    private let partialStrides: [Int]

    /// The most partial assignments `extendsPartial` holds: a table built in microseconds.
    static let partialLimit = 4_096

    /// The strides of `extendsPartial`, or none when it would hold more than `partialLimit` entries.
    private static func partialStrides(_ constrained: [Int], levelCounts: [Int]) -> [Int] {
        var strides: [Int] = []
        var size = 1
        for factor in constrained {
            strides.append(size)
            size *= levelCounts[factor] + 1
            if size > partialLimit { return [] }
        }
        return constrained.isEmpty ? [] : strides
    }

    /// `extendsPartial`: every complete assignment checked against the constraints, then each partial one
    /// extends when setting some unassigned factor to some level does (one factor at a time, so a
    /// value is read only once all its unassigned factors past this one are decided).
    private func extendsPartialTable() -> [Bool] {
        let count = partialStrides.last! * (levelCounts[constrainedFactors.last!] + 1)
        var table = [Bool](repeating: false, count: count)
        if hasEmptyNogood { return table }
        var row = [Int](repeating: -1, count: levelCounts.count)
        for index in 0..<count {
            var complete = true
            for (position, factor) in constrainedFactors.enumerated() {
                row[factor] = index / partialStrides[position] % (levelCounts[factor] + 1) - 1
                if row[factor] < 0 { complete = false }
            }
            table[index] = complete && constrainedFactors.allSatisfy { isLocallyConsistent(row, changed: $0) }
        }
        for (position, factor) in constrainedFactors.enumerated() {
            let stride = partialStrides[position]
            for index in 0..<count where index / stride % (levelCounts[factor] + 1) == 0 {
                table[index] = (1..<levelCounts[factor] + 1).contains { table[index + $0 * stride] }
            }
        }
        return table
    }

    let hasEmptyNogood: Bool

    let hasConstraints: Bool

    /// The same constraints with their own cache and witness, for a search on another thread: the
    /// answers are the same (the cache and the witness only save work), and nothing is shared that
    /// either search changes.
    func copy() -> ConstraintSolver { ConstraintSolver(copying: self) }

    private init(copying other: ConstraintSolver) {
        levelCounts = other.levelCounts
        constrainedFactors = other.constrainedFactors
        isConstrained = other.isConstrained
        nogoodStart = other.nogoodStart
        nogoodPairs = other.nogoodPairs
        factorLevelBase = other.factorLevelBase
        levelStart = other.levelStart
        levelNogoods = other.levelNogoods
        clauseStart = other.clauseStart
        clauseFactors = other.clauseFactors
        clauseAllowedBase = other.clauseAllowedBase
        clauseAllowed = other.clauseAllowed
        factorClauseStart = other.factorClauseStart
        factorClauses = other.factorClauses
        tableStart = other.tableStart
        tableFactors = other.tableFactors
        tableStrides = other.tableStrides
        tableBase = other.tableBase
        tableAllowed = other.tableAllowed
        factorTableStart = other.factorTableStart
        factorTables = other.factorTables
        hasEmptyNogood = other.hasEmptyNogood
        hasConstraints = other.hasConstraints
        partialStrides = other.partialStrides
        extendsPartial = other.extendsPartial
    }

    /// Lists laid end to end: list `i` is `items[start[i]..<start[i + 1]]`.
    private static func flattened(_ lists: [[Int]]) -> (start: [Int], items: [Int]) {
        (lists.reduce(into: [0]) { $0.append($0.last! + $1.count) }, lists.flatMap { $0 })
    }

    /// False when every factor of a clause on `factor` is assigned and none takes an allowed level.
    @inline(__always)
    private func clausesHold(_ factor: Int, _ value: (Int) -> Int) -> Bool {
        var entry = factorClauseStart[factor]
        let end = factorClauseStart[factor + 1]
        while entry < end {
            let clause = factorClauses[entry]
            entry += 1
            var open = false
            var satisfied = false
            var literal = clauseStart[clause]
            let last = clauseStart[clause + 1]
            while literal < last {
                let level = value(clauseFactors[literal])
                if level < 0 {
                    open = true
                } else if clauseAllowed[clauseAllowedBase[literal] + level] {
                    satisfied = true
                    break
                }
                literal += 1
            }
            if !satisfied && !open { return false }
        }
        return true
    }

    /// False when some nogood with `factor` at `level` has every other pair matched by `value`.
    @inline(__always)
    private func nogoodsHold(_ factor: Int, _ level: Int, _ value: (Int) -> Int) -> Bool {
        let bucket = factorLevelBase[factor] + level
        var entry = levelStart[bucket]
        let end = levelStart[bucket + 1]
        while entry < end {
            let nogood = levelNogoods[entry]
            entry += 1
            var pair = nogoodStart[nogood]
            let last = nogoodStart[nogood + 1]
            var matches = true
            while pair < last {
                if value(nogoodPairs[pair]) != nogoodPairs[pair + 1] {
                    matches = false
                    break
                }
                pair += 2
            }
            if matches { return false }
        }
        return true
    }

    /// False when a table on `factor` has all its factors set, to a combination it forbids.
    @inline(__always)
    private func tablesHold(_ factor: Int, _ value: (Int) -> Int) -> Bool {
        var entry = factorTableStart[factor]
        let end = factorTableStart[factor + 1]
        tables: while entry < end {
            let table = factorTables[entry]
            entry += 1
            var index = tableBase[table]
            var position = tableStart[table]
            let last = tableStart[table + 1]
            while position < last {
                let level = value(tableFactors[position])
                if level < 0 { continue tables }
                index += level * tableStrides[position]
                position += 1
            }
            if !tableAllowed[index] { return false }
        }
        return true
    }

    /// True when no constraint involving `factor` is broken by the assigned values of `row` (-1 is unassigned).
    func isLocallyConsistent(_ row: [Int], changed factor: Int) -> Bool {
        let level = row[factor]
        guard level >= 0 else { return true }
        return tablesHold(factor) { row[$0] } && nogoodsHold(factor, level) { row[$0] } && clausesHold(factor) { row[$0] }
    }

    /// True when the complete row at `row` breaks no constraint involving the first `count` of `factors`.
    func isValid(row: UnsafePointer<Int>, changed factors: UnsafePointer<Int>, count: Int) -> Bool {
        if hasEmptyNogood { return false }
        for index in 0..<count {
            let factor = factors[index]
            let level = row[factor]
            if !tablesHold(factor, { row[$0] }) || !nogoodsHold(factor, level, { row[$0] }) { return false }
            if !clausesHold(factor, { row[$0] }) { return false }
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
        if !extendsPartial.isEmpty {
            var index = 0
            for (position, factor) in constrainedFactors.enumerated() { index += (row[factor] + 1) * partialStrides[position] }
            return extendsPartial[index]
        }
        if extendsWitness(row) { return true }
        var work = row
        for factor in constrainedFactors where work[factor] >= 0 {
            if !isLocallyConsistent(work, changed: factor) { return false }
        }
        // Most partial rows complete with the first value that fits each factor in turn: try that before
        // the cache (whose key spans every constrained factor) and the backtracking search.
        if let completed = greedilyCompleted(work) {
            witness = completed
            return true
        }
        let key = constrainedFactors.map { Int16(truncatingIfNeeded: row[$0]) }
        if let known = cache[key] { return known }
        let result = search(&work, from: 0)
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = result
        return result
    }

    /// Entries the search's cache keeps before it starts again, so a wide model's memory stays bounded.
    static let cacheLimit = 200_000

    /// The last completion found: every constrained factor set, breaking no constraint (the others -1).
    private var witness: [Int] = []
    /// The factors `extendsWitness` changed, and their old levels.
    private var witnessChanges: [(factor: Int, level: Int)] = []

    /// Whether the witness, with the levels `row` assigns put in, is still a valid row. The generator asks
    /// about rows that differ from the last one in a value or two: then only the constraints on those
    /// factors need checking, where a completion from scratch costs every factor times its levels. On a
    /// yes the changed witness is kept; on a no it is left as it was, and the full check decides.
    private func extendsWitness(_ row: [Int]) -> Bool {
        guard witness.count == row.count else { return false }
        witnessChanges.removeAll(keepingCapacity: true)
        for factor in constrainedFactors {
            let level = row[factor]
            if level >= 0 && level != witness[factor] {
                witnessChanges.append((factor, witness[factor]))
                witness[factor] = level
                if witnessChanges.count > 3 { break }
            }
        }
        var holds = witnessChanges.count <= 3
        if holds {
            for change in witnessChanges where !isLocallyConsistent(witness, changed: change.factor) {
                holds = false
                break
            }
        }
        if !holds {
            for change in witnessChanges { witness[change.factor] = change.level }
        }
        return holds
    }

    /// Assigns each unassigned constrained factor its first locally consistent level, without going back;
    /// the completed row, or nil when some factor has no level left.
    private func greedilyCompleted(_ row: [Int]) -> [Int]? {
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
            if !placed { return nil }
        }
        return work
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
