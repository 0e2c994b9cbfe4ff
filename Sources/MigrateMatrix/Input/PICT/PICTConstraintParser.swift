import MigratePlan
import MigrateSupport

/// Parses the constraint section of a PICT model (doc/pict.md, "Constraints" and "Constraints
/// Grammar"), checking each term the way PICT does: a numeric parameter compares only with numbers,
/// a text parameter only with quoted text, two parameters only when they have the same type.
struct PICTConstraintParser {
    let lines: [[Character]]
    let start: Int
    let parameters: [PICTModel.Parameter]
    var errors: [ModelFileError] = []
    private let index: [[UInt32]: Int]

    init(lines: [[Character]], start: Int, parameters: [PICTModel.Parameter]) {
        self.lines = lines
        self.start = start
        self.parameters = parameters
        var index: [[UInt32]: Int] = [:]
        for (position, parameter) in parameters.enumerated() { index[PICTText.folded(parameter.name)] = position }
        self.index = index
    }

    struct Token {
        enum Kind: Equatable { case word, string, number, name, symbol, end }
        var kind: Kind
        var text: String
        var line: Int
        var column: Int

        func isWord(_ word: String) -> Bool { kind == .word && text == word }
        func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
    }

    struct Cursor {
        var tokens: [Token]
        var position = 0
        /// NOTs and parentheses open at the current token, and AND/OR operators read, in the constraint being parsed.
        var depth = 0
        var operators = 0
        var current: Token { tokens[position] }
        mutating func advance() { if position < tokens.count - 1 { position += 1 } }
    }

    mutating func parse() -> [PICTStatement] {
        let known = errors.count
        var tokens = Cursor(tokens: tokenize())
        guard errors.count == known else { return [] }
        var statements: [PICTStatement] = []
        while tokens.current.kind != .end {
            let first = tokens.current
            tokens.depth = 0
            tokens.operators = 0
            do {
                let expression = try statement(&tokens)
                statements.append(
                    PICTStatement(expression: expression, line: first.line, column: first.column, label: "line \(first.line): " + render(first)))
            } catch {
                errors.append(error)
                // Skip to the next ';' and go on, so every problem is reported at once.
                while tokens.current.kind != .end && !tokens.current.isSymbol(";") { tokens.advance() }
                if tokens.current.kind != .end { tokens.advance() }
            }
        }
        return statements
    }

    private func render(_ first: Token) -> String {
        var text = String(lines[first.line - 1].dropFirst(first.column - 1)).trimmedLikePICT
        while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    // MARK: Tokens

    private mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        var endLine = start + 1
        var endColumn = 1
        for number in start..<lines.count {
            let line = lines[number]
            let (first, last) = PICTReader.trimmedBounds(line, 0, line.count)
            // PICT skips a whole comment line, even between the lines of one constraint.
            if first < last && line[first] == "#" { continue }
            var index = 0
            func token(_ kind: Token.Kind, _ text: String, at column: Int) {
                tokens.append(Token(kind: kind, text: text, line: number + 1, column: column + 1))
                endLine = number + 1
                endColumn = index + 1
            }
            while index < line.count {
                let character = line[index]
                let begin = index
                if character.isWhitespace {
                    index += 1
                } else if character == "\"" || character == "[" {
                    let close: Character = character == "\"" ? "\"" : "]"
                    index += 1
                    var text = ""
                    var closed = false
                    while index < line.count {
                        if line[index] == close {
                            closed = true
                            break
                        }
                        if line[index] == "\\" {
                            // PICT's escapes: \\, \" and \] stand for the character itself.
                            guard index + 1 < line.count, ["\\", "\"", "]"].contains(line[index + 1]) else {
                                fail(
                                    number + 1, index + 1,
                                    "unknown escape '\\\(index + 1 < line.count ? String(line[index + 1]) : "")'; PICT knows only \\\\, \\\" and \\]")
                                index += 1
                                continue
                            }
                            index += 1
                        }
                        text.append(line[index])
                        index += 1
                    }
                    if !closed {
                        fail(
                            number + 1, begin + 1,
                            close == "\"" ? "unterminated string; add the closing '\"'" : "missing ']' after the parameter name")
                    }
                    index += 1
                    token(close == "\"" ? .string : .name, close == "\"" ? text : text.trimmedLikePICT, at: begin)
                } else if Self.startsNumber(line, index) {
                    index = Self.numberEnd(line, index)
                    token(.number, String(line[begin..<index]), at: begin)
                } else if character.isLetter {
                    while index < line.count && (line[index].isLetter || line[index].isNumber || line[index] == "_") { index += 1 }
                    token(.word, String(line[begin..<index]).uppercased(), at: begin)
                } else if character == "#" {
                    fail(
                        number + 1, begin + 1,
                        "'#' starts a comment only at the beginning of a line (PICT has no end-of-line comments); move the comment to a line of its own"
                    )
                    index = line.count
                } else {
                    let pair = index + 1 < line.count ? String(line[index...index + 1]) : ""
                    if ["<>", "<=", ">="].contains(pair) {
                        index += 2
                        token(.symbol, pair, at: begin)
                    } else if "=<>(){},;".contains(character) {
                        index += 1
                        token(.symbol, String(character), at: begin)
                    } else {
                        fail(number + 1, begin + 1, "unexpected character '\(character)'")
                        index += 1
                    }
                }
            }
        }
        tokens.append(Token(kind: .end, text: "end of file", line: endLine, column: endColumn))
        return tokens
    }

    private static func isDigit(_ line: [Character], _ index: Int) -> Bool {
        index < line.count && line[index].isASCII && line[index].isNumber
    }

    /// A number as C++ reads one: an optional sign, digits with an optional point, an optional exponent.
    private static func startsNumber(_ line: [Character], _ index: Int) -> Bool {
        var index = index
        if line[index] == "+" || line[index] == "-" { index += 1 }
        if isDigit(line, index) { return true }
        return index < line.count && line[index] == "." && isDigit(line, index + 1)
    }

    private static func numberEnd(_ line: [Character], _ index: Int) -> Int {
        var index = index
        if line[index] == "+" || line[index] == "-" { index += 1 }
        while isDigit(line, index) { index += 1 }
        if index < line.count && line[index] == "." {
            index += 1
            while isDigit(line, index) { index += 1 }
        }
        if index < line.count && (line[index] == "e" || line[index] == "E") {
            var exponent = index + 1
            if exponent < line.count && (line[exponent] == "+" || line[exponent] == "-") { exponent += 1 }
            if isDigit(line, exponent) {
                index = exponent
                while isDigit(line, index) { index += 1 }
            }
        }
        return index
    }

    private mutating func fail(_ line: Int, _ column: Int, _ message: String) {
        errors.append(ModelFileError(line: line, column: column, message: message))
    }

    // MARK: Grammar

    private func statement(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        var result: PICTExpression
        if tokens.current.isWord("IF") {
            tokens.advance()
            let condition = try disjunction(&tokens)
            try expectWord("THEN", &tokens)
            let then = try disjunction(&tokens)
            if tokens.current.isWord("ELSE") {
                tokens.advance()
                let otherwise = try disjunction(&tokens)
                result = .or(.and(condition, then), .and(.not(condition), otherwise))
            } else {
                result = .or(.not(condition), then)
            }
        } else {
            result = try disjunction(&tokens)
        }
        guard tokens.current.isSymbol(";") else {
            throw error(at: tokens.current, "expected ';' at the end of the constraint but found \(describe(tokens.current))")
        }
        tokens.advance()
        return result
    }

    private func expectWord(_ word: String, _ tokens: inout Cursor) throws(ModelFileError) {
        guard tokens.current.isWord(word) else {
            throw error(at: tokens.current, "expected '\(word)' but found \(describe(tokens.current))")
        }
        tokens.advance()
    }

    private func disjunction(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        var result = try conjunction(&tokens)
        while tokens.current.isWord("OR") {
            try countOperator(&tokens)
            tokens.advance()
            result = .or(result, try conjunction(&tokens))
        }
        return result
    }

    private func conjunction(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        var result = try unary(&tokens)
        while tokens.current.isWord("AND") {
            try countOperator(&tokens)
            tokens.advance()
            result = .and(result, try unary(&tokens))
        }
        return result
    }

    /// Refuses nesting past `Limits.pictNestingDepth` before the recursion can exhaust the stack.
    private func unary(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        let nests = tokens.current.isWord("NOT") || tokens.current.isSymbol("(")
        guard nests else { return try unnested(&tokens) }
        tokens.depth += 1
        if tokens.depth > Limits.pictNestingDepth {
            throw error(
                at: tokens.current,
                "the constraint nests NOT and parentheses more than \(Limits.pictNestingDepth) deep (migrate's limit); split it into several constraints"
            )
        }
        defer { tokens.depth -= 1 }
        return try unnested(&tokens)
    }

    /// Counts AND and OR so one constraint stays a tree migrate can evaluate without deep recursion.
    private func countOperator(_ tokens: inout Cursor) throws(ModelFileError) {
        tokens.operators += 1
        if tokens.operators > Limits.pictOperatorsPerConstraint {
            throw error(
                at: tokens.current,
                "the constraint has more than \(Limits.pictOperatorsPerConstraint) AND/OR operators (migrate's limit); split it into several constraints"
            )
        }
    }

    private func unnested(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        if tokens.current.isWord("NOT") {
            tokens.advance()
            return .not(try unary(&tokens))
        }
        if tokens.current.isSymbol("(") {
            tokens.advance()
            let inner = try disjunction(&tokens)
            guard tokens.current.isSymbol(")") else {
                throw error(at: tokens.current, "expected ')' but found \(describe(tokens.current))")
            }
            tokens.advance()
            return inner
        }
        return try term(&tokens)
    }

    // MARK: Terms

    private func term(_ tokens: inout Cursor) throws(ModelFileError) -> PICTExpression {
        let nameToken = tokens.current
        if nameToken.isWord("ISNEGATIVE") || nameToken.isWord("ISPOSITIVE") {
            throw error(
                at: nameToken,
                "PICT's IsNegative() and IsPositive() are not supported by migrate; compare the parameter with its negative values instead, such as [A] IN {-1}"
            )
        }
        guard nameToken.kind == .name else {
            throw error(
                at: nameToken, "expected a parameter in brackets such as [\(parameters.first?.name ?? "Name")] but found \(describe(nameToken))")
        }
        let factor = try factorIndex(nameToken)
        let parameter = parameters[factor]
        tokens.advance()
        let operatorToken = tokens.current
        var negated = false
        if operatorToken.isWord("NOT") {
            tokens.advance()
            negated = true
            guard tokens.current.isWord("IN") || tokens.current.isWord("LIKE") else {
                throw error(at: tokens.current, "expected 'IN' or 'LIKE' after 'NOT' but found \(describe(tokens.current))")
            }
        }
        if tokens.current.isWord("IN") {
            tokens.advance()
            guard tokens.current.isSymbol("{") else {
                throw error(at: tokens.current, "expected '{' to start the set but found \(describe(tokens.current))")
            }
            tokens.advance()
            var texts: [[UInt32]] = []
            var numbers: [Double] = []
            while true {
                switch try literal(tokens.current, for: factor, requireValue: true) {
                case .text(let text): texts.append(text)
                case .number(let number): numbers.append(number)
                }
                tokens.advance()
                if tokens.current.isSymbol(",") {
                    tokens.advance()
                    continue
                }
                guard tokens.current.isSymbol("}") else {
                    throw error(at: tokens.current, "expected ',' or '}' in the set but found \(describe(tokens.current))")
                }
                tokens.advance()
                break
            }
            let membership: PICTExpression = parameter.isNumeric ? .numberSet(factor: factor, numbers) : .textSet(factor: factor, texts)
            return negated ? .not(membership) : membership
        }
        if tokens.current.isWord("LIKE") {
            let likeToken = tokens.current
            tokens.advance()
            if parameter.isNumeric {
                throw error(
                    at: likeToken,
                    "LIKE works on text, and [\(parameter.name)] is numeric (all its values are numbers); compare it with <, <=, > or >= instead")
            }
            guard tokens.current.kind == .string else {
                throw error(at: tokens.current, "expected a quoted pattern after 'LIKE' but found \(describe(tokens.current))")
            }
            let pattern = PICTText.folded(tokens.current.text)
            tokens.advance()
            let match = PICTExpression.like(factor: factor, pattern)
            return negated ? .not(match) : match
        }
        guard operatorToken.kind == .symbol, let relation = PICTRelation(rawValue: operatorToken.text) else {
            throw error(
                at: operatorToken,
                "expected a comparison (=, <>, <, <=, >, >=, IN, LIKE) after [\(nameToken.text)] but found \(describe(operatorToken))")
        }
        tokens.advance()
        let valueToken = tokens.current
        if valueToken.kind == .name {
            let other = try factorIndex(valueToken)
            if other == factor {
                throw error(
                    at: valueToken, "[\(parameter.name)] is compared with itself; PICT refuses that — compare it with a value or another parameter")
            }
            if parameters[other].isNumeric != parameter.isNumeric {
                throw error(
                    at: valueToken,
                    "[\(parameter.name)] is \(Self.kind(parameter)) and [\(parameters[other].name)] is \(Self.kind(parameters[other])); PICT compares only parameters of the same type"
                )
            }
            tokens.advance()
            return .factors(factor: factor, relation, other: other, numeric: parameter.isNumeric)
        }
        let value = try literal(valueToken, for: factor, requireValue: relation.isEquality)
        tokens.advance()
        switch value {
        case .text(let text): return .text(factor: factor, relation, text)
        case .number(let number): return .number(factor: factor, relation, number)
        }
    }

    private static func kind(_ parameter: PICTModel.Parameter) -> String {
        parameter.isNumeric ? "numeric (all its values are numbers)" : "text (not every value is a number)"
    }

    private func factorIndex(_ token: Token) throws(ModelFileError) -> Int {
        if let found = index[PICTText.folded(token.text)] { return found }
        throw error(at: token, "unknown parameter [\(token.text)].\(Suggestions.didYouMean(token.text, in: parameters.map(\.name)))")
    }

    enum Literal {
        case text([UInt32])
        case number(Double)
    }

    /// A value in a constraint, of the parameter's type. For `=`, `<>` and `IN` it must be the first
    /// name of one of the parameter's values: anything else could never match, which is most often a typo.
    private func literal(_ token: Token, for factor: Int, requireValue: Bool) throws(ModelFileError) -> Literal {
        guard token.kind == .string || token.kind == .number else {
            throw error(at: token, "expected a value (\"text\" or a number) but found \(describe(token))")
        }
        let parameter = parameters[factor]
        let values = parameter.values
        if parameter.isNumeric {
            guard token.kind == .number, let number = PICTText.number(token.text) else {
                throw error(
                    at: token,
                    "[\(parameter.name)] is numeric (all its values are numbers), so PICT compares it only with numbers; write \(token.text) without quotes"
                )
            }
            if requireValue && !values.contains(where: { PICTText.number($0.names[0]) == number }) {
                throw error(
                    at: token, "[\(parameter.name)] has no value \(token.text). Its values are: \(values.map(\.label).joined(separator: ", ")).")
            }
            return .number(number)
        }
        guard token.kind == .string else {
            throw error(
                at: token,
                "[\(parameter.name)] is text (not every value is a number), so PICT compares it only with quoted text; write \"\(token.text)\"")
        }
        let text = PICTText.folded(token.text)
        if requireValue && !values.contains(where: { PICTText.folded($0.names[0]) == text }) {
            if let value = values.first(where: { $0.names.dropFirst().contains { PICTText.folded($0) == text } }) {
                throw error(
                    at: token,
                    "'\(token.text)' is another name of [\(parameter.name)]'s value '\(value.names[0])', and PICT matches constraints on a value's first name only, so this never matches; write \"\(value.names[0])\""
                )
            }
            let suggestion = Suggestions.didYouMean(token.text, in: values.map { $0.names[0] })
            throw error(
                at: token,
                "[\(parameter.name)] has no value '\(token.text)'.\(suggestion) Its values are: \(values.map(\.label).joined(separator: ", ")).")
        }
        return .text(text)
    }

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: "the end of the file"
        case .string: "\"\(token.text)\""
        case .name: "[\(token.text)]"
        default: "'\(token.text)'"
        }
    }

    private func error(at token: Token, _ message: String) -> ModelFileError {
        ModelFileError(line: token.line, column: token.column, message: message)
    }
}
