import MigrateSupport

// Tabu search for pairwise arrays, in the manner of TCA (Lin et al., "TCA: An Efficient Two-Mode
// Meta-Heuristic Algorithm for Combinatorial Test Generation", ASE 2015). Where the annealer samples
// three rows for each move and accepts a worse array by chance, a tabu move weighs every row: it takes
// a missing pair and sets it in the row where doing so loses the fewest other pairs, never changing a
// cell changed in the last few moves back at once. It needs hundreds of moves where the annealer needs
// tens of thousands, and finds smaller arrays on wide models (4^15 3^17 2^29: 30 rows against 32).
//
// Tried and measured before settling on this (November 2026, the 2-core reference machine): weighing 6 or
// 10 sampled rows instead of all made 4^15 3^17 2^29 three times faster but gave it 33–34 rows; keeping
// each row's exact losses up to date between moves made the same choices no faster; counting a row's
// gains from the list of missing pairs and stopping its losses once it can't win (the same choices too)
// took wide models from 10 to 7.5 ms but small ones from 1.9 to 3.5 ms. Weighing the rows one other
// factor at a time, over a copy of the cells by column, made the same choices 10–20% faster: kept.
extension Annealer {
    /// How many tabu moves `work` buys over `rows` rows of `factors` factors: a move weighs up to two
    /// cells in every row, each against the other factors.
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
        let state = State(tables: tables, capacity: rows.count, frozenRows: frozen.count)
        state.load(rows)
        guard state.missingCount == 0 else { return best }
        let k = state.k
        let hasConstraints = problem.solver.hasConstraints
        let frozenRows = frozen.count
        // When each cell last changed, by move: a cell changed within `tenure` moves stays.
        let lastChanged = UnsafeMutablePointer<Int>.allocate(capacity: rows.count * k)
        let changed = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        let previous = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        // The cells column by column, and each row's change in missing pairs if f (or g) took the
        // target's level: a move weighs every row one other factor at a time, so that factor's table
        // entries stay in registers and the rows' cells are read in order.
        let capacity = rows.count
        let columns = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * k)
        let deltaF = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let deltaG = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        defer {
            lastChanged.deallocate()
            changed.deallocate()
            previous.deallocate()
            columns.deallocate()
            deltaF.deallocate()
            deltaG.deallocate()
        }
        let counts = state.counts
        let updatesPerCell = tables.updatesPerCell
        /// Whether the move may not set `factor` to `level` in `row`: the cell belongs to a seed row and
        /// holds another value.
        func isSeedCell(_ row: Int, _ factor: Int, other level: Int) -> Bool {
            row < frozenRows && frozen[row][factor] && Int(columns[factor * capacity + row]) != level
        }
        let tenure = 4
        var move = tenure
        state.work = 0
        while best.count > max(frozenRows, 1, lowerBound) && state.work < budget {
            state.removeCheapestRow(skipping: frozenRows, random: &random)
            let rowCount = state.rowCount
            lastChanged.initialize(repeating: 0, count: rowCount * k)
            for row in 0..<rowCount {
                for factor in 0..<k { columns[factor * capacity + row] = Int32(state.cells[row * k + factor]) }
            }
            var moves = 0
            while state.missingCount > 0 && moves < movesPerRepair && state.work < budget {
                moves += 1
                move += 1
                let target = state.missing[Int(random.next() % UInt64(state.missingCount))]
                let entry = tables.pairs! + target &* 4
                let f = Int(entry[0])
                let a = Int(entry[1])
                let g = Int(entry[2])
                let b = Int(entry[3])
                var bestRow = -1
                // One move in twenty goes to a random row: the tabu list alone can cycle.
                if random.next() % 20 == 0 {
                    bestRow = Int(random.next() % UInt64(rowCount))
                    if isSeedCell(bestRow, f, other: a) || isSeedCell(bestRow, g, other: b) { continue }
                } else {
                    // Per row: the pairs f's change (and g's) would lose minus those it would cover,
                    // over the other factors; the same counts a row-by-row scan reads.
                    deltaF.initialize(repeating: 0, count: rowCount)
                    deltaG.initialize(repeating: 0, count: rowCount)
                    let columnF = columns + f * capacity
                    let columnG = columns + g * capacity
                    for other in 0..<k where other != f && other != g {
                        let column = columns + other * capacity
                        let slotF = f * k + other
                        let baseF = tables.pairBase[slotF]
                        let otherF = tables.pairOther[slotF]
                        let selfF = tables.pairSelf[slotF]
                        let slotG = g * k + other
                        let baseG = tables.pairBase[slotG]
                        let otherG = tables.pairOther[slotG]
                        let selfG = tables.pairSelf[slotG]
                        let newF = baseF &+ a &* selfF
                        let newG = baseG &+ b &* selfG
                        for row in 0..<rowCount {
                            let level = Int(column[row])
                            let pairF = level &* otherF
                            let pairG = level &* otherG
                            let lostF: Int32 = counts[baseF &+ pairF &+ Int(columnF[row]) &* selfF] == 1 ? 1 : 0
                            let gainedF: Int32 = counts[newF &+ pairF] == 0 ? 1 : 0
                            let lostG: Int32 = counts[baseG &+ pairG &+ Int(columnG[row]) &* selfG] == 1 ? 1 : 0
                            let gainedG: Int32 = counts[newG &+ pairG] == 0 ? 1 : 0
                            deltaF[row] &+= lostF &- gainedF
                            deltaG[row] &+= lostG &- gainedG
                        }
                    }
                    var bestScore = Int.min
                    var ties = 0
                    for row in 0..<rowCount {
                        let oldF = Int(columnF[row])
                        let oldG = Int(columnG[row])
                        let recent = move - tenure
                        if (oldF != a && lastChanged[row * k + f] > recent) || isSeedCell(row, f, other: a) { continue }
                        if (oldG != b && lastChanged[row * k + g] > recent) || isSeedCell(row, g, other: b) { continue }
                        // Pairs covered minus pairs lost: the target, each changed cell's pairs with the
                        // rest of the row, and the old pair of the two. Work is counted per cell weighed.
                        var score = 1
                        if oldF != a {
                            score &-= Int(deltaF[row])
                            state.work &+= updatesPerCell
                        }
                        if oldG != b {
                            score &-= Int(deltaG[row])
                            state.work &+= updatesPerCell
                        }
                        if state.pairCount(f, oldF, g, oldG) == 1 { score &-= 1 }
                        if score > bestScore {
                            bestScore = score
                            bestRow = row
                            ties = 1
                        } else if score == bestScore {
                            ties += 1
                            if random.next() % UInt64(ties) == 0 { bestRow = row }
                        }
                    }
                    if bestRow < 0 { continue }
                }
                let cells = state.cells + bestRow * k
                var count = 0
                if cells[f] != a {
                    changed[count] = f
                    previous[count] = cells[f]
                    state.setCell(bestRow, f, from: cells[f], to: a)
                    count += 1
                }
                if cells[g] != b {
                    changed[count] = g
                    previous[count] = cells[g]
                    state.setCell(bestRow, g, from: cells[g], to: b)
                    count += 1
                }
                if hasConstraints && !problem.solver.isValid(row: cells, changed: changed, count: count) {
                    for index in stride(from: count - 1, through: 0, by: -1) {
                        state.setCell(bestRow, changed[index], from: cells[changed[index]], to: previous[index])
                    }
                    continue
                }
                for index in 0..<count {
                    lastChanged[bestRow * k + changed[index]] = move
                    columns[changed[index] * capacity + bestRow] = Int32(cells[changed[index]])
                }
            }
            if state.missingCount > 0 { break }
            best = state.rowsArray
        }
        return best
    }
}
