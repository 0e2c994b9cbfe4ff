import Testing

@testable import MigrateGenerator

/// The generated matrix's calls, laid out as swift-format keeps them: each case checked against the
/// text swift-format accepts (the goldens are linted with `swift format lint --strict`).
@Suite("Swift layout", .timeLimit(.minutes(20)))
struct SwiftLayoutTests {
    static let long = String(repeating: "x", count: 40)

    @Test(
        "A call or array stays on one line when it fits in 99 columns, else breaks and packs its arguments",
        arguments: [
            (SwiftLayout.call("f", [.text("a: 1"), .text("b: 2")]), 0, "f(a: 1, b: 2)"),
            (.call("f", [.text("a: " + long), .text("b: " + long)]), 10, "f(\n            a: \(long),\n            b: \(long))"),
            (.call("f", [.text(long), .text(long), .text(long)]), 0, "f(\n  \(long), \(long),\n  \(long))"),
            (.array("xs: ", [.text(long), .text(long), .text(long)]), 4, "xs: [\n      \(long),\n      \(long),\n      \(long),\n    ]"),
            (.array("xs: ", [.text(long + long + long)]), 4, "xs: [\n      \(long + long + long)\n    ]"),
            (
                .call("f", [.text("a: 1"), .array("xs: ", [.text(long), .text(long), .text(long)]), .text("b: 2")]), 2,
                "f(\n    a: 1,\n    xs: [\n      \(long),\n      \(long),\n      \(long),\n    ],\n    b: 2)"
            ),
        ] as [(SwiftLayout, Int, String)])
    func layout(expression: SwiftLayout, indent: Int, text: String) {
        #expect(expression.rendered(at: indent) == text)
    }

    @Test("A line of 99 columns is kept, one of 100 is broken: swift-format's lineLength 100 refuses 100")
    func widthBoundary() {
        let fits = SwiftLayout.call("f", [.text(String(repeating: "a", count: 94))])
        #expect(fits.rendered(at: 2) == fits.flat)
        let over = SwiftLayout.call("f", [.text(String(repeating: "a", count: 95))])
        #expect(over.rendered(at: 2).contains("\n"))
    }

    @Test("Every line of a packed call stays within the width, whatever the arguments")
    func linesWithinWidth() {
        let arguments = (1...30).map { SwiftLayout.text("argument\($0): " + String(repeating: "v", count: $0 % 7 * 5)) }
        let text = SwiftLayout.call("MatrixCase", arguments).rendered(at: 4, trailing: ")")
        let lines = text.split(separator: "\n")
        #expect(lines.count > 3)
        #expect(lines.dropFirst().allSatisfy { $0.count <= 99 })
    }
}
