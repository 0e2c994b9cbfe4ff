/// A template problem, with the template's name and line: `swift/Entitlements:12: no value for 'x'`.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var template: String
    public var line: Int
    public var message: String

    public var description: String { "\(template):\(line): \(message)" }
}

/// A parsed Mustache template.
///
/// Supported: variables (`{{x}}`, `{{{x}}}`, `{{& x}}`, dotted names, `{{.}}`), sections over lists,
/// booleans and objects, inverted sections, comments, partials (with standalone indentation),
/// set-delimiter, and standalone-line removal (also with `\r\n`). Lambdas are not.
public struct Template: Sendable {
    public let name: String
    let nodes: [Node]

    indirect enum Node: Sendable {
        case text(String)
        case variable(name: String, escaped: Bool, line: Int)
        case section(name: String, inverted: Bool, children: [Node], line: Int)
        case partial(name: String, indentation: String, line: Int)
    }

    public init(name: String, text: String) throws(TemplateError) {
        self.name = name
        var parser = TemplateParser(name: name, bytes: Array(text.utf8))
        self.nodes = try parser.parse()
    }
}

/// Scans UTF-8 bytes for tags; everything between tags is copied as it is.
struct TemplateParser {
    let name: String
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var open: [UInt8] = Array("{{".utf8)
    var close: [UInt8] = Array("}}".utf8)

    private struct OpenSection {
        var name: String
        var inverted: Bool
        var line: Int
        var nodes: [Template.Node]
    }

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    mutating func parse() throws(TemplateError) -> [Template.Node] {
        var stack: [OpenSection] = []
        var nodes: [Template.Node] = []
        var text: [UInt8] = []
        /// Where the last tag ended: a tag is standalone only if it is the only one on its line.
        var lastTagEnd = -1

        func flushText() {
            if !text.isEmpty {
                nodes.append(.text(String(decoding: text, as: UTF8.self)))
                text.removeAll()
            }
        }

        while index < bytes.count {
            guard let tagStart = find(open, from: index) else {
                text += bytes[index...]
                countLines(in: index..<bytes.count)
                index = bytes.count
                break
            }
            text += bytes[index..<tagStart]
            countLines(in: index..<tagStart)
            let tagLine = line
            var contentStart = tagStart + open.count
            guard contentStart <= bytes.count else { throw error("unclosed tag", line: tagLine) }
            let sigil = contentStart < bytes.count ? bytes[contentStart] : 0
            var closing = close
            let triple = sigil == UInt8(ascii: "{") && open == Array("{{".utf8)
            if triple { closing = Array("}".utf8) + close }
            if [
                UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "&"),
                UInt8(ascii: "{"),
            ].contains(sigil) {
                contentStart += 1
            }
            guard let contentEnd = find(closing, from: contentStart) else {
                throw error(
                    "unclosed tag '\(String(decoding: open, as: UTF8.self))'; add '\(String(decoding: closing, as: UTF8.self))'", line: tagLine)
            }
            let tagEnd = contentEnd + closing.count
            var content = String(decoding: bytes[contentStart..<contentEnd], as: UTF8.self).trimmingSpaces
            countLines(in: tagStart..<tagEnd)

            // Standalone: only white space around the tag on its line, and no other tag before it.
            let canStandAlone = [UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: ">"), UInt8(ascii: "=")]
                .contains(sigil)
            var standalone = false
            var indentation = ""
            var resume = tagEnd
            if canStandAlone {
                var lineStart = tagStart
                while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
                let before = bytes[lineStart..<tagStart]
                var lineEnd = tagEnd
                while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                let after = bytes[tagEnd..<lineEnd]
                let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
                let blankAfter = after.allSatisfy(blank) || (after.last == 0x0D && after.dropLast().allSatisfy(blank))
                if lastTagEnd <= lineStart, before.allSatisfy(blank), blankAfter {
                    standalone = true
                    indentation = String(decoding: before, as: UTF8.self)
                    text.removeLast(before.count)
                    resume = lineEnd < bytes.count ? lineEnd + 1 : lineEnd
                    if lineEnd < bytes.count { line += 1 }
                }
            }
            lastTagEnd = standalone ? resume : tagEnd
            index = resume

            switch sigil {
            case UInt8(ascii: "!"):
                continue
            case UInt8(ascii: "="):
                guard content.hasSuffix("=") else { throw error("a set-delimiter tag must end with '='", line: tagLine) }
                content.removeLast()
                let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
                    throw error("a set-delimiter tag needs two delimiters, such as {{=<% %>=}}", line: tagLine)
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                try validate(content, line: tagLine)
                flushText()
                stack.append(OpenSection(name: content, inverted: sigil == UInt8(ascii: "^"), line: tagLine, nodes: nodes))
                nodes = []
            case UInt8(ascii: "/"):
                flushText()
                guard let section = stack.popLast() else {
                    throw error("'{{/\(content)}}' closes a section that was never opened", line: tagLine)
                }
                guard section.name == content else {
                    throw error("'{{/\(content)}}' closes '\(section.name)', opened on line \(section.line)", line: tagLine)
                }
                let children = nodes
                nodes = section.nodes
                nodes.append(.section(name: section.name, inverted: section.inverted, children: children, line: section.line))
            case UInt8(ascii: ">"):
                try validate(content, line: tagLine)
                flushText()
                nodes.append(.partial(name: content, indentation: standalone ? indentation : "", line: tagLine))
            default:
                try validate(content, line: tagLine)
                flushText()
                let escaped = !(triple || sigil == UInt8(ascii: "&"))
                nodes.append(.variable(name: content, escaped: escaped, line: tagLine))
            }
        }
        flushText()
        if let unclosed = stack.last {
            throw error("section '\(unclosed.name)' is never closed; add {{/\(unclosed.name)}}", line: unclosed.line)
        }
        return nodes
    }

    private func validate(_ content: String, line: Int) throws(TemplateError) {
        if content.isEmpty { throw error("empty tag", line: line) }
        if content.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            throw error("'\(content)' is not a name; names have no spaces", line: line)
        }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start <= bytes.count - needle.count else { return nil }
        var position = start
        let first = needle[0]
        while position <= bytes.count - needle.count {
            if bytes[position] == first && bytes[position..<position + needle.count].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }

    private mutating func countLines(in range: Range<Int>) {
        for position in range where bytes[position] == UInt8(ascii: "\n") { line += 1 }
    }

    private func error(_ message: String, line: Int) -> TemplateError {
        TemplateError(template: name, line: line, message: message)
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
