import Foundation
import MigrateSupport
import MigrateTestSupport
import Testing

@testable import MigrateMatrix

@Suite("Greedy restarts run at once, one per core", .timeLimit(.minutes(20)))
struct RestartsAtOnceTests {
    /// Models with enough required tuples for the restarts to run at once.
    static func model(_ index: Int) throws -> CoverageModel {
        // PICT's disk-partition example (doc/pict.md, "Constraints") twice over: its constraints on both copies.
        let disk = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/pict/disk-partition.txt"), encoding: .utf8)
        let lines = disk.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let twice = (lines + lines.map { $0.replacingOccurrences(of: "]", with: " 2]").replacingOccurrences(of: ":", with: " 2:") })
            .sorted { !$0.hasPrefix("IF") && $1.hasPrefix("IF") }.joined(separator: "\n")
        return [
            try #require(PICTModel.parse(twice).model).model, CoverageModel(levelCounts: Array(repeating: 3, count: 9)),
            CoverageModel(levelCounts: [3, 3, 3, 2, 2, 2, 2]),
            // Its two restarts tie on rows (51), so taking the last instead of the first would show.
            CoverageModel(levelCounts: Array(repeating: 3, count: 7)),
        ][index]
    }

    @Test(
        "Greedy restarts run at once give the rows they give in turn (constrained pairwise, and strengths 3 and 4)",
        arguments: [(0, 2), (1, 3), (2, 4), (3, 3)])
    func restartsAtOnce(model index: Int, strength: Int) throws {
        let model = try Self.model(index)
        var inTurn = GeneratorOptions(strength: strength)
        inTurn.restartsAtOnce = false
        let atOnce = try CoveringArrayGenerator(model: model, options: GeneratorOptions(strength: strength)).generate()
        #expect(atOnce.requiredTupleCount >= GeneratorOptions.restartsAtOnceMinimumTuples)
        #expect(atOnce.rows == (try CoveringArrayGenerator(model: model, options: inTurn).generate().rows))
        #expect(atOnce.producedBy.contains("2 × 10 candidates"), "\(atOnce.producedBy)")
    }

    @Test("Restarts in turn stop after one run when no construction has fewer rows, unless no default pass follows")
    func oneRunInTurn() throws {
        // PICT's disk-partition example (doc/pict.md, "Constraints"): 327 required pairs.
        let disk = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/pict/disk-partition.txt"), encoding: .utf8)
        let model = try #require(PICTModel.parse(disk).model).model
        let array = try CoveringArrayGenerator(model: model).generate()
        #expect(array.requiredTupleCount < GeneratorOptions.restartsAtOnceMinimumTuples)
        #expect(array.producedBy.contains("1 × 10 candidates"), "\(array.producedBy)")
        let unpolished = try CoveringArrayGenerator(model: model, options: GeneratorOptions(polish: false)).generate()
        #expect(unpolished.producedBy.contains("2 × 10 candidates"), "\(unpolished.producedBy)")
    }

    @Test("3^7's two greedy runs at strength 3 tie on rows, as the test above needs")
    func restartsTie() throws {
        let problem = try CoverageProblem(model: try Self.model(3), strength: 3)
        let runs = (0..<2).map { restart in
            // As the generator seeds restart 0 and 1 at seed 0.
            var random = SeededGenerator(seed: UInt64(restart))
            let rows = GreedyBuilder(problem: problem, candidates: 10).build(seeds: [], random: &random)
            return CoveringArrayGenerator.removeRedundantRows(rows, problem: problem, keep: 0)
        }
        #expect(runs[0].count == runs[1].count)
        #expect(runs[0] != runs[1])
    }
}
