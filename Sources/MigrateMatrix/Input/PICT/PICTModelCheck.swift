/// What PICT reports about a model's constraints before it generates: constraints that no row can
/// satisfy together ("Too restrictive constraints"), and values no valid row can contain (PICT warns
/// that the output will not contain them). migrate finds both exactly, by search, and names the line.
struct PICTModelCheck {
    let model: PICTModel
    let search: ValidRowSearch

    init(model: PICTModel) {
        self.model = model
        search = ValidRowSearch(model: model.baseModel, negative: model.hasNegativeValues ? model.negativeMask : nil)
    }

    private var nothingFixed: [Int?] { [Int?](repeating: nil, count: model.parameters.count) }

    /// The constraint at which the constraints, read in order, first exclude every row.
    func contradiction() -> ModelFileError? {
        if search.exists(nothingFixed) { return nil }
        // Without constraints every parameter has a value without '~', so a row exists: the first
        // `high` constraints exclude every row and the first `low` do not.
        var low = 0
        var high = model.statements.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if prefixSearch(middle).exists(nothingFixed) { low = middle } else { high = middle }
        }
        let culprit = model.statements[high - 1]
        let earlier = model.statements.prefix(high - 1).map { String($0.line) }
        let context: String
        switch earlier.count {
        case 0: context = "on its own"
        case 1: context = "together with the constraint on line \(earlier[0])"
        case 2...6: context = "together with the constraints on lines \(earlier.dropLast().joined(separator: ", ")) and \(earlier.last!)"
        default: context = "together with the \(earlier.count) constraints before it (lines \(earlier.prefix(5).joined(separator: ", ")), …)"
        }
        let negatives = model.hasNegativeValues ? " and at most one negative value per row" : ""
        return ModelFileError(
            line: culprit.line, column: culprit.column,
            message:
                "no row satisfies this constraint \(context)\(negatives): the constraints exclude every row, so there is nothing to test; relax one of them"
        )
    }

    private func prefixSearch(_ count: Int) -> ValidRowSearch {
        var prefix = model.baseModel
        prefix.constraints = Array(prefix.constraints.prefix(count))
        return ValidRowSearch(model: prefix, negative: search.negative)
    }

    /// A warning for each value that no valid row contains, at the place the value was written.
    func unreachableValues() -> [ModelFileError] {
        var candidates = [Bool](repeating: false, count: model.parameters.count)
        for constraint in model.baseModel.constraints { for factor in constraint.scope { candidates[factor] = true } }
        var warnings: [ModelFileError] = []
        for (factor, parameter) in model.parameters.enumerated() {
            for (level, value) in parameter.values.enumerated() {
                // A positive value of a parameter no constraint mentions fits any valid row; a negative
                // one needs a row whose other values are all valid, which constraints may rule out.
                guard candidates[factor] || value.isNegative else { continue }
                var fixed = nothingFixed
                fixed[factor] = level
                if !search.exists(fixed) {
                    warnings.append(
                        ModelFileError(
                            line: value.line, column: value.column,
                            message:
                                "no valid row can contain [\(parameter.name)] = \(value.label): the constraints exclude it, so the output will not contain this value"
                        ))
                }
            }
        }
        return warnings
    }
}
