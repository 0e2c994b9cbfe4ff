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
    let tables: CoverageTables

    init(problem: CoverageProblem, frozen: [[Bool]]) {
        self.problem = problem
        self.frozen = frozen
        self.tables = CoverageTables(problem: problem)
    }

    /// Tries ever smaller arrays, a round for each (drop a row, anneal until nothing is missing),
    /// until `work` (tuple-count updates, a measure of time that does not depend on the machine)
    /// runs out or no smaller array can exist; returns the smallest complete one found.
    ///
    /// `lowerBound` is the fewest rows any array can have (`CoverageBound`): reaching it ends the
    /// search. After `maxFailures` rounds in a row that remove no row it stops too (`stopped`, as after a
    /// round at the cap below that fails): each
    /// failed round is longer than the last, so the rest of the budget would mostly buy nothing.
    ///
    /// A round is never longer than `roundWorkPerTupleRow` for each required tuple and row: on a tiny
    /// model that is already many passes over everything there is to change, and one that fails at
    /// that length ends the search. Without it a tiny model whose lower bound can't be met spends the
    /// whole budget on a row it can't drop (PICT's "NOT" example, 5 rows for a cheap bound of 4: 30 ms;
    /// `CoveringArrayGenerator.tinyBound` proves such a bound where the valid rows are few enough to try). The default pass's rounds (a quarter of `polishWork` at first) reach the cap only
    /// where required tuples times rows is under 750.
    func shrink(
        _ rows: [[Int]], work budget: Int, lowerBound: Int, maxFailures: Int = .max, random: inout SeededGenerator
    ) -> (rows: [[Int]], stopped: Bool) {
        var best = rows
        var remaining = budget
        let attemptLength = max(budget / 4, 100_000)
        var failures = 0
        let cap = problem.requiredCount.multipliedReportingOverflow(by: max(rows.count, 1) * Self.roundWorkPerTupleRow)
        let roundCap = cap.overflow ? Int.max : cap.partialValue
        let state = CoverageState(tables: tables, capacity: rows.count, frozenRows: frozen.count)
        // After a round that succeeds the state holds exactly the best rows, with the same counts and
        // an empty missing list, so the next round starts from it instead of counting them again.
        var holdsBest = false
        var cappedRoundFailed = false
        while remaining > 0 && failures < maxFailures && best.count > max(frozen.count, 1, lowerBound) {
            let length = min(remaining, attemptLength * (1 + failures), roundCap)
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
                if length == roundCap {
                    cappedRoundFailed = true
                    break
                }
            }
        }
        return (best, remaining > 0 && (failures >= maxFailures || cappedRoundFailed))
    }

    /// The most work one round of `shrink` does for each required tuple and row.
    static let roundWorkPerTupleRow = 1_000

    /// Returns the work used.
    private func anneal(_ state: CoverageState, moves budget: Int, random: inout SeededGenerator) -> Int {
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
}

/// 1 for true, 0 for false, without a branch.
@inline(__always)
func bit(_ value: Bool) -> Int { Int(unsafeBitCast(value, to: UInt8.self)) }
