import MigrateSupport
import Testing

@testable import MigrateMatrix

@Suite("Tabu search (the default pass for pairwise models without constraints)", .timeLimit(.minutes(20)))
struct TabuSearchTests {
    /// A complete pairwise array for `model` from greedy search alone, with every row twice: plenty for tabu search to remove.
    static func redundantStart(_ model: CoverageModel, seed: UInt64 = 0) throws -> [[Int]] {
        let rows = try CoveringArrayGenerator(model: model, options: GeneratorOptions(seed: seed, polish: false)).generate().rows
        return rows + rows
    }

    static func shrink(
        _ model: CoverageModel, _ rows: [[Int]], frozen: [[Bool]] = [], movesPerRepair: Int = GeneratorOptions.tabuMovesPerRepair,
        work: Int = GeneratorOptions.polishWork, lowerBound: Int = 1, seed: UInt64 = 1
    ) throws -> [[Int]] {
        let problem = try CoverageProblem(model: model, strength: 2)
        var random = SeededGenerator(seed: seed)
        return Annealer(problem: problem, frozen: frozen).tabuShrink(
            rows, movesPerRepair: movesPerRepair, work: work, lowerBound: lowerBound, random: &random)
    }

    @Test(
        "Removes rows and leaves every pair covered",
        arguments: [
            [3, 3, 3, 3], Array(repeating: 3, count: 13), Array(repeating: 2, count: 10) + Array(repeating: 3, count: 5), [4, 4, 3, 3, 2, 2, 2],
            [5, 1, 4], [6, 4, 4, 3, 2], [2, 2],
        ])
    func shrinks(levels: [Int]) throws {
        let model = CoverageModel(levelCounts: levels)
        let start = try Self.redundantStart(model)
        let rows = try Self.shrink(model, start)
        expectComplete(Self.array(model, rows))
        #expect(rows.count <= start.count / 2, "tabu search should at least undo the doubling: \(rows.count) of \(start.count)")
        let widest = levels.sorted(by: >)
        #expect(rows.count >= widest[0] * widest[1])
    }

    /// `rows` as a pairwise array of a model without constraints, for the verifier: every pair is required.
    static func array(_ model: CoverageModel, _ rows: [[Int]]) -> CoveringArray {
        let levels = model.levelCounts
        var pairs = 0
        for first in levels.indices { for second in levels.indices where second > first { pairs += levels[first] * levels[second] } }
        return CoveringArray(model: model, strength: 2, rows: rows, requiredTupleCount: pairs, tupleCount: pairs)
    }

    @Test("Seed cells never change, and seed rows are never dropped")
    func seedCellsStay() throws {
        let model = CoverageModel(levelCounts: Array(repeating: 3, count: 8))
        let seeds = [[0, 1, 2, 0, 1, 2, 0, 1], [2, 2, 2, 2, 2, 2, 2, 2]]
        // The second seed row fixes only its first three cells.
        let frozen = [Array(repeating: true, count: 8), [true, true, true] + Array(repeating: false, count: 5)]
        let start = seeds + (try Self.redundantStart(model))
        for seed in UInt64(1)...4 {
            let rows = try Self.shrink(model, start, frozen: frozen, seed: seed)
            #expect(rows.count < start.count)
            #expect(rows[0] == seeds[0])
            #expect(Array(rows[1].prefix(3)) == [2, 2, 2])
            expectComplete(Self.array(model, rows))
        }
    }

    @Test("A move that would break a constraint is undone: every row stays valid")
    func constraintsHold() throws {
        let model = constrainedModel()
        let start = try CoveringArrayGenerator(model: model, options: GeneratorOptions(polish: false)).generate()
        for seed in UInt64(1)...4 {
            let rows = try Self.shrink(model, start.rows + start.rows, seed: seed)
            var array = start
            array.rows = rows
            let report = expectComplete(array)
            #expect(report.invalidRows.isEmpty)
        }
    }

    @Test(
        "Without moves, work or room under the bound, the rows come back as they were",
        arguments: [
            (0, GeneratorOptions.polishWork, 1), (GeneratorOptions.tabuMovesPerRepair, 0, 1),
            (GeneratorOptions.tabuMovesPerRepair, GeneratorOptions.polishWork, 10_000),
        ])
    func keepsTheLastCompleteArray(moves: Int, work: Int, lowerBound: Int) throws {
        let model = CoverageModel(levelCounts: Array(repeating: 3, count: 6))
        // Greedy's rows each cover a pair no other row does, so a dropped row leaves pairs to repair:
        // with no moves the first repair fails, and the array before it is the answer.
        let start = try CoveringArrayGenerator(model: model, options: GeneratorOptions(polish: false)).generate().rows
        let rows = try Self.shrink(model, start, movesPerRepair: moves, work: work, lowerBound: lowerBound)
        #expect(rows == start)
    }

    @Test("The same seed gives the same rows")
    func deterministic() throws {
        let model = CoverageModel(levelCounts: [4, 4, 3, 3, 3, 2, 2, 2, 2])
        let start = try Self.redundantStart(model)
        #expect(try Self.shrink(model, start, seed: 9) == (try Self.shrink(model, start, seed: 9)))
    }

    @Test(
        "The default pass is tabu search only for pairwise models without constraints where its work buys enough moves",
        arguments: [
            (Array(repeating: 3, count: 13), false, 2, true, true),
            (Array(repeating: 4, count: 15) + Array(repeating: 3, count: 17) + Array(repeating: 2, count: 29), false, 2, true, true),
            (Array(repeating: 10, count: 20), false, 2, true, true),
            // Constrained, 3-wise, or without the default pass: the annealer (or nothing).
            ([3, 4, 3, 4, 2, 3], true, 2, true, false),
            (Array(repeating: 3, count: 13), false, 3, true, false),
            (Array(repeating: 3, count: 13), false, 2, false, false),
            // Twice the bound's rows over the factors: 3^200 (11 rows) buys 342 moves, under the 350
            // needed; 3^150 (11 rows) buys 457.
            (Array(repeating: 3, count: 200), false, 2, true, false),
            (Array(repeating: 3, count: 150), false, 2, true, true),
        ])
    func choice(levels: [Int], constrained: Bool, strength: Int, polish: Bool, tabu: Bool) throws {
        let model = constrained ? constrainedModel() : CoverageModel(levelCounts: levels)
        let problem = try CoverageProblem(model: model, strength: strength)
        let options = GeneratorOptions(strength: strength, polish: polish)
        let bound = CoveringArrayGenerator.lowerBound(problem: problem, seedCount: 0)
        #expect(options.usesTabuSearch(problem, lowerBound: bound) == tabu)
    }

    @Test("On the wide standard models tabu search gives fewer rows than the annealer did (32 and 23), and --verbose says so")
    func wideModels() throws {
        for (levels, most) in [
            (Array(repeating: 4, count: 15) + Array(repeating: 3, count: 17) + Array(repeating: 2, count: 29), 30),
            ([4] + Array(repeating: 3, count: 39) + Array(repeating: 2, count: 35), 21),
        ] {
            let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels)).generate()
            #expect(array.rows.count <= most)
            #expect(array.producedBy == "search: greedy (1 × 1 candidates), tabu search", "\(array.producedBy)")
            expectComplete(array)
        }
        let constrained = try CoveringArrayGenerator(model: constrainedModel()).generate()
        #expect(!constrained.producedBy.contains("tabu"), "\(constrained.producedBy)")
    }
}
