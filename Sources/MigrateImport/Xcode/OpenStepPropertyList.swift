import Foundation
import MigratePlan
import MigrateSupport

/// A reader for the old ASCII ("OpenStep") property lists that `project.pbxproj` is written in.
///
/// Foundation reads them too, but on Linux it reports every syntax error at line 1 and logs its own line
/// on stderr; this reader says where the file is damaged (line and column) and what was expected there.
/// It gives the same values Foundation does: `String`, `[Any]`, `[String: Any]` and `Data`.
struct OpenStepPropertyList {
    struct Problem: Error, Sendable {
        var location: SourceLocation
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// True when the bytes look like an OpenStep property list (after spaces and comments, a `{` or `(`).
    static func looksLikeOpenStep(_ bytes: [UInt8]) -> Bool {
        var reader = OpenStepPropertyList(bytes)
        guard (try? reader.skipSpaceAndComments()) != nil, let first = reader.peek else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "(")
    }

    /// The top-level value, or the first problem with its place.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> Any {
        var reader = OpenStepPropertyList(bytes)
        let value = try reader.value(what: "a value")
        try reader.skipSpaceAndComments()
        if reader.peek != nil { throw reader.problem("unexpected \(reader.found) after the end of the property list") }
        return value
    }

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Line and column (in characters) of the current byte.
    private var location: SourceLocation { location(of: mark) }

    /// Where the reader is, kept cheaply for a message that may never be needed (a string's start is
    /// kept for every string; its column is counted only if the string is never closed).
    private struct Mark {
        var index: Int
        var line: Int
        var lineStart: Int
    }

    private var mark: Mark { Mark(index: index, line: line, lineStart: lineStart) }

    private func location(of mark: Mark) -> SourceLocation {
        var column = 1
        for byte in bytes[mark.lineStart..<mark.index] where byte & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: mark.line, column: column)
    }

    /// What is at the current place, for messages: `'}'`, or "the end of the file".
    private var found: String {
        guard let byte = peek else { return "the end of the file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private func problem(_ message: String) -> Problem { Problem(location: location, message: message) }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipSpaceAndComments() throws(Problem) {
        while let byte = peek {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while let next = peek, next != 0x0A { advance() }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = mark
                advance()
                advance()
                while true {
                    guard let next = peek else { throw Problem(location: location(of: start), message: "a comment that is never closed with '*/'") }
                    if next == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private mutating func value(what: String) throws(Problem) -> Any {
        try skipSpaceAndComments()
        guard let byte = peek else { throw problem("expected \(what), found the end of the file") }
        switch byte {
        case UInt8(ascii: "{"): return try dictionary()
        case UInt8(ascii: "("): return try array()
        case UInt8(ascii: "<"): return try data()
        case UInt8(ascii: "\""): return try quoted()
        default:
            guard Self.isBare(byte) else { throw problem("expected \(what), found \(found)") }
            let start = index
            while let next = peek, Self.isBare(next) { advance() }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    private mutating func nested<T>(_ body: (inout Self) throws(Problem) -> T) throws(Problem) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Limits.propertyListDepth else {
            throw problem("nested more than \(Limits.propertyListDepth) deep, migrate's limit for a property list")
        }
        return try body(&self)
    }

    private mutating func dictionary() throws(Problem) -> [String: Any] {
        try nested { (reader: inout Self) throws(Problem) -> [String: Any] in
            reader.advance()
            var result: [String: Any] = [:]
            while true {
                try reader.skipSpaceAndComments()
                if reader.peek == UInt8(ascii: "}") {
                    reader.advance()
                    return result
                }
                guard let byte = reader.peek, byte == UInt8(ascii: "\"") || Self.isBare(byte) else {
                    throw reader.problem("expected a key or '}' to close the dictionary, found \(reader.found)")
                }
                guard let key = try reader.value(what: "a key") as? String else {
                    throw reader.problem("a key must be a string")
                }
                try reader.skipSpaceAndComments()
                guard reader.peek == UInt8(ascii: "=") else {
                    throw reader.problem("expected '=' after the key '\(key)', found \(reader.found)")
                }
                reader.advance()
                result[key] = try reader.value(what: "the value of '\(key)'")
                try reader.skipSpaceAndComments()
                guard reader.peek == UInt8(ascii: ";") else {
                    throw reader.problem("expected ';' after the value of '\(key)', found \(reader.found)")
                }
                reader.advance()
            }
        }
    }

    private mutating func array() throws(Problem) -> [Any] {
        try nested { (reader: inout Self) throws(Problem) -> [Any] in
            reader.advance()
            var result: [Any] = []
            while true {
                try reader.skipSpaceAndComments()
                if reader.peek == UInt8(ascii: ")") {
                    reader.advance()
                    return result
                }
                result.append(try reader.value(what: "a value or ')' to close the list"))
                try reader.skipSpaceAndComments()
                if reader.peek == UInt8(ascii: ",") {
                    reader.advance()
                } else if reader.peek != UInt8(ascii: ")") {
                    throw reader.problem("expected ',' or ')' after a list item, found \(reader.found)")
                }
            }
        }
    }

    private mutating func quoted() throws(Problem) -> String {
        let start = mark
        advance()
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = peek else { throw Problem(location: location(of: start), message: "a string that is never closed with '\"'") }
            advance()
            if byte == UInt8(ascii: "\"") {
                flush()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                run.append(byte)
                continue
            }
            guard let escaped = peek else { throw Problem(location: location(of: start), message: "a string that is never closed with '\"'") }
            advance()
            switch escaped {
            case UInt8(ascii: "n"): run.append(0x0A)
            case UInt8(ascii: "t"): run.append(0x09)
            case UInt8(ascii: "r"): run.append(0x0D)
            case UInt8(ascii: "a"): run.append(0x07)
            case UInt8(ascii: "b"): run.append(0x08)
            case UInt8(ascii: "f"): run.append(0x0C)
            case UInt8(ascii: "v"): run.append(0x0B)
            case UInt8(ascii: "U"):
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let digit = peek.flatMap({ UInt32(String(Unicode.Scalar($0)), radix: 16) }) else {
                        throw problem("expected four hexadecimal digits after '\\U', found \(found)")
                    }
                    value = value * 16 + digit
                    advance()
                }
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let next = peek, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) else { break }
                    value = value * 8 + UInt32(next - UInt8(ascii: "0"))
                    advance()
                }
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default:
                run.append(escaped)
            }
        }
    }

    private mutating func data() throws(Problem) -> Data {
        let start = mark
        advance()
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            try skipSpaceAndComments()
            guard let byte = peek else { throw Problem(location: location(of: start), message: "data that is never closed with '>'") }
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw problem("data with an odd number of hexadecimal digits") }
                advance()
                return Data(bytes)
            }
            guard let digit = UInt8(String(Unicode.Scalar(byte)), radix: 16) else {
                throw problem("expected a hexadecimal digit or '>' in data, found \(found)")
            }
            advance()
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
    }
}
