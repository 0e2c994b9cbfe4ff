import MigratePlan

/// A problem in a model or matrix file, at a line and column (1-based). Also used for warnings.
public struct ModelFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// A model in PICT's plain format (github.com/microsoft/pict, doc/pict.md), read with PICT's meaning.
///
/// Supported: parameters (`Name: v1, v2`, or `Name, v1, v2`), whole-line `#` comments, aliases
/// (`a | b`: one value, constraints see only the first name, output rotates the names), negative
/// values (`~v`: at most one per row, never masking a valid combination, printed with `~`), weights
/// (`v (5)`, read and not used: PICT documents them as hints), parameter reuse (`<P>`), numeric and
/// text parameters compared as PICT compares them, and constraints: `IF … THEN … ELSE …;` and
/// invariants with `=`, `<>`, `<`, `<=`, `>`, `>=`, `IN`, `NOT IN`, `LIKE`, `NOT LIKE`, `AND`, `OR`,
/// `NOT` and parentheses, against values or other parameters. Refused with an error at line and column:
/// sub-models (`{ A, B } @ N`), per-parameter orders (`Name @ N:`), result parameters (`$Name`),
/// the undocumented `IsNegative`/`IsPositive` functions, empty and duplicate values.
public struct PICTModel: Sendable {
    /// One value of a parameter: its names (the first is the one constraints see) and whether it is negative.
    public struct Value: Sendable, Hashable {
        public var names: [String]
        public var isNegative: Bool
        /// PICT's weight (1 when none is given); a hint PICT may ignore, not used by migrate.
        public var weight: Int
        public var line: Int
        public var column: Int

        /// The first name, with `~` when the value is negative: how the value is shown.
        public var label: String { (isNegative ? "~" : "") + names[0] }
    }

    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var values: [Value]
        /// True when every value's first name is a number: constraints then compare numerically.
        public var isNumeric: Bool
        public var line: Int
        public var column: Int
    }

    public let parameters: [Parameter]
    /// The constraints as written, one per statement (an `IF … ELSE …` is one).
    let statements: [PICTStatement]
    /// Per parameter and value, what constraints compare.
    let keys: [[PICTKey]]
    /// Problems that do not stop generation, such as values no valid row can contain.
    public internal(set) var warnings: [ModelFileError] = []

    /// The model with the user's constraints only: level names are the values' labels.
    public let baseModel: CoverageModel
    /// What the generator works on: `baseModel` plus "at most one negative value per row", written as
    /// one constraint per pair of parameters that have negative values.
    public let model: CoverageModel

    /// Reads a model: the model and its warnings, or every problem found (with line and column).
    public static func parse(_ text: String) -> (model: PICTModel?, errors: [ModelFileError]) {
        var reader = PICTReader(text: text)
        return reader.run()
    }

    init(parameters: [Parameter], statements: [PICTStatement]) {
        self.parameters = parameters
        self.statements = statements
        let keys = parameters.map { parameter in
            parameter.values.map { value in
                PICTKey(folded: PICTText.folded(value.names[0]), number: parameter.isNumeric ? PICTText.number(value.names[0]) : nil)
            }
        }
        self.keys = keys
        let factors = parameters.map { Factor($0.name, levels: $0.values.map(\.label)) }
        let constraints = statements.map { $0.constraint(keys: keys, levelMap: nil) }
        baseModel = CoverageModel(factors: factors, constraints: constraints)
        var full = baseModel
        full.constraints += Self.negativePairs(parameters.map { $0.values.map(\.isNegative) }, names: parameters.map(\.name))
        model = full
    }

    /// Per parameter and value, whether the value is negative.
    public var negativeMask: [[Bool]] { parameters.map { $0.values.map(\.isNegative) } }

    public var hasNegativeValues: Bool { parameters.contains { $0.values.contains(where: \.isNegative) } }

    /// "No two negative values in one row", as a constraint on each pair of parameters with negative values.
    static func negativePairs(_ mask: [[Bool]], names: [String]) -> [Constraint] {
        let negatives = mask.indices.filter { mask[$0].contains(true) }
        var constraints: [Constraint] = []
        for (position, first) in negatives.enumerated() {
            for second in negatives[(position + 1)...] {
                let a = mask[first]
                let b = mask[second]
                constraints.append(
                    Constraint(scope: [first, second], label: "at most one negative value in a row ([\(names[first])] and [\(names[second])])") {
                        values in
                        !(a[values[0]] && b[values[1]])
                    })
            }
        }
        return constraints
    }

    // MARK: - Names in rows

    /// The index of the parameter named `name`, compared as PICT does (without regard to case).
    public func factorIndex(named name: String) -> Int? {
        let key = PICTText.folded(name.trimmedLikePICT)
        return parameters.firstIndex { PICTText.folded($0.name) == key }
    }

    /// The value of `factor` that has `name` as any of its names (without regard to case, with or
    /// without the `~` of a negative value): how PICT matches seed rows, and how its output is read back.
    public func level(named name: String, of factor: Int) -> Int? {
        var key = PICTText.folded(name.trimmedLikePICT)
        let values = parameters[factor].values
        if let found = values.firstIndex(where: { $0.names.contains { PICTText.folded($0) == key } }) { return found }
        if key.first == UInt32(UInt8(ascii: "~")) {
            key.removeFirst()
            return values.firstIndex { $0.isNegative && $0.names.contains { PICTText.folded($0) == key } }
        }
        return nil
    }

    /// The rows as PICT prints them: a value with several names shows them in turn, one per row in
    /// which it occurs (PICT: "Names are rotated among the test cases"), negative values with `~`.
    public func namedRows(_ rows: [[Int]]) -> [[String]] {
        var uses = parameters.map { [Int](repeating: 0, count: $0.values.count) }
        return rows.map { row in
            row.enumerated().map { factor, level in
                let value = parameters[factor].values[level]
                let name = value.names[uses[factor][level] % value.names.count]
                uses[factor][level] += 1
                return (value.isNegative ? "~" : "") + name
            }
        }
    }

    /// A verifier with PICT's rule for negative values: a row with a negative value covers only the
    /// combinations that contain it, since the error it causes masks the rest of the row.
    public func verifier(strength: Int) -> CoverageVerifier {
        CoverageVerifier(model: baseModel, strength: strength, negative: hasNegativeValues ? negativeMask : nil)
    }
}

/// What constraints compare for one value: its first name folded, and its number in a numeric parameter.
struct PICTKey: Sendable {
    var folded: [UInt32]
    var number: Double?
}

extension String {
    /// Without leading and trailing white space (spaces, tabs, carriage returns), as PICT trims.
    var trimmedLikePICT: String {
        let characters = Array(self)
        var start = 0
        var end = characters.count
        while start < end && characters[start].isWhitespace { start += 1 }
        while end > start && characters[end - 1].isWhitespace { end -= 1 }
        return String(characters[start..<end])
    }
}
