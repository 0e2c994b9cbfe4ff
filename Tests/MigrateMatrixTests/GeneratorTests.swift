import MigrateMatrix
import Testing

/// Verifies a generated array with the independent verifier and returns the report.
@discardableResult
func expectComplete(_ array: CoveringArray, sourceLocation: SourceLocation = #_sourceLocation) -> CoverageVerifier.Report {
    let verifier = CoverageVerifier(model: array.model, strength: array.strength)
    let report = verifier.verify(array.rows)
    #expect(report.invalidRows.isEmpty, "invalid rows: \(report.invalidRows)", sourceLocation: sourceLocation)
    #expect(report.missing.isEmpty, "missing: \(report.missing.prefix(5).map(verifier.describe))", sourceLocation: sourceLocation)
    #expect(
        report.requiredCount == array.requiredTupleCount, "the generator and the verifier disagree on what is required",
        sourceLocation: sourceLocation)
    return report
}

/// A model with constraints in several shapes, including an indirect one.
func constrainedModel() -> CoverageModel {
    CoverageModel(
        factors: [
            Factor("OS", levels: ["iOS", "macOS", "tvOS"]),
            Factor("Browser", levels: ["Safari", "Chrome", "Firefox", "none"]),
            Factor("Input", levels: ["touch", "mouse", "remote"]),
            Factor("Network", levels: ["wifi", "cellular", "ethernet", "offline"]),
            Factor("Account", levels: ["guest", "member"]),
            Factor("Locale", levels: ["en", "de", "ja"]),
        ],
        constraints: [
            Constraint(scope: [0, 2], label: "tvOS uses the remote, only tvOS") { ($0[0] == 2) == ($0[1] == 2) },
            Constraint(scope: [0, 1], label: "tvOS has no browser") { $0[0] != 2 || $0[1] == 3 },
            Constraint(scope: [2, 3], label: "touch devices have no ethernet") { $0[0] != 0 || $0[1] != 2 },
            .forbidden([(3, 3), (4, 1)], label: "members are never offline"),
        ])
}

@Suite("Covering-array generator", .timeLimit(.minutes(20)))
struct GeneratorTests {
    @Test(
        "The greedy passes keep their settings under the work cap, and past it drop to one restart and the candidates that fit (at least 2)",
        arguments: [
            // Small models (the examples are like these) keep 2 restarts of 10 candidates.
            ([3, 3, 3, 3], 4_000_000_000, 2, 10),
            ([6, 8, 3, 3, 3, 2, 2, 2, 2, 2], 4_000_000_000, 2, 10),
            // 60 products, 200 releases, 40 tiers: 67 factors, versions 136, dates 167.
            ([136, 167] + Array(repeating: 4, count: 65), 4_000_000_000, 1, 4),
            ([136, 167] + Array(repeating: 4, count: 65), Int.max, 2, 10),
            ([136, 167] + Array(repeating: 4, count: 65), GeneratorOptions.defaultGreedyWork, 1, 2),
            // Past what fits even 2 candidates, and past Int's range: 2 candidates, 1 restart.
            ([136, 167] + Array(repeating: 4, count: 65), 1, 1, 2),
            ([Int.max / 2, Int.max / 2, 3], 4_000_000_000, 1, 2),
        ])
    func greedyPasses(levels: [Int], work: Int, restarts: Int, candidates: Int) {
        var options = GeneratorOptions()
        options.greedyWork = work
        let passes = options.greedyPasses(levelCounts: levels)
        #expect(passes.restarts == restarts && passes.candidates == candidates, "\(passes)")
    }

    @Test("Under a small work cap the array is still complete and valid")
    func completeUnderTheCap() throws {
        var options = GeneratorOptions()
        options.greedyWork = 1
        let array = try CoveringArrayGenerator(model: constrainedModel(), options: options).generate()
        expectComplete(array)
    }

    @Test(
        "Every result covers every required tuple with valid rows",
        arguments: [
            ([3, 3, 3, 3], 1), ([3, 3, 3, 3], 2), ([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3], 2), ([4, 4, 3, 3, 2, 2, 2], 2),
            ([3, 3, 3, 3, 3, 3], 3), ([2, 2, 2, 2, 2, 2, 2], 4), ([5, 1, 4], 2), ([7], 1),
        ])
    func unconstrained(levels: [Int], strength: Int) throws {
        let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels), options: GeneratorOptions(strength: strength)).generate()
        expectComplete(array)
        let sorted = levels.sorted(by: >)
        #expect(array.rows.count >= sorted.prefix(strength).reduce(1, *))
    }

    @Test("Sizes on small standard models are at or near the best known")
    func sizes() throws {
        let model34 = try CoveringArrayGenerator(model: CoverageModel(levelCounts: [3, 3, 3, 3])).generate()
        #expect(model34.rows.count == 9)
        let model313 = try CoveringArrayGenerator(model: CoverageModel(levelCounts: Array(repeating: 3, count: 13))).generate()
        #expect(model313.rows.count <= 17)
        expectComplete(model313)
    }

    @Test("Constraints at strengths 1 to 3: rows are valid and every tuple some valid row holds is covered", arguments: [1, 2, 3])
    func constrained(strength: Int) throws {
        let array = try CoveringArrayGenerator(model: constrainedModel(), options: GeneratorOptions(strength: strength, effort: 0)).generate()
        let report = expectComplete(array)
        if strength > 1 { #expect(report.requiredCount < array.tupleCount) }
    }

    @Test("The same seed gives the same rows; another seed may differ but is also complete")
    func determinism() throws {
        let model = constrainedModel()
        let first = try CoveringArrayGenerator(model: model, options: GeneratorOptions(seed: 7)).generate()
        let again = try CoveringArrayGenerator(model: model, options: GeneratorOptions(seed: 7)).generate()
        #expect(first.rows == again.rows)
        let other = try CoveringArrayGenerator(model: model, options: GeneratorOptions(seed: 8)).generate()
        expectComplete(other)
    }

    @Test("Seed rows come first, partial ones completed; an impossible seed row is refused")
    func seedRows() throws {
        let model = constrainedModel()
        let seeds: [[Int?]] = [[2, 3, 2, 2, 1, 2], [0, nil, nil, nil, nil, 1]]
        let array = try CoveringArrayGenerator(
            model: model,
            options: {
                var options = GeneratorOptions()
                options.effortWork = 2_000_000
                return options
            }()
        ).generate(seedRows: seeds)
        expectComplete(array)
        #expect(array.rows[0] == [2, 3, 2, 2, 1, 2])
        #expect(array.rows[1][0] == 0 && array.rows[1][5] == 1)
        #expect(throws: ModelError.self) {
            try CoveringArrayGenerator(model: model).generate(seedRows: [[2, 0, nil, nil, nil, nil]])
        }
    }

    @Test("Effort never gives more rows than the default")
    func effort() throws {
        let model = CoverageModel(levelCounts: Array(repeating: 3, count: 13))
        let quick = try CoveringArrayGenerator(model: model, options: GeneratorOptions(polish: false)).generate()
        let polished = try CoveringArrayGenerator(model: model).generate()
        var options = GeneratorOptions()
        options.effortWork = 3_000_000
        let more = try CoveringArrayGenerator(model: model, options: options).generate()
        #expect(polished.rows.count <= quick.rows.count)
        #expect(more.rows.count <= polished.rows.count)
        expectComplete(more)
    }

    @Test("Effort stops at the first round that removes no row, and --verbose's account says so")
    func effortStops() throws {
        // 3^13 has 15 rows at the default settings, the best known: the first round (a quarter of the
        // budget) finds no 14-row array, so the effort ends there with three quarters unspent.
        let model = CoverageModel(levelCounts: Array(repeating: 3, count: 13))
        var options = GeneratorOptions()
        options.effortWork = 2_000_000
        let array = try CoveringArrayGenerator(model: model, options: options).generate()
        #expect(array.rows.count == 15)
        #expect(array.producedBy.hasSuffix(", effort: 0 rows fewer (stopped at a round that removed no row)"), "\(array.producedBy)")
        expectComplete(array)
        // Allowed three failed rounds, the budget runs out first (rounds of a quarter, a half, then the rest).
        options.roundsWithoutGain = 3
        let patient = try CoveringArrayGenerator(model: model, options: options).generate()
        #expect(patient.producedBy.hasSuffix(", effort: 0 rows fewer"), "\(patient.producedBy)")
        #expect(patient.rows.count == 15)
    }

    @Test("Impossible models and strengths are clear errors")
    func errors() {
        let impossible = CoverageModel(
            factors: [Factor("A", levels: ["x"]), Factor("B", levels: ["y"])],
            constraints: [.forbidden([(0, 0), (1, 0)])])
        #expect(throws: ModelError("the constraints exclude every row")) { try CoveringArrayGenerator(model: impossible).generate() }
        #expect(throws: ModelError.self) {
            try CoveringArrayGenerator(model: CoverageModel(levelCounts: [2, 2]), options: GeneratorOptions(strength: 3)).generate()
        }
        #expect(throws: ModelError.self) { try CoveringArrayGenerator(model: CoverageModel(levelCounts: [2, 0])).generate() }
    }

    @Test("The exhaustive product honours constraints and its limit")
    func exhaustive() throws {
        let model = constrainedModel()
        let all = try #require(try CoveringArrayGenerator(model: model).exhaustive(limit: 100_000))
        let brute = (0..<model.fullProductSize).map { index -> [Int] in
            var rest = index
            return model.levelCounts.reversed().map { count -> Int in
                defer { rest /= count }
                return rest % count
            }.reversed()
        }.filter { row in model.constraints.allSatisfy { $0.isSatisfied(by: row) } }
        #expect(Set(all) == Set(brute))
        #expect(all.count == brute.count)
        #expect(try CoveringArrayGenerator(model: model).exhaustive(limit: 10) == nil)
    }
}
