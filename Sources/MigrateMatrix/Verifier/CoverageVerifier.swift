/// Checks a matrix against a model by brute force, sharing no code with the generator: it lists
/// every t-tuple that some valid row contains but no matrix row covers, and every row that breaks
/// a constraint. Slow and plain on purpose, so that it is obviously right.
///
/// With a negative mask (PICT's `~` values) it also applies PICT's rules for them: a row holds at
/// most one negative value, and a row with one covers only the tuples that contain it — the error
/// such a value causes masks the rest of the row — so a tuple of valid values that can occur in a
/// row without negative values must be covered by such a row.
public struct CoverageVerifier: Sendable {
    public let model: CoverageModel
    public let strength: Int
    /// Per factor and level, whether the value is negative; nil when the model has none.
    public let negative: [[Bool]]?

    public init(model: CoverageModel, strength: Int, negative: [[Bool]]? = nil) {
        self.model = model
        self.strength = strength
        self.negative = negative
    }

    /// One combination of values of `strength` factors.
    public struct Tuple: Sendable, Hashable, Comparable {
        /// (factor index, level index), by factor.
        public var values: [Assignment]

        public struct Assignment: Sendable, Hashable {
            public var factor: Int
            public var level: Int
        }

        public static func < (lhs: Tuple, rhs: Tuple) -> Bool {
            lhs.values.map { [$0.factor, $0.level] }.lexicographicallyPrecedes(rhs.values.map { [$0.factor, $0.level] }) {
                $0.lexicographicallyPrecedes($1)
            }
        }
    }

    /// A row that is not a valid combination.
    public struct InvalidRow: Sendable, Hashable {
        /// 0-based.
        public var row: Int
        /// The labels of the constraints it breaks, or a description of a bad value.
        public var problems: [String]
    }

    public struct Report: Sendable {
        public var rowCount: Int
        public var requiredCount: Int
        public var missing: [Tuple]
        /// Missing tuples that some row holds, but only rows with a negative value, which mask them.
        public var masked: Set<Tuple> = []
        public var invalidRows: [InvalidRow]
        public var isComplete: Bool { missing.isEmpty && invalidRows.isEmpty }
    }

    public func verify(_ rows: [[Int]]) -> Report {
        let k = model.factors.count
        var invalid: [InvalidRow] = []
        var usable: [[Int]] = []
        for (index, row) in rows.enumerated() {
            var problems: [String] = []
            if row.count != k {
                problems.append("has \(row.count) values for \(k) factors")
            } else {
                for (factor, level) in row.enumerated() where !(0..<model.factors[factor].levels.count).contains(level) {
                    problems.append("factor '\(model.factors[factor].name)' has no level \(level)")
                }
                if problems.isEmpty {
                    problems = model.constraints.filter { !$0.isSatisfied(by: row) }.map(\.label)
                    let negatives = negativeFactors(of: row)
                    if negatives.count > 1 {
                        let names = negatives.map { "\(model.factors[$0].name)=\(model.factors[$0].levels[row[$0]])" }
                        problems.append("\(negatives.count) negative values (\(names.joined(separator: ", "))); a row may hold at most one")
                    }
                }
            }
            if problems.isEmpty { usable.append(row) } else { invalid.append(InvalidRow(row: index, problems: problems)) }
        }

        var covered = Set<[Int]>()
        var coveredWithoutNegatives = Set<[Int]>()
        for row in usable {
            let masked = !negativeFactors(of: row).isEmpty
            forEachSubset { factors in
                let key = factors.flatMap { [$0, row[$0]] }
                covered.insert(key)
                if !masked { coveredWithoutNegatives.insert(key) }
            }
        }
        let search = ValidRowSearch(model: model, negative: negative)
        var missing: [Tuple] = []
        var masked: Set<Tuple> = []
        var required = 0
        forEachSubset { factors in
            var levels = [Int](repeating: 0, count: factors.count)
            while true {
                var fixed = [Int?](repeating: nil, count: k)
                for (position, factor) in factors.enumerated() { fixed[factor] = levels[position] }
                if search.exists(fixed) {
                    required += 1
                    let key = zip(factors, levels).flatMap { [$0.0, $0.1] }
                    let tuple = Tuple(values: zip(factors, levels).map { Tuple.Assignment(factor: $0.0, level: $0.1) })
                    let holdsNegative = zip(factors, levels).contains { isNegative($0.0, $0.1) }
                    if negative != nil && !holdsNegative && search.exists(fixed, positiveOnly: true) {
                        if !coveredWithoutNegatives.contains(key) {
                            missing.append(tuple)
                            if covered.contains(key) { masked.insert(tuple) }
                        }
                    } else if !covered.contains(key) {
                        missing.append(tuple)
                    }
                }
                // Next combination of levels, like an odometer.
                var position = factors.count - 1
                while position >= 0 {
                    levels[position] += 1
                    if levels[position] < model.factors[factors[position]].levels.count { break }
                    levels[position] = 0
                    position -= 1
                }
                if position < 0 { break }
            }
        }
        return Report(rowCount: rows.count, requiredCount: required, missing: missing.sorted(), masked: masked, invalidRows: invalid)
    }

    private func isNegative(_ factor: Int, _ level: Int) -> Bool { negative?[factor][level] ?? false }

    private func negativeFactors(of row: [Int]) -> [Int] {
        guard negative != nil else { return [] }
        return row.indices.filter { isNegative($0, row[$0]) }
    }

    /// Calls `body` with every ascending list of `strength` factor indices.
    private func forEachSubset(_ body: ([Int]) -> Void) {
        let k = model.factors.count
        guard strength >= 1, strength <= k else { return }
        var subset = Array(0..<strength)
        while true {
            body(subset)
            var position = strength - 1
            while position >= 0 && subset[position] == k - strength + position { position -= 1 }
            if position < 0 { return }
            subset[position] += 1
            for next in (position + 1)..<strength { subset[next] = subset[next - 1] + 1 }
        }
    }

    /// Why no valid row has the given values (nil: any value), or nil when some valid row has them:
    /// the labels of the constraints the given values break by themselves, or a general reason.
    /// For seed rows, which must extend to a valid row.
    public func problem(extending row: [Int?]) -> String? {
        let search = ValidRowSearch(model: model, negative: negative)
        if search.exists(row) { return nil }
        var broken: [String] = []
        for constraint in model.constraints where constraint.scope.allSatisfy({ row[$0] != nil }) {
            if !constraint.allows(constraint.scope.map { row[$0]! }) { broken.append(constraint.label) }
        }
        if !broken.isEmpty { return "it breaks " + broken.joined(separator: "; ") }
        let negatives = row.indices.filter { factor in row[factor].map { isNegative(factor, $0) } ?? false }
        if negatives.count > 1 {
            return "it has \(negatives.count) negative values; a row may hold at most one"
        }
        return "no valid row has these values together (the constraints rule out every way to fill in the rest)"
    }

    /// A tuple as `Name=value` pairs, for messages.
    public func describe(_ tuple: Tuple) -> String {
        tuple.values.map { "\(model.factors[$0.factor].name)=\(model.factors[$0.factor].levels[$0.level])" }.joined(separator: ", ")
    }
}
