import Foundation
import MigratePlan

/// A problem in a model file, at a line and column (1-based).
public struct ModelFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// Reads PICT's plain model format: `Name: v1, v2, v3` lines, `#` comments, and constraints such as
/// `IF [A] = "x" AND NOT [B] IN {"p", "q"} THEN [C] <> 2 ELSE [C] = 1;`.
///
/// Supported: `=`, `<>`, `<`, `<=`, `>`, `>=` against a value or another parameter, `IN {…}`,
/// `NOT IN {…}`, `LIKE` with `*` and `?`, `AND`, `OR`, `NOT`, parentheses, and unconditional
/// constraints (`[A] <> [B];`). Value weights `v (5)` are read and ignored; aliases `a | b` name one
/// value; a leading `~` (a negative value) is dropped. Strings compare without regard to case, as in PICT.
public enum PICTModel {
    /// The model, or every problem found (with line and column).
    public static func parse(_ text: String) -> (model: CoverageModel?, errors: [ModelFileError]) {
        var parser = Parser(text: text)
        return parser.run()
    }

    // MARK: - Expressions

    indirect enum Expression: Sendable {
        case and(Expression, Expression)
        case or(Expression, Expression)
        case not(Expression)
        case compare(factor: Int, Relation, Operand)
        case member(factor: Int, [Operand])
        case like(factor: Int, String)

        func evaluate(_ value: (Int) -> String) -> Bool {
            switch self {
            case .and(let a, let b): return a.evaluate(value) && b.evaluate(value)
            case .or(let a, let b): return a.evaluate(value) || b.evaluate(value)
            case .not(let a): return !a.evaluate(value)
            case .compare(let factor, let relation, let operand):
                let right: String
                switch operand {
                case .literal(let text): right = text
                case .factor(let other): right = value(other)
                }
                return relation.holds(PICTModel.compare(value(factor), right))
            case .member(let factor, let operands):
                let left = value(factor)
                return operands.contains { operand in
                    if case .literal(let text) = operand { return PICTModel.compare(left, text) == 0 }
                    return false
                }
            case .like(let factor, let pattern):
                return PICTModel.matches(Array(value(factor).lowercased()), Array(pattern.lowercased()))
            }
        }

        var factors: Set<Int> {
            switch self {
            case .and(let a, let b), .or(let a, let b): return a.factors.union(b.factors)
            case .not(let a): return a.factors
            case .compare(let factor, _, let operand):
                if case .factor(let other) = operand { return [factor, other] }
                return [factor]
            case .member(let factor, _), .like(let factor, _): return [factor]
            }
        }
    }

    enum Operand: Sendable {
        case literal(String)
        case factor(Int)
    }

    enum Relation: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

        func holds(_ order: Int) -> Bool {
            switch self {
            case .equal: order == 0
            case .notEqual: order != 0
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            case .greaterOrEqual: order >= 0
            }
        }
    }

    /// Numbers compare as numbers, anything else as text without regard to case.
    static func compare(_ a: String, _ b: String) -> Int {
        if let x = Double(a), let y = Double(b) { return x < y ? -1 : (x > y ? 1 : 0) }
        let x = a.lowercased(), y = b.lowercased()
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    static func matches(_ text: [Character], _ pattern: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            return (0...text.count).contains { matches(Array(text[$0...]), Array(pattern.dropFirst())) }
        }
        guard let head = text.first, first == "?" || first == head else { return false }
        return matches(Array(text.dropFirst()), Array(pattern.dropFirst()))
    }

    // MARK: - Parser

    struct Token {
        enum Kind: Equatable { case word, string, number, name, symbol, end }
        var kind: Kind
        var text: String
        var line: Int
        var column: Int
    }

    struct Parser {
        let lines: [Substring]
        var factors: [Factor] = []
        var aliases: [[String: Int]] = []
        var errors: [ModelFileError] = []

        init(text: String) {
            lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        }

        mutating func run() -> (model: CoverageModel?, errors: [ModelFileError]) {
            var constraintStart: Int?
            for (number, raw) in lines.enumerated() {
                let line = stripComment(raw)
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                let upper = trimmed.uppercased()
                if upper.hasPrefix("IF ") || upper.hasPrefix("IF[") || trimmed.hasPrefix("[") || trimmed.hasPrefix("(") || upper.hasPrefix("NOT ") {
                    constraintStart = number
                    break
                }
                if trimmed.hasPrefix("{") {
                    fail(number + 1, column(of: trimmed, in: raw), "sub-models ('{ A, B } @ N') are not supported; remove the line")
                    continue
                }
                parseParameter(raw, line: number + 1)
            }
            if factors.isEmpty && errors.isEmpty {
                fail(1, 1, "the model has no parameters; write one per line as 'Name: value1, value2'")
            }
            var constraints: [Constraint] = []
            if let start = constraintStart, !factors.isEmpty {
                constraints = parseConstraints(from: start)
            }
            if !errors.isEmpty { return (nil, errors) }
            return (CoverageModel(factors: factors, constraints: constraints), [])
        }

        private func stripComment(_ line: Substring) -> String {
            // A '#' starts a comment unless it is inside quotes.
            var inQuotes = false
            var result = ""
            for character in line {
                if character == "\"" { inQuotes.toggle() }
                if character == "#" && !inQuotes { break }
                result.append(character)
            }
            return result
        }

        private func column(of trimmed: String, in raw: Substring) -> Int {
            (raw.range(of: trimmed).map { raw.distance(from: raw.startIndex, to: $0.lowerBound) } ?? 0) + 1
        }

        mutating func fail(_ line: Int, _ column: Int, _ message: String) {
            errors.append(ModelFileError(line: line, column: column, message: message))
        }

        private mutating func parseParameter(_ raw: Substring, line: Int) {
            let text = stripComment(raw)
            guard let colon = text.firstIndex(of: ":") else {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                fail(line, column(of: trimmed, in: raw), "expected 'Name: value1, value2, …' but found '\(trimmed)'")
                return
            }
            let name = text[..<colon].trimmingCharacters(in: .whitespaces)
            let nameColumn = column(of: name.isEmpty ? ":" : name, in: raw)
            if name.isEmpty {
                fail(line, nameColumn, "the parameter has no name before ':'")
                return
            }
            if factors.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                fail(line, nameColumn, "parameter '\(name)' is defined twice; give each parameter one line")
                return
            }
            var levels: [String] = []
            var lookup: [String: Int] = [:]
            var offset = text.distance(from: text.startIndex, to: colon) + 2
            for part in text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
                let partColumn = offset + (part.firstIndex { !$0.isWhitespace }.map { part.distance(from: part.startIndex, to: $0) } ?? 0)
                offset += part.count + 1
                var value = part.trimmingCharacters(in: .whitespaces)
                if value.isEmpty {
                    fail(line, partColumn, "empty value in parameter '\(name)'; remove the extra comma")
                    continue
                }
                // A weight such as 'v (10)' only steers PICT's choices; it does not change coverage.
                if value.hasSuffix(")"), let open = value.lastIndex(of: "("),
                    Int(value[value.index(after: open)..<value.index(before: value.endIndex)].trimmingCharacters(in: .whitespaces)) != nil
                {
                    value = value[..<open].trimmingCharacters(in: .whitespaces)
                }
                if value.hasPrefix("~") { value.removeFirst() }
                let names = value.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                guard let primary = names.first else {
                    fail(line, partColumn, "empty value in parameter '\(name)'")
                    continue
                }
                if lookup[primary.lowercased()] != nil {
                    fail(line, partColumn, "value '\(primary)' appears twice in parameter '\(name)'")
                    continue
                }
                for alias in names { lookup[alias.lowercased()] = levels.count }
                levels.append(primary)
            }
            if levels.isEmpty && !errors.contains(where: { $0.line == line }) {
                fail(line, nameColumn, "parameter '\(name)' has no values")
            }
            if !levels.isEmpty {
                factors.append(Factor(name, levels: levels))
                aliases.append(lookup)
            }
        }

        // MARK: Constraints

        private mutating func tokenize(from start: Int) -> [Token] {
            var tokens: [Token] = []
            var endLine = start + 1, endColumn = 1
            for number in start..<lines.count {
                let line = Array(stripComment(lines[number]))
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
                    } else if character == "\"" {
                        index += 1
                        var text = ""
                        while index < line.count && line[index] != "\"" {
                            text.append(line[index])
                            index += 1
                        }
                        if index >= line.count {
                            fail(number + 1, begin + 1, "unterminated string; add the closing '\"'")
                        }
                        index += 1
                        token(.string, text, at: begin)
                    } else if character == "[" {
                        index += 1
                        var text = ""
                        while index < line.count && line[index] != "]" {
                            text.append(line[index])
                            index += 1
                        }
                        if index >= line.count { fail(number + 1, begin + 1, "missing ']' after the parameter name") }
                        index += 1
                        token(.name, text.trimmingCharacters(in: .whitespaces), at: begin)
                    } else if character.isNumber || (character == "-" && index + 1 < line.count && line[index + 1].isNumber) {
                        index += 1
                        while index < line.count && (line[index].isNumber || line[index] == ".") { index += 1 }
                        token(.number, String(line[begin..<index]), at: begin)
                    } else if character.isLetter {
                        while index < line.count && (line[index].isLetter || line[index].isNumber || line[index] == "_") { index += 1 }
                        token(.word, String(line[begin..<index]).uppercased(), at: begin)
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

        private mutating func parseConstraints(from start: Int) -> [Constraint] {
            let known = errors.count
            var tokens = Cursor(tokens: tokenize(from: start))
            guard errors.count == known else { return [] }
            var constraints: [Constraint] = []
            while tokens.current.kind != .end {
                let first = tokens.current
                tokens.depth = 0
                tokens.operators = 0
                do {
                    let expression = try statement(&tokens)
                    let factorsUsed = expression.factors.sorted()
                    let factors = self.factors
                    let label = "line \(first.line): " + render(first: first)
                    constraints.append(
                        Constraint(scope: factorsUsed, label: label) { values in
                            expression.evaluate { factor in factors[factor].levels[values[factorsUsed.firstIndex(of: factor)!]] }
                        })
                } catch {
                    errors.append(error)
                    // Skip to the next ';' and go on, so every problem is reported at once.
                    while tokens.current.kind != .end && tokens.current.text != ";" { tokens.advance() }
                    if tokens.current.kind != .end { tokens.advance() }
                }
            }
            return constraints
        }

        private func render(first: Token) -> String {
            var text = String(lines[first.line - 1].dropFirst(first.column - 1)).trimmingCharacters(in: .whitespaces)
            while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
            return text
        }

        private func statement(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            var result: Expression
            if tokens.current.kind == .word && tokens.current.text == "IF" {
                tokens.advance()
                let condition = try disjunction(&tokens)
                try expectWord("THEN", &tokens)
                let then = try disjunction(&tokens)
                if tokens.current.kind == .word && tokens.current.text == "ELSE" {
                    tokens.advance()
                    let otherwise = try disjunction(&tokens)
                    result = .or(.and(condition, then), .and(.not(condition), otherwise))
                } else {
                    result = .or(.not(condition), then)
                }
            } else {
                result = try disjunction(&tokens)
            }
            guard tokens.current.text == ";" && tokens.current.kind == .symbol else {
                throw error(at: tokens.current, "expected ';' at the end of the constraint but found \(describe(tokens.current))")
            }
            tokens.advance()
            return result
        }

        private func expectWord(_ word: String, _ tokens: inout Cursor) throws(ModelFileError) {
            guard tokens.current.kind == .word && tokens.current.text == word else {
                throw error(at: tokens.current, "expected '\(word)' but found \(describe(tokens.current))")
            }
            tokens.advance()
        }

        private func disjunction(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            var result = try conjunction(&tokens)
            while tokens.current.kind == .word && tokens.current.text == "OR" {
                try countOperator(&tokens)
                tokens.advance()
                result = .or(result, try conjunction(&tokens))
            }
            return result
        }

        private func conjunction(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            var result = try unary(&tokens)
            while tokens.current.kind == .word && tokens.current.text == "AND" {
                try countOperator(&tokens)
                tokens.advance()
                result = .and(result, try unary(&tokens))
            }
            return result
        }

        /// Refuses nesting past `Limits.pictNestingDepth` before the recursion can exhaust the stack.
        private func unary(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            let nests = (tokens.current.kind == .word && tokens.current.text == "NOT") || (tokens.current.kind == .symbol && tokens.current.text == "(")
            guard nests else { return try unnested(&tokens) }
            tokens.depth += 1
            if tokens.depth > Limits.pictNestingDepth {
                throw error(
                    at: tokens.current,
                    "the constraint nests NOT and parentheses more than \(Limits.pictNestingDepth) deep (migrate's limit); split it into several constraints")
            }
            defer { tokens.depth -= 1 }
            return try unnested(&tokens)
        }

        /// Counts AND, OR and IF so one constraint stays a tree migrate can evaluate without deep recursion.
        private func countOperator(_ tokens: inout Cursor) throws(ModelFileError) {
            tokens.operators += 1
            if tokens.operators > Limits.pictOperatorsPerConstraint {
                throw error(
                    at: tokens.current,
                    "the constraint has more than \(Limits.pictOperatorsPerConstraint) AND/OR operators (migrate's limit); split it into several constraints")
            }
        }

        private func unnested(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            if tokens.current.kind == .word && tokens.current.text == "NOT" {
                tokens.advance()
                return .not(try unary(&tokens))
            }
            if tokens.current.kind == .symbol && tokens.current.text == "(" {
                tokens.advance()
                let inner = try disjunction(&tokens)
                guard tokens.current.kind == .symbol && tokens.current.text == ")" else {
                    throw error(at: tokens.current, "expected ')' but found \(describe(tokens.current))")
                }
                tokens.advance()
                return inner
            }
            return try term(&tokens)
        }

        private func term(_ tokens: inout Cursor) throws(ModelFileError) -> Expression {
            let nameToken = tokens.current
            guard nameToken.kind == .name else {
                throw error(at: nameToken, "expected a parameter in brackets such as [\(factors.first?.name ?? "Name")] but found \(describe(nameToken))")
            }
            let factor = try factorIndex(nameToken)
            tokens.advance()
            let operatorToken = tokens.current
            if operatorToken.kind == .word && (operatorToken.text == "IN" || operatorToken.text == "NOT") {
                var negated = false
                if operatorToken.text == "NOT" {
                    tokens.advance()
                    negated = true
                    guard tokens.current.kind == .word && tokens.current.text == "IN" else {
                        throw error(at: tokens.current, "expected 'IN' after 'NOT' but found \(describe(tokens.current))")
                    }
                }
                tokens.advance()
                guard tokens.current.kind == .symbol && tokens.current.text == "{" else {
                    throw error(at: tokens.current, "expected '{' to start the set but found \(describe(tokens.current))")
                }
                tokens.advance()
                var members: [Operand] = []
                while true {
                    let valueToken = tokens.current
                    members.append(.literal(try literal(valueToken, for: factor)))
                    tokens.advance()
                    if tokens.current.kind == .symbol && tokens.current.text == "," {
                        tokens.advance()
                        continue
                    }
                    guard tokens.current.kind == .symbol && tokens.current.text == "}" else {
                        throw error(at: tokens.current, "expected ',' or '}' in the set but found \(describe(tokens.current))")
                    }
                    tokens.advance()
                    break
                }
                let membership = Expression.member(factor: factor, members)
                return negated ? .not(membership) : membership
            }
            if operatorToken.kind == .word && operatorToken.text == "LIKE" {
                tokens.advance()
                guard tokens.current.kind == .string else {
                    throw error(at: tokens.current, "expected a quoted pattern after 'LIKE' but found \(describe(tokens.current))")
                }
                let pattern = tokens.current.text
                tokens.advance()
                return .like(factor: factor, pattern)
            }
            guard operatorToken.kind == .symbol, let relation = Relation(rawValue: operatorToken.text) else {
                throw error(at: operatorToken, "expected a comparison (=, <>, <, <=, >, >=, IN, LIKE) after [\(nameToken.text)] but found \(describe(operatorToken))")
            }
            tokens.advance()
            let valueToken = tokens.current
            if valueToken.kind == .name {
                let other = try factorIndex(valueToken)
                tokens.advance()
                return .compare(factor: factor, relation, .factor(other))
            }
            let text = try literal(valueToken, for: factor, allowUnknown: relation != .equal && relation != .notEqual)
            tokens.advance()
            return .compare(factor: factor, relation, .literal(text))
        }

        private func factorIndex(_ token: Token) throws(ModelFileError) -> Int {
            if let index = factors.firstIndex(where: { $0.name.lowercased() == token.text.lowercased() }) { return index }
            throw error(at: token, "unknown parameter [\(token.text)].\(Suggestions.didYouMean(token.text, in: factors.map(\.name)))")
        }

        /// A value in a constraint, checked against the parameter's values (aliases resolve to their value).
        private func literal(_ token: Token, for factor: Int, allowUnknown: Bool = false) throws(ModelFileError) -> String {
            guard token.kind == .string || token.kind == .number else {
                throw error(at: token, "expected a value (\"text\" or a number) but found \(describe(token))")
            }
            if let level = aliases[factor][token.text.lowercased()] { return factors[factor].levels[level] }
            if allowUnknown { return token.text }
            if token.kind == .number, let level = factors[factor].levels.firstIndex(where: { PICTModel.compare($0, token.text) == 0 }) {
                return factors[factor].levels[level]
            }
            let name = factors[factor].name
            throw error(at: token, "[\(name)] has no value '\(token.text)'.\(Suggestions.didYouMean(token.text, in: factors[factor].levels)) Its values are: \(factors[factor].levels.joined(separator: ", ")).")
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

    struct Cursor {
        var tokens: [Token]
        var position = 0
        /// NOTs and parentheses open at the current token, and AND/OR operators read, in the constraint being parsed.
        var depth = 0
        var operators = 0
        var current: Token { tokens[position] }
        mutating func advance() { if position < tokens.count - 1 { position += 1 } }
    }
}
