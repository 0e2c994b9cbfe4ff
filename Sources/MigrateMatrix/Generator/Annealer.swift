import Foundation
import MigrateSupport

/// Shrinks a covering array by simulated annealing on a fixed number of rows: drop one row, then
/// change cells to re-cover what is missing, each move aimed at one missing tuple, accepting a
/// worse array now and then to escape local minima. Deterministic for a given generator state.
struct Annealer {
    let problem: CoverageProblem
    /// Cells of seed rows that must not change, per row (only the first `seedCount` rows have any).
    let frozen: [[Bool]]

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
        while remaining > 0 && failures < maxFailures && best.count > max(frozen.count, 1, lowerBound) {
            let length = min(remaining, attemptLength * (1 + failures))
            var state = State(problem: problem, rows: best, frozenRows: frozen.count)
            state.removeCheapestRow(skipping: frozen.count, random: &random)
            let used = anneal(&state, moves: length, random: &random) + 1
            remaining -= used
            if state.missingCount == 0 {
                best = state.rowsArray
                failures = 0
            } else {
                failures += 1
            }
        }
        return (best, remaining > 0 && failures >= maxFailures)
    }

    /// Returns the work used.
    private func anneal(_ state: inout State, moves budget: Int, random: inout SeededGenerator) -> Int {
        let startTemperature = 0.6
        let endTemperature = 0.02
        let cooling = log(endTemperature / startTemperature)
        let rowCount = state.rowCount
        let strength = problem.strength
        var change: [(factor: Int, level: Int)] = []
        change.reserveCapacity(strength)
        var undo: [(factor: Int, level: Int)] = []
        var redo: [(factor: Int, level: Int)] = []
        var tuple: [(factor: Int, level: Int)] = []
        tuple.reserveCapacity(strength)
        let sampleRows = 3
        state.work = 0
        while state.work < budget {
            if state.missingCount == 0 { break }
            let temperature = startTemperature * exp(cooling * Double(state.work) / Double(budget))
            let target = state.missing[Int(random.next() % UInt64(state.missingCount))]
            // Buffers reused from move to move: a move is about a microsecond, and allocating was a sixth of it.
            problem.space.decode(target, into: &tuple)
            var bestRow = -1
            var bestEstimate = Int.max
            for _ in 0..<sampleRows {
                let row = Int(random.next() % UInt64(rowCount))
                var blocked = false
                var estimate = 0
                for (factor, level) in tuple where state.value(row, factor) != level {
                    if row < frozen.count && frozen[row][factor] { blocked = true }
                    estimate += state.estimate(row, factor, level)
                }
                if !blocked && estimate < bestEstimate {
                    bestEstimate = estimate
                    bestRow = row
                }
            }
            guard bestRow >= 0 else { continue }
            change.removeAll(keepingCapacity: true)
            for (factor, level) in tuple where state.value(bestRow, factor) != level { change.append((factor, level)) }
            let delta = state.apply(bestRow, change, undo: &undo)
            let accepted =
                state.isRowValid(bestRow, changed: change)
                && (delta <= 0 || random.nextUnit() < exp(-Double(delta) / temperature))
            if !accepted { _ = state.apply(bestRow, undo, undo: &redo) }
        }
        return state.work
    }

    /// Rows, how often each tuple is covered, and the list of required tuples no row covers.
    struct State {
        let problem: CoverageProblem
        let k: Int
        var cells: [Int]
        var counts: [UInt16]
        var missing: [Int] = []
        var positionInMissing: [Int32]
        var rowCount: Int
        let frozenRows: Int
        /// Tuple-count updates done so far: the budget's unit.
        var work = 0
        private let updatesPerCell: Int
        private var members: [Int]
        private var pick: [Int]

        init(problem: CoverageProblem, rows: [[Int]], frozenRows: Int) {
            self.problem = problem
            self.k = problem.factorCount
            self.cells = rows.flatMap { $0 }
            self.rowCount = rows.count
            self.frozenRows = frozenRows
            self.counts = [UInt16](repeating: 0, count: problem.space.tupleCount)
            self.positionInMissing = [Int32](repeating: -1, count: problem.space.tupleCount)
            self.members = [Int](repeating: 0, count: problem.strength)
            self.pick = [Int](repeating: 0, count: max(problem.strength - 1, 1))
            // Strength 3 and 4 pay for ranking each combination: count it as a second update.
            self.updatesPerCell = max(1, problem.space.binomial[problem.factorCount - 1][problem.strength - 1]) * (problem.strength > 2 ? 2 : 1)
            for row in rows {
                row.withUnsafeBufferPointer { pointer in
                    problem.space.forEachTuple(in: pointer) { id in counts[id] &+= 1 }
                }
            }
            for id in 0..<counts.count where counts[id] == 0 && problem.required[id] != 0 { addMissing(id) }
        }

        var missingCount: Int { missing.count }

        var rowsArray: [[Int]] { (0..<rowCount).map { Array(cells[($0 * k)..<($0 * k + k)]) } }

        @inline(__always) func value(_ row: Int, _ factor: Int) -> Int { cells[row * k + factor] }

        private mutating func addMissing(_ id: Int) {
            positionInMissing[id] = Int32(missing.count)
            missing.append(id)
        }

        private mutating func removeMissing(_ id: Int) {
            let position = Int(positionInMissing[id])
            let last = missing.removeLast()
            if last != id {
                missing[position] = last
                positionInMissing[last] = Int32(position)
            }
            positionInMissing[id] = -1
        }

        /// Removes the row whose loss uncovers the fewest required tuples.
        mutating func removeCheapestRow(skipping frozen: Int, random: inout SeededGenerator) {
            var bestRow = -1
            var bestLoss = Int.max
            let offset = Int(random.next() % UInt64(max(rowCount, 1)))
            for step in 0..<rowCount {
                let row = (step + offset) % rowCount
                if row < frozen { continue }
                var loss = 0
                cells.withUnsafeBufferPointer { cells in
                    let pointer = UnsafeBufferPointer(rebasing: cells[(row * k)..<(row * k + k)])
                    problem.space.forEachTuple(in: pointer) { id in
                        if counts[id] == 1 && problem.required[id] != 0 { loss += 1 }
                    }
                }
                if loss < bestLoss {
                    bestLoss = loss
                    bestRow = row
                }
            }
            guard bestRow >= 0 else { return }
            let row = Array(cells[(bestRow * k)..<(bestRow * k + k)])
            row.withUnsafeBufferPointer { pointer in
                problem.space.forEachTuple(in: pointer) { id in
                    counts[id] -= 1
                    if counts[id] == 0 && problem.required[id] != 0 { addMissing(id) }
                }
            }
            cells.removeSubrange((bestRow * k)..<(bestRow * k + k))
            rowCount -= 1
        }

        /// The change in missing tuples if one cell changed alone, without changing anything.
        mutating func estimate(_ row: Int, _ factor: Int, _ new: Int) -> Int {
            let start = row * k
            let old = cells[start + factor]
            var delta = 0
            if problem.strength == 2 {
                work += updatesPerCell
                for other in 0..<k where other != factor {
                    let slot = other * k + factor
                    let base = problem.pairBase[slot] + cells[start + other] * problem.pairOther[slot]
                    let step = problem.pairSelf[slot]
                    let lost = base + old * step
                    let gained = base + new * step
                    if counts[lost] == 1 && problem.required[lost] != 0 { delta += 1 }
                    if counts[gained] == 0 && problem.required[gained] != 0 { delta -= 1 }
                }
                return delta
            }
            // Other strengths: set, count, and set back.
            guard old != new else { return 0 }
            let before = missing.count
            setCell(row, factor, from: old, to: new)
            delta = missing.count - before
            setCell(row, factor, from: new, to: old)
            return delta
        }

        /// True when the row violates no constraint.
        func isRowValid(_ row: Int, changed: [(factor: Int, level: Int)]) -> Bool {
            let solver = problem.solver
            guard solver.hasConstraints else { return true }
            return solver.isValid(cells: cells, offset: row * k, changed: changed)
        }

        /// Sets cells of one row; returns the change in the number of missing tuples and fills
        /// `undo` with the changes that restore the row.
        mutating func apply(_ row: Int, _ change: [(factor: Int, level: Int)], undo: inout [(factor: Int, level: Int)]) -> Int {
            let before = missing.count
            undo.removeAll(keepingCapacity: true)
            for (factor, level) in change {
                let old = cells[row * k + factor]
                if old == level { continue }
                undo.append((factor, old))
                setCell(row, factor, from: old, to: level)
            }
            undo.reverse()
            return missing.count - before
        }

        private mutating func setCell(_ row: Int, _ factor: Int, from old: Int, to new: Int) {
            let strength = problem.strength
            let start = row * k
            work += updatesPerCell
            if strength == 1 {
                let base = problem.space.base[factor]
                decrement(base + old)
                increment(base + new)
            } else if strength == 2 {
                for other in 0..<k where other != factor {
                    let slot = other * k + factor
                    let base = problem.pairBase[slot] + cells[start + other] * problem.pairOther[slot]
                    let step = problem.pairSelf[slot]
                    decrement(base + old * step)
                    increment(base + new * step)
                }
            } else {
                // Every (t-1)-subset of the other factors.
                let others = strength - 1
                for index in 0..<others { pick[index] = index }
                let pool = k - 1
                let space = problem.space
                while true {
                    var position = 0
                    var inserted = false
                    for index in 0..<others {
                        let other = pick[index] >= factor ? pick[index] + 1 : pick[index]
                        if !inserted && factor < other {
                            members[position] = factor
                            position += 1
                            inserted = true
                        }
                        members[position] = other
                        position += 1
                    }
                    if !inserted { members[position] = factor }
                    let combination = members.withUnsafeBufferPointer { space.rank($0) }
                    var id = space.base[combination]
                    var step = 0
                    for slot in 0..<strength {
                        let member = members[slot]
                        let multiplier = space.multipliers[combination * strength + slot]
                        if member == factor { step = multiplier } else { id += cells[start + member] * multiplier }
                    }
                    decrement(id + old * step)
                    increment(id + new * step)
                    var slot = others - 1
                    while slot >= 0 && pick[slot] == pool - others + slot { slot -= 1 }
                    if slot < 0 { break }
                    pick[slot] += 1
                    for next in (slot + 1)..<others { pick[next] = pick[next - 1] + 1 }
                }
            }
            cells[start + factor] = new
        }

        @inline(__always) private mutating func decrement(_ id: Int) {
            counts[id] -= 1
            if counts[id] == 0 && problem.required[id] != 0 { addMissing(id) }
        }

        @inline(__always) private mutating func increment(_ id: Int) {
            if counts[id] == 0 && problem.required[id] != 0 { removeMissing(id) }
            counts[id] += 1
        }
    }
}
