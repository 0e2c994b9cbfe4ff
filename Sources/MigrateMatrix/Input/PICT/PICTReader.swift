import MigratePlan

/// Reads a PICT model file line by line, as PICT does: parameter lines first, then (refused here)
/// sub-model lines, then everything else is constraints. Only a line whose first non-blank character
/// is `#` is a comment; elsewhere `#` is an ordinary character (PICT has no end-of-line comments).
struct PICTReader {
    let lines: [[Character]]
    var parameters: [PICTModel.Parameter] = []
    /// Folded parameter name → index, for duplicates and `<P>`.
    var parameterIndex: [[UInt32]: Int] = [:]
    var errors: [ModelFileError] = []
    var warnings: [ModelFileError] = []

    init(text: String) {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // "\r\n" is one Character, so it separates lines as "\n" does (Foundation's replacingOccurrences
        // would copy the whole text through UTF-16 first: a tenth of reading a small model).
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { Array($0) }
    }

    mutating func run() -> (model: PICTModel?, errors: [ModelFileError]) {
        var constraintStart: Int?
        for (index, line) in lines.enumerated() {
            let (start, end) = Self.trimmedBounds(line, 0, line.count)
            if start == end || line[start] == "#" { continue }
            let trimmed = String(line[start..<end])
            if Self.isConstraint(trimmed) {
                constraintStart = index
                break
            }
            if line[start] == "{" {
                fail(
                    index + 1, start + 1,
                    "sub-models ('{ A, B } @ N') are not supported by migrate: PICT builds them in a separate pass whose coverage migrate does not reproduce; remove the line to cover the whole model at one strength"
                )
                continue
            }
            readParameter(line, number: index + 1)
        }
        if parameters.isEmpty && errors.isEmpty {
            fail(1, 1, "the model has no parameters; write one per line as 'Name: value1, value2'")
        }
        var statements: [PICTStatement] = []
        if let start = constraintStart, !parameters.isEmpty {
            var parser = PICTConstraintParser(lines: lines, start: start, parameters: parameters)
            statements = parser.parse()
            errors += parser.errors
        }
        guard errors.isEmpty else { return (nil, errors) }
        var model = PICTModel(parameters: parameters, statements: statements)
        let check = PICTModelCheck(model: model)
        if let contradiction = check.contradiction() { return (nil, [contradiction]) }
        model.warnings = warnings + check.unreachableValues()
        return (model, [])
    }

    /// PICT's test for the first constraint line (upper-cased and trimmed): "IF" alone, or matching
    /// `IF*[*]*`, `[*]*`, `(*[*]*`, or IF with `IsNegative`/`IsPositive`. migrate also starts the
    /// constraints at a line beginning with NOT, which PICT would read as a broken parameter line.
    static func isConstraint(_ trimmed: String) -> Bool {
        let upper = PICTText.folded(trimmed)
        if upper == foldedIF { return true }
        if constraintPatterns.contains(where: { PICTText.matches(upper, pattern: $0) }) { return true }
        let characters = Array(trimmed.uppercased())
        return characters.starts(with: "NOT") && characters.count > 3 && (characters[3].isWhitespace || characters[3] == "(" || characters[3] == "[")
    }

    private static let foldedIF = PICTText.folded("IF")
    private static let constraintPatterns = ["IF*[*]*", "[*]*", "(*[*]*", "IF*ISNEGATIVE", "IF*ISNEGATIVE*(*", "IF*ISPOSITIVE", "IF*ISPOSITIVE*(*"]
        .map(PICTText.folded)

    static func trimmedBounds(_ line: [Character], _ start: Int, _ end: Int) -> (Int, Int) {
        var start = start
        var end = end
        while start < end && line[start].isWhitespace { start += 1 }
        while end > start && line[end - 1].isWhitespace { end -= 1 }
        return (start, end)
    }

    mutating func fail(_ line: Int, _ column: Int, _ message: String) {
        errors.append(ModelFileError(line: line, column: column, message: message))
    }

    mutating func warn(_ line: Int, _ column: Int, _ message: String) {
        warnings.append(ModelFileError(line: line, column: column, message: message))
    }

    // MARK: Parameters

    /// `Name: v1, ~v2, v3a | v3b (4), <Other>`. PICT also takes a name ended by `,` when the line has
    /// no `:`; migrate refuses that form, which is more often a missing colon than a name.
    private mutating func readParameter(_ line: [Character], number: Int) {
        let (lineStart, lineEnd) = Self.trimmedBounds(line, 0, line.count)
        guard let separator = line.firstIndex(of: ":") else {
            let text = String(line[lineStart..<lineEnd])
            if let comma = line.firstIndex(of: ","), !text.contains(Character("[")) {
                // PICT would take everything before the first comma as the name: refuse rather than guess.
                let name = String(line[lineStart..<comma]).trimmedLikePICT
                fail(
                    number, lineStart + 1,
                    "expected 'Name: value1, value2, …' but found '\(text)'; without ':' PICT takes '\(name)' as the name, so write '\(name): …' if that is meant"
                )
                return
            }
            let hint = text.contains(Character("[")) ? " (PICT starts the constraints at a line that begins with IF, '[' or '(')" : ""
            fail(number, lineStart + 1, "expected 'Name: value1, value2, …' but found '\(text)'\(hint)")
            return
        }
        let (nameStart, nameEnd) = Self.trimmedBounds(line, 0, separator)
        let name = String(line[nameStart..<nameEnd])
        let nameColumn = (nameStart < nameEnd ? nameStart : separator) + 1
        if name.isEmpty {
            fail(number, nameColumn, "the parameter has no name before ':'")
            return
        }
        let orderParts = name.split(separator: "@", omittingEmptySubsequences: false)
        if orderParts.count == 2, PICTText.number(String(orderParts[1]).trimmedLikePICT) != nil {
            fail(
                number, nameColumn,
                "a parameter's own order ('\(name)') is not supported by migrate; remove '@\(orderParts[1])' and choose the strength with --strength")
            return
        }
        if name.hasPrefix("$") {
            fail(
                number, nameColumn,
                "result parameters ('\(name)') are not supported by migrate; remove the '$' to make '\(name.dropFirst())' an ordinary parameter")
            return
        }
        let key = PICTText.folded(name)
        if parameterIndex[key] != nil {
            fail(number, nameColumn, "parameter '\(name)' is defined twice; give each parameter one line")
            return
        }

        var values: [PICTModel.Value] = []
        var seen: [[UInt32]: String] = [:]
        var failed = false
        var partStart = separator + 1
        while partStart <= line.count {
            let partEnd = line[partStart...].firstIndex(of: ",") ?? line.count
            defer { partStart = partEnd + 1 }
            let (start, end) = Self.trimmedBounds(line, partStart, partEnd)
            let column = (start < end ? start : partStart) + 1
            var text = String(line[start..<end])
            if text.isEmpty {
                fail(number, column, "empty value in parameter '\(name)'; remove the extra comma")
                failed = true
                continue
            }
            var added: [PICTModel.Value] = []
            if text.count >= 2, text.hasPrefix("<"), text.hasSuffix(">"),
                let reused = parameterIndex[PICTText.folded(String(text.dropFirst().dropLast()))]
            {
                // Reuse: the values of an earlier parameter, names, weights and all.
                added = parameters[reused].values.map { value in
                    var copy = value
                    copy.line = number
                    copy.column = column
                    return copy
                }
            } else {
                if text.count >= 2, text.hasPrefix("<"), text.hasSuffix(">") {
                    warn(
                        number, column,
                        "'\(text)' names no parameter defined above this line, so it is the literal value '\(text)' (as in PICT); define the parameter first to reuse its values"
                    )
                }
                var weight = 1
                if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
                    let inner = String(text[text.index(after: open)..<text.index(before: text.endIndex)]).trimmedLikePICT
                    // As PICT: a positive whole number of at least 1 (fractions truncated) is a weight.
                    if let amount = PICTText.number(inner), amount >= 1, amount < 4_294_967_296 {
                        weight = Int(amount)
                        text = String(text[..<open]).trimmedLikePICT
                    }
                }
                var names = text.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmedLikePICT }
                var negative = false
                if names[0].hasPrefix("~") {
                    negative = true
                    names[0] = String(names[0].dropFirst()).trimmedLikePICT
                }
                if names.contains(where: \.isEmpty) {
                    fail(number, column, "value '\(text)' of parameter '\(name)' has an empty name; give every name (between '|') some text")
                    failed = true
                    continue
                }
                // "C#" is a value; "2 # two" looks like a comment PICT would not see.
                if PICTText.contains(text, " #") || PICTText.contains(text, "\t#") {
                    warn(
                        number, column,
                        "value '\(text)' contains '#': PICT reads a comment only on a line that starts with '#', so it is part of the value")
                }
                added = [PICTModel.Value(names: names, isNegative: negative, weight: weight, line: number, column: column)]
            }
            for value in added {
                if let clash = value.names.first(where: { seen[PICTText.folded($0)] != nil }) {
                    fail(
                        number, column,
                        "value '\(clash)' appears twice in parameter '\(name)' (as '\(seen[PICTText.folded(clash)]!)'; names compare without regard to case); give each value its own name"
                    )
                    failed = true
                    continue
                }
                for alias in value.names { seen[PICTText.folded(alias)] = alias }
                values.append(value)
            }
        }
        guard !failed, !values.isEmpty else { return }
        if values.allSatisfy(\.isNegative) {
            fail(
                number, nameColumn,
                "every value of parameter '\(name)' is negative ('~'); PICT needs at least one value without '~' for the rows that test valid input")
            return
        }
        let numeric = values.allSatisfy { PICTText.number($0.names[0]) != nil }
        if parameters.count == Limits.pictParameters {
            // Said once, at the first parameter past the limit.
            guard !errors.contains(where: { $0.message.contains("migrate's limit of \(Limits.pictParameters) parameters") }) else { return }
            fail(
                number, nameColumn,
                "parameter '\(name)' is past migrate's limit of \(Limits.pictParameters) parameters in a model (pairwise work grows with their cube); split the model, or merge parameters that never interact"
            )
            return
        }
        parameterIndex[key] = parameters.count
        parameters.append(PICTModel.Parameter(name: name, values: values, isNumeric: numeric, line: number, column: nameColumn))
    }
}
