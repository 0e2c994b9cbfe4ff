import Foundation
import MigrateTestSupport
import Testing

@testable import MigrateMatrix

/// A uniform or mixed model at a strength, with the rows a construction gives it.
struct ConstructedModel: Sendable, CustomTestStringConvertible {
    var levels: [Int]
    var strength: Int
    var rows: Int
    var testDescription: String {
        let groups = Dictionary(grouping: levels, by: { $0 }).sorted { $0.key > $1.key }
        return groups.map { "\($0.key)^\($0.value.count)" }.joined(separator: " ") + " t=\(strength)"
    }

    static func uniform(_ v: Int, _ k: Int, t: Int, rows: Int) -> ConstructedModel {
        ConstructedModel(levels: Array(repeating: v, count: k), strength: t, rows: rows)
    }
}

@Suite("Constructions and lower bounds", .timeLimit(.minutes(20)))
struct ConstructionTests {
    /// Orthogonal arrays over prime fields and over GF(4), GF(8), GF(9) (arithmetic by polynomials),
    /// binary arrays of Kleitman and Spencer: each meets the lower bound, so no search runs.
    @Test(
        "A construction meets the lower bound, covers every tuple, and is reported as the array's source",
        arguments: [
            ConstructedModel.uniform(3, 4, t: 2, rows: 9), ConstructedModel.uniform(5, 6, t: 2, rows: 25),
            ConstructedModel.uniform(7, 8, t: 2, rows: 49), ConstructedModel.uniform(4, 5, t: 2, rows: 16),
            ConstructedModel.uniform(8, 9, t: 2, rows: 64), ConstructedModel.uniform(9, 10, t: 2, rows: 81),
            ConstructedModel.uniform(5, 6, t: 3, rows: 125), ConstructedModel.uniform(4, 5, t: 3, rows: 64),
            ConstructedModel.uniform(3, 4, t: 3, rows: 27), ConstructedModel.uniform(4, 5, t: 4, rows: 256),
            // Strength 3 over GF(2^m): q+2 factors (a hyperoval).
            ConstructedModel.uniform(4, 6, t: 3, rows: 64), ConstructedModel.uniform(2, 4, t: 3, rows: 8),
            ConstructedModel.uniform(8, 10, t: 3, rows: 512),
            ConstructedModel.uniform(2, 100, t: 2, rows: 10), ConstructedModel.uniform(2, 10, t: 2, rows: 6),
            // Mixed: the smaller factors take the field's values modulo their level count.
            ConstructedModel(levels: [5, 5, 4, 3, 2, 5], strength: 2, rows: 25),
        ])
    func construction(model: ConstructedModel) throws {
        let array = try CoveringArrayGenerator(
            model: CoverageModel(levelCounts: model.levels), options: GeneratorOptions(strength: model.strength)
        ).generate()
        #expect(array.rows.count == model.rows)
        #expect(array.lowerBound == model.rows)
        #expect(array.isOptimal)
        #expect(array.producedBy.hasPrefix("construction:"), "\(array.producedBy)")
        expectComplete(array)
    }

    @Test(
        "GF(q) is a field for prime powers (4, 8, 9, 16, 25 by polynomials), and there is none for 6 or 10", arguments: [2, 3, 4, 5, 7, 8, 9, 16, 25])
    func galoisField(order: Int) throws {
        let field = try #require(GaloisField(order: order))
        let elements = 0..<order
        for a in elements {
            #expect(field.add(a, 0) == a && field.multiply(a, 1) == a && field.multiply(a, 0) == 0)
            // Every element has an additive inverse, every nonzero one a multiplicative inverse.
            #expect(elements.contains { field.add(a, $0) == 0 })
            if a != 0 { #expect(elements.contains { field.multiply(a, $0) == 1 }) }
            for b in elements {
                #expect(field.add(a, b) == field.add(b, a) && field.multiply(a, b) == field.multiply(b, a))
                for c in elements where order <= 9 {
                    #expect(field.multiply(a, field.add(b, c)) == field.add(field.multiply(a, b), field.multiply(a, c)))
                    #expect(field.multiply(a, field.multiply(b, c)) == field.multiply(field.multiply(a, b), c))
                }
            }
        }
        #expect(GaloisField(order: 6) == nil && GaloisField(order: 10) == nil)
    }

    /// Every pair of values of every two columns appears in some row.
    static func coversEveryPair(_ rows: [[Int]], levels: [Int]) -> Bool {
        for a in levels.indices {
            for b in levels.indices where b > a {
                var seen = [Bool](repeating: false, count: levels[a] * levels[b])
                for row in rows { seen[row[a] * levels[b] + row[b]] = true }
                if seen.contains(false) { return false }
            }
        }
        return true
    }

    @Test(
        "A product of orthogonal arrays covers every pair: q + 1 columns each, q columns with their constant rows dropped once, and mixed",
        arguments: [
            // (levels, rows): 3·9 − 2 zero rows for 4·4·4 columns; 3·9 − 2·3 for 3·3·3; 2·16 − 1 for 4·5;
            // 2·25 − 5 for 5·5; mixed levels take the values modulo their count: 2·25 − 1 for 6·6.
            (Array(repeating: 3, count: 64), 25), (Array(repeating: 3, count: 27), 21), (Array(repeating: 4, count: 20), 31),
            (Array(repeating: 5, count: 25), 45), ([5, 4, 3, 2] + Array(repeating: 5, count: 30), 49),
        ])
    func productCoversEveryPair(levels: [Int], rows: Int) throws {
        let (construction, built) = try #require(Construction.productArray(levelCounts: levels, maxRows: 10_000))
        #expect(built.count == rows, "\(construction)")
        #expect(built.allSatisfy { $0.count == levels.count })
        #expect(Set(built.map { $0.description }).count == built.count, "no row twice: the repeated constant rows went")
        #expect(Self.coversEveryPair(built, levels: levels))
        #expect(Construction.productArray(levelCounts: Array(repeating: 4, count: 5), maxRows: 10_000) == nil, "Bush's array suffices")
    }

    @Test(
        "Many factors of many levels: the product gives far fewer rows than search, and the array covers every pair",
        arguments: [(4, 25, 31), (5, 36, 49)])
    func productBeatsSearch(v: Int, k: Int, productRows: Int) throws {
        let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: Array(repeating: v, count: k))).generate()
        #expect(array.rows.count <= productRows)
        #expect(array.producedBy.contains("construction: product of 2 of Bush's orthogonal arrays over GF(\(v))"), "\(array.producedBy)")
        expectComplete(array)
    }

    @Test("3^4 stops at 9 without searching: no greedy search and no annealing ran")
    func threeToTheFourStops() throws {
        let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: [3, 3, 3, 3])).generate()
        #expect(array.rows.count == 9)
        #expect(array.producedBy == "construction: Bush's orthogonal array over GF(3)")
    }

    @Test(
        "Lower bounds: the t largest level counts, v²+1 past v+1 factors, Kleitman–Spencer, and one level count per strength above 2",
        arguments: [
            ([3, 3, 3, 3], 2, 9), ([3, 3, 3, 3, 3], 2, 10), (Array(repeating: 3, count: 13), 2, 10), (Array(repeating: 2, count: 100), 2, 10),
            ([4, 3, 2], 2, 12), (Array(repeating: 10, count: 20), 2, 101), (Array(repeating: 5, count: 6), 3, 125),
            (Array(repeating: 3, count: 8), 4, 90), ([6, 6, 6], 1, 6), ([2, 2, 2], 2, 4), ([7, 2], 2, 14),
        ])
    func lowerBounds(levels: [Int], strength: Int, bound: Int) {
        #expect(CoverageBound.lowerBound(levelCounts: levels, strength: strength) == bound)
    }

    @Test(
        "The bound is never above a covering array found by search",
        arguments: [[3, 3, 3, 3, 3], [2, 2, 2, 2, 3, 3, 4], [6, 6, 6, 6, 6, 6, 6, 6]])
    func boundBelowSearch(levels: [Int]) throws {
        let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels)).generate()
        #expect(array.rows.count >= array.lowerBound)
        expectComplete(array)
    }

    @Test("With constraints the constructed rows that break them are replaced, and the result still covers every valid tuple")
    func constrainedConstruction() throws {
        let model = CoverageModel(
            factors: (0..<4).map { Factor("F\($0)", levels: ["a", "b", "c"]) },
            constraints: [.forbidden([(0, 0), (1, 0)], label: "never F0=a with F1=a")])
        let array = try CoveringArrayGenerator(model: model).generate()
        expectComplete(array)
        // Every other pair of factors still has 9 pairs to cover, one row each.
        #expect(array.lowerBound == 9)
        #expect(array.rows.count <= 10)
    }

    @Test("Constraints that exclude no tuple keep the level counts' bound: 2^4 needs 5 rows, though every pair of factors has 4 tuples")
    func constraintsExcludingNoTuple() throws {
        // PICT's parameter-comparison example: same OS on both sides means different SKUs, a rule on all
        // four factors, so every pair of values still occurs in some valid row.
        let model = CoverageModel(
            factors: ["OS_1", "SKU_1", "OS_2", "SKU_2"].map { Factor($0, levels: ["a", "b"]) },
            constraints: [
                .forbidden([(0, 0), (1, 0), (2, 0), (3, 0)], label: "a a a a"), .forbidden([(0, 0), (1, 1), (2, 0), (3, 1)], label: "a b a b"),
                .forbidden([(0, 1), (1, 0), (2, 1), (3, 0)], label: "b a b a"), .forbidden([(0, 1), (1, 1), (2, 1), (3, 1)], label: "b b b b"),
            ])
        let array = try CoveringArrayGenerator(model: model).generate()
        expectComplete(array)
        #expect(array.requiredTupleCount == array.tupleCount)
        #expect(array.lowerBound == 5)
        #expect(array.isOptimal)
    }

    @Test("A model of a handful of valid rows has the fewest rows that cover as its bound: PICT's NOT example needs 5, where 4 is the cheap bound")
    func tinyModelBound() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/pict/not.txt"), encoding: .utf8)
        let model = try #require(PICTModel.parse(text).model).model
        let problem = try CoverageProblem(model: model, strength: 2)
        #expect(CoveringArrayGenerator.tinyBound(problem: problem, from: 4) == 5)
        let array = try CoveringArrayGenerator(model: model).generate()
        #expect(array.lowerBound == 5)
        #expect(array.rows.count == 5)
        expectComplete(array)
        // No 4 of the 6 valid rows cover every valid pair, checked one set at a time.
        let valid = try #require(try CoveringArrayGenerator(model: model).exhaustive(limit: 100))
        #expect(valid.count == 6)
        let verifier = CoverageVerifier(model: model, strength: 2)
        var sets = 0
        for a in 0..<6 {
            for b in (a + 1)..<6 {
                for c in (b + 1)..<6 {
                    for d in (c + 1)..<6 {
                        sets += 1
                        #expect(!verifier.verify([valid[a], valid[b], valid[c], valid[d]]).isComplete)
                    }
                }
            }
        }
        #expect(sets == 15)
        // Six two-level factors, never the first two at their first level: 60 pairs, but 48 valid rows,
        // more than the search tries, so the cheap bound stands.
        let wider = CoverageModel(
            factors: (0..<6).map { Factor("F\($0)", levels: ["a", "b"]) }, constraints: [.forbidden([(0, 0), (1, 0)], label: "never a a")])
        let wide = try CoverageProblem(model: wider, strength: 2)
        #expect(wide.requiredCount <= CoveringArrayGenerator.tinyBoundLimits.tuples)
        #expect(CoveringArrayGenerator.tinyBound(problem: wide, from: 6) == nil)
    }

    @Test("With PICT's negative values the bound is the valid values' bound, never above the rows")
    func negativeValues() throws {
        let model = try #require(PICTModel.parse("A: ~-1, 0, 1\nB: ~-1, 0, 1\nC: x, y\n").model)
        let array = try model.generate(options: GeneratorOptions())
        #expect(array.lowerBound == 4)
        #expect(array.rows.count > array.lowerBound)
        #expect(model.verifier(strength: 2).verify(array.rows).isComplete)
    }

    @Test("Constructions are deterministic: the same model gives the same rows")
    func deterministic() throws {
        let model = CoverageModel(levelCounts: Array(repeating: 5, count: 6))
        let first = try CoveringArrayGenerator(model: model, options: GeneratorOptions(strength: 3)).generate()
        let second = try CoveringArrayGenerator(model: model, options: GeneratorOptions(strength: 3)).generate()
        #expect(first.rows == second.rows)
    }
}

/// migrate's rows at the default settings before constructions and bounds were added: no model may get more.
@Suite("No model gets more rows than before constructions", .timeLimit(.minutes(20)))
struct RowRegressionTests {
    @Test(
        "Rows at the default settings are at most the rows recorded before",
        arguments: [
            ([3, 3, 3, 3], 2, 9), (Array(repeating: 3, count: 13), 2, 15), (Array(repeating: 2, count: 10) + Array(repeating: 3, count: 5), 2, 12),
            (Array(repeating: 2, count: 100), 2, 10), (Array(repeating: 5, count: 10), 2, 39), (Array(repeating: 6, count: 10), 2, 56),
            (Array(repeating: 5, count: 6), 2, 25), (Array(repeating: 7, count: 8), 2, 49), (Array(repeating: 5, count: 6), 3, 125),
            (Array(repeating: 3, count: 13), 3, 68),
        ])
    func noMoreRows(levels: [Int], strength: Int, rows: Int) throws {
        let array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels), options: GeneratorOptions(strength: strength)).generate()
        #expect(array.rows.count <= rows)
        #expect(array.rows.count >= array.lowerBound)
    }
}
