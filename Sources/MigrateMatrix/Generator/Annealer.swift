import Foundation
import MigrateSupport

/// Shrinks a covering array by simulated annealing on a fixed number of rows: drop one row, then
/// change cells to re-cover what is missing, each move aimed at one missing tuple, accepting a
/// worse array now and then to escape local minima. Deterministic for a given generator state.
struct Annealer {
    let problem: CoverageProblem
    /// Cells of seed rows that must not change, per row (only the first `seedCount` rows have any).
    let frozen: [[Bool]]
    /// The problem's tables as raw memory, shared by every round (and by the tabu search).
    let tables: Tables

    init(problem: CoverageProblem, frozen: [[Bool]]) {
        self.problem = problem
        self.frozen = frozen
        self.tables = Tables(problem: problem)
    }

    /// Tries ever smaller arrays, a round for each (drop a row, anneal until nothing is missing),
    /// until `work` (tuple-count updates, a measure of time that does not depend on the machine)
    /// runs out or no smaller array can exist; returns the smallest complete one found.
    ///
    /// `lowerBound` is the fewest rows any array can have (`CoverageBound`): reaching it ends the
    /// search. After `maxFailures` rounds in a row that remove no row it stops too (`stopped`): each
    /// failed round is longer than the last, so the rest of the budget would mostly buy nothing.
    func shrink(
        _ rows: [[Int]], work budget: Int, lowerBound: Int, maxFailures: Int = .max, random: inout SeededGenerator
    ) -> (rows: [[Int]], stopped: Bool) {
        var best = rows
        var remaining = budget
        let attemptLength = max(budget / 4, 100_000)
        var failures = 0
        let state = State(tables: tables, capacity: rows.count, frozenRows: frozen.count)
        // After a round that succeeds the state holds exactly the best rows, with the same counts and
        // an empty missing list, so the next round starts from it instead of counting them again.
        var holdsBest = false
        while remaining > 0 && failures < maxFailures && best.count > max(frozen.count, 1, lowerBound) {
            let length = min(remaining, attemptLength * (1 + failures))
            if !holdsBest { state.load(best) }
            state.removeCheapestRow(skipping: frozen.count, random: &random)
            let used = anneal(state, moves: length, random: &random) + 1
            remaining -= used
            if state.missingCount == 0 {
                best = state.rowsArray
                failures = 0
                holdsBest = true
            } else {
                failures += 1
                holdsBest = false
            }
        }
        return (best, remaining > 0 && failures >= maxFailures)
    }

    /// Returns the work used.
    private func anneal(_ state: State, moves budget: Int, random: inout SeededGenerator) -> Int {
        let startTemperature = 0.6
        let endTemperature = 0.02
        let cooling = log(endTemperature / startTemperature)
        let rowCount = state.rowCount
        let strength = problem.strength
        let k = state.k
        let tables = state.tables
        // The target tuple's factors and levels, and the cells a move changes with their old levels:
        // fixed buffers, since a move is well under a microsecond.
        let tupleFactors = UnsafeMutablePointer<Int>.allocate(capacity: strength)
        let tupleLevels = UnsafeMutablePointer<Int>.allocate(capacity: strength)
        let changeFactors = UnsafeMutablePointer<Int>.allocate(capacity: strength)
        let changeLevels = UnsafeMutablePointer<Int>.allocate(capacity: strength)
        let oldLevels = UnsafeMutablePointer<Int>.allocate(capacity: strength)
        defer {
            tupleFactors.deallocate()
            tupleLevels.deallocate()
            changeFactors.deallocate()
            changeLevels.deallocate()
            oldLevels.deallocate()
        }
        let sampleRows = 3
        let frozenRows = frozen.count
        let hasConstraints = problem.solver.hasConstraints
        state.work = 0
        while state.work < budget {
            if state.missingCount == 0 { break }
            let workAtStart = state.work
            let target = state.missing[Int(random.next() % UInt64(state.missingCount))]
            tables.decode(target, factors: tupleFactors, levels: tupleLevels)
            var bestRow = -1
            var bestEstimate = Int.max
            for _ in 0..<sampleRows {
                let row = Int(random.next() % UInt64(rowCount))
                var blocked = false
                var estimate = 0
                let cells = state.cells + row * k
                for index in 0..<strength {
                    let factor = tupleFactors[index]
                    let level = tupleLevels[index]
                    if cells[factor] == level { continue }
                    if row < frozenRows && frozen[row][factor] { blocked = true }
                    estimate += state.estimate(row, factor, level)
                }
                if !blocked && estimate < bestEstimate {
                    bestEstimate = estimate
                    bestRow = row
                }
            }
            guard bestRow >= 0 else { continue }
            let cells = state.cells + bestRow * k
            var changed = 0
            for index in 0..<strength where cells[tupleFactors[index]] != tupleLevels[index] {
                changeFactors[changed] = tupleFactors[index]
                changeLevels[changed] = tupleLevels[index]
                changed += 1
            }
            let before = state.missingCount
            for index in 0..<changed {
                oldLevels[index] = cells[changeFactors[index]]
                state.setCell(bestRow, changeFactors[index], from: oldLevels[index], to: changeLevels[index])
            }
            let delta = state.missingCount - before
            var accepted = !hasConstraints || problem.solver.isValid(row: cells, changed: changeFactors, count: changed)
            if accepted && delta > 0 {
                // The temperature of the move's start, computed only when a worse array is considered.
                let temperature = startTemperature * exp(cooling * Double(workAtStart) / Double(budget))
                accepted = random.nextUnit() < exp(-Double(delta) / temperature)
            }
            if !accepted {
                for index in stride(from: changed - 1, through: 0, by: -1) {
                    state.setCell(bestRow, changeFactors[index], from: changeLevels[index], to: oldLevels[index])
                }
            }
        }
        return state.work
    }

    /// The problem's tables in raw memory, read by every move.
    final class Tables {
        let k: Int
        let strength: Int
        let tupleCount: Int
        let combinationCount: Int
        /// The counts of an empty array: 0 for a required tuple, `notRequired` for one no valid row has.
        /// No valid row covers such a tuple (a move that would is undone), so its count never falls to
        /// 1 or 0, and "count 0" alone means missing, "count 1" alone means covered once and required.
        let emptyCounts: UnsafeMutablePointer<UInt16>
        static let notRequired: UInt16 = 0x4000
        /// Strength 2: per tuple id, its two factors and their levels (4 entries per tuple), for a move's target.
        let pairs: UnsafeMutablePointer<Int32>?
        /// Strength 2, per factor f and other factor g (flattened f*k+g): the id of the pair (g, f) with
        /// both at level 0, and the multipliers of g's and f's levels.
        let pairBase: UnsafeMutablePointer<Int>
        let pairOther: UnsafeMutablePointer<Int>
        let pairSelf: UnsafeMutablePointer<Int>
        /// The tuple space's tables (see `TupleSpace`).
        let base: UnsafeMutablePointer<Int>
        let factors: UnsafeMutablePointer<Int>
        let multipliers: UnsafeMutablePointer<Int>
        let choose: UnsafeMutablePointer<Int>
        /// Tuple-count updates one cell change costs: the budget's unit. Strength 3 and 4 pay for
        /// ranking each combination: count it as a second update.
        let updatesPerCell: Int
        /// Strengths 3 and 4: the tuples of one cell (C(k − 1, t − 1)).
        let tuplesPerCell: Int
        /// Strengths 3 and 4, when it takes at most `cellTupleLimit` entries: `forEachCellTuple` written
        /// out, 8 numbers per tuple, `tuplesPerCell` tuples per factor. A change reads its tuples in
        /// order instead of ranking each (a third of the time on 2^10 3^5 at strength 3).
        private(set) var cellTuples: UnsafeMutablePointer<Int32>?
        /// With `cellTuples`: the same tuples' combinations and the multipliers of the factor's level,
        /// 2 numbers per tuple, for a state that keeps the id each row covers in each combination.
        private(set) var cellCombinations: UnsafeMutablePointer<Int32>?
        /// At 8 × 4 bytes an entry, 16 MB at most (4^15 3^17 2^29 at strength 3 takes 3.5 MB).
        static let cellTupleLimit = 500_000

        /// `writesCellTuples: false` leaves `cellTuples` out, for tests of the loops without it.
        init(problem: CoverageProblem, writesCellTuples: Bool = true) {
            let k = problem.factorCount
            let space = problem.space
            self.k = k
            self.strength = problem.strength
            self.tupleCount = space.tupleCount
            self.combinationCount = space.combinationCount
            self.updatesPerCell = max(1, space.binomial[k - 1][problem.strength - 1]) * (problem.strength > 2 ? 2 : 1)
            func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
                let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
                _ = array.withUnsafeBufferPointer { UnsafeMutableBufferPointer(start: pointer, count: array.count).initialize(from: $0) }
                return pointer
            }
            self.emptyCounts = copy(problem.required.map { $0 != 0 ? 0 : Self.notRequired })
            if problem.strength == 2 {
                let pairs = UnsafeMutablePointer<Int32>.allocate(capacity: max(space.tupleCount * 4, 1))
                for combination in 0..<space.combinationCount {
                    let a = space.factors[combination * 2]
                    let b = space.factors[combination * 2 + 1]
                    var id = space.base[combination]
                    for levelA in 0..<problem.levelCounts[a] {
                        for levelB in 0..<problem.levelCounts[b] {
                            pairs[id * 4] = Int32(a)
                            pairs[id * 4 + 1] = Int32(levelA)
                            pairs[id * 4 + 2] = Int32(b)
                            pairs[id * 4 + 3] = Int32(levelB)
                            id += 1
                        }
                    }
                }
                self.pairs = pairs
            } else {
                self.pairs = nil
            }
            var pairBase = [Int](repeating: 0, count: problem.strength == 2 ? k * k : 0)
            var pairOther = pairBase
            var pairSelf = pairBase
            if problem.strength == 2 {
                for factor in 0..<k {
                    for other in 0..<k where other != factor {
                        pairBase[factor * k + other] = problem.pairBase[other * k + factor]
                        pairOther[factor * k + other] = problem.pairOther[other * k + factor]
                        pairSelf[factor * k + other] = problem.pairSelf[other * k + factor]
                    }
                }
            }
            self.pairBase = copy(pairBase)
            self.pairOther = copy(pairOther)
            self.pairSelf = copy(pairSelf)
            self.base = copy(space.base)
            self.factors = copy(space.factors)
            self.multipliers = copy(space.multipliers)
            self.choose = copy(space.choose)
            let tuplesPerCell = problem.strength >= 3 ? space.binomial[k - 1][problem.strength - 1] : 0
            self.tuplesPerCell = tuplesPerCell
            let entries = k.multipliedReportingOverflow(by: tuplesPerCell)
            let fits = !entries.overflow && entries.partialValue <= Self.cellTupleLimit
            if writesCellTuples && (problem.strength == 3 || problem.strength == 4) && fits {
                let table = UnsafeMutablePointer<Int32>.allocate(capacity: max(k * tuplesPerCell * 8, 1))
                let combinations = UnsafeMutablePointer<Int32>.allocate(capacity: max(k * tuplesPerCell * 2, 1))
                var entry = table
                var pair = combinations
                for factor in 0..<k {
                    forEachCellTuple(of: factor) { combination, step, a, multiplierA, b, multiplierB, c, multiplierC in
                        pair[0] = Int32(combination)
                        pair[1] = Int32(step)
                        pair += 2
                        entry[0] = Int32(base[combination])
                        entry[1] = Int32(step)
                        entry[2] = Int32(a)
                        entry[3] = Int32(multiplierA)
                        entry[4] = Int32(b)
                        entry[5] = Int32(multiplierB)
                        entry[6] = Int32(c)
                        entry[7] = Int32(multiplierC)
                        entry += 8
                    }
                }
                self.cellTuples = table
                self.cellCombinations = combinations
            }
        }

        /// Strengths 3 and 4: calls `body` with each tuple of `factor` with t − 1 other factors, in
        /// the order of the general loop in `State.setCell` (the other factors ascending,
        /// lexicographically): the tuple's combination (its id with every member at level 0 is
        /// `base[combination]`), the multiplier of
        /// `factor`'s level, and each other factor with the multiplier of its level (at strength 3 the
        /// third is the first again, with multiplier 0).
        @inline(__always)
        func forEachCellTuple(of factor: Int, _ body: (Int, Int, Int, Int, Int, Int, Int, Int) -> Void) {
            let stride = k + 1
            let c1 = choose + stride
            let c2 = c1 + stride
            let c3 = c2 + stride
            if strength == 3 {
                // By the place of `factor` among the three, which fixes each member's multiplier.
                for a in 0..<factor {
                    for b in (a + 1)..<factor {
                        let combination = c1[a] &+ c2[b] &+ c3[factor]
                        let m = multipliers + combination &* 3
                        body(combination, m[2], a, m[0], b, m[1], a, 0)
                    }
                    for b in (factor + 1)..<k {
                        let combination = c1[a] &+ c2[factor] &+ c3[b]
                        let m = multipliers + combination &* 3
                        body(combination, m[1], a, m[0], b, m[2], a, 0)
                    }
                }
                for a in (factor + 1)..<k {
                    for b in (a + 1)..<k {
                        let combination = c1[factor] &+ c2[a] &+ c3[b]
                        let m = multipliers + combination &* 3
                        body(combination, m[0], a, m[1], b, m[2], a, 0)
                    }
                }
                return
            }
            let c4 = c3 + stride
            for a in 0..<k where a != factor {
                for b in (a + 1)..<k where b != factor {
                    for c in (b + 1)..<k where c != factor {
                        let (combination, position, slots) = TupleSpace.quadruple(factor, a, b, c, c1: c1, c2: c2, c3: c3, c4: c4)
                        let m = multipliers + combination &* 4
                        body(combination, m[position], a, m[slots.a], b, m[slots.b], c, m[slots.c])
                    }
                }
            }
        }

        deinit {
            for pointer in [pairBase, pairOther, pairSelf, base, factors, multipliers, choose] { pointer.deallocate() }
            emptyCounts.deallocate()
            pairs?.deallocate()
            cellTuples?.deallocate()
            cellCombinations?.deallocate()
        }

        /// The factors and levels of a tuple id (as `TupleSpace.decode`).
        @inline(__always)
        func decode(_ tuple: Int, factors result: UnsafeMutablePointer<Int>, levels: UnsafeMutablePointer<Int>) {
            if let pairs {
                let entry = pairs + tuple &* 4
                result[0] = Int(entry[0])
                levels[0] = Int(entry[1])
                result[1] = Int(entry[2])
                levels[1] = Int(entry[3])
                return
            }
            var low = 0
            var high = combinationCount - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if base[middle] <= tuple { low = middle } else { high = middle - 1 }
            }
            var rest = tuple - base[low]
            for position in 0..<strength {
                let multiplier = multipliers[low * strength + position]
                result[position] = factors[low * strength + position]
                levels[position] = rest / multiplier
                rest %= multiplier
            }
        }

        /// Calls `body` with the id of every tuple the complete row at `row` covers.
        @inline(__always)
        func forEachTuple(in row: UnsafePointer<Int>, _ body: (Int) -> Void) {
            // Strengths 2 and 3 written out: the loop over a tuple's members cost more than its sums.
            var f = factors
            var m = multipliers
            switch strength {
            case 2:
                for combination in 0..<combinationCount {
                    body(base[combination] &+ row[f[0]] &* m[0] &+ row[f[1]] &* m[1])
                    f += 2
                    m += 2
                }
            case 3:
                for combination in 0..<combinationCount {
                    body(base[combination] &+ row[f[0]] &* m[0] &+ row[f[1]] &* m[1] &+ row[f[2]] &* m[2])
                    f += 3
                    m += 3
                }
            default:
                for combination in 0..<combinationCount {
                    var id = base[combination]
                    for position in 0..<strength { id &+= row[f[position]] &* m[position] }
                    f += strength
                    m += strength
                    body(id)
                }
            }
        }
    }

    /// Rows, how often each tuple is covered, and the list of required tuples no row covers, in raw
    /// memory sized once for the rows the search starts from.
    final class State {
        let tables: Tables
        let k: Int
        let cells: UnsafeMutablePointer<Int>
        let counts: UnsafeMutablePointer<UInt16>
        let missing: UnsafeMutablePointer<Int>
        private(set) var missingCount = 0
        private let positionInMissing: UnsafeMutablePointer<Int32>
        private(set) var rowCount = 0
        let frozenRows: Int
        /// Tuple-count updates done so far: the budget's unit.
        var work = 0
        private let updatesPerCell: Int
        /// Strengths 3 and 4: the tuples an estimate found changing between missing and covered, to
        /// put the missing list back in the order setting and resetting the cell would leave it.
        private let replayLost: UnsafeMutablePointer<Int>
        private let replayGained: UnsafeMutablePointer<Int>
        /// Strengths 3 and 4 with the tables' `cellCombinations`, where it takes at most
        /// `rowTupleLimit` entries: per row, the id of the tuple it covers in each combination, so that
        /// weighing a change reads a tuple's id rather than working it out from the row.
        private let rowTuples: UnsafeMutablePointer<Int32>?
        /// At 4 bytes an entry, 16 MB at most.
        static let rowTupleLimit = 4_000_000

        init(tables: Tables, capacity: Int, frozenRows: Int) {
            self.tables = tables
            self.k = tables.k
            self.frozenRows = frozenRows
            self.updatesPerCell = tables.updatesPerCell
            self.cells = .allocate(capacity: max(capacity * tables.k, 1))
            self.counts = .allocate(capacity: max(tables.tupleCount, 1))
            self.missing = .allocate(capacity: max(tables.tupleCount, 1))
            self.positionInMissing = .allocate(capacity: max(tables.tupleCount, 1))
            positionInMissing.initialize(repeating: -1, count: tables.tupleCount)
            self.replayLost = .allocate(capacity: max(tables.tuplesPerCell, 1))
            self.replayGained = .allocate(capacity: max(tables.tuplesPerCell, 1))
            let entries = capacity.multipliedReportingOverflow(by: tables.combinationCount)
            if tables.cellCombinations != nil && !entries.overflow && entries.partialValue <= Self.rowTupleLimit {
                self.rowTuples = .allocate(capacity: max(entries.partialValue, 1))
            } else {
                self.rowTuples = nil
            }
        }

        deinit {
            cells.deallocate()
            counts.deallocate()
            missing.deallocate()
            positionInMissing.deallocate()
            replayLost.deallocate()
            replayGained.deallocate()
            rowTuples?.deallocate()
        }

        /// Starts again from `rows` (no more than the capacity).
        func load(_ rows: [[Int]]) {
            for index in 0..<missingCount { positionInMissing[missing[index]] = -1 }
            missingCount = 0
            rowCount = rows.count
            for (index, row) in rows.enumerated() {
                for factor in 0..<k { cells[index * k + factor] = row[factor] }
            }
            counts.update(from: tables.emptyCounts, count: tables.tupleCount)
            let combinations = tables.combinationCount
            for index in 0..<rowCount {
                if let rowTuples {
                    var ids = rowTuples + index * combinations
                    tables.forEachTuple(in: cells + index * k) { id in
                        counts[id] &+= 1
                        ids.pointee = Int32(id)
                        ids += 1
                    }
                } else {
                    tables.forEachTuple(in: cells + index * k) { id in counts[id] &+= 1 }
                }
            }
            for id in 0..<tables.tupleCount where counts[id] == 0 { addMissing(id) }
        }

        var rowsArray: [[Int]] { (0..<rowCount).map { Array(UnsafeBufferPointer(start: cells + $0 * k, count: k)) } }

        @inline(__always) func addMissing(_ id: Int) {
            positionInMissing[id] = Int32(missingCount)
            missing[missingCount] = id
            missingCount += 1
        }

        @inline(__always) func removeMissing(_ id: Int) {
            let position = Int(positionInMissing[id])
            missingCount -= 1
            let last = missing[missingCount]
            if last != id {
                missing[position] = last
                positionInMissing[last] = Int32(position)
            }
            positionInMissing[id] = -1
        }

        /// Removes the row whose loss uncovers the fewest required tuples.
        func removeCheapestRow(skipping frozen: Int, random: inout SeededGenerator) {
            let row = cheapestRow(skipping: frozen, random: &random) { row in
                var loss = 0
                if let rowTuples {
                    let ids = rowTuples + row * tables.combinationCount
                    for combination in 0..<tables.combinationCount { loss &+= counts[Int(ids[combination])] == 1 ? 1 : 0 }
                } else {
                    tables.forEachTuple(in: cells + row * k) { id in loss &+= counts[id] == 1 ? 1 : 0 }
                }
                return loss
            }
            if let row { removeRow(row) { _ in } }
        }

        /// The row (past the first `frozen`) with the least `loss`: the first such from a random row
        /// on, wrapping. Nil when every row is frozen.
        @inline(__always)
        func cheapestRow(skipping frozen: Int, random: inout SeededGenerator, loss: (Int) -> Int) -> Int? {
            var bestRow: Int?
            var bestLoss = Int.max
            let offset = Int(random.next() % UInt64(max(rowCount, 1)))
            for step in 0..<rowCount {
                let row = (step + offset) % rowCount
                if row < frozen { continue }
                let rowLoss = loss(row)
                if rowLoss < bestLoss {
                    bestLoss = rowLoss
                    bestRow = row
                }
            }
            return bestRow
        }

        /// Removes the row at `row`, calling `uncovered` with each tuple it covered once its count has
        /// gone down; the rows after it move up one place.
        @inline(__always)
        func removeRow(_ row: Int, _ uncovered: (Int) -> Void) {
            tables.forEachTuple(in: cells + row * k) { id in
                counts[id] -= 1
                if counts[id] == 0 { addMissing(id) }
                uncovered(id)
            }
            let start = cells + row * k
            start.update(from: start + k, count: (rowCount - row - 1) * k)
            if let rowTuples {
                let combinations = tables.combinationCount
                let ids = rowTuples + row * combinations
                ids.update(from: ids + combinations, count: (rowCount - row - 1) * combinations)
            }
            rowCount -= 1
        }

        /// The change in missing tuples if one cell changed alone, without changing anything.
        @inline(__always)
        func estimate(_ row: Int, _ factor: Int, _ new: Int) -> Int {
            let rowCells = cells + row * k
            let old = rowCells[factor]
            if tables.strength == 2 {
                work += updatesPerCell
                let slots = factor * k
                let pairBase = tables.pairBase + slots
                let pairOther = tables.pairOther + slots
                let pairSelf = tables.pairSelf + slots
                // Without branches: which way a count goes is a coin toss.
                var delta = 0
                for other in 0..<k where other != factor {
                    let base = pairBase[other] &+ rowCells[other] &* pairOther[other]
                    let step = pairSelf[other]
                    let lost = base &+ old &* step
                    let gained = base &+ new &* step
                    delta &+= counts[lost] == 1 ? 1 : 0
                    delta &-= counts[gained] == 0 ? 1 : 0
                }
                return delta
            }
            guard old != new else { return 0 }
            if tables.strength == 3 || tables.strength == 4 {
                // What setting the cell and setting it back would do, without writing a count (the work
                // counted as those two changes), and the missing list left in the order they'd leave it.
                work += 2 * updatesPerCell
                // The change first, and whether it would cover anything: if not, setting the cell and
                // setting it back only appends the tuples it would uncover to the missing list and
                // takes them off again, last in place of each, which leaves the list as it was.
                var delta = 0
                var covers = 0
                if let rowTuples, let pairs = tables.cellCombinations {
                    // The row's tuples are kept: each id is a read, and the new one a step away.
                    let ids = rowTuples + row * tables.combinationCount
                    var pair = pairs + factor &* tables.tuplesPerCell &* 2
                    let change = new &- old
                    for _ in 0..<tables.tuplesPerCell {
                        let lost = Int(ids[Int(pair[0])])
                        let uncovered = bit(counts[lost] == 1)
                        let covered = bit(counts[lost &+ change &* Int(pair[1])] == 0)
                        delta &+= uncovered &- covered
                        covers |= covered
                        pair += 2
                    }
                } else {
                    forEachTuple(of: factor, in: rowCells) { id, step in
                        let uncovered = bit(counts[id &+ old &* step] == 1)
                        let covered = bit(counts[id &+ new &* step] == 0)
                        delta &+= uncovered &- covered
                        covers |= covered
                    }
                }
                if covers == 0 { return delta }
                // Otherwise the list's moves in order: a missing tuple covered and uncovered again goes
                // to the end of the list, and one taken out of the middle leaves the last in its place.
                var replays = 0
                forEachTuple(of: factor, in: rowCells) { id, step in
                    let lost = id &+ old &* step
                    let gained = id &+ new &* step
                    let uncovers = counts[lost] == 1
                    let covers = counts[gained] == 0
                    guard uncovers || covers else { return }
                    if uncovers { addMissing(lost) }
                    if covers { removeMissing(gained) }
                    replayLost[replays] = uncovers ? lost : -1
                    replayGained[replays] = covers ? gained : -1
                    replays &+= 1
                }
                for index in 0..<replays {
                    if replayGained[index] >= 0 { addMissing(replayGained[index]) }
                    if replayLost[index] >= 0 { removeMissing(replayLost[index]) }
                }
                return delta
            }
            // Strength 1: set, count, and set back.
            let before = missingCount
            setCell(row, factor, from: old, to: new)
            let delta = missingCount - before
            setCell(row, factor, from: new, to: old)
            return delta
        }

        func setCell(_ row: Int, _ factor: Int, from old: Int, to new: Int) {
            let strength = tables.strength
            let rowCells = cells + row * k
            work += updatesPerCell
            if strength == 1 {
                let base = tables.base[factor]
                decrement(base + old)
                increment(base + new)
            } else if strength == 2 {
                let slots = factor * k
                let pairBase = tables.pairBase + slots
                let pairOther = tables.pairOther + slots
                let pairSelf = tables.pairSelf + slots
                for other in 0..<k where other != factor {
                    let base = pairBase[other] + rowCells[other] * pairOther[other]
                    let step = pairSelf[other]
                    decrement(base + old * step)
                    increment(base + new * step)
                }
            } else {
                // Strengths 3 and 4 (the strength is 1 to 4).
                forEachTuple(of: factor, in: rowCells) { id, step in
                    decrement(id &+ old &* step)
                    increment(id &+ new &* step)
                }
                if let rowTuples, let pairs = tables.cellCombinations {
                    let ids = rowTuples + row * tables.combinationCount
                    var pair = pairs + factor &* tables.tuplesPerCell &* 2
                    let change = Int32(new &- old)
                    for _ in 0..<tables.tuplesPerCell {
                        ids[Int(pair[0])] &+= change &* pair[1]
                        pair += 2
                    }
                }
            }
            rowCells[factor] = new
        }

        /// Strengths 3 and 4: calls `body` with each tuple of `factor` with t − 1 other factors, as
        /// the id it has with `factor` at level 0 and the multiplier of `factor`'s level, in the order
        /// of the general loop in `setCell` (the other factors ascending, lexicographically).
        @inline(__always)
        private func forEachTuple(of factor: Int, in rowCells: UnsafeMutablePointer<Int>, _ body: (Int, Int) -> Void) {
            if let table = tables.cellTuples {
                var entry = table + factor &* tables.tuplesPerCell &* 8
                // At strength 3 the third other factor is a placeholder: left out.
                if tables.strength == 3 {
                    for _ in 0..<tables.tuplesPerCell {
                        body(Int(entry[0]) &+ rowCells[Int(entry[2])] &* Int(entry[3]) &+ rowCells[Int(entry[4])] &* Int(entry[5]), Int(entry[1]))
                        entry += 8
                    }
                    return
                }
                for _ in 0..<tables.tuplesPerCell {
                    let id =
                        Int(entry[0]) &+ rowCells[Int(entry[2])] &* Int(entry[3]) &+ rowCells[Int(entry[4])] &* Int(entry[5])
                        &+ rowCells[Int(entry[6])] &* Int(entry[7])
                    body(id, Int(entry[1]))
                    entry += 8
                }
                return
            }
            let base = tables.base
            tables.forEachCellTuple(of: factor) { combination, step, a, multiplierA, b, multiplierB, c, multiplierC in
                body(base[combination] &+ rowCells[a] &* multiplierA &+ rowCells[b] &* multiplierB &+ rowCells[c] &* multiplierC, step)
            }
        }

        @inline(__always) private func decrement(_ id: Int) {
            counts[id] -= 1
            if counts[id] == 0 { addMissing(id) }
        }

        @inline(__always) private func increment(_ id: Int) {
            if counts[id] == 0 { removeMissing(id) }
            counts[id] += 1
        }
    }
}

/// 1 for true, 0 for false, without a branch.
@inline(__always)
func bit(_ value: Bool) -> Int { Int(unsafeBitCast(value, to: UInt8.self)) }
