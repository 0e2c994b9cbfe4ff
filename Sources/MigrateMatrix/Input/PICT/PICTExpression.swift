/// A parsed PICT constraint expression, evaluated on the values of a row.
indirect enum PICTExpression: Sendable {
    case and(PICTExpression, PICTExpression)
    case or(PICTExpression, PICTExpression)
    case not(PICTExpression)
    /// A text parameter against quoted text, compared folded (without regard to case).
    case text(factor: Int, PICTRelation, [UInt32])
    /// A numeric parameter against a number.
    case number(factor: Int, PICTRelation, Double)
    /// Two parameters of the same type.
    case factors(factor: Int, PICTRelation, other: Int, numeric: Bool)
    case textSet(factor: Int, [[UInt32]])
    case numberSet(factor: Int, [Double])
    case like(factor: Int, [UInt32])

    /// Whether the row's values satisfy the expression; `key` gives what a factor's value compares as.
    func evaluate(_ key: (Int) -> PICTKey) -> Bool {
        switch self {
        case .and(let a, let b): return a.evaluate(key) && b.evaluate(key)
        case .or(let a, let b): return a.evaluate(key) || b.evaluate(key)
        case .not(let a): return !a.evaluate(key)
        case .text(let factor, let relation, let text):
            return relation.holds(PICTText.compare(key(factor).folded, text))
        case .number(let factor, let relation, let number):
            return relation.holds(Self.order(key(factor).number ?? .nan, number))
        case .factors(let factor, let relation, let other, let numeric):
            let a = key(factor)
            let b = key(other)
            return relation.holds(numeric ? Self.order(a.number ?? .nan, b.number ?? .nan) : PICTText.compare(a.folded, b.folded))
        case .textSet(let factor, let members):
            let value = key(factor).folded
            return members.contains(value)
        case .numberSet(let factor, let members):
            let value = key(factor).number ?? .nan
            return members.contains { Self.order(value, $0) == 0 }
        case .like(let factor, let pattern):
            return PICTText.matches(key(factor).folded, pattern: pattern)
        }
    }

    /// PICT compares numbers by the sign of their difference.
    private static func order(_ a: Double, _ b: Double) -> Int {
        let difference = a - b
        return difference < 0 ? -1 : (difference > 0 ? 1 : (difference == 0 ? 0 : 2))
    }

    var factors: Set<Int> {
        switch self {
        case .and(let a, let b), .or(let a, let b): return a.factors.union(b.factors)
        case .not(let a): return a.factors
        case .factors(let factor, _, let other, _): return [factor, other]
        case .text(let factor, _, _), .number(let factor, _, _), .textSet(let factor, _), .numberSet(let factor, _), .like(let factor, _):
            return [factor]
        }
    }

    /// The same expression with factor indices renumbered (to positions in a constraint's scope).
    func renumbered(_ position: (Int) -> Int) -> PICTExpression {
        switch self {
        case .and(let a, let b): .and(a.renumbered(position), b.renumbered(position))
        case .or(let a, let b): .or(a.renumbered(position), b.renumbered(position))
        case .not(let a): .not(a.renumbered(position))
        case .text(let factor, let relation, let text): .text(factor: position(factor), relation, text)
        case .number(let factor, let relation, let number): .number(factor: position(factor), relation, number)
        case .factors(let factor, let relation, let other, let numeric):
            .factors(factor: position(factor), relation, other: position(other), numeric: numeric)
        case .textSet(let factor, let members): .textSet(factor: position(factor), members)
        case .numberSet(let factor, let members): .numberSet(factor: position(factor), members)
        case .like(let factor, let pattern): .like(factor: position(factor), pattern)
        }
    }
}

enum PICTRelation: String, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// `order` is -1, 0 or 1, or 2 when unordered (a NaN), which satisfies only `<>`.
    func holds(_ order: Int) -> Bool {
        switch self {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order == -1
        case .lessOrEqual: order == -1 || order == 0
        case .greater: order == 1
        case .greaterOrEqual: order == 1 || order == 0
        }
    }

    var isEquality: Bool { self == .equal || self == .notEqual }
}

/// One constraint statement of the model file, where it was written, and how to check it.
struct PICTStatement: Sendable {
    var expression: PICTExpression
    var line: Int
    var column: Int
    /// `line N: <the constraint's first line>`, for messages.
    var label: String

    /// The statement as a constraint on level indices. `levelMap[factor][level]` gives the value
    /// index in the full parameter when the model is a subset of its values (nil: all values).
    func constraint(keys: [[PICTKey]], levelMap: [[Int]]?) -> Constraint {
        let scope = expression.factors.sorted()
        var position: [Int: Int] = [:]
        for (index, factor) in scope.enumerated() { position[factor] = index }
        let local = expression.renumbered { position[$0]! }
        let localKeys: [[PICTKey]] = scope.map { factor in
            guard let levelMap else { return keys[factor] }
            return levelMap[factor].map { keys[factor][$0] }
        }
        return Constraint(scope: scope, label: label) { values in
            local.evaluate { localKeys[$0][values[$0]] }
        }
    }
}
