extension Annealer {
    /// Tabu search's view of a pairwise array: the cells column by column and, kept up to date with
    /// every change, how many pairs each cell's row alone covers with that cell — what changing the
    /// cell would lose. A move then weighs a row in a few steps instead of a pass over its factors.
    ///
    /// The row that alone covers a pair is found without a search: each pair keeps the XOR of the ids
    /// of the rows that cover it, which is that row's id when exactly one does. Ids stay with their
    /// rows while rows move up after a removal.
    ///
    /// Strength 2 only. It changes the counts and the missing list in the same order as
    /// `CoverageState.setCell` and `CoverageState.removeRow`, so a search over it makes the same choices.
    final class SoleCoverage {
        let state: CoverageState
        let tables: CoverageTables
        let k: Int
        let capacity: Int
        /// The cells, column by column: `factor * capacity + row`.
        let columns: UnsafeMutablePointer<Int32>
        /// Per cell, column by column: its row's pairs with it that no other row covers.
        let sole: UnsafeMutablePointer<Int32>
        /// Per tuple id: the XOR of the ids of the rows that cover it.
        private let owners: UnsafeMutablePointer<Int32>
        /// Per row its id, and per id its row.
        private let ids: UnsafeMutablePointer<Int32>
        private let rowOfID: UnsafeMutablePointer<Int32>

        /// Starts from `state`'s rows; `state` holds no more than `capacity` rows from now on.
        init(state: CoverageState, capacity: Int) {
            precondition(state.tables.strength == 2, "sole coverage is kept for pairs")
            self.state = state
            self.tables = state.tables
            self.k = state.k
            self.capacity = capacity
            columns = .allocate(capacity: max(capacity * state.k, 1))
            sole = .allocate(capacity: max(capacity * state.k, 1))
            owners = .allocate(capacity: max(state.tables.tupleCount, 1))
            ids = .allocate(capacity: max(capacity, 1))
            rowOfID = .allocate(capacity: max(capacity, 1))
            let rowCount = state.rowCount
            owners.initialize(repeating: 0, count: tables.tupleCount)
            sole.initialize(repeating: 0, count: capacity * k)
            for row in 0..<rowCount {
                ids[row] = Int32(row)
                rowOfID[row] = Int32(row)
                let cells = state.cells + row * k
                for factor in 0..<k { columns[factor * capacity + row] = Int32(cells[factor]) }
                for factor in 0..<k {
                    for other in (factor + 1)..<k { owners[pairID(factor, cells[factor], other, cells[other])] ^= Int32(row) }
                }
            }
            for row in 0..<rowCount {
                let cells = state.cells + row * k
                for factor in 0..<k {
                    for other in (factor + 1)..<k where state.counts[pairID(factor, cells[factor], other, cells[other])] == 1 {
                        sole[factor * capacity + row] += 1
                        sole[other * capacity + row] += 1
                    }
                }
            }
        }

        deinit {
            columns.deallocate()
            sole.deallocate()
            owners.deallocate()
            ids.deallocate()
            rowOfID.deallocate()
        }

        @inline(__always)
        private func pairID(_ factor: Int, _ level: Int, _ other: Int, _ otherLevel: Int) -> Int {
            let slot = factor * k + other
            return tables.pairBase[slot] &+ otherLevel &* tables.pairOther[slot] &+ level &* tables.pairSelf[slot]
        }

        /// The row covering `tuple` alone (its count is 1).
        @inline(__always)
        private func soleRow(_ tuple: Int) -> Int { Int(rowOfID[Int(owners[tuple])]) }

        /// The pairs `row` alone covers: what removing it would uncover.
        @inline(__always)
        func loss(_ row: Int) -> Int {
            var cells = 0
            for factor in 0..<k { cells &+= Int(sole[factor * capacity + row]) }
            return cells / 2
        }

        /// Sets `factor` to `new` in `row`, as `CoverageState.setCell` does, keeping the sole counts.
        @inline(__always)
        func setCell(_ row: Int, _ factor: Int, to new: Int) {
            let cells = state.cells + row * k
            let old = cells[factor]
            let counts = state.counts
            state.work &+= tables.updatesPerCell
            let id = ids[row]
            // Locals, so that the loop keeps them in registers rather than reading them through `self`.
            let pairBase = tables.pairBase + factor * k
            let pairOther = tables.pairOther + factor * k
            let pairSelf = tables.pairSelf + factor * k
            let owners = owners
            let rowOfID = rowOfID
            let sole = sole
            let capacity = capacity
            let soleOfFactor = sole + factor * capacity
            var own: Int32 = 0
            for other in 0..<k where other != factor {
                let base = pairBase[other] &+ cells[other] &* pairOther[other]
                let step = pairSelf[other]
                let lost = base &+ old &* step
                let gained = base &+ new &* step
                let soleOfOther = sole + other * capacity
                // The pair the row leaves: missing if the row covered it alone, or now another row's alone.
                let before = counts[lost]
                counts[lost] = before &- 1
                owners[lost] ^= id
                if before == 1 {
                    state.addMissing(lost)
                    soleOfOther[row] &-= 1
                } else if before == 2 {
                    let survivor = Int(rowOfID[Int(owners[lost])])
                    soleOfFactor[survivor] &+= 1
                    soleOfOther[survivor] &+= 1
                }
                // The pair it takes: the row's alone if it was missing; no longer another row's alone.
                let had = counts[gained]
                if had == 0 {
                    state.removeMissing(gained)
                    soleOfOther[row] &+= 1
                    own &+= 1
                } else if had == 1 {
                    let previous = Int(rowOfID[Int(owners[gained])])
                    soleOfFactor[previous] &-= 1
                    soleOfOther[previous] &-= 1
                }
                counts[gained] = had &+ 1
                owners[gained] ^= id
            }
            soleOfFactor[row] = own
            cells[factor] = new
            columns[factor * capacity + row] = Int32(new)
        }

        /// Removes `row` as `CoverageState.removeRow` does; the rows after it move up one place.
        func removeRow(_ row: Int) {
            let id = ids[row]
            let counts = state.counts
            let pairs = tables.pairs!
            state.removeRow(row) { tuple in
                owners[tuple] ^= id
                // Covered twice before: the other row now covers it alone.
                if counts[tuple] == 1 {
                    let survivor = soleRow(tuple)
                    sole[Int(pairs[tuple &* PairEntry.width + PairEntry.factorA]) * capacity + survivor] &+= 1
                    sole[Int(pairs[tuple &* PairEntry.width + PairEntry.factorB]) * capacity + survivor] &+= 1
                }
            }
            let rowCount = state.rowCount
            for factor in 0..<k {
                let column = columns + factor * capacity + row
                column.update(from: column + 1, count: rowCount - row)
                let soleColumn = sole + factor * capacity + row
                soleColumn.update(from: soleColumn + 1, count: rowCount - row)
            }
            (ids + row).update(from: ids + row + 1, count: rowCount - row)
            for moved in row..<rowCount { rowOfID[Int(ids[moved])] = Int32(moved) }
        }
    }
}
