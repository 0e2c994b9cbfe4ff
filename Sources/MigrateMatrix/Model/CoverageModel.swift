/// One input dimension of a test matrix: a name and the values it can take.
public struct Factor: Sendable, Hashable {
    public var name: String
    /// The values, in the order they were given. Rows refer to them by index.
    public var levels: [String]

    public init(_ name: String, levels: [String]) {
        self.name = name
        self.levels = levels
    }
}

/// A rule about which combinations of values can occur together in one row.
///
/// A constraint looks at a few factors (its `scope`) and says whether their values are allowed
/// together. The generator compiles a constraint over a few factors into forbidden combinations, and
/// checks a `clause` ("at least one of these factors takes one of these values") directly, however
/// many factors it spans; the verifier evaluates `allows` on complete rows, so the two never share a
/// code path.
public struct Constraint: Sendable {
    /// One way to satisfy a clause: `factor` takes one of `levels`.
    public struct Literal: Sendable, Hashable {
        public var factor: Int
        public var levels: Set<Int>

        public init(factor: Int, levels: Set<Int>) {
            self.factor = factor
            self.levels = levels
        }
    }

    /// Indices of the factors the rule looks at, ascending and distinct.
    public let scope: [Int]
    /// Whether the values of `scope` (level indices, in `scope` order) may occur together.
    public let allows: @Sendable ([Int]) -> Bool
    /// A human-readable form, for messages.
    public let label: String
    /// When set, the rule is this disjunction, which the generator checks without enumerating the
    /// scope: a rule over sixty products ("a restore needs something owned") costs what one over two does.
    public let clause: [Literal]?

    /// At least one literal holds: `factor` takes one of its `levels`. Literals name distinct factors.
    public static func anyOf(_ literals: [Literal], label: String) -> Constraint {
        let scope = literals.map(\.factor)
        let sets = literals.map(\.levels)
        return Constraint(scope: scope, label: label, clause: literals) { values in
            zip(sets, values).contains { $0.0.contains($0.1) }
        }
    }

    public init(scope: [Int], label: String, allows: @escaping @Sendable ([Int]) -> Bool) {
        self.init(scope: scope, label: label, clause: nil, allows: allows)
    }

    private init(scope: [Int], label: String, clause: [Literal]?, allows: @escaping @Sendable ([Int]) -> Bool) {
        self.clause = clause
        let sorted = Array(Set(scope)).sorted()
        if sorted == scope {
            self.allows = allows
        } else {
            // Keep the caller's order for the predicate, while the scope is stored sorted.
            let positions = scope.map { sorted.firstIndex(of: $0)! }
            self.allows = { values in allows(positions.map { values[$0] }) }
        }
        self.scope = sorted
        self.label = label
    }

    /// Forbids one combination: these factors never take these levels together.
    public static func forbidden(_ combination: [(factor: Int, level: Int)], label: String? = nil) -> Constraint {
        let pairs = combination
        let text = label ?? "never " + pairs.map { "#\($0.factor)=\($0.level)" }.joined(separator: " with ")
        return Constraint(scope: pairs.map(\.factor), label: text) { values in
            !zip(pairs, values).allSatisfy { $0.0.level == $0.1 }
        }
    }

    /// Evaluates the rule on a complete row.
    public func isSatisfied(by row: [Int]) -> Bool {
        allows(scope.map { row[$0] })
    }
}

/// Factors and the constraints between them: what a covering array is built for.
public struct CoverageModel: Sendable {
    public var factors: [Factor]
    public var constraints: [Constraint]

    public init(factors: [Factor], constraints: [Constraint] = []) {
        self.factors = factors
        self.constraints = constraints
    }

    /// A model without constraints from level counts, such as `[3, 3, 3, 3]` for 3^4.
    public init(levelCounts: [Int]) {
        self.factors = levelCounts.enumerated().map { index, count in
            Factor("F\(index + 1)", levels: (0..<count).map(String.init))
        }
        self.constraints = []
    }

    public var levelCounts: [Int] { factors.map(\.levels.count) }

    public func factorIndex(named name: String) -> Int? { factors.firstIndex { $0.name == name } }

    /// The number of complete rows, ignoring constraints (saturating at `Int.max`).
    public var fullProductSize: Int {
        var size = 1
        for factor in factors {
            let (product, overflow) = size.multipliedReportingOverflow(by: factor.levels.count)
            if overflow { return Int.max }
            size = product
        }
        return size
    }

    /// Level names of a row of level indices.
    public func names(of row: [Int]) -> [String] {
        row.enumerated().map { factors[$0.offset].levels[$0.element] }
    }
}

/// A model that cannot be used, and why.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
