/// Finds out whether some complete row keeps given values and breaks no constraint: a plain
/// depth-first search, sharing no code with the generator, used by the verifier and to check models.
///
/// Only factors that a constraint mentions (or that have negative values) are searched; any value
/// of another factor fits every row. Each constraint is checked once its last factor has a value.
/// The search keeps its own stack, so a model with thousands of factors cannot exhaust the call stack.
struct ValidRowSearch {
    let levelCounts: [Int]
    let constraints: [Constraint]
    /// Per negative mask: whether a factor's level is a negative value (PICT's `~`): at most one per row.
    let negative: [[Bool]]?
    /// The factors searched, ascending.
    private let order: [Int]
    private let isSearched: [Bool]
    /// Per position in `order`, the constraints whose last factor is that one.
    private let closing: [[Int]]
    private let unsatisfiable: Bool

    init(model: CoverageModel, negative: [[Bool]]? = nil) {
        levelCounts = model.levelCounts
        constraints = model.constraints
        self.negative = negative
        var searched = [Bool](repeating: false, count: levelCounts.count)
        for constraint in constraints { for factor in constraint.scope { searched[factor] = true } }
        if let negative {
            for factor in negative.indices where negative[factor].contains(true) { searched[factor] = true }
        }
        order = searched.indices.filter { searched[$0] }
        isSearched = searched
        var position = [Int](repeating: -1, count: levelCounts.count)
        for (index, factor) in order.enumerated() { position[factor] = index }
        var closing = [[Int]](repeating: [], count: order.count)
        var unsatisfiable = false
        for (index, constraint) in constraints.enumerated() {
            if let last = constraint.scope.last {
                closing[position[last]].append(index)
            } else if !constraint.allows([]) {
                unsatisfiable = true
            }
        }
        self.closing = closing
        self.unsatisfiable = unsatisfiable
    }

    /// Whether a valid row has the `fixed` values (nil: any value). With `positiveOnly`, the row may
    /// hold no negative value at all.
    func exists(_ fixed: [Int?], positiveOnly: Bool = false) -> Bool {
        if unsatisfiable { return false }
        let allowedNegatives = positiveOnly ? 0 : 1
        // Fixed values are in the row from the start, so a constraint is checked as soon as its last
        // factor that is not fixed has a value (up front when all are fixed): a pair that breaks a rule
        // over factors searched last fails at once instead of after every combination of the others.
        var row = fixed.map { $0 ?? -1 }
        var closing = [[Int]](repeating: [], count: order.count)
        var position = [Int](repeating: -1, count: levelCounts.count)
        for (index, factor) in order.enumerated() { position[factor] = index }
        for index in self.closing.indices.flatMap({ self.closing[$0] }) {
            let constraint = constraints[index]
            let depth = constraint.scope.reduce(-1) { fixed[$1] == nil ? max($0, position[$1]) : $0 }
            if depth < 0 {
                if !constraint.isSatisfied(by: row) { return false }
            } else {
                closing[depth].append(index)
            }
        }
        var negatives = 0
        func isNegative(_ factor: Int, _ level: Int) -> Bool { negative?[factor][level] ?? false }
        // A fixed value outside the searched factors is checked here, since the search never sees it.
        for (factor, value) in fixed.enumerated() {
            if let value, !isSearched[factor], isNegative(factor, value) { negatives += 1 }
        }
        if negatives > allowedNegatives { return false }
        // Fixed negative values further down the search, so an earlier factor never spends the one
        // negative value a row may hold (which would make the search backtrack through every factor).
        var reservedAfter = [Int](repeating: 0, count: order.count + 1)
        for depth in stride(from: order.count - 1, through: 0, by: -1) {
            let factor = order[depth]
            reservedAfter[depth] = reservedAfter[depth + 1] + (fixed[factor].map { isNegative(factor, $0) ? 1 : 0 } ?? 0)
        }
        // choice[d]: the level tried at depth d (-1: none yet).
        var choice = [Int](repeating: -1, count: order.count)
        var depth = 0
        while depth >= 0 {
            if depth == order.count { return true }
            let factor = order[depth]
            // Leave the level tried before at this depth.
            if choice[depth] >= 0 {
                if isNegative(factor, choice[depth]) { negatives -= 1 }
                row[factor] = fixed[factor] ?? -1
            }
            var level = choice[depth] + 1
            var found = false
            while level < levelCounts[factor] {
                if let value = fixed[factor], value != level {
                    if level > value { break }
                    level = value
                    continue
                }
                let counts = isNegative(factor, level) ? 1 : 0
                if negatives + counts + reservedAfter[depth + 1] <= allowedNegatives {
                    row[factor] = level
                    if closing[depth].allSatisfy({ constraints[$0].isSatisfied(by: row) }) {
                        negatives += counts
                        found = true
                        break
                    }
                    row[factor] = fixed[factor] ?? -1
                }
                level += 1
            }
            if found {
                choice[depth] = level
                depth += 1
            } else {
                choice[depth] = -1
                depth -= 1
            }
        }
        return false
    }
}
