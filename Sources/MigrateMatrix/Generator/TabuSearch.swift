import MigrateSupport

// Tabu search for pairwise arrays, in the manner of TCA (Lin et al., "TCA: An Efficient Two-Mode
// Meta-Heuristic Algorithm for Combinatorial Test Generation", ASE 2015). Where the annealer samples
// three rows for each move and accepts a worse array by chance, a tabu move weighs every row: it takes
// a missing pair and sets it in the row where doing so loses the fewest other pairs, never changing a
// cell changed in the last few moves back at once. It needs hundreds of moves where the annealer needs
// tens of thousands, and finds smaller arrays on wide models (4^15 3^17 2^29: 30 rows against 32).
//
// A move weighs a row in a few steps: what changing a cell would lose is kept up to date for every
// cell (`SoleCoverage`), and what it would gain is read from the short list of missing pairs. The choices
// are those of weighing each row against every other factor, which this replaced (November 2026, the
// 2-core reference machine: 4^15 3^17 2^29 from 9–13 to 4 ms in all, the same rows, byte for byte).
//
// Tried and measured before settling on this: weighing 6 or 10 sampled rows instead of all made
// 4^15 3^17 2^29 three times faster but gave it 33–34 rows; keeping each row's losses up to date by
// searching the rows for a pair's owner on every change was no faster than weighing every row.
extension Annealer {
    /// How many tabu moves `work` buys over `rows` rows of `factors` factors: a move weighs up to two
    /// cells in every row, each counted as if weighed against the other factors (the scan the kept
    /// counts replaced, so that the budget buys the moves it bought then).
    static func tabuMovesAffordable(rows: Int, factors: Int, work: Int) -> Int {
        work / max(1, 2 * rows * max(factors - 1, 1))
    }

    /// Shrinks complete pairwise `rows`: drops the row that covers the fewest pairs alone, repairs the
    /// array with tabu moves, and repeats until a repair fails within `movesPerRepair` moves, `work`
    /// (the annealer's unit: tuple-count updates and look-ups) runs out, or `lowerBound` is reached.
    /// Returns the smallest complete array found: `rows` itself when no row could go.
    ///
    /// Strength 2 only; seed cells stay as they are, and a move that would break a constraint is undone.
    func tabuShrink(
        _ rows: [[Int]], movesPerRepair: Int, work budget: Int, lowerBound: Int, random: inout SeededGenerator
    ) -> [[Int]] {
        precondition(problem.strength == 2, "tabu moves are written for pairs")
        var best = rows
        guard !rows.isEmpty else { return best }
        let state = CoverageState(tables: tables, capacity: rows.count, frozenRows: frozen.count)
        state.load(rows)
        guard state.missingCount == 0 else { return best }
        let k = state.k
        let hasConstraints = problem.solver.hasConstraints
        let frozenRows = frozen.count
        let capacity = rows.count
        let coverage = SoleCoverage(state: state, capacity: capacity)
        let columns = coverage.columns
        let sole = coverage.sole
        // When each cell last changed, by move, column by column: a cell changed within `tenure` moves stays.
        let lastChanged = UnsafeMutablePointer<Int>.allocate(capacity: capacity * k)
        let changed = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        let previous = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        // Per row, the missing pairs f (or g) would cover at the target's level.
        let gainF = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let gainG = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let scores = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        defer {
            scores.deallocate()
            lastChanged.deallocate()
            changed.deallocate()
            previous.deallocate()
            gainF.deallocate()
            gainG.deallocate()
        }
        let pairs = tables.pairs!
        let counts = state.counts
        let updatesPerCell = tables.updatesPerCell
        /// Whether the move may not set `factor` to `level` in `row`: the cell belongs to a seed row and
        /// holds another value.
        func isSeedCell(_ row: Int, _ factor: Int, other level: Int) -> Bool {
            row < frozenRows && frozen[row][factor] && Int(columns[factor * capacity + row]) != level
        }
        /// Adds one to `gains` in each row whose `factor` is at `level`.
        func count(_ gains: UnsafeMutablePointer<Int32>, _ factor: Int32, _ level: Int32, rows: Int) {
            let column = columns + Int(factor) * capacity
            for row in 0..<rows where column[row] == level { gains[row] &+= 1 }
        }
        let tenure = 4
        var move = tenure
        state.work = 0
        while best.count > max(frozenRows, 1, lowerBound) && state.work < budget {
            // The row whose pairs the fewest others also cover.
            if let dropped = state.cheapestRow(skipping: frozenRows, random: &random, loss: coverage.loss) { coverage.removeRow(dropped) }
            let rowCount = state.rowCount
            lastChanged.initialize(repeating: 0, count: capacity * k)
            var moves = 0
            while state.missingCount > 0 && moves < movesPerRepair && state.work < budget {
                moves += 1
                move += 1
                let target = state.missing[Int(random.next() % UInt64(state.missingCount))]
                let entry = pairs + target &* PairEntry.width
                let f = Int(entry[PairEntry.factorA])
                let a = Int(entry[PairEntry.levelA])
                let g = Int(entry[PairEntry.factorB])
                let b = Int(entry[PairEntry.levelB])
                var bestRow = -1
                // One move in twenty goes to a random row: the tabu list alone can cycle.
                if random.next() % 20 == 0 {
                    bestRow = Int(random.next() % UInt64(rowCount))
                    if isSeedCell(bestRow, f, other: a) || isSeedCell(bestRow, g, other: b) { continue }
                } else {
                    // Per row, the missing pairs setting f to a (or g to b) would cover besides the
                    // target: the missing pairs with f at a whose other cell the row already has.
                    gainF.initialize(repeating: 0, count: rowCount)
                    gainG.initialize(repeating: 0, count: rowCount)
                    let f32 = Int32(f)
                    let a32 = Int32(a)
                    let g32 = Int32(g)
                    let b32 = Int32(b)
                    for index in 0..<state.missingCount {
                        let pair = pairs + state.missing[index] &* PairEntry.width
                        let (x, levelX, y, levelY) = (
                            pair[PairEntry.factorA], pair[PairEntry.levelA], pair[PairEntry.factorB], pair[PairEntry.levelB]
                        )
                        if x == f32 && levelX == a32 && y != g32 {
                            count(gainF, y, levelY, rows: rowCount)
                        } else if y == f32 && levelY == a32 && x != g32 {
                            count(gainF, x, levelX, rows: rowCount)
                        }
                        if x == g32 && levelX == b32 && y != f32 {
                            count(gainG, y, levelY, rows: rowCount)
                        } else if y == g32 && levelY == b32 && x != f32 {
                            count(gainG, x, levelX, rows: rowCount)
                        }
                    }
                    let columnF = columns + f * capacity
                    let columnG = columns + g * capacity
                    let soleF = sole + f * capacity
                    let soleG = sole + g * capacity
                    let lastF = lastChanged + f * capacity
                    let lastG = lastChanged + g * capacity
                    // The pair of the row's old values of f and g, lost if the row alone covers it.
                    let slot = f * k + g
                    let oldPairBase = tables.pairBase[slot]
                    let oldPairG = tables.pairOther[slot]
                    let oldPairF = tables.pairSelf[slot]
                    let recent = move - tenure
                    var weighed = 0
                    // First every row's score, without branches (a row the tabu list or a seed keeps
                    // from the move scores `Int.min`); then the best, ties broken at random in row order.
                    for row in 0..<rowCount {
                        let oldF = Int(columnF[row])
                        let oldG = Int(columnG[row])
                        let weighsF = bit(oldF != a)
                        let weighsG = bit(oldG != b)
                        let tabu = (weighsF & bit(lastF[row] > recent)) | (weighsG & bit(lastG[row] > recent))
                        // Pairs covered minus pairs lost: the target, each changed cell's pairs with the
                        // rest of the row, and the old pair of the two. Work is counted per cell weighed,
                        // as if each were weighed against every other factor.
                        let oldPair = bit(counts[oldPairBase &+ oldG &* oldPairG &+ oldF &* oldPairF] == 1)
                        let lossF = (Int(soleF[row]) &- oldPair &- Int(gainF[row])) & (0 &- weighsF)
                        let lossG = (Int(soleG[row]) &- oldPair &- Int(gainG[row])) & (0 &- weighsG)
                        weighed &+= (weighsF &+ weighsG) & (tabu &- 1)
                        let score = 1 &- oldPair &- lossF &- lossG
                        scores[row] = tabu != 0 ? Int.min : score
                    }
                    if frozenRows > 0 {
                        for row in 0..<min(frozenRows, rowCount) where isSeedCell(row, f, other: a) || isSeedCell(row, g, other: b) {
                            if scores[row] != Int.min {
                                weighed &-= bit(Int(columnF[row]) != a) &+ bit(Int(columnG[row]) != b)
                                scores[row] = Int.min
                            }
                        }
                    }
                    var bestScore = Int.min
                    var ties = 0
                    for row in 0..<rowCount {
                        let score = scores[row]
                        if score == Int.min { continue }
                        if score > bestScore {
                            bestScore = score
                            bestRow = row
                            ties = 1
                        } else if score == bestScore {
                            ties += 1
                            if random.next() % UInt64(ties) == 0 { bestRow = row }
                        }
                    }
                    state.work &+= weighed &* updatesPerCell
                    if bestRow < 0 { continue }
                }
                let cells = state.cells + bestRow * k
                var count = 0
                if cells[f] != a {
                    changed[count] = f
                    previous[count] = cells[f]
                    coverage.setCell(bestRow, f, to: a)
                    count += 1
                }
                if cells[g] != b {
                    changed[count] = g
                    previous[count] = cells[g]
                    coverage.setCell(bestRow, g, to: b)
                    count += 1
                }
                if hasConstraints && !problem.solver.isValid(row: cells, changed: changed, count: count) {
                    for index in stride(from: count - 1, through: 0, by: -1) {
                        coverage.setCell(bestRow, changed[index], to: previous[index])
                    }
                    continue
                }
                for index in 0..<count { lastChanged[changed[index] * capacity + bestRow] = move }
            }
            if state.missingCount > 0 { break }
            best = state.rowsArray
        }
        return best
    }
}
