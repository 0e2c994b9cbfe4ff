import Foundation
import MigrateSupport

/// Rows, how often each tuple is covered, and the list of required tuples no row covers, in raw
/// memory sized once for the rows the search starts from.
final class CoverageState {
    let tables: CoverageTables
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

    init(tables: CoverageTables, capacity: Int, frozenRows: Int) {
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
            var entry = table + factor &* tables.tuplesPerCell &* CellTupleEntry.width
            // At strength 3 the third other factor is a placeholder: left out.
            if tables.strength == 3 {
                for _ in 0..<tables.tuplesPerCell {
                    let id =
                        Int(entry[CellTupleEntry.base]) &+ rowCells[Int(entry[CellTupleEntry.factorA])] &* Int(entry[CellTupleEntry.multiplierA])
                        &+ rowCells[Int(entry[CellTupleEntry.factorB])] &* Int(entry[CellTupleEntry.multiplierB])
                    body(id, Int(entry[CellTupleEntry.step]))
                    entry += CellTupleEntry.width
                }
                return
            }
            for _ in 0..<tables.tuplesPerCell {
                let id =
                    Int(entry[CellTupleEntry.base]) &+ rowCells[Int(entry[CellTupleEntry.factorA])] &* Int(entry[CellTupleEntry.multiplierA])
                    &+ rowCells[Int(entry[CellTupleEntry.factorB])] &* Int(entry[CellTupleEntry.multiplierB])
                    &+ rowCells[Int(entry[CellTupleEntry.factorC])] &* Int(entry[CellTupleEntry.multiplierC])
                body(id, Int(entry[CellTupleEntry.step]))
                entry += CellTupleEntry.width
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
