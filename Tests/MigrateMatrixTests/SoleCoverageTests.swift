import MigrateSupport
import Testing

@testable import MigrateMatrix

@Suite("Tabu search's sole coverage (what changing a cell would lose), kept up to date", .timeLimit(.minutes(20)))
struct SoleCoverageTests {
    /// Recounts from the cells what `coverage` keeps: the counts, the missing list, the cells by
    /// column, and per cell the pairs its row alone covers with it. Returns the problems found.
    static func mismatches(_ coverage: Annealer.SoleCoverage, _ state: CoverageState, problem: CoverageProblem) -> [String] {
        let k = state.k
        let tables = state.tables
        func pairID(_ factor: Int, _ level: Int, _ other: Int, _ otherLevel: Int) -> Int {
            let slot = factor * k + other
            return tables.pairBase[slot] + otherLevel * tables.pairOther[slot] + level * tables.pairSelf[slot]
        }
        let rows = state.rowsArray
        var counts = [Int](repeating: 0, count: problem.space.tupleCount)
        for row in rows { row.withUnsafeBufferPointer { problem.space.forEachTuple(in: $0) { counts[$0] += 1 } } }
        var problems: [String] = []
        for id in counts.indices where problem.required[id] != 0 && Int(state.counts[id]) != counts[id] {
            problems.append("tuple \(id): count \(state.counts[id]), recounted \(counts[id])")
        }
        let missing = Set((0..<state.missingCount).map { state.missing[$0] })
        let recountedMissing = Set(counts.indices.filter { problem.required[$0] != 0 && counts[$0] == 0 })
        if missing != recountedMissing { problems.append("missing \(missing.sorted()), recounted \(recountedMissing.sorted())") }
        for (index, row) in rows.enumerated() {
            var loss = 0
            for factor in 0..<k {
                if Int(coverage.columns[factor * coverage.capacity + index]) != row[factor] {
                    problems.append("row \(index) factor \(factor): column out of date")
                }
                var sole = 0
                for other in 0..<k where other != factor {
                    let id = pairID(factor, row[factor], other, row[other])
                    if problem.required[id] != 0 && counts[id] == 1 { sole += 1 }
                }
                loss += sole
                if Int(coverage.sole[factor * coverage.capacity + index]) != sole {
                    problems.append("row \(index) factor \(factor): sole \(coverage.sole[factor * coverage.capacity + index]), recounted \(sole)")
                }
            }
            if coverage.loss(index) != loss / 2 { problems.append("row \(index): loss \(coverage.loss(index)), recounted \(loss / 2)") }
        }
        return problems
    }

    @Test(
        "Random cell changes and row removals keep every count exact",
        // No levels: the constrained model, whose rows the random changes break (tuples no valid row
        // has are not counted).
        arguments: [([3, 3, 3, 3], UInt64(1)), ([4, 4, 3, 3, 2, 2, 2, 2], 2), ([5, 1, 4, 2], 3), ([Int](), 4)] as [([Int], UInt64)])
    func staysExact(levels: [Int], seed: UInt64) throws {
        let model = levels.isEmpty ? constrainedModel() : CoverageModel(levelCounts: levels)
        let problem = try CoverageProblem(model: model, strength: 2)
        let greedy = try CoveringArrayGenerator(model: model, options: GeneratorOptions(polish: false)).generate().rows
        // Twice greedy's rows: pairs covered once, twice and more from the start.
        let start = greedy + greedy.prefix(greedy.count / 2)
        let annealer = Annealer(problem: problem, frozen: [])
        let state = CoverageState(tables: annealer.tables, capacity: start.count, frozenRows: 0)
        state.load(start)
        let coverage = Annealer.SoleCoverage(state: state, capacity: start.count)
        #expect(Self.mismatches(coverage, state, problem: problem).isEmpty)
        var random = SeededGenerator(seed: seed)
        let levelCounts = model.levelCounts
        for step in 0..<300 {
            if step % 40 == 39 && state.rowCount > 2 {
                coverage.removeRow(Int(random.next() % UInt64(state.rowCount)))
            } else {
                let row = Int(random.next() % UInt64(state.rowCount))
                let factor = Int(random.next() % UInt64(levelCounts.count))
                coverage.setCell(row, factor, to: Int(random.next() % UInt64(levelCounts[factor])))
            }
            let problems = Self.mismatches(coverage, state, problem: problem)
            #expect(problems.isEmpty, "after step \(step): \(problems.prefix(5))")
            if !problems.isEmpty { break }
        }
    }
}
