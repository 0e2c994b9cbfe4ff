/// Everything the generator and the optimiser share about one model at one strength: the tuple
/// numbering, which tuples are required (they occur in some valid row), and the constraint solver.
final class CoverageProblem {
    let model: CoverageModel
    let space: TupleSpace
    let solver: ConstraintSolver
    let levelCounts: [Int]
    let strength: Int
    /// 1 for every tuple that occurs in at least one valid complete row.
    let required: [UInt8]
    let requiredCount: Int
    /// For strength 2: per ordered factor pair (g, f), flattened g*k+f, the tuple id of (g=0, f=0)
    /// and the multipliers of g's and f's levels.
    let pairBase: [Int]
    let pairOther: [Int]
    let pairSelf: [Int]

    init(model: CoverageModel, strength: Int) throws(ModelError) {
        guard !model.factors.isEmpty else { throw ModelError("the model has no factors") }
        for factor in model.factors where factor.levels.isEmpty {
            throw ModelError("factor '\(factor.name)' has no values")
        }
        guard (1...4).contains(strength) else { throw ModelError("the strength must be from 1 to 4, not \(strength)") }
        guard strength <= model.factors.count else {
            throw ModelError("the strength (\(strength)) is larger than the number of factors (\(model.factors.count))")
        }
        self.model = model
        self.strength = strength
        self.levelCounts = model.levelCounts
        let space = try TupleSpace(levelCounts: levelCounts, strength: strength)
        self.space = space
        let solver = try ConstraintSolver(model: model)
        self.solver = solver

        var required = [UInt8](repeating: 1, count: space.tupleCount)
        if solver.hasConstraints {
            let satisfiable = solver.isExtendable([Int](repeating: -1, count: levelCounts.count))
            var row = [Int](repeating: -1, count: levelCounts.count)
            for combination in 0..<space.combinationCount {
                let members = (0..<strength).map { space.factors[combination * strength + $0] }
                let start = space.base[combination]
                let end = space.base[combination + 1]
                if !members.contains(where: { solver.isConstrained[$0] }) {
                    if !satisfiable { for id in start..<end { required[id] = 0 } }
                    continue
                }
                for id in start..<end {
                    for (factor, level) in space.decode(id) { row[factor] = level }
                    if !solver.isExtendable(row) { required[id] = 0 }
                }
                for factor in members { row[factor] = -1 }
            }
        }
        self.required = required
        self.requiredCount = required.reduce(0) { $0 + Int($1) }

        let k = levelCounts.count
        var pairBase = [Int]()
        var pairOther = [Int]()
        var pairSelf = [Int]()
        if strength == 2 {
            pairBase = [Int](repeating: 0, count: k * k)
            pairOther = pairBase
            pairSelf = pairBase
            for combination in 0..<space.combinationCount {
                let a = space.factors[combination * 2]
                let b = space.factors[combination * 2 + 1]
                let base = space.base[combination]
                // (a, b): a's multiplier is levels(b), b's is 1.
                pairBase[a * k + b] = base
                pairOther[a * k + b] = levelCounts[b]
                pairSelf[a * k + b] = 1
                pairBase[b * k + a] = base
                pairOther[b * k + a] = 1
                pairSelf[b * k + a] = levelCounts[b]
            }
        }
        self.pairBase = pairBase
        self.pairOther = pairOther
        self.pairSelf = pairSelf
    }

    var factorCount: Int { levelCounts.count }
}
