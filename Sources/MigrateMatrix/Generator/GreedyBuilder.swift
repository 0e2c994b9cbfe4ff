import MigrateSupport

/// Builds a covering array one row at a time (in the manner of AETG): each row starts from an
/// uncovered tuple, then every other factor gets the value that covers the most new tuples with
/// the factors already placed, ties broken at random. Several candidate rows compete for each slot.
struct GreedyBuilder {
    let problem: CoverageProblem
    let candidates: Int
    /// The problem's solver, or a copy of it for a build on another thread (see `ConstraintSolver.copy`).
    var solver: ConstraintSolver

    init(problem: CoverageProblem, candidates: Int, solver: ConstraintSolver? = nil) {
        self.problem = problem
        self.candidates = candidates
        self.solver = solver ?? problem.solver
    }

    /// Builds rows until every required tuple is covered. `seeds` are rows the user requires
    /// (-1 where any value will do); they come first, completed greedily.
    func build(seeds: [[Int]], random: inout SeededGenerator) -> [[Int]] {
        let k = problem.factorCount
        let solver = solver
        var uncovered = problem.required
        var uncoveredCount = problem.requiredCount
        var rows: [[Int]] = []
        var scratch = Scratch(problem: problem)
        let widest = problem.levelCounts.max() ?? 1
        // For strength 2: per factor f, level v and other factor g, how many levels of g still
        // form an uncovered required pair with f=v (flattened (f*widest+v)*k+g). It steers each
        // value towards rows that leave the most pairs for the factors not placed yet.
        var pairsLeft = [Int32]()
        if problem.strength == 2 {
            pairsLeft = [Int32](repeating: 0, count: k * widest * k)
            for a in 0..<k {
                for b in 0..<k where a != b {
                    let slot = a * k + b
                    for levelA in 0..<problem.levelCounts[a] {
                        for levelB in 0..<problem.levelCounts[b] {
                            let id = problem.pairBase[slot] + levelA * problem.pairOther[slot] + levelB * problem.pairSelf[slot]
                            if uncovered[id] != 0 { pairsLeft[(a * widest + levelA) * k + b] += 1 }
                        }
                    }
                }
            }
        }

        // The uncovered tuples as bits too, to find the next one 64 ids at a time.
        let words = (problem.space.tupleCount + 63) / 64
        var uncoveredBits = [UInt64](repeating: 0, count: max(words, 1))
        for id in 0..<problem.space.tupleCount where uncovered[id] != 0 { uncoveredBits[id >> 6] |= 1 << UInt64(id & 63) }

        func commit(_ row: [Int]) {
            if problem.strength == 2 {
                for a in 0..<k {
                    for b in (a + 1)..<k where b < k {
                        let slot = a * k + b
                        let id = problem.pairBase[slot] + row[a] * problem.pairOther[slot] + row[b] * problem.pairSelf[slot]
                        if uncovered[id] != 0 {
                            uncovered[id] = 0
                            uncoveredBits[id >> 6] &= ~(1 << UInt64(id & 63))
                            uncoveredCount -= 1
                            pairsLeft[(a * widest + row[a]) * k + b] -= 1
                            pairsLeft[(b * widest + row[b]) * k + a] -= 1
                        }
                    }
                }
            } else {
                row.withUnsafeBufferPointer { pointer in
                    problem.space.forEachTuple(in: pointer) { id in
                        if uncovered[id] != 0 {
                            uncovered[id] = 0
                            uncoveredBits[id >> 6] &= ~(1 << UInt64(id & 63))
                            uncoveredCount -= 1
                        }
                    }
                }
            }
            rows.append(row)
        }

        for seed in seeds {
            let row = scratch.complete(seed, uncovered: uncovered, pairsLeft: pairsLeft, solver: solver, random: &random).row
            commit(row)
        }
        let total = problem.space.tupleCount
        // Reused by every candidate: on a small model two arrays made for each one are a good part of
        // the time completing it takes.
        var start = [Int](repeating: -1, count: k)
        var decoded: [(factor: Int, level: Int)] = []
        while uncoveredCount > 0 {
            var best: (row: [Int], gain: Int)?
            for _ in 0..<candidates {
                // A random uncovered tuple to start from: the first at or after a random id, wrapping.
                let from = Int(random.next() % UInt64(total))
                var word = from >> 6
                var bits = uncoveredBits[word] & (~0 << UInt64(from & 63))
                while bits == 0 {
                    word = word + 1 == words ? 0 : word + 1
                    bits = uncoveredBits[word]
                }
                let id = word << 6 + bits.trailingZeroBitCount
                problem.space.decode(id, into: &decoded)
                for (factor, level) in decoded { start[factor] = level }
                var candidate = scratch.complete(start, uncovered: uncovered, pairsLeft: pairsLeft, solver: solver, random: &random)
                candidate.gain += 1
                for (factor, _) in decoded { start[factor] = -1 }
                if best == nil || candidate.gain > best!.gain { best = candidate }
            }
            commit(best!.row)
        }
        return rows
    }

    /// Reusable buffers for completing rows.
    struct Scratch {
        let problem: CoverageProblem
        var scores: [Int]
        var density: [Double]
        var isPlaced: [Bool]
        var order: [Int] = []
        var fixed: [Int] = []
        var ties: [Int] = []

        /// The problem's tables that scoring reads for every value, held here so that a call takes
        /// none of them from the problem (each taking costs a retain and a release).
        let levelCounts: [Int]
        let choose: [Int]
        let base: [Int]
        let multipliers: [Int]
        let pairBase: [Int]
        let pairOther: [Int]
        let pairSelf: [Int]

        init(problem: CoverageProblem) {
            self.problem = problem
            self.levelCounts = problem.levelCounts
            self.choose = problem.space.choose
            self.base = problem.space.base
            self.multipliers = problem.space.multipliers
            self.pairBase = problem.pairBase
            self.pairOther = problem.pairOther
            self.pairSelf = problem.pairSelf
            self.scores = [Int](repeating: 0, count: problem.levelCounts.max() ?? 1)
            self.density = [Double](repeating: 0, count: problem.levelCounts.max() ?? 1)
            self.isPlaced = [Bool](repeating: false, count: problem.factorCount)
            self.inverseLevels = problem.levelCounts.map { 1 / Double($0) }
        }

        let inverseLevels: [Double]
        /// The factors not placed yet, ascending.
        var unplaced: [Int] = []

        /// Fills the unassigned factors of `start` greedily; `gain` counts the new tuples completed
        /// by the values placed here (not those among the start's own values).
        mutating func complete(
            _ start: [Int], uncovered: [UInt8], pairsLeft: [Int32], solver: ConstraintSolver, random: inout SeededGenerator
        ) -> (row: [Int], gain: Int) {
            let k = problem.factorCount
            let widest = scores.count
            var row = start
            for factor in 0..<k { isPlaced[factor] = row[factor] >= 0 }
            fixed.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            for factor in 0..<k {
                if row[factor] >= 0 { fixed.append(factor) } else { order.append(factor) }
            }
            // Fisher–Yates with the seeded generator, so runs repeat exactly.
            if order.count > 1 {
                for index in stride(from: order.count - 1, to: 0, by: -1) {
                    let other = Int(random.next() % UInt64(index + 1))
                    order.swapAt(index, other)
                }
            }
            var gain = 0
            let strength = problem.strength
            unplaced.removeAll(keepingCapacity: true)
            for factor in 0..<k where !isPlaced[factor] { unplaced.append(factor) }
            for factor in order {
                let levels = levelCounts[factor]
                for level in 0..<levels { scores[level] = 0 }
                if strength == 2 {
                    scorePairs(factor: factor, row: row, uncovered: uncovered)
                    // Density: the pairs this value could still complete with the factors not placed yet,
                    // each expected with probability 1/levels (Bryce and Colbourn's density algorithm).
                    // Over the factors still to place, in ascending order as always (the sum, and so the
                    // choice, stays the same to the last bit), without bounds checks: this loop is most of
                    // the work on wide plans.
                    pairsLeft.withUnsafeBufferPointer { pairsLeft in
                        unplaced.withUnsafeBufferPointer { unplaced in
                            inverseLevels.withUnsafeBufferPointer { inverseLevels in
                                density.withUnsafeMutableBufferPointer { density in
                                    // Four levels at a time, each its own sum: the same additions in the
                                    // same order, but four chains in flight instead of one. A level past
                                    // the last repeats it, and its sum is dropped.
                                    var level = 0
                                    while level < levels {
                                        let row = (factor * widest + level) * k
                                        let base0 = row
                                        let base1 = level + 1 < levels ? row + k : row
                                        let base2 = level + 2 < levels ? row + 2 * k : row
                                        let base3 = level + 3 < levels ? row + 3 * k : row
                                        var expected0 = 0.0
                                        var expected1 = 0.0
                                        var expected2 = 0.0
                                        var expected3 = 0.0
                                        for other in unplaced where other != factor {
                                            let inverse = inverseLevels[other]
                                            expected0 += Double(pairsLeft[base0 + other]) * inverse
                                            expected1 += Double(pairsLeft[base1 + other]) * inverse
                                            expected2 += Double(pairsLeft[base2 + other]) * inverse
                                            expected3 += Double(pairsLeft[base3 + other]) * inverse
                                        }
                                        density[level] = expected0
                                        if level + 1 < levels { density[level + 1] = expected1 }
                                        if level + 2 < levels { density[level + 2] = expected2 }
                                        if level + 3 < levels { density[level + 3] = expected3 }
                                        level += 4
                                    }
                                }
                            }
                        }
                    }
                } else if strength == 1 {
                    let base = self.base[factor]
                    for level in 0..<levels { scores[level] = Int(uncovered[base + level]) }
                } else if fixed.count >= strength - 1 {
                    scoreTuples(factor: factor, row: row, uncovered: uncovered)
                }
                var bestScore = -1.0
                var bestGain = 0
                ties.removeAll(keepingCapacity: true)
                for level in 0..<levels {
                    let score = Double(scores[level]) + (strength == 2 ? density[level] : 0)
                    if score < bestScore { continue }
                    if solver.isConstrained[factor] {
                        row[factor] = level
                        let possible = solver.isExtendable(row)
                        row[factor] = -1
                        if !possible { continue }
                    }
                    if score > bestScore {
                        bestScore = score
                        ties.removeAll(keepingCapacity: true)
                    }
                    ties.append(level)
                }
                // An extendable row always has some value that keeps it extendable.
                let choice = ties.count == 1 ? ties[0] : ties[Int(random.next() % UInt64(ties.count))]
                row[factor] = choice
                bestGain = scores[choice]
                gain += bestGain
                isPlaced[factor] = true
                if let index = unplaced.firstIndex(of: factor) { unplaced.remove(at: index) }
                insertSorted(factor)
            }
            return (row, gain)
        }

        private mutating func insertSorted(_ factor: Int) {
            var position = fixed.count
            fixed.append(factor)
            while position > 0 && fixed[position - 1] > factor {
                fixed[position] = fixed[position - 1]
                position -= 1
            }
            fixed[position] = factor
        }

        private mutating func scorePairs(factor: Int, row: [Int], uncovered: [UInt8]) {
            let k = levelCounts.count
            let levels = levelCounts[factor]
            scores.withUnsafeMutableBufferPointer { scores in
                uncovered.withUnsafeBufferPointer { uncovered in
                    pairBase.withUnsafeBufferPointer { pairBase in
                        pairOther.withUnsafeBufferPointer { pairOther in
                            pairSelf.withUnsafeBufferPointer { pairSelf in
                                // Four levels at a time in registers (integer sums: the order doesn't matter);
                                // a level past the last reads the first again and is dropped.
                                var level = 0
                                while level < levels {
                                    let next1 = level + 1 < levels ? 1 : 0
                                    let next2 = level + 2 < levels ? 2 : 0
                                    let next3 = level + 3 < levels ? 3 : 0
                                    var sum0 = 0
                                    var sum1 = 0
                                    var sum2 = 0
                                    var sum3 = 0
                                    for other in fixed {
                                        let slot = other &* k &+ factor
                                        let step = pairSelf[slot]
                                        let base = pairBase[slot] &+ row[other] &* pairOther[slot] &+ level &* step
                                        sum0 &+= Int(uncovered[base])
                                        sum1 &+= Int(uncovered[base &+ next1 &* step])
                                        sum2 &+= Int(uncovered[base &+ next2 &* step])
                                        sum3 &+= Int(uncovered[base &+ next3 &* step])
                                    }
                                    scores[level] &+= sum0
                                    if next1 != 0 { scores[level + 1] &+= sum1 }
                                    if next2 != 0 { scores[level + 2] &+= sum2 }
                                    if next3 != 0 { scores[level + 3] &+= sum3 }
                                    level += 4
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Strength 3: every pair of placed factors together with `factor`, ranked and indexed
        /// directly (most of the work on wide 3-wise models). The same sums as the general loop:
        /// integers added in another order.
        private mutating func scoreTriples(factor: Int, row: [Int], uncovered: [UInt8]) {
            let levels = levelCounts[factor]
            let stride = levelCounts.count + 1
            let m = fixed.count
            scores.withUnsafeMutableBufferPointer { scores in
                uncovered.withUnsafeBufferPointer { uncovered in
                    choose.withUnsafeBufferPointer { choose in
                        base.withUnsafeBufferPointer { base in
                            levelCounts.withUnsafeBufferPointer { counts in
                                fixed.withUnsafeBufferPointer { fixed in
                                    row.withUnsafeBufferPointer { row in
                                        let c1 = choose.baseAddress! + stride
                                        let c2 = c1 + stride
                                        let c3 = c2 + stride
                                        let countF = counts[factor]
                                        for i in 0..<m {
                                            let a = fixed[i]
                                            let valueA = row[a]
                                            for j in (i + 1)..<max(i + 1, m) {
                                                let b = fixed[j]
                                                let valueB = row[b]
                                                var id: Int
                                                let step: Int
                                                // Sorted members (m0, m1, m2) have multipliers (L1·L2, L2, 1).
                                                if factor < a {
                                                    id = base[c1[factor] + c2[a] + c3[b]] + valueA * counts[b] + valueB
                                                    step = counts[a] * counts[b]
                                                } else if factor < b {
                                                    id = base[c1[a] + c2[factor] + c3[b]] + valueA * countF * counts[b] + valueB
                                                    step = counts[b]
                                                } else {
                                                    id = base[c1[a] + c2[b] + c3[factor]] + (valueA * counts[b] + valueB) * countF
                                                    step = 1
                                                }
                                                for level in 0..<levels {
                                                    scores[level] &+= Int(uncovered[id])
                                                    id += step
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Strength 4: every three placed factors together with `factor`, ranked from the table of
        /// binomials by column and indexed with the tuple space's multipliers (a general loop over
        /// subsets made two arrays per call and ranked through nested arrays: most of the time on 3^8).
        private mutating func scoreQuadruples(factor: Int, row: [Int], uncovered: [UInt8]) {
            let levels = levelCounts[factor]
            let stride = levelCounts.count + 1
            let m = fixed.count
            guard m >= 3 else { return }
            scores.withUnsafeMutableBufferPointer { scores in
                uncovered.withUnsafeBufferPointer { uncovered in
                    choose.withUnsafeBufferPointer { choose in
                        base.withUnsafeBufferPointer { base in
                            multipliers.withUnsafeBufferPointer { multipliers in
                                fixed.withUnsafeBufferPointer { fixed in
                                    row.withUnsafeBufferPointer { row in
                                        let c1 = choose.baseAddress! + stride
                                        let c2 = c1 + stride
                                        let c3 = c2 + stride
                                        let c4 = c3 + stride
                                        for i in 0..<(m - 2) {
                                            let a = fixed[i]
                                            for j in (i + 1)..<(m - 1) {
                                                let b = fixed[j]
                                                for l in (j + 1)..<m {
                                                    let c = fixed[l]
                                                    let (combination, position, slots) = TupleSpace.quadruple(
                                                        factor, a, b, c, c1: c1, c2: c2, c3: c3, c4: c4)
                                                    let offset = combination &* 4
                                                    var id =
                                                        base[combination] &+ row[a] &* multipliers[offset &+ slots.a]
                                                        &+ row[b] &* multipliers[offset &+ slots.b] &+ row[c] &* multipliers[offset &+ slots.c]
                                                    let step = multipliers[offset &+ position]
                                                    for level in 0..<levels {
                                                        scores[level] &+= Int(uncovered[id])
                                                        id &+= step
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Strengths 3 and 4 (the strength is 1 to 4): every t − 1 placed factors together with `factor`.
        private mutating func scoreTuples(factor: Int, row: [Int], uncovered: [UInt8]) {
            if problem.strength == 3 {
                scoreTriples(factor: factor, row: row, uncovered: uncovered)
            } else {
                scoreQuadruples(factor: factor, row: row, uncovered: uncovered)
            }
        }
    }
}
