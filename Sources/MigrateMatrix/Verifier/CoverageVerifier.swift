/// Checks a matrix against a model by brute force, sharing no code with the generator: it lists
/// every t-tuple that some valid row contains but no matrix row covers, and every row that breaks
/// a constraint. Slow and plain on purpose, so that it is obviously right.
public struct CoverageVerifier: Sendable {
    public let model: CoverageModel
    public let strength: Int

    public init(model: CoverageModel, strength: Int) {
        self.model = model
        self.strength = strength
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
                }
            }
            if problems.isEmpty { usable.append(row) } else { invalid.append(InvalidRow(row: index, problems: problems)) }
        }

        var covered = Set<[Int]>()
        for row in usable {
            forEachSubset { factors in covered.insert(factors.flatMap { [$0, row[$0]] }) }
        }
        var missing: [Tuple] = []
        var required = 0
        forEachSubset { factors in
            var levels = [Int](repeating: 0, count: factors.count)
            while true {
                var fixed = [Int?](repeating: nil, count: k)
                for (position, factor) in factors.enumerated() { fixed[factor] = levels[position] }
                if existsValidRow(fixed) {
                    required += 1
                    let key = zip(factors, levels).flatMap { [$0.0, $0.1] }
                    if !covered.contains(key) {
                        missing.append(Tuple(values: zip(factors, levels).map { Tuple.Assignment(factor: $0.0, level: $0.1) }))
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
        return Report(rowCount: rows.count, requiredCount: required, missing: missing.sorted(), invalidRows: invalid)
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

    /// Depth-first search for a complete row that keeps the fixed values and breaks no constraint.
    /// A factor no constraint mentions cannot make a row invalid, so it takes its first level.
    func existsValidRow(_ fixed: [Int?]) -> Bool {
        let k = model.factors.count
        var mentioned = [Bool](repeating: false, count: k)
        for constraint in model.constraints { for factor in constraint.scope { mentioned[factor] = true } }
        var row = [Int](repeating: 0, count: k)
        var assigned = [Bool](repeating: false, count: k)
        func satisfiedSoFar() -> Bool {
            model.constraints.allSatisfy { constraint in
                !constraint.scope.allSatisfy { assigned[$0] } || constraint.isSatisfied(by: row)
            }
        }
        func search(_ factor: Int) -> Bool {
            if factor == k { return satisfiedSoFar() }
            let choices: [Int]
            if let value = fixed[factor] {
                choices = [value]
            } else if !mentioned[factor] {
                choices = [0]
            } else {
                choices = Array(0..<model.factors[factor].levels.count)
            }
            for level in choices {
                row[factor] = level
                assigned[factor] = true
                if satisfiedSoFar() && search(factor + 1) { return true }
                assigned[factor] = false
            }
            return false
        }
        return search(0)
    }

    /// A tuple as `Name=value` pairs, for messages.
    public func describe(_ tuple: Tuple) -> String {
        tuple.values.map { "\(model.factors[$0.factor].name)=\(model.factors[$0.factor].levels[$0.level])" }.joined(separator: ", ")
    }
}
