import MigrateGenerator
import Testing

@Suite("Mustache renderer", .timeLimit(.minutes(20)))
struct TemplateTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var template: String
        var context: TemplateValue
        var expected: String
        var partials: [String: String] = [:]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Interpolation
        Case(name: "variable", template: "Hello, {{name}}!", context: ["name": "world"], expected: "Hello, world!"),
        Case(name: "no escaping by default for code", template: "{{code}}", context: ["code": "a < b && c"], expected: "a < b && c"),
        Case(name: "triple mustache", template: "{{{code}}}", context: ["code": "<x>"], expected: "<x>"),
        Case(name: "ampersand", template: "{{& code}}", context: ["code": "<x>"], expected: "<x>"),
        Case(name: "spaces inside tags", template: "{{  name  }}", context: ["name": "x"], expected: "x"),
        Case(name: "dotted names", template: "{{a.b.c}}", context: ["a": ["b": ["c": "deep"]]], expected: "deep"),
        Case(
            name: "dotted names resolve the first part up the stack", template: "{{#list}}{{a.b}}{{/list}}",
            context: ["a": ["b": "up"], "list": [["x": "1"]]], expected: "up"),
        Case(name: "implicit iterator", template: "{{#list}}({{.}}){{/list}}", context: ["list": ["a", "b"]], expected: "(a)(b)"),
        Case(name: "booleans interpolate", template: "{{flag}}", context: ["flag": true], expected: "true"),
        Case(name: "unicode passes through", template: "{{x}} → ü", context: ["x": "é"], expected: "é → ü"),
        // Sections
        Case(name: "true section", template: "{{#on}}yes{{/on}}", context: ["on": true], expected: "yes"),
        Case(name: "false section", template: "{{#on}}yes{{/on}}", context: ["on": false], expected: ""),
        Case(name: "null section", template: "[{{#x}}yes{{/x}}]", context: ["x": .null], expected: "[]"),
        Case(name: "empty list section", template: "[{{#x}}yes{{/x}}]", context: ["x": []], expected: "[]"),
        Case(name: "list section", template: "{{#items}}{{name}},{{/items}}", context: ["items": [["name": "a"], ["name": "b"]]], expected: "a,b,"),
        Case(
            name: "object section pushes context", template: "{{#app}}{{name}}{{/app}}", context: ["app": ["name": "Tilt"], "name": "outer"],
            expected: "Tilt"),
        Case(name: "context falls back to outer", template: "{{#items}}{{outer}}{{/items}}", context: ["items": [[:]], "outer": "o"], expected: "o"),
        Case(name: "nested sections", template: "{{#a}}{{#b}}{{c}}{{/b}}{{/a}}", context: ["a": ["b": ["c": "x"]]], expected: "x"),
        Case(name: "empty string is truthy", template: "{{#s}}yes{{/s}}", context: ["s": ""], expected: "yes"),
        // Inverted sections
        Case(name: "inverted false", template: "{{^on}}no{{/on}}", context: ["on": false], expected: "no"),
        Case(name: "inverted empty list", template: "{{^items}}none{{/items}}", context: ["items": []], expected: "none"),
        Case(name: "inverted true", template: "{{^on}}no{{/on}}", context: ["on": true], expected: ""),
        // Comments
        Case(name: "inline comment", template: "a{{! hidden }}b", context: [:], expected: "ab"),
        Case(name: "multi-line comment", template: "a{{!\nhidden\n}}b", context: [:], expected: "ab"),
        Case(name: "standalone comment", template: "a\n  {{! hidden }}\nb\n", context: [:], expected: "a\nb\n"),
        // Standalone lines
        Case(
            name: "standalone section lines are removed", template: "| This\n  {{#on}}\n|\n  {{/on}}\n| Line\n", context: ["on": true],
            expected: "| This\n|\n| Line\n"),
        Case(name: "standalone with \\r\\n", template: "|\r\n{{#on}}\r\n|\r\n{{/on}}\r\n|", context: ["on": true], expected: "|\r\n|\r\n|"),
        Case(name: "standalone at end without newline", template: "|\n{{#on}}\n{{/on}}", context: ["on": true], expected: "|\n"),
        Case(name: "standalone at start", template: "{{#on}}\n#{{/on}}\n/", context: ["on": true], expected: "#\n/"),
        Case(name: "two tags on a line are not standalone", template: "  {{#on}}{{/on}}\n|", context: ["on": true], expected: "  \n|"),
        Case(name: "text before the tag is not standalone", template: " x {{#on}}\n|{{/on}}", context: ["on": true], expected: " x \n|"),
        Case(name: "variables are never standalone", template: "  {{x}}\n", context: ["x": ""], expected: "  \n"),
        // Partials
        Case(name: "partial", template: "[{{> p}}]", context: ["x": "1"], expected: "[1]", partials: ["p": "{{x}}"]),
        Case(
            name: "standalone partial is indented", template: "\\\n  {{> p}}\n/\n", context: ["x": "v"], expected: "\\\n  |\n  v\n  |\n/\n",
            partials: ["p": "|\n{{x}}\n|\n"]),
        Case(
            name: "partial sees the current context", template: "{{#items}}{{> p}}{{/items}}", context: ["items": [["n": "a"], ["n": "b"]]],
            expected: "ab", partials: ["p": "{{n}}"]),
        Case(
            name: "recursive partial over a tree", template: "{{> node}}", context: ["name": "1", "kids": [["name": "2", "kids": []]]],
            expected: "1(2())", partials: ["node": "{{name}}({{#kids}}{{> node}}{{/kids}})"]),
        // Set delimiter
        Case(name: "set delimiter", template: "{{=<% %>=}}<% x %>{{x}}", context: ["x": "v"], expected: "v{{x}}"),
        Case(name: "set delimiter and back", template: "{{=| |=}}|x||={{ }}=|{{x}}", context: ["x": "v"], expected: "vv"),
        Case(name: "standalone set delimiter", template: "a\n  {{=<% %>=}}\n<%x%>\n", context: ["x": "v"], expected: "a\nv\n"),
        Case(
            name: "set delimiter does not leak into partials", template: "{{=<% %>=}}<%> p%>", context: ["x": "v"], expected: "v",
            partials: ["p": "{{x}}"]),
    ]

    @Test("Renders like the Mustache spec", arguments: cases)
    func renders(_ test: Case) throws {
        let partials = test.partials
        let renderer = TemplateRenderer(isStrict: false, partialSource: { partials[$0] })
        #expect(try renderer.render(Template(name: "t", text: test.template), context: test.context) == test.expected)
    }

    @Test("HTML escaping is available for templates that want it")
    func htmlEscape() throws {
        let renderer = TemplateRenderer(escape: TemplateRenderer.htmlEscape)
        #expect(
            try renderer.render(Template(name: "t", text: "{{x}}|{{{x}}}"), context: ["x": "<a href=\"&\">"])
                == "&lt;a href=&quot;&amp;&quot;&gt;|<a href=\"&\">")
    }

    @Test(
        "Strict mode names the template, the line and the missing value",
        arguments: [
            ("line1\n{{missing}}", "t:2: no value for 'missing'"),
            ("{{#items}}\n\n{{nope}}{{/items}}", "t:3: no value for 'nope'"),
            ("{{#absent}}x{{/absent}}", "t:1: no value for 'absent'"),
            ("{{list}}", "t:1: 'list' is a list; use it as a section: {{#list}}…{{/list}}"),
            ("{{> nowhere}}", "t:1: no partial named 'nowhere'"),
        ])
    func strict(template: String, message: String) {
        let renderer = TemplateRenderer()
        #expect {
            try renderer.render(Template(name: "t", text: template), context: ["items": [[:]], "list": []])
        } throws: { error in
            (error as? TemplateError)?.description == message
        }
    }

    @Test(
        "Malformed templates are errors with a line",
        arguments: [
            ("{{#a}}\nx", "t:1: section 'a' is never closed; add {{/a}}"),
            ("{{#a}}\n{{/b}}", "t:2: '{{/b}}' closes 'a', opened on line 1"),
            ("x\n{{/a}}", "t:2: '{{/a}}' closes a section that was never opened"),
            ("{{name", "t:1: unclosed tag '{{'; add '}}'"),
            ("{{=<%>=}}", "t:1: a set-delimiter tag needs two delimiters, such as {{=<% %>=}}"),
            ("{{a b}}", "t:1: 'a b' is not a name; names have no spaces"),
        ])
    func malformed(template: String, message: String) {
        #expect {
            try Template(name: "t", text: template)
        } throws: { error in
            (error as? TemplateError)?.description == message
        }
    }

    @Test("A partial that includes itself forever is an error, not a crash")
    func infiniteRecursion() {
        let renderer = TemplateRenderer(partialSource: { _ in "{{> loop}}" })
        #expect(throws: TemplateError.self) { try renderer.render(Template(name: "t", text: "{{> loop}}"), context: [:]) }
    }
}
