import MigrateSupport
import Testing

@testable import MigrateMatrix

@Suite("Strengths 3 and 4: a cell's tuples read from the written-out table or ranked one by one", .timeLimit(.minutes(20)))
struct CellTupleTests {
    @Test(
        "Cell changes and estimates leave the same counts and missing list, in the order setting and resetting the cell would",
        arguments: [([3, 3, 3, 3, 3, 3], 3), ([4, 3, 2, 2, 3, 2, 2], 3), ([3, 3, 2, 2, 2, 2], 4), ([2, 3, 2, 4, 2], 4)])
    func sameChanges(levels: [Int], strength: Int) throws {
        let problem = try CoverageProblem(model: CoverageModel(levelCounts: levels), strength: strength)
        let written = CoverageTables(problem: problem)
        let ranked = CoverageTables(problem: problem, writesCellTuples: false)
        #expect(written.cellTuples != nil)
        #expect(ranked.cellTuples == nil)
        let rows = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels), options: GeneratorOptions(strength: strength, polish: false))
            .generate().rows
        // The third sets the cell and sets it back where the others estimate: an estimate must leave
        // the missing list as that would.
        let states = [written, ranked, written].map { CoverageState(tables: $0, capacity: rows.count, frozenRows: 0) }
        for state in states { state.load(rows) }
        var random = SeededGenerator(seed: UInt64(levels.count * 10 + strength))
        for step in 0..<400 {
            let row = Int(random.next() % UInt64(rows.count))
            let factor = Int(random.next() % UInt64(levels.count))
            let level = Int(random.next() % UInt64(levels[factor]))
            let old = states[0].cells[row * levels.count + factor]
            if step % 2 == 0 {
                let estimates = states.prefix(2).map { $0.estimate(row, factor, level) }
                let before = states[2].missingCount
                states[2].setCell(row, factor, from: old, to: level)
                let change = states[2].missingCount - before
                states[2].setCell(row, factor, from: level, to: old)
                #expect(estimates == [change, change], "estimate at step \(step)")
            } else {
                for state in states { state.setCell(row, factor, from: old, to: level) }
            }
            let tuples = problem.space.tupleCount
            let same = states.dropFirst().allSatisfy { other in
                (0..<tuples).allSatisfy { states[0].counts[$0] == other.counts[$0] } && states[0].missingCount == other.missingCount
                    && (0..<other.missingCount).allSatisfy { states[0].missing[$0] == other.missing[$0] }
            }
            #expect(same, "after step \(step)")
            if !same { break }
        }
    }
}
