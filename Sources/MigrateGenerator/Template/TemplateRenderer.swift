/// Renders templates against a context, looking partials up by name.
public struct TemplateRenderer: Sendable {
    /// Finds a partial's source text by name, e.g. `partials/header`.
    public var partialSource: @Sendable (String) -> String?
    /// In strict mode a missing name is an error (`template:line: no value for 'x'`) instead of nothing.
    public var isStrict: Bool
    /// Applied to `{{x}}` (not to `{{{x}}}` or `{{& x}}`). Code generation wants none.
    public var escape: @Sendable (String) -> String

    public init(
        isStrict: Bool = true, escape: @escaping @Sendable (String) -> String = { $0 },
        partialSource: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.isStrict = isStrict
        self.escape = escape
        self.partialSource = partialSource
    }

    /// HTML escaping, as the Mustache spec does by default.
    public static let htmlEscape: @Sendable (String) -> String = { text in
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    public func render(_ template: Template, context: TemplateValue) throws(TemplateError) -> String {
        var output = ""
        var stack = [context]
        try render(template.nodes, template: template.name, stack: &stack, depth: 0, into: &output)
        return output
    }

    private func render(
        _ nodes: [Template.Node], template: String, stack: inout [TemplateValue], depth: Int, into output: inout String
    ) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped, let line):
                guard let value = try lookup(name, in: stack, template: template, line: line) else { continue }
                switch value {
                case .string(let text): output += escaped ? escape(text) : text
                case .bool(let flag): output += flag ? "true" : "false"
                case .null: break
                case .list, .object:
                    if isStrict {
                        throw TemplateError(
                            template: template, line: line, message: "'\(name)' is a \(value.kind); use it as a section: {{#\(name)}}…{{/\(name)}}")
                    }
                }
            case .section(let name, let inverted, let children, let line):
                let value = try lookup(name, in: stack, template: template, line: line) ?? .null
                if inverted {
                    if value.isFalsey { try render(children, template: template, stack: &stack, depth: depth, into: &output) }
                    continue
                }
                switch value {
                case .list(let items):
                    for item in items {
                        stack.append(item)
                        try render(children, template: template, stack: &stack, depth: depth, into: &output)
                        stack.removeLast()
                    }
                case .bool(true):
                    try render(children, template: template, stack: &stack, depth: depth, into: &output)
                case .bool(false), .null:
                    break
                case .string, .object:
                    stack.append(value)
                    try render(children, template: template, stack: &stack, depth: depth, into: &output)
                    stack.removeLast()
                }
            case .partial(let name, let indentation, let line):
                guard depth < 64 else {
                    throw TemplateError(template: template, line: line, message: "partials nest more than 64 deep; does '\(name)' include itself?")
                }
                guard let source = partialSource(name) else {
                    if isStrict { throw TemplateError(template: template, line: line, message: "no partial named '\(name)'") }
                    continue
                }
                let partial = try Template(name: name, text: Self.indent(source, by: indentation))
                try render(partial.nodes, template: name, stack: &stack, depth: depth + 1, into: &output)
            }
        }
    }

    /// Indents every line of a standalone partial, as the spec asks, before it is parsed.
    static func indent(_ source: String, by indentation: String) -> String {
        guard !indentation.isEmpty else { return source }
        var result = ""
        var atLineStart = true
        for character in source {
            if atLineStart && character != "\n" && character != "\r\n" { result += indentation }
            result.append(character)
            atLineStart = character == "\n" || character == "\r\n"
        }
        return result
    }

    private func lookup(_ name: String, in stack: [TemplateValue], template: String, line: Int) throws(TemplateError) -> TemplateValue? {
        if name == "." { return stack.last }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw TemplateError(template: template, line: line, message: "'\(name)' is not a valid name")
        }
        var value: TemplateValue?
        for context in stack.reversed() {
            if let found = context[parts[0]] {
                value = found
                break
            }
        }
        for part in parts.dropFirst() {
            value = value?[part]
        }
        if value == nil && isStrict {
            throw TemplateError(template: template, line: line, message: "no value for '\(name)'")
        }
        return value
    }
}

extension TemplateValue {
    var kind: String {
        switch self {
        case .string: "string"
        case .bool: "boolean"
        case .list: "list"
        case .object: "object"
        case .null: "null"
        }
    }
}
