import Foundation
import MigrateSupport

/// The problem's tables in raw memory, read by every move.
final class CoverageTables {
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
            let pairs = UnsafeMutablePointer<Int32>.allocate(capacity: max(space.tupleCount * PairEntry.width, 1))
            for combination in 0..<space.combinationCount {
                let a = space.factors[combination * 2]
                let b = space.factors[combination * 2 + 1]
                var id = space.base[combination]
                for levelA in 0..<problem.levelCounts[a] {
                    for levelB in 0..<problem.levelCounts[b] {
                        pairs[id * PairEntry.width + PairEntry.factorA] = Int32(a)
                        pairs[id * PairEntry.width + PairEntry.levelA] = Int32(levelA)
                        pairs[id * PairEntry.width + PairEntry.factorB] = Int32(b)
                        pairs[id * PairEntry.width + PairEntry.levelB] = Int32(levelB)
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
            let table = UnsafeMutablePointer<Int32>.allocate(capacity: max(k * tuplesPerCell * CellTupleEntry.width, 1))
            let combinations = UnsafeMutablePointer<Int32>.allocate(capacity: max(k * tuplesPerCell * 2, 1))
            var entry = table
            var pair = combinations
            for factor in 0..<k {
                forEachCellTuple(of: factor) { combination, step, a, multiplierA, b, multiplierB, c, multiplierC in
                    pair[0] = Int32(combination)
                    pair[1] = Int32(step)
                    pair += 2
                    entry[CellTupleEntry.base] = Int32(base[combination])
                    entry[CellTupleEntry.step] = Int32(step)
                    entry[CellTupleEntry.factorA] = Int32(a)
                    entry[CellTupleEntry.multiplierA] = Int32(multiplierA)
                    entry[CellTupleEntry.factorB] = Int32(b)
                    entry[CellTupleEntry.multiplierB] = Int32(multiplierB)
                    entry[CellTupleEntry.factorC] = Int32(c)
                    entry[CellTupleEntry.multiplierC] = Int32(multiplierC)
                    entry += CellTupleEntry.width
                }
            }
            self.cellTuples = table
            self.cellCombinations = combinations
        }
    }

    /// Strengths 3 and 4: calls `body` with each tuple of `factor` with t − 1 other factors, in
    /// the order of the general loop in `CoverageState.setCell` (the other factors ascending,
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
            let entry = pairs + tuple &* PairEntry.width
            result[0] = Int(entry[PairEntry.factorA])
            levels[0] = Int(entry[PairEntry.levelA])
            result[1] = Int(entry[PairEntry.factorB])
            levels[1] = Int(entry[PairEntry.levelB])
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

/// The layout of one entry of `CoverageTables.pairs`: a strength-2 tuple's two factors and their levels.
enum PairEntry {
    static let width = 4
    static let factorA = 0
    static let levelA = 1
    static let factorB = 2
    static let levelB = 3
}

/// The layout of one entry of `CoverageTables.cellTuples`: a tuple of one cell with up to three other factors, as the
/// id it has with the cell's factor at level 0 (`base`), the multiplier of the cell's level (`step`), and each other
/// factor with the multiplier of its level (at strength 3 the third is a placeholder).
enum CellTupleEntry {
    static let width = 8
    static let base = 0
    static let step = 1
    static let factorA = 2
    static let multiplierA = 3
    static let factorB = 4
    static let multiplierB = 5
    static let factorC = 6
    static let multiplierC = 7
}
