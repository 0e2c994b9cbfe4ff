import Testing

@testable import MigrateCLI

@Suite("--dry-run's line diff", .timeLimit(.minutes(20)))
struct LineDiffTests {
    static let plain = Style(enabled: false)

    @Test("A changed line is its new line then its old one, with two lines of context and '…' between changes")
    func replaced() {
        let old = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 3\n", with: "line three\n").replacingOccurrences(of: "line 10\n", with: "")
        let diff = LineDiff.render(old: old, new: new, style: Self.plain)
        #expect(
            diff == """
                  line 1
                  line 2
                + line three
                - line 3
                  line 4
                  line 5
                  …
                  line 8
                  line 9
                - line 10
                  line 11
                  line 12

                """)
    }

    @Test("A large plan is diffed line by line, with no cap that prints it all as new")
    func large() {
        let old = (0..<20_000).map { "\"id\": \($0)," }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "\"id\": 15000,", with: "\"id\": 15000, \"name\": \"x\",")
        let diff = LineDiff.render(old: old, new: new, style: Self.plain)
        #expect(diff.split(separator: "\n").count == 6)
        #expect(diff.contains("+ \"id\": 15000, \"name\": \"x\",") && diff.contains("- \"id\": 15000,"))
    }

    @Test("Identical texts give nothing")
    func identical() {
        #expect(LineDiff.render(old: "a\nb\n", new: "a\nb\n", style: Self.plain).isEmpty)
    }
}
