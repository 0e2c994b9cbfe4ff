/// Arithmetic in the finite field GF(q) for a prime power q = p^n, by tables.
///
/// Elements are the integers 0..<q: element e stands for the polynomial over GF(p) whose
/// coefficients are e's base-p digits (lowest first). Multiplication reduces modulo a fixed
/// irreducible polynomial, found by trial, so the tables, and every array built on them, are the
/// same on every run.
struct GaloisField {
    let order: Int
    /// order × order tables, flattened a * order + b.
    let sum: [Int]
    let product: [Int]

    /// The field of `order` elements, or nil when `order` is not a prime power (no such field).
    init?(order: Int) {
        guard order >= 2, order <= 256, let (prime, power) = Self.primePower(order) else { return nil }
        self.order = order
        func digits(_ value: Int) -> [Int] {
            var rest = value
            return (0..<power).map { _ in
                defer { rest /= prime }
                return rest % prime
            }
        }
        func number(_ digits: [Int]) -> Int { digits.reversed().reduce(0) { $0 * prime + $1 } }
        var sum = [Int](repeating: 0, count: order * order)
        for a in 0..<order {
            for b in 0..<order { sum[a * order + b] = number(zip(digits(a), digits(b)).map { ($0 + $1) % prime }) }
        }
        // The monic polynomial x^power + Σ c_i x^i (c from a number's digits) with no root and no
        // factor of lower degree: the first one whose powers of x reach every nonzero element.
        guard let modulus = Self.irreducible(prime: prime, power: power) else { return nil }
        var product = [Int](repeating: 0, count: order * order)
        for a in 0..<order {
            for b in 0..<order {
                var result = [Int](repeating: 0, count: 2 * power)
                for (i, x) in digits(a).enumerated() {
                    for (j, y) in digits(b).enumerated() { result[i + j] = (result[i + j] + x * y) % prime }
                }
                // Reduce: x^power ≡ −Σ modulus[i] x^i.
                for degree in stride(from: 2 * power - 1, through: power, by: -1) where result[degree] != 0 {
                    let coefficient = result[degree]
                    result[degree] = 0
                    for i in 0..<power {
                        result[degree - power + i] = ((result[degree - power + i] - coefficient * modulus[i]) % prime + prime) % prime
                    }
                }
                product[a * order + b] = number(Array(result[0..<power]))
            }
        }
        self.sum = sum
        self.product = product
    }

    @inline(__always) func add(_ a: Int, _ b: Int) -> Int { sum[a * order + b] }
    @inline(__always) func multiply(_ a: Int, _ b: Int) -> Int { product[a * order + b] }

    /// (p, n) with p prime and p^n = value, or nil.
    static func primePower(_ value: Int) -> (Int, Int)? {
        guard value >= 2 else { return nil }
        var prime = 2
        while prime * prime <= value && value % prime != 0 { prime += 1 }
        if value % prime != 0 { prime = value }
        var rest = value
        var power = 0
        while rest % prime == 0 {
            rest /= prime
            power += 1
        }
        return rest == 1 ? (prime, power) : nil
    }

    /// The coefficients c_0…c_{n−1} of the first monic x^n + Σ c_i x^i (in numeric order of the c's
    /// read as base-p digits) that is primitive: x generates the multiplicative group, so it is irreducible.
    private static func irreducible(prime: Int, power: Int) -> [Int]? {
        if power == 1 { return [0] }
        let order = Int(pow(prime, power))
        for candidate in 0..<order {
            var coefficients = [Int](repeating: 0, count: power)
            var rest = candidate
            for i in 0..<power {
                coefficients[i] = rest % prime
                rest /= prime
            }
            guard coefficients[0] != 0 else { continue }
            // Walk the powers of x modulo the candidate; primitive when the first return to 1 is at order − 1.
            var element = [Int](repeating: 0, count: power)
            element[0] = 1
            var steps = 0
            repeat {
                // Multiply by x.
                let top = element[power - 1]
                for i in stride(from: power - 1, to: 0, by: -1) { element[i] = element[i - 1] }
                element[0] = 0
                for i in 0..<power { element[i] = ((element[i] - top * coefficients[i]) % prime + prime) % prime }
                steps += 1
            } while element != [1] + [Int](repeating: 0, count: power - 1) && steps < order
            if steps == order - 1 { return coefficients }
        }
        return nil
    }

    private static func pow(_ base: Int, _ exponent: Int) -> Int { (0..<exponent).reduce(1) { result, _ in result * base } }
}

/// Covering arrays built from known constructions rather than searched for: when one applies it
/// often has far fewer rows than search finds, and for uniform models it meets the lower bound.
///
/// - Bush's orthogonal arrays: for a prime power q ≥ t, the q^t polynomials of degree < t over
///   GF(q), evaluated at the q field elements plus "infinity" (the coefficient of degree t−1),
///   give q^t rows in which every t columns show every t-tuple exactly once: up to q+1 factors of
///   q levels, and q+2 at strength 3 when q is a power of 2. A factor with fewer levels takes the values modulo its level count, which keeps
///   every tuple covered (a surjection of values maps a covered tuple onto a covered tuple).
/// - Binary strength 2 (Kleitman and Spencer; Katona): the N-bit columns with a 0 in the first row
///   and ⌈N/2⌉ ones cover every pair of values for C(N−1, ⌈N/2⌉) factors of 2 levels, the fewest
///   rows possible.
/// - Products, strength 2, for more factors than Bush's array has columns: column (i, j) of A ⊗ B
///   takes A's column i in A's rows and B's column j in B's rows. Two columns with different i are
///   covered by A's rows, two with the same i by B's, so CA(N + M; 2, k·l, v). A constant row of B
///   that A has too is the same row of the product twice, and goes: Bush's array has the zero row,
///   and without its last column a constant row of every value (the constant polynomials), so two
///   of those give N + M − q. Applied again, m arrays give up to (q+1)^m factors in about m·q² rows
///   (the product construction; Colbourn, "Combinatorial aspects of covering arrays", 2004). On
///   models with many factors of many levels it beats search by far (7^64: 97 rows, where search
///   finds 139).
enum Construction: Sendable, Hashable, CustomStringConvertible {
    /// Bush's orthogonal array OA(q^t; t, k, q), with `q` the field's order.
    case bush(q: Int)
    /// Kleitman–Spencer binary array with `rows` rows.
    case binary(rows: Int)
    /// The product of `full` of Bush's arrays over GF(q) with q + 1 columns and `constant` with q
    /// columns and constant rows.
    case product(q: Int, full: Int, constant: Int)

    var description: String {
        switch self {
        case .bush(let q): "Bush's orthogonal array over GF(\(q))"
        case .binary(let rows): "Kleitman–Spencer binary array (\(rows) rows)"
        case .product(let q, let full, let constant):
            "product of \(full + constant) of Bush's orthogonal arrays over GF(\(q))"
                + (constant == 0 ? "" : " (\(constant) without the last column)")
        }
    }

    /// The construction with the fewest rows for factors of these level counts at strength t, and its
    /// rows (level indices, in factor order), or nil when none applies. Deterministic.
    /// Constructions with more than `maxRows` rows are not built: search does better, and sooner.
    /// A product has more rows than its bound by nature; it is only built within `productMaxRows`.
    static func best(levelCounts: [Int], strength t: Int, maxRows: Int = 4_096, productMaxRows: Int? = nil)
        -> (construction: Construction, rows: [[Int]])?
    {
        var options: [(Construction, [[Int]])] = []
        if let bush = bushArray(levelCounts: levelCounts, strength: t, maxRows: maxRows) { options.append(bush) }
        if t == 2, levelCounts.allSatisfy({ $0 <= 2 }), let binary = binaryArray(factors: levelCounts.count), binary.count <= maxRows {
            options.append((.binary(rows: binary.count), binary.map { row in zip(row, levelCounts).map { $0 % $1 } }))
        }
        if t == 2, let product = productArray(levelCounts: levelCounts, maxRows: min(maxRows, productMaxRows ?? maxRows)) {
            options.append(product)
        }
        return options.min { $0.1.count < $1.1.count }
    }

    /// How many of each base array the product takes for `factors` columns over GF(q), with the fewest rows: the fewest
    /// arrays m ≥ 2, then as many with constant rows as the columns allow (each saves q rows but has one column fewer).
    static func productShape(factors: Int, q: Int) -> (full: Int, constant: Int, rows: Int)? {
        guard factors > q + 1 else { return nil }
        for count in 2...12 {
            for constant in stride(from: count, through: 0, by: -1) {
                var columns = 1
                for index in 0..<count {
                    columns = columns.multipliedReportingOverflow(by: index < constant ? q : q + 1).partialValue
                }
                guard columns >= factors else { continue }
                // The repeated constant rows that go: q for each array with constant rows after the first, and the
                // all-zero row (the zero polynomial, in every array) for each array without.
                let full = count - constant
                let repeated = constant > 0 ? (constant - 1) * q + full : full - 1
                return (full, constant, count * q * q - repeated)
            }
        }
        return nil
    }

    /// The product construction for strength 2 over the smallest prime power q at least every level count, when the
    /// model has more factors than Bush's array (q + 1); nil past `maxRows` rows.
    static func productArray(levelCounts: [Int], maxRows: Int) -> (Construction, [[Int]])? {
        let k = levelCounts.count
        guard let widest = levelCounts.max() else { return nil }
        var q = max(widest, 2)
        while GaloisField.primePower(q) == nil {
            q += 1
            if q > 64 { return nil }
        }
        guard let shape = productShape(factors: k, q: q), shape.rows <= min(maxRows, 65_536), let field = GaloisField(order: q) else {
            return nil
        }
        // Bush's OA(q²; 2, q + 1, q) (`bushRows`). Without its last column ("infinity"), the q constant
        // polynomials are a constant row of each value.
        // The arrays with constant rows first; column c of the product is c written in the mixed radix of the arrays'
        // column counts, the first array's digit most significant, and a row of array p takes its value at digit p.
        // Only the model's k columns are made: the product may have q + 1 times as many.
        let parts = (0..<(shape.full + shape.constant)).map { $0 < shape.constant ? q : q + 1 }
        var digits = [[Int]](repeating: [], count: k)
        for column in 0..<k {
            var rest = column
            var digit = [Int](repeating: 0, count: parts.count)
            for part in parts.indices.reversed() {
                digit[part] = rest % parts[part]
                rest /= parts[part]
            }
            digits[column] = digit
        }
        // A constant row of an array whose value an earlier array's constant row has is the same row of the product
        // twice: it goes (the pairs it covered within one column of the earlier arrays, the earlier row covers).
        var constants = Set<Int>()
        var rows: [[Int]] = []
        for (part, columns) in parts.enumerated() {
            var added = Set<Int>()
            for row in bushRows(field: field, strength: 2, columns: columns) {
                let isConstant = row.allSatisfy { $0 == row[0] }
                if isConstant && constants.contains(row[0]) { continue }
                if isConstant { added.insert(row[0]) }
                rows.append((0..<k).map { row[digits[$0][part]] % levelCounts[$0] })
            }
            constants.formUnion(added)
        }
        return (.product(q: q, full: shape.full, constant: shape.constant), rows)
    }

    /// Bush's array for the smallest prime power q that is at least every level count and t, with
    /// enough columns; nil past `maxRows` rows (at most 4,096).
    static func bushArray(levelCounts: [Int], strength t: Int, maxRows: Int = 4_096) -> (Construction, [[Int]])? {
        let k = levelCounts.count
        guard t >= 1, k >= t, let widest = levelCounts.max() else { return nil }
        // Columns over GF(q): q points, "infinity", and for strength 3 in characteristic 2 one more
        // (the coefficient of x: the points (1, x, x²), (0, 0, 1), (0, 1, 0) form a hyperoval, so any
        // three columns are independent).
        func columns(_ q: Int) -> Int { t == 3 && q & (q - 1) == 0 ? q + 2 : q + 1 }
        // q ≥ t so that any t points give an invertible Vandermonde matrix; GF(2) at strength 3 is the
        // exception the hyperoval allows (its four columns are (1,0,0), (1,1,1), (0,0,1), (0,1,0)).
        var q = max(widest, t == 3 ? 2 : t, 2)
        while GaloisField.primePower(q) == nil || k > columns(q) || (q < t && !(q == 2 && t == 3)) {
            q += 1
            if q > 64 { return nil }
        }
        var size = 1
        for _ in 0..<t {
            size *= q
            if size > min(maxRows, 4_096) { return nil }
        }
        guard let field = GaloisField(order: q) else { return nil }
        let rows = bushRows(field: field, strength: t, columns: k).map { row in zip(row, levelCounts).map { $0 % $1 } }
        return (.bush(q: q), rows)
    }

    /// The rows of Bush's OA(q^t; t, columns, q) over `field`, values not yet reduced to a factor's levels: the
    /// row of c0 + c1·x + … + c(t−1)·x^(t−1) takes its value at each point x < q, then c(t−1) ("infinity",
    /// column q), then c1 (column q + 1: strength 3 in characteristic 2). Rows in order of the coefficients,
    /// c0 fastest.
    static func bushRows(field: GaloisField, strength t: Int, columns: Int) -> [[Int]] {
        let q = field.order
        var size = 1
        for _ in 0..<t { size *= q }
        var rows: [[Int]] = []
        rows.reserveCapacity(size)
        var coefficients = [Int](repeating: 0, count: t)
        for _ in 0..<size {
            var row = [Int](repeating: 0, count: columns)
            for column in 0..<columns {
                if column == q {
                    row[column] = coefficients[t - 1]
                } else if column == q + 1 {
                    row[column] = coefficients[1]
                } else {
                    // Horner: Σ c_i x^i at x = column.
                    var result = 0
                    for degree in stride(from: t - 1, through: 0, by: -1) {
                        result = field.add(field.multiply(result, column), coefficients[degree])
                    }
                    row[column] = result
                }
            }
            rows.append(row)
            // Next coefficient vector, lowest digit first.
            var position = 0
            while position < t {
                coefficients[position] += 1
                if coefficients[position] < q { break }
                coefficients[position] = 0
                position += 1
            }
        }
        return rows
    }

    /// The fewest rows N that hold `factors` binary columns at strength 2: the least N with
    /// C(N−1, ⌈N/2⌉) ≥ factors (Kleitman and Spencer, 1973).
    static func binaryRowCount(factors: Int) -> Int {
        guard factors > 1 else { return 2 }
        var n = 4
        while binomial(n - 1, (n + 1) / 2) < factors { n += 1 }
        return n
    }

    /// Rows of the binary construction for `factors` factors of two levels.
    static func binaryArray(factors: Int) -> [[Int]]? {
        let n = binaryRowCount(factors: factors)
        guard n <= 64 else { return nil }
        let weight = (n + 1) / 2
        // The first `factors` (N−1)-bit words of this weight in increasing order; row 0 is all zeros.
        var columns: [UInt64] = []
        var word: UInt64 = (1 << UInt64(weight)) - 1
        while columns.count < factors {
            columns.append(word)
            // Gosper's hack: the next larger word with the same number of ones.
            let lowest = word & (~word &+ 1)
            let ripple = word &+ lowest
            word = ripple | (((ripple ^ word) >> 2) / lowest)
        }
        return (0..<n).map { (row: Int) -> [Int] in
            columns.map { (column: UInt64) -> Int in row == 0 ? 0 : Int((column >> UInt64(row - 1)) & 1) }
        }
    }

    static func binomial(_ n: Int, _ r: Int) -> Int {
        guard r >= 0, r <= n else { return 0 }
        var result = 1
        for i in 0..<min(r, n - r) {
            result = result * (n - i) / (i + 1)
            if result > 1 << 40 { return result }
        }
        return result
    }
}

/// Lower bounds on the rows of any covering array of a model, from what is cheap to prove.
public enum CoverageBound {
    /// The fewest rows any strength-t covering array of factors with these level counts can have,
    /// as far as these arguments show:
    /// - the t largest level counts multiplied (every combination of their values needs a row);
    /// - strength 2: N ≥ v² + 1 when v + 2 or more factors have at least v levels (an array with v²
    ///   rows would be an orthogonal array, and those have at most v + 1 factors, Bush 1952), and
    ///   N ≥ the Kleitman–Spencer count for the factors with two or more levels (collapsing levels
    ///   keeps coverage, so the binary bound holds);
    /// - strength t > 2: the rows holding one value of the widest factor cover the rest at strength
    ///   t − 1, so N ≥ v × the bound one strength lower (Schönheim's argument).
    public static func lowerBound(levelCounts: [Int], strength t: Int) -> Int {
        let counts = levelCounts.sorted(by: >)
        guard t >= 1, counts.count >= t else { return 1 }
        if t == 1 { return counts[0] }
        if t > 2 { return saturating(counts[0], lowerBound(levelCounts: Array(counts.dropFirst()), strength: t - 1)) }
        var bound = counts[0] * counts[1]
        // Every v from the second-largest count down: factors with at least v levels.
        for v in Set(counts.dropFirst()) where v >= 2 {
            let wide = counts.filter { $0 >= v }.count
            if wide >= v + 2 { bound = max(bound, v * v + 1) }
        }
        let binary = counts.filter { $0 >= 2 }.count
        if binary >= 2 { bound = max(bound, Construction.binaryRowCount(factors: binary)) }
        return bound
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }
}
