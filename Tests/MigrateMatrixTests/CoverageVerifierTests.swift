import MigrateMatrix
import Testing

@Suite("Coverage verifier", .timeLimit(.minutes(20)))
struct CoverageVerifierTests {
    /// Three binary factors; the four rows of the orthogonal array OA(4, 3, 2, 2).
    let binary = CoverageModel(levelCounts: [2, 2, 2])
    let orthogonal = [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]

    @Test("A complete hand-built array has no holes")
    func complete() {
        let report = CoverageVerifier(model: binary, strength: 2).verify(orthogonal)
        #expect(report.isComplete)
        #expect(report.requiredCount == 12)
        #expect(report.missing.isEmpty)
    }

    @Test("Removing a row leaves exactly the pairs only it covered")
    func knownHoles() {
        let verifier = CoverageVerifier(model: binary, strength: 2)
        let report = verifier.verify(Array(orthogonal.dropLast()))
        #expect(report.missing.map(verifier.describe) == ["F1=1, F2=1", "F1=1, F3=0", "F2=1, F3=0"])
        #expect(report.invalidRows.isEmpty)
        #expect(!report.isComplete)
    }

    @Test("Strength 3 needs all eight triples of three binary factors")
    func strengthThree() {
        let verifier = CoverageVerifier(model: binary, strength: 3)
        let report = verifier.verify(orthogonal)
        #expect(report.requiredCount == 8)
        #expect(report.missing.count == 4)
        #expect(report.missing.map(verifier.describe).contains("F1=0, F2=0, F3=1"))
    }

    @Test("Forbidden pairs are not required, and rows that contain them are listed")
    func constraints() {
        var model = binary
        model.constraints = [.forbidden([(0, 1), (1, 1)], label: "F1=1 never with F2=1")]
        let verifier = CoverageVerifier(model: model, strength: 2)
        let report = verifier.verify(orthogonal)
        #expect(report.requiredCount == 11)
        #expect(report.invalidRows.map(\.row) == [3])
        #expect(report.invalidRows.first?.problems == ["F1=1 never with F2=1"])
        // Row 4 was the only one covering F1=1,F3=0 and F2=1,F3=0; as it is invalid, they are missing.
        #expect(report.missing.map(verifier.describe) == ["F1=1, F3=0", "F2=1, F3=0"])
    }

    @Test("A pair that no single constraint forbids but no valid row can hold is not required")
    func indirectConstraints() {
        // A=0 ⇒ B=0 and B=0 ⇒ C=0, so A=0 with C=1 is impossible.
        let model = CoverageModel(
            factors: [Factor("A", levels: ["0", "1"]), Factor("B", levels: ["0", "1"]), Factor("C", levels: ["0", "1"])],
            constraints: [
                Constraint(scope: [0, 1], label: "A=0 ⇒ B=0") { $0[0] != 0 || $0[1] == 0 },
                Constraint(scope: [1, 2], label: "B=0 ⇒ C=0") { $0[0] != 0 || $0[1] == 0 },
            ])
        let verifier = CoverageVerifier(model: model, strength: 2)
        let rows = [[0, 0, 0], [1, 0, 0], [1, 1, 1], [1, 1, 0]]
        let report = verifier.verify(rows)
        #expect(report.isComplete, "\(report.missing.map(verifier.describe))")
        // 12 pairs minus A=0,B=1 (direct), B=0,C=1 (direct) and A=0,C=1 (indirect).
        #expect(report.requiredCount == 9)
        let holes = verifier.verify(Array(rows.dropLast()))
        #expect(holes.missing.map(verifier.describe) == ["B=1, C=0"])
    }

    @Test("Out-of-range values and short rows are reported, not trusted")
    func malformedRows() {
        let report = CoverageVerifier(model: binary, strength: 2).verify([[0, 0], [0, 5, 1]] + orthogonal)
        #expect(report.invalidRows.map(\.row) == [0, 1])
        #expect(report.invalidRows[1].problems == ["factor 'F2' has no level 5"])
        #expect(report.missing.isEmpty)
    }

    @Test("A CSV matrix made elsewhere is read by header name, with line:column for bad values")
    func csv() {
        let text = "F3,ignored,F1,F2\n0,x,0,0\n1,x,0,1\n1,x,1,0\n"
        let (rows, errors) = MatrixCSV.rows(text, model: binary)
        #expect(errors.isEmpty)
        let report = CoverageVerifier(model: binary, strength: 2).verify(rows.map { $0.map { $0! } })
        #expect(report.missing.count == 3)

        let bad = MatrixCSV.rows("F1,F2,F3\n0,1,1\n0,2,1\n", model: binary)
        #expect(
            bad.errors.map(\.description) == ["3:3: '2' is not a value of 'F2'. Did you mean '0'?"]
                || bad.errors.map(\.description) == ["3:3: '2' is not a value of 'F2'."])
        let missingColumn = MatrixCSV.rows("F1,F2\n0,1\n", model: binary)
        #expect(missingColumn.errors.first?.message.contains("no column 'F3'") == true)
        let quoted = MatrixCSV.records("a,\"b,\"\"c\"\"\"\n")
        #expect(quoted.first?.map(\.text) == ["a", "b,\"c\""])
    }
}
