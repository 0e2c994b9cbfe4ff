/// Numbers every t-tuple of a model: each set of t factors (a "combination", ranked in colex order)
/// owns a block of ids, one per combination of their levels.
///
/// A class, though nothing in it changes: the greedy builder takes it for every value it scores, and a
/// struct of seven arrays cost seven retains and releases each time (a tenth of the time at strength 3).
final class TupleSpace {
    let strength: Int
    let levelCounts: [Int]
    let factorCount: Int
    /// binomial[n][r] for n ≤ factorCount, r ≤ strength.
    let binomial: [[Int]]
    /// The same, flattened by column: choose[r * (factorCount + 1) + n] = C(n, r), for loops that
    /// rank combinations without an array per row.
    let choose: [Int]
    /// The factors of each combination, flattened: combination c has factors[c*t ..< c*t+t], ascending.
    let factors: [Int]
    /// The first tuple id of each combination, plus the total at the end.
    let base: [Int]
    /// Per factor of each combination, the multiplier of its level in the tuple id (flattened like `factors`).
    let multipliers: [Int]

    var combinationCount: Int { base.count - 1 }
    var tupleCount: Int { base[base.count - 1] }

    /// The most tuples a model may have at the chosen strength.
    static let tupleLimit = 50_000_000

    init(levelCounts: [Int], strength: Int) throws(ModelError) {
        self.strength = strength
        self.levelCounts = levelCounts
        let k = levelCounts.count
        self.factorCount = k
        var binomial = [[Int]](repeating: [Int](repeating: 0, count: strength + 2), count: k + 1)
        for n in 0...k {
            binomial[n][0] = 1
            if strength + 1 >= 1 {
                for r in 1...(strength + 1) where n > 0 {
                    binomial[n][r] = binomial[n - 1][r - 1] &+ binomial[n - 1][r]
                }
            }
        }
        self.binomial = binomial
        self.choose = (0...(strength + 1)).flatMap { r in (0...k).map { binomial[$0][r] } }
        let count = binomial[k][strength]
        guard count <= Self.tupleLimit else {
            throw ModelError("\(k) factors at strength \(strength) make too many factor combinations (\(count)); lower the strength")
        }
        var factors: [Int] = []
        factors.reserveCapacity(count * strength)
        var base: [Int] = [0]
        base.reserveCapacity(count + 1)
        var multipliers: [Int] = []
        multipliers.reserveCapacity(count * strength)
        // Colex order: the combination {c0 < c1 < ...} has rank Σ C(c_i, i+1).
        var combination = Array(0..<strength)
        var total = 0
        for _ in 0..<count {
            factors.append(contentsOf: combination)
            var multiplier = 1
            var local = [Int](repeating: 0, count: strength)
            for position in stride(from: strength - 1, through: 0, by: -1) {
                local[position] = multiplier
                multiplier *= levelCounts[combination[position]]
            }
            multipliers.append(contentsOf: local)
            total += multiplier
            guard total <= Self.tupleLimit else {
                throw ModelError("the model has more than \(Self.tupleLimit) \(strength)-tuples; lower the strength")
            }
            base.append(total)
            // Next combination in colex order.
            var position = 0
            while position < strength - 1 && combination[position] + 1 == combination[position + 1] {
                combination[position] = position
                position += 1
            }
            combination[position] += 1
        }
        self.factors = factors
        self.base = base
        self.multipliers = multipliers
    }

    /// The combination a tuple id belongs to.
    func combination(of tuple: Int) -> Int {
        var low = 0
        var high = combinationCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if base[middle] <= tuple { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The factors and levels of a tuple id.
    func decode(_ tuple: Int) -> [(factor: Int, level: Int)] {
        let combination = combination(of: tuple)
        var rest = tuple - base[combination]
        var result: [(factor: Int, level: Int)] = []
        for position in 0..<strength {
            let multiplier = multipliers[combination * strength + position]
            result.append((factors[combination * strength + position], rest / multiplier))
            rest %= multiplier
        }
        return result
    }

    /// The same, into a buffer the caller reuses.
    func decode(_ tuple: Int, into result: inout [(factor: Int, level: Int)]) {
        let combination = combination(of: tuple)
        var rest = tuple - base[combination]
        result.removeAll(keepingCapacity: true)
        for position in 0..<strength {
            let multiplier = multipliers[combination * strength + position]
            result.append((factors[combination * strength + position], rest / multiplier))
            rest %= multiplier
        }
    }

    /// Calls `body` with the id of every tuple a complete row covers.
    @inline(__always)
    func forEachTuple(in row: UnsafeBufferPointer<Int>, _ body: (Int) -> Void) {
        _ = containsTuple(in: row) { id in
            body(id)
            return false
        }
    }

    /// Whether `predicate` holds for a tuple a complete row covers; stops at the first that does.
    @inline(__always)
    func containsTuple(in row: UnsafeBufferPointer<Int>, where predicate: (Int) -> Bool) -> Bool {
        factors.withUnsafeBufferPointer { factors in
            multipliers.withUnsafeBufferPointer { multipliers in
                base.withUnsafeBufferPointer { base in
                    var offset = 0
                    for combination in 0..<(base.count - 1) {
                        var id = base[combination]
                        for position in 0..<strength {
                            id += row[factors[offset + position]] * multipliers[offset + position]
                        }
                        offset += strength
                        if predicate(id) { return true }
                    }
                    return false
                }
            }
        }
    }

    /// Strength 4: the combination of `factor` with three other factors a < b < c, ranked from the
    /// columns of `choose` for the first to the fourth member (`c1` to `c4`), where `factor` falls among
    /// the four (0 to 3), and the slots of a, b and c around it.
    @inline(__always)
    static func quadruple(
        _ factor: Int, _ a: Int, _ b: Int, _ c: Int, c1: UnsafePointer<Int>, c2: UnsafePointer<Int>, c3: UnsafePointer<Int>, c4: UnsafePointer<Int>
    ) -> (combination: Int, position: Int, slots: (a: Int, b: Int, c: Int)) {
        let combination: Int
        let position: Int
        if factor < a {
            combination = c1[factor] &+ c2[a] &+ c3[b] &+ c4[c]
            position = 0
        } else if factor < b {
            combination = c1[a] &+ c2[factor] &+ c3[b] &+ c4[c]
            position = 1
        } else if factor < c {
            combination = c1[a] &+ c2[b] &+ c3[factor] &+ c4[c]
            position = 2
        } else {
            combination = c1[a] &+ c2[b] &+ c3[c] &+ c4[factor]
            position = 3
        }
        return (combination, position, (position == 0 ? 1 : 0, position <= 1 ? 2 : 1, position <= 2 ? 3 : 2))
    }
}
