extension PICTModel {
    /// The covering array, made as PICT makes it (doc/pict.md, "Negative Testing"): rows of valid
    /// values only cover every combination of valid values, so no negative value can mask one; then
    /// rows with exactly one negative value each cover every combination that holds one. Without
    /// negative values this is one run of the generator.
    ///
    /// `seedRows` (level indices, nil for any value) come first; a seed row that needs a negative
    /// value comes first among the rows with negative values, where PICT would place it.
    public func generate(options: GeneratorOptions, seedRows: [[Int?]] = []) throws(ModelError) -> CoveringArray {
        guard hasNegativeValues else {
            return try CoveringArrayGenerator(model: model, options: options).generate(seedRows: seedRows)
        }
        let mask = negativeMask
        // The model of valid values only, and where each of its levels sits in the full parameter.
        let positiveLevels = mask.map { levels in levels.indices.filter { !levels[$0] } }
        let positive = CoverageModel(
            factors: zip(baseModel.factors, positiveLevels).map { factor, levels in Factor(factor.name, levels: levels.map { factor.levels[$0] }) },
            constraints: statements.map { $0.constraint(keys: keys, levelMap: positiveLevels) })
        let positiveSearch = ValidRowSearch(model: positive)

        var positiveSeeds: [[Int?]] = []
        var negativeSeeds: [[Int?]] = []
        for seed in seedRows {
            let mapped = seed.enumerated().map { factor, level -> Int?? in
                guard let level else { return .some(nil) }
                return positiveLevels[factor].firstIndex(of: level).map { .some($0) }
            }
            if mapped.allSatisfy({ $0 != nil }), case let row = mapped.map({ $0! }), positiveSearch.exists(row) {
                positiveSeeds.append(row)
            } else {
                negativeSeeds.append(seed)
            }
        }

        var positiveRows: [[Int]] = []
        var producedBy = ""
        // Rows without a negative value must cover every tuple of valid values, so the valid model's
        // bound holds for them, and every seed row that needs a negative value is one more; the second
        // run's bound counts its seeds, our own rows, so it is no bound on the matrix.
        var lowerBound = 0
        if !positiveSeeds.isEmpty || positiveSearch.exists([Int?](repeating: nil, count: positive.factors.count)) {
            let first = try CoveringArrayGenerator(model: positive, options: options).generate(seedRows: positiveSeeds)
            producedBy = first.producedBy + "; "
            lowerBound = first.lowerBound
            positiveRows = first.rows.map { row in row.enumerated().map { positiveLevels[$0.offset][$0.element] } }
        }
        // The second run starts from the first run's rows, so it only adds rows for what they can't
        // cover: combinations with a negative value.
        let second = try CoveringArrayGenerator(model: model, options: options).generate(
            seedRows: positiveRows.map { $0.map(Optional.some) } + negativeSeeds)
        let seeded = positiveRows.count + negativeSeeds.count
        let rows = second.rows.enumerated().filter { index, row in
            index < seeded || row.indices.contains { mask[$0][row[$0]] }
        }.map(\.element)
        return CoveringArray(
            model: model, strength: options.strength, rows: rows, requiredTupleCount: second.requiredTupleCount, tupleCount: second.tupleCount,
            lowerBound: max(1, lowerBound + negativeSeeds.count), producedBy: producedBy + "rows with a negative value: " + second.producedBy)
    }
}
