import MigrateMatrix
import Testing

@Suite("PICT model reader")
struct PICTModelTests {
    let text = """
        # A PICT model
        Type:          Primary, Logical, Single, Span, Stripe, Mirror, RAID-5
        Size:          10, 100, 500, 1000, 5000, 10000, 40000
        Format method: quick, slow
        File system:   FAT, FAT32, NTFS
        Cluster size:  512, 1024, 2048, 4096, 8192, 16384, 32768, 65536
        Compression:   on, off

        IF [File system] = "FAT"   THEN [Size] <= 4096;
        IF [File system] = "FAT32" THEN [Size] <= 32000;
        IF [Type] IN {"Span", "Stripe"} AND NOT [Format method] = "quick" THEN [Compression] = "off" ELSE [Cluster size] > 1024;
        [File system] <> "NTFS" OR [Compression] = "on";
        """

    @Test("Parameters, comments and constraints are read; generated rows satisfy them")
    func parses() throws {
        let (model, errors) = PICTModel.parse(text)
        #expect(errors.isEmpty, "\(errors)")
        let parsed = try #require(model)
        #expect(parsed.factors.map(\.name) == ["Type", "Size", "Format method", "File system", "Cluster size", "Compression"])
        #expect(parsed.factors[1].levels.count == 7)
        #expect(parsed.constraints.count == 4)
        let array = try CoveringArrayGenerator(model: parsed).generate()
        expectComplete(array)
        for row in array.namedRows {
            if row[3] == "FAT" { #expect(Int(row[1])! <= 4096) }
            if row[3] == "NTFS" { #expect(row[5] == "on") }
            if ["Span", "Stripe"].contains(row[0]) && row[2] != "quick" {
                #expect(row[5] == "off")
            } else {
                #expect(Int(row[4])! > 1024)
            }
        }
    }

    @Test("Aliases, weights and case-insensitive values")
    func valueSyntax() throws {
        let (model, errors) = PICTModel.parse("OS: Windows | Win (5), Linux, ~Other\nShell: bash, zsh\nIF [os] = \"win\" THEN [Shell] <> \"ZSH\";\n")
        #expect(errors.isEmpty, "\(errors)")
        let parsed = try #require(model)
        #expect(parsed.factors[0].levels == ["Windows", "Linux", "Other"])
        #expect(!parsed.constraints[0].isSatisfied(by: [0, 1]))
        #expect(parsed.constraints[0].isSatisfied(by: [1, 1]))
    }

    @Test(
        "Bad models give every problem with line and column",
        arguments: [
            ("A: 1, 2\nA: 3\n", ["2:1: parameter 'A' is defined twice; give each parameter one line"]),
            ("A: 1, , 2\n", ["1:6: empty value in parameter 'A'; remove the extra comma"]),
            ("A 1, 2\n", ["1:1: expected 'Name: value1, value2, …' but found 'A 1, 2'"]),
            ("Color: red, green\nSize: S, M\nIF [Colour] = \"red\" THEN [Size] = \"S\";\n", ["3:4: unknown parameter [Colour]. Did you mean 'Color'?"]),
            ("Color: red, green\nSize: S, M\nIF [Color] = \"blue\" THEN [Size] = \"S\";\n", ["3:14: [Color] has no value 'blue'. Its values are: red, green."]),
            ("Color: red, green\nSize: S, M\nIF [Color] = \"red\" [Size] = \"S\";\n", ["3:20: expected 'THEN' but found [Size]"]),
            ("Color: red, green\nSize: S, M\nIF [Color] = \"red\" THEN [Size] = \"S\"\n", ["3:37: expected ';' at the end of the constraint but found the end of the file"]),
            ("Color: red, green\nSize: S, M\n[Color] ~ \"red\";\n[Size] = \"XL\";\n", ["3:9: unexpected character '~'"]),
            ("Color: red, green\nSize: S, M\n[Color] == \"red\";\n[Size] = \"XL\";\n", [
                "3:10: expected a value (\"text\" or a number) but found '='", "4:10: [Size] has no value 'XL'. Did you mean 'M'? Its values are: S, M.",
            ]),
            ("# only a comment\n", ["1:1: the model has no parameters; write one per line as 'Name: value1, value2'"]),
        ])
    func errors(text: String, expected: [String]) {
        let (model, errors) = PICTModel.parse(text)
        #expect(model == nil)
        #expect(errors.map(\.description) == expected)
    }

    @Test("Comparing two parameters, LIKE and NOT IN")
    func operators() throws {
        let (model, errors) = PICTModel.parse("A: 1, 2, 3\nB: 1, 2, 3\nName: alpha, beta, gamma\n[A] <= [B];\n[Name] NOT IN {\"beta\"} OR [A] = 1;\nIF [Name] LIKE \"g*\" THEN [B] = 3;\n")
        #expect(errors.isEmpty, "\(errors)")
        let array = try CoveringArrayGenerator(model: try #require(model)).generate()
        expectComplete(array)
        for row in array.rows {
            #expect(row[0] <= row[1])
            #expect(row[2] != 1 || row[0] == 0)
            #expect(row[2] != 2 || row[1] == 2)
        }
    }
}
