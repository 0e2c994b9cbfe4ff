/// A JSON syntax error with the place it was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public var description: String { "\(location): \(message)" }
}

/// A strict RFC 8259 parser that records the line and column of every value and key.
///
/// Foundation's `JSONSerialization` reports byte offsets at best and loses number literals;
/// a plan's diagnostics need `line:column` for every path, so the project parses JSON itself.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0
    private static let maximumDepth = 512
    /// Refuse an object that names a member twice (RFC 8259 leaves the meaning to the reader, and most keep the last
    /// silently); a reader that reports duplicates itself, with every other problem, keeps them.
    private let refusesDuplicateKeys: Bool

    private init(bytes: [UInt8], refusesDuplicateKeys: Bool) {
        self.bytes = bytes
        self.refusesDuplicateKeys = refusesDuplicateKeys
    }

    /// Parses one JSON document. A UTF-8 byte order mark is skipped.
    public static func parse(_ text: String, keepingDuplicateKeys: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        try parse(bytes: Array(text.utf8), keepingDuplicateKeys: keepingDuplicateKeys)
    }

    /// Parses one JSON document. An object that names a member twice is refused at the second name, unless
    /// `keepingDuplicateKeys` (for a reader that reports them itself, as the plan's decoder does with a JSON path).
    public static func parse(bytes: [UInt8], keepingDuplicateKeys: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, refusesDuplicateKeys: !keepingDuplicateKeys)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        guard parser.index < bytes.count else {
            throw parser.error("the file is empty; expected a JSON value such as '{ … }'")
        }
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return node
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard let byte = current else { throw error("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(), at: start)
        case UInt8(ascii: "["): return JSONNode(try parseArray(), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(try parseNumber(), at: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(.null, at: start)
        case UInt8(ascii: "'"): throw error("strings must use double quotes, not single quotes")
        case UInt8(ascii: "}"), UInt8(ascii: "]"): throw error("unexpected \(describeCurrent()); expected a value")
        default: throw error("unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        advance()  // {
        var members: [JSONMember] = []
        // Keys by place once an object is large enough that a scan of its members per key would cost more.
        var keyIndex: [String: Int]?
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyLocation = location
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last ','") }
                if current == nil { throw error("unexpected end of file inside an object; expected '}'") }
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let key = try parseString()
            if refusesDuplicateKeys, let first = Self.earlier(key, in: members, index: &keyIndex) {
                throw JSONSyntaxError(
                    location: keyLocation,
                    message:
                        "\"\(key)\" is given twice in this object (first at \(first.keyLocation)); a reader would keep one of them silently, so keep one"
                )
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\", found \(describeCurrent())")
            }
            advance()
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                return .object(members)
            case nil: throw error("unexpected end of file inside an object; expected ',' or '}'")
            default: throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    /// The member already named `key`, if any; from `members.count` members on it keeps an index of the keys.
    private static func earlier(_ key: String, in members: [JSONMember], index: inout [String: Int]?) -> JSONMember? {
        if index == nil && members.count < 16 { return members.first { $0.key == key } }
        if index == nil {
            index = [:]
            for (offset, member) in members.enumerated() where index![member.key] == nil { index![member.key] = offset }
        }
        if let offset = index![key] { return members[offset] }
        index![key] = members.count
        return nil
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        advance()  // [
        var items: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return .array(items)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("trailing comma before ']'; remove the last ','") }
            items.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                return .array(items)
            case nil: throw error("unexpected end of file inside an array; expected ',' or ']'")
            default: throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        advance()  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated string; add the closing '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                advance()
                try parseEscape(into: &buffer)
            case 0..<0x20:
                if byte == UInt8(ascii: "\n") { throw error("unterminated string: a line break inside a string must be written as \\n") }
                throw error("control character U+\(hex(UInt32(byte), width: 4)) inside a string must be escaped")
            default:
                appendPlainRun(to: &buffer)
            }
        }
    }

    /// Appends the bytes up to the next quote, backslash or control character at once, and moves past them: a
    /// byte at a time, a 50 MB string took seconds. The run holds no line break, so only the column moves.
    private mutating func appendPlainRun(to buffer: inout [UInt8]) {
        let (end, characters) = bytes.withUnsafeBufferPointer { bytes in
            var end = index
            var characters = 0
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                // Count characters, not bytes, as `advance` does.
                if byte & 0xC0 != 0x80 { characters += 1 }
                end += 1
            }
            return (end, characters)
        }
        buffer.append(contentsOf: bytes[index..<end])
        index = end
        column += characters
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("unterminated escape sequence at the end of the file") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
            UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            buffer.append(replacement)
            advance()
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw error("invalid escape '\\\(describeByte(byte))'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        advance()
        var scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw error("unpaired UTF-16 surrogate \\u\(hex(scalar, width: 4))")
            }
            advance()
            advance()
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate \\u\(hex(scalar, width: 4))") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired UTF-16 surrogate \\u\(hex(scalar, width: 4))")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid Unicode escape") }
        buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else {
                throw error("expected four hexadecimal digits after \\u")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let startIndex = index
        if current == UInt8(ascii: "-") { advance() }
        guard let first = current, isDigit(first) else { throw error("expected a digit after '-'") }
        if first == UInt8(ascii: "0"), let next = peek(1), isDigit(next) {
            throw error("numbers must not have leading zeros; write the value as a string if it is a version or an id")
        }
        while let byte = current, isDigit(byte) { advance() }
        if current == UInt8(ascii: ".") {
            advance()
            guard let byte = current, isDigit(byte) else { throw error("expected a digit after the decimal point") }
            while let byte = current, isDigit(byte) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard let byte = current, isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = current, isDigit(byte) { advance() }
        }
        return .number(String(decoding: bytes[startIndex..<index], as: UTF8.self))
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = location
        for expected in word.utf8 {
            guard current == expected else {
                throw JSONSyntaxError(location: start, message: "invalid literal; expected '\(word)'")
            }
            advance()
        }
        if let byte = current, isIdentifierByte(byte) {
            throw JSONSyntaxError(location: start, message: "invalid literal; expected '\(word)'")
        }
    }

    // MARK: - Scanning

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Count characters, not bytes: continuation bytes of UTF-8 don't move the column.
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location, message: message)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "the end of the file" }
        return "'\(describeByte(byte))'"
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        if byte >= 0x80 {
            // Show the whole character rather than a lone UTF-8 byte.
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        return "U+\(hex(UInt32(byte), width: 4))"
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
