import MigrateMatrix
import MigratePlan
import Testing

@Suite("PICT model reader", .timeLimit(.minutes(20)))
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
        let parsed = try #require(model).model
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

    @Test("Aliases, weights, negative values and case-insensitive names")
    func valueSyntax() throws {
        let (model, errors) = PICTModel.parse(
            "OS: Windows | Win (5), Linux, ~Other\nShell: bash, zsh\nIF [os] = \"windows\" THEN [Shell] <> \"ZSH\";\n")
        #expect(errors.isEmpty, "\(errors)")
        let parsed = try #require(model)
        #expect(parsed.model.factors[0].levels == ["Windows", "Linux", "~Other"])
        #expect(parsed.parameters[0].values.map(\.names) == [["Windows", "Win"], ["Linux"], ["Other"]])
        #expect(parsed.parameters[0].values.map(\.weight) == [5, 1, 1])
        #expect(!parsed.model.constraints[0].isSatisfied(by: [0, 1]))
        #expect(parsed.model.constraints[0].isSatisfied(by: [1, 1]))
    }

    @Test(
        "Bad models give every problem with line and column",
        arguments: [
            ("A: 1, 2\nA: 3\n", ["2:1: parameter 'A' is defined twice; give each parameter one line"]),
            ("A: 1, , 2\n", ["1:6: empty value in parameter 'A'; remove the extra comma"]),
            ("A 1 2\n", ["1:1: expected 'Name: value1, value2, …' but found 'A 1 2'"]),
            (
                "A 1, 2\n",
                [
                    "1:1: expected 'Name: value1, value2, …' but found 'A 1, 2'; without ':' PICT takes 'A 1' as the name, so write 'A 1: …' if that is meant"
                ]
            ),
            (
                "Color: red, green\nSize: S, M\nIF [Colour] = \"red\" THEN [Size] = \"S\";\n",
                ["3:4: unknown parameter [Colour]. Did you mean 'Color'?"]
            ),
            (
                "Color: red, green\nSize: S, M\nIF [Color] = \"blue\" THEN [Size] = \"S\";\n",
                ["3:14: [Color] has no value 'blue'. Its values are: red, green."]
            ),
            ("Color: red, green\nSize: S, M\nIF [Color] = \"red\" [Size] = \"S\";\n", ["3:20: expected 'THEN' but found [Size]"]),
            (
                "Color: red, green\nSize: S, M\nIF [Color] = \"red\" THEN [Size] = \"S\"\n",
                ["3:37: expected ';' at the end of the constraint but found the end of the file"]
            ),
            ("Color: red, green\nSize: S, M\n[Color] ~ \"red\";\n[Size] = \"XL\";\n", ["3:9: unexpected character '~'"]),
            (
                "Color: red, green\nSize: S, M\n[Color] == \"red\";\n[Size] = \"XL\";\n",
                [
                    "3:10: expected a value (\"text\" or a number) but found '='",
                    "4:10: [Size] has no value 'XL'. Did you mean 'M'? Its values are: S, M.",
                ]
            ),
            ("# only a comment\n", ["1:1: the model has no parameters; write one per line as 'Name: value1, value2'"]),
        ])
    func errors(text: String, expected: [String]) {
        let (model, errors) = PICTModel.parse(text)
        #expect(model == nil)
        #expect(errors.map(\.description) == expected)
    }

    /// Constructs PICT documents (doc/pict.md) or accepts that migrate does not reproduce: each is an
    /// error at its line and column, never a silent change of meaning.
    @Test(
        "Constructs migrate refuses, each at its line and column",
        arguments: [
            ("A: 1, 2\nB: x, y\n{ A, B } @ 2\n", "3:1: sub-models ('{ A, B } @ N') are not supported by migrate"),
            ("A @ 3: 1, 2\nB: x, y\n", "1:1: a parameter's own order ('A @ 3') is not supported by migrate"),
            ("$Result: pass, fail\nB: x, y\n", "1:1: result parameters ('$Result') are not supported by migrate"),
            ("A: ~1, 2\nB: x, y\nIF IsNegative(A) THEN [B] = \"x\";\n", "3:4: PICT's IsNegative() and IsPositive() are not supported by migrate"),
            (
                "Size: 1, 2\nB: x, y\nIF [Size] = \"1\" THEN [B] = \"x\";\n",
                "3:13: [Size] is numeric (all its values are numbers), so PICT compares it only with numbers"
            ),
            (
                "V: 1, beta\nB: x, y\nIF [V] = 1 THEN [B] = \"x\";\n",
                "3:10: [V] is text (not every value is a number), so PICT compares it only with quoted text; write \"1\""
            ),
            ("Size: 1, 2\nB: x, y\nIF [Size] LIKE \"1*\" THEN [B] = \"x\";\n", "3:11: LIKE works on text, and [Size] is numeric"),
            ("A: 1, 2\nB: x, y\n[A] = [A];\n", "3:7: [A] is compared with itself"),
            (
                "A: 1, 2\nB: x, y\n[A] = [B];\n",
                "3:7: [A] is numeric (all its values are numbers) and [B] is text (not every value is a number); PICT compares only parameters of the same type"
            ),
            ("A: 1, 2\nB: x, y\n[A] = 1; # no\n", "3:10: '#' starts a comment only at the beginning of a line"),
            ("A: x, X\nB: 1\n", "1:7: value 'X' appears twice in parameter 'A'"),
            ("A: x\nB: <A>, x\n", "2:9: value 'x' appears twice in parameter 'B'"),
            ("A: ~x, ~y\nB: 1\n", "1:1: every value of parameter 'A' is negative"),
            ("A: x | , y\nB: 1\n", "1:4: value 'x |' of parameter 'A' has an empty name"),
            ("A: x, y\nB: 1, 2\n[A] = \"a\\qb\";\n", "3:9: unknown escape '\\q'"),
            ("A: 1, 2\nB: x, y\n[A] = 1;\n[A] = 2;\n", "4:1: no row satisfies this constraint together with the constraint on line 3"),
        ])
    func refused(text: String, expected: String) {
        let (model, errors) = PICTModel.parse(text)
        #expect(model == nil)
        #expect(errors.count == 1 && errors[0].description.hasPrefix(expected), "\(errors)")
    }

    @Test(
        "Warnings name the value's line and column",
        arguments: [
            (
                "A: 1, 2, 3\nB: x, y\nIF [A] = 1 THEN [B] = \"x\";\nIF [A] = 1 THEN [B] = \"y\";\n",
                ["1:4: no valid row can contain [A] = 1: the constraints exclude it"]
            ),
            ("A: ~-1, 0\nB: ~-1, 0\n[A] = -1;\n", ["1:9: no valid row can contain [A] = 0", "2:4: no valid row can contain [B] = ~-1"]),
            ("A: x, <B>\nB: 1\n", ["1:7: '<B>' names no parameter defined above this line, so it is the literal value '<B>'"]),
            ("A: 1, 2 # two values\nB: x\n", ["1:7: value '2 # two values' contains '#'"]),
            ("Lang: C#, F#\nB: x\n", []),
        ])
    func warnings(text: String, expected: [String]) throws {
        let (model, errors) = PICTModel.parse(text)
        #expect(errors.isEmpty, "\(errors)")
        let warnings = try #require(model).warnings.map(\.description)
        #expect(warnings.count == expected.count, "\(warnings)")
        for (warning, prefix) in zip(warnings, expected) { #expect(warning.hasPrefix(prefix), "\(warning)") }
    }

    @Test("Strings keep PICT's escapes, and numbers read as C++ reads them")
    func escapesAndNumbers() throws {
        let parsed = try #require(
            PICTModel.parse(
                "Path: C:\\dir, a\"b, x]y\nSize: 1e3, .5, 10\n[Path] <> \"C:\\\\dir\" OR [Size] >= 1E+3;\n[Path] <> \"a\\\"b\" OR [Size] = .5;\n[Path] <> \"x\\]y\" OR [Size] = 10.0;\n"
            ).model)
        let rows = try #require(try CoveringArrayGenerator(model: parsed.model).exhaustive(limit: 100))
        #expect(
            Set(rows.map { parsed.model.names(of: $0).joined(separator: " ") }) == [
                "C:\\dir 1e3", "a\"b .5", "x]y 10",
            ])
    }

    /// PICT calls a parameter numeric when C's strtod reads every value whole and in range.
    @Test(
        "A parameter is numeric when every value reads whole as a C number",
        arguments: [
            ("1, 2.5, -3", true), ("+5, 5., .5", true), ("1e3, 2E-2", true), ("0x1A, 3", true), ("inf, 1", true),
            ("1, two", false), ("1e, 2", false), ("1e999, 2", false), ("1 000, 2", false), ("v1, 2", false),
        ])
    func numericTypes(values: String, numeric: Bool) throws {
        let parsed = try #require(PICTModel.parse("V: \(values)\nB: x\n").model)
        #expect(parsed.parameters[0].isNumeric == numeric)
    }

    @Test("Comparing two parameters, LIKE and NOT IN")
    func operators() throws {
        let (model, errors) = PICTModel.parse(
            "A: 1, 2, 3\nB: 1, 2, 3\nName: alpha, beta, gamma\n[A] <= [B];\n[Name] NOT IN {\"beta\"} OR [A] = 1;\nIF [Name] LIKE \"g*\" THEN [B] = 3;\n"
        )
        #expect(errors.isEmpty, "\(errors)")
        let array = try CoveringArrayGenerator(model: try #require(model).model).generate()
        expectComplete(array)
        for row in array.rows {
            #expect(row[0] <= row[1])
            #expect(row[2] != 1 || row[0] == 0)
            #expect(row[2] != 2 || row[1] == 2)
        }
    }

    @Test(
        "LIKE follows PICT's matcher: * any run, ? one character, a trailing ** needs one character",
        arguments: [
            ("FAT*", "FAT32", true), ("fat*", "FAT", true), ("F?T", "FAT", true), ("F?T", "FT", false), ("*32", "FAT32", true),
            ("A*", "A", true), ("A**", "A", false), ("A**", "AB", true), ("*A*B", "XAYB", true), ("*A*B", "XAYBZ", false),
        ])
    func like(pattern: String, value: String, matches: Bool) throws {
        let parsed = try #require(PICTModel.parse("V: \(value), other\nB: x, y\nIF [V] LIKE \"\(pattern)\" THEN [B] = \"x\";\n").model)
        // V's first value with B = y is allowed exactly when the pattern does not match it.
        #expect(parsed.model.constraints[0].isSatisfied(by: [0, 1]) == !matches)
    }
}

@Suite("PICT models: the parameter limit", .timeLimit(.minutes(20)))
struct PICTParameterLimitTests {
    @Test("A model past the parameter limit is one error at the first parameter past it")
    func tooManyParameters() {
        let text = (0...Limits.pictParameters + 5).map { "F\($0): a, b" }.joined(separator: "\n") + "\n"
        let (model, errors) = PICTModel.parse(text)
        #expect(model == nil)
        #expect(errors.count == 1)
        #expect(errors.first?.line == Limits.pictParameters + 1 && errors.first?.column == 1)
        #expect(errors.first?.message.hasPrefix("parameter 'F\(Limits.pictParameters)' is past migrate's limit of 500 parameters") == true)
    }
}
