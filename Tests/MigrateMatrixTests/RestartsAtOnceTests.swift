import Foundation
import MigrateTestSupport
import Testing

@testable import MigrateMatrix

@Suite("Greedy restarts run at once, one per core", .timeLimit(.minutes(20)))
struct RestartsAtOnceTests {
    @Test(
        "Greedy restarts run at once give the rows they give in turn (constrained pairwise, and strengths 3 and 4)",
        arguments: [(0, 2), (1, 2), (2, 3), (3, 4), (4, 4)])
    func restartsAtOnce(model index: Int, strength: Int) throws {
        // PICT's disk-partition example (doc/pict.md, "Constraints").
        let disk = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/pict/disk-partition.txt"), encoding: .utf8)
        let model = [
            constrainedModel(), try #require(PICTModel.parse(disk).model).model,
            CoverageModel(levelCounts: Array(repeating: 3, count: 9)), CoverageModel(levelCounts: [3, 3, 3, 2, 2, 2, 2]),
            // Its two restarts tie on rows, so taking the last instead of the first would show.
            CoverageModel(levelCounts: [2, 2, 2, 2, 2, 2]),
        ][index]
        var inTurn = GeneratorOptions(strength: strength)
        inTurn.restartsAtOnce = false
        let atOnce = try CoveringArrayGenerator(model: model, options: GeneratorOptions(strength: strength)).generate()
        #expect(atOnce.rows == (try CoveringArrayGenerator(model: model, options: inTurn).generate().rows))
        #expect(atOnce.producedBy.contains("2 × 10 candidates"), "\(atOnce.producedBy)")
    }
}
