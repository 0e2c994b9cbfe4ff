import Foundation
import MigrateMatrix
import MigrateTestSupport
import Testing

/// A model file in Tests/Fixtures/pict and the valid rows PICT's documentation gives it.
struct PICTCase: Sendable, CustomTestStringConvertible {
    var file: String
    /// The doc/pict.md section (github.com/microsoft/pict) the expectation comes from.
    var section: String
    /// Every valid row, values in parameter order joined by ",", negative values with "~". Written by
    /// hand from the section, not computed.
    var validRows: Set<String>

    var testDescription: String { "\(file) (\(section))" }

    func text() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/pict/\(file)"), encoding: .utf8)
    }
}

@Suite("PICT compatibility", .timeLimit(.minutes(20)))
struct PICTCompatibilityTests {
    static let cases: [PICTCase] = [
        // "IF [File system] = "FAT" THEN [Size] <= 4096;" and the same for FAT32 with 32000.
        PICTCase(
            file: "if-then.txt", section: "Constraints",
            validRows: ["FAT,10", "FAT32,10", "FAT32,5000", "NTFS,10", "NTFS,5000", "NTFS,40000"]),
        // "This will result in a single test for P1: -1 with NA set for P2 and P3."
        PICTCase(file: "if-then-else.txt", section: "Excluding Entire Parameters", validRows: ["-1,NA,NA", "0,A,X", "1,A,X"]),
        // IN takes a set; LIKE "FAT*" matches FAT and FAT32; "off" matches Off (comparisons ignore case).
        PICTCase(
            file: "in-like.txt", section: "Conditional Constraints",
            validRows: ["FAT,512,Off", "FAT,4096,Off", "FAT32,512,Off", "FAT32,4096,Off", "NTFS,512,Off", "NTFS,4096,On", "NTFS,4096,Off"]),
        // The condition holds for FAT, and for NTFS with clusters above 4096: those rows need Off.
        PICTCase(
            file: "or-parentheses.txt", section: "Conditional Constraints",
            validRows: ["FAT,512,Off", "FAT,8192,Off", "NTFS,512,On", "NTFS,512,Off", "NTFS,8192,Off"]),
        // NOT (NTFS OR (NTFS AND …)) is "not NTFS": only FAT rows need Off.
        PICTCase(
            file: "not.txt", section: "Conditional Constraints",
            validRows: ["FAT,512,Off", "FAT,8192,Off", "NTFS,512,On", "NTFS,512,Off", "NTFS,8192,On", "NTFS,8192,Off"]),
        // "IF [LANG_1] = [LANG_2] THEN [OS_1] <> [OS_2] AND …": same OS ⇒ different SKU.
        PICTCase(
            file: "parameter-comparison.txt", section: "Conditional Constraints",
            validRows: [
                "Win7,Home,Win7,Pro", "Win7,Home,Win8,Home", "Win7,Home,Win8,Pro", "Win7,Pro,Win7,Home", "Win7,Pro,Win8,Home", "Win7,Pro,Win8,Pro",
                "Win8,Home,Win7,Home", "Win8,Home,Win7,Pro", "Win8,Home,Win8,Pro", "Win8,Pro,Win7,Home", "Win8,Pro,Win7,Pro", "Win8,Pro,Win8,Home",
            ]),
        // "All parameters must be different (we use AND operator)".
        PICTCase(
            file: "invariant.txt", section: "Unconditional Constraints (Invariants)",
            validRows: ["Win7,Home,Win8,Pro", "Win7,Pro,Win8,Home", "Win8,Home,Win7,Pro", "Win8,Pro,Win7,Home"]),
        // "OS_2: <OS_1>" takes OS_1's values; ", Win10" adds one.
        PICTCase(file: "reuse.txt", section: "Re-using Parameter Definitions", validRows: ["Win7,Win8", "Win7,Win10", "Win8,Win7", "Win8,Win10"]),
        // "Server | Datacenter" is one value; the constraint names its first name.
        PICTCase(file: "aliases.txt", section: "Aliasing", validRows: ["Win2008,Professional", "Win2012,Professional", "Win2012,Server"]),
        // "two out-of-range values do not appear in the same test case".
        PICTCase(file: "negative.txt", section: "Negative Testing", validRows: ["~-1,0", "~-1,1", "0,~-1", "0,0", "0,1", "1,~-1", "1,0", "1,1"]),
        // Note 1: "if [A] = -1 then [B] = 0;" is a valid constraint; the ~ is not part of the value.
        PICTCase(file: "negative-constraint.txt", section: "Negative Testing", validRows: ["~-1,0", "0,~-1", "0,0", "0,1", "1,~-1", "1,0", "1,1"]),
        // Size's values are all numbers: 4 > 3 and 10 > 3 numerically.
        PICTCase(file: "numeric.txt", section: "Types", validRows: ["1,a", "1,b", "1,c", "4,c", "10,c"]),
        // Version has "beta", so it is a string parameter: "10" < "5" as text, "9" and "beta" are not.
        PICTCase(file: "text.txt", section: "Types", validRows: ["9,store", "9,web", "10,store", "beta,store", "beta,web"]),
        PICTCase(file: "case.txt", section: "Case Sensitiveness", validRows: ["Win10,cmd", "Linux,bash", "Linux,cmd"]),
        // "Weights are not guarantees but merely opportunistic hints."
        PICTCase(file: "weights.txt", section: "Weighting", validRows: ["Primary,FAT", "Primary,NTFS", "Logical,FAT", "Logical,NTFS"]),
        // "Comments are permitted and they should be prefixed with # character."
        PICTCase(file: "comments.txt", section: "Model File", validRows: ["C#,mono", "C#,dotnet", "F#,dotnet"]),
    ]

    @Test("Each construct's valid rows are the ones PICT's documentation gives", arguments: cases)
    func validRows(_ example: PICTCase) throws {
        let (model, errors) = PICTModel.parse(try example.text())
        #expect(errors.isEmpty, "\(errors)")
        let parsed = try #require(model)
        let rows = try #require(try CoveringArrayGenerator(model: parsed.model).exhaustive(limit: 1_000))
        let found = Set(rows.map { parsed.model.names(of: $0).joined(separator: ",") })
        #expect(
            found == example.validRows,
            "extra: \(found.subtracting(example.validRows).sorted()), missing: \(example.validRows.subtracting(found).sorted())")
    }

    @Test("Each construct's covering array covers every valid pair, with PICT's rule for negative values", arguments: cases)
    func covering(_ example: PICTCase) throws {
        let parsed = try #require(PICTModel.parse(try example.text()).model)
        let array = try parsed.generate(options: GeneratorOptions(strength: 2))
        let report = parsed.verifier(strength: 2).verify(array.rows)
        #expect(report.isComplete, "missing \(report.missing.map(parsed.verifier(strength: 2).describe)), invalid \(report.invalidRows)")
        for row in array.rows {
            #expect(example.validRows.contains(parsed.model.names(of: row).joined(separator: ",")))
        }
    }

    @Test("The documented SumSquareRoots output verifies: every valid pair in rows without negatives, each negative value with every valid one")
    func documentedNegativeOutput() throws {
        // PICT's output as doc/pict.md prints it, tab-separated.
        let output = "A\tB\n2\t0\n2\t2\n0\t0\n0\t1\n1\t0\n2\t1\n0\t2\n1\t2\n1\t1\n~-1\t2\n1\t~-1\n0\t~-1\n~-1\t1\n2\t~-1\n~-1\t0\n"
        let full = try #require(PICTModel.parse("A: ~-1, 0, 1, 2\nB: ~-1, 0, 1, 2\n").model)
        let table = MatrixCSV.table(output, model: full.model, vocabulary: .pict(full))
        #expect(table.errors.isEmpty, "\(table.errors)")
        let verifier = full.verifier(strength: 2)
        let report = verifier.verify(table.rows.map { $0.map { $0! } })
        #expect(report.isComplete, "\(report.missing.map(verifier.describe))")
        #expect(report.requiredCount == 9 + 6)

        // Two negative values in one row break PICT's rule.
        let twice = verifier.verify(MatrixCSV.table(output + "~-1\t~-1\n", model: full.model, vocabulary: .pict(full)).rows.map { $0.map { $0! } })
        #expect(twice.invalidRows.map(\.row) == [15])
    }

    @Test("A pair of valid values covered only in a row with a negative value is masked, so missing")
    func masking() throws {
        let parsed = try #require(PICTModel.parse("A: 0, 1\nB: 0, 1\nC: ~none, x, y\n").model)
        let verifier = parsed.verifier(strength: 2)
        let complete = [[0, 0, 1], [0, 1, 2], [1, 0, 2], [1, 1, 1], [0, 0, 0], [1, 1, 0]]
        #expect(verifier.verify(complete).isComplete)
        // Without (0, 0, x), A=0 with B=0 is left only in (0, 0, ~none), where ~none masks it.
        let report = verifier.verify(Array(complete.dropFirst()))
        #expect(report.missing.map(verifier.describe) == ["A=0, B=0", "A=0, C=x", "B=0, C=x"])
        #expect(report.masked.map(verifier.describe) == ["A=0, B=0"])
    }

    @Test("Generated rows with negative values: valid pairs are covered by rows without one, and each row holds at most one")
    func negativeGeneration() throws {
        let text = "A: ~-1, ~x, 0, 1, 2\nB: ~-1, 0, 1\nC: ~none, p, q, r\nD: s, t\n"
        let parsed = try #require(PICTModel.parse(text).model)
        for strength in [2, 3] {
            let array = try parsed.generate(options: GeneratorOptions(strength: strength, seed: 7))
            let verifier = parsed.verifier(strength: strength)
            let report = verifier.verify(array.rows)
            #expect(report.isComplete, "strength \(strength): \(report.missing.map(verifier.describe)) \(report.invalidRows)")
            for row in array.rows {
                #expect(row.enumerated().filter { parsed.negativeMask[$0.offset][$0.element] }.count <= 1)
            }
        }
    }

    @Test("Aliases: constraints see the first name, output rotates the names, and files may use any name")
    func aliasNames() throws {
        let parsed = try #require(PICTModel.parse("SKU: Professional, Server | Datacenter | DC\nOS: a, b, c\n").model)
        let server = 1
        let rows = [[server, 0], [0, 0], [server, 1], [server, 2], [server, 0]]
        #expect(parsed.namedRows(rows).map { $0[0] } == ["Server", "Professional", "Datacenter", "DC", "Server"])
        #expect(parsed.level(named: "datacenter", of: 0) == server)
        #expect(parsed.level(named: "Desktop", of: 0) == nil)
        let refused = PICTModel.parse("SKU: Professional, Server | Datacenter\nOS: a, b\nIF [SKU] = \"Datacenter\" THEN [OS] = \"a\";\n")
        #expect(
            refused.errors.map(\.description) == [
                "3:12: 'Datacenter' is another name of [SKU]'s value 'Server', and PICT matches constraints on a value's first name only, so this never matches; write \"Server\""
            ])
    }

    @Test("Negative values keep their ~ in output and read back with or without it")
    func negativeNames() throws {
        let parsed = try #require(PICTModel.parse("A: ~-1 | minus one, 0\nB: x, y\n").model)
        #expect(parsed.model.factors[0].levels == ["~-1", "0"])
        #expect(parsed.namedRows([[0, 0], [0, 1]]).map { $0[0] } == ["~-1", "~minus one"])
        #expect(parsed.level(named: "~-1", of: 0) == 0)
        #expect(parsed.level(named: "-1", of: 0) == 0)
        #expect(parsed.level(named: "~minus one", of: 0) == 0)
    }
}
