import Foundation
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@testable import MigrateCLI

/// `check` on a history of a thousand releases that all lack one thing says it once.
@Suite("Repeated diagnostics are grouped in text and GitHub output, listed whole in JSON", .timeLimit(.minutes(20)))
struct GroupedDiagnosticsTests {
    /// A plan of `paid` paid releases that never say what they included, then a free one.
    static func plan(paid: Int) -> String {
        var releases: [String] = []
        let start = Date(timeIntervalSince1970: 1_420_000_000)
        for index in 0...paid {
            let day = Timestamp.format(start.addingTimeInterval(Double(index) * 3 * 86_400))
            let model = index == paid ? #""model": "free""# : #""model": "paid", "price": "2.99""#
            releases.append(#"    { "platform": "iOS", "version": "1.\#(index)", "build": "\#(index + 1)", "released": "\#(day)", \#(model) }"#)
        }
        return """
            {
              "formatVersion": 1,
              "app": { "name": "Tipster", "bundleID": "com.example.tipster", "platforms": ["iOS"] },
              "features": [ { "id": "pro", "name": "Pro" } ],
              "releases": [
            \(releases.joined(separator: ",\n"))
              ],
              "products": [ { "id": "com.example.tipster.pro", "name": "Pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] } ]
            }

            """
    }

    static let message = "doesn't say which features its price bought"

    @Test("Text: the first in full, then one line naming how many more and where")
    func text() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.plan(paid: 1_036))
        let run = Run("check", "plan.json", directory: scratch.url)
        #expect(run.status == .checkFailed)
        #expect(run.output.components(separatedBy: Self.message).count - 1 == 1, "said once")
        #expect(run.output.contains("plan.json:6:5: error: releases[0].includes: paid release iOS 1.0 (1) \(Self.message)"))
        #expect(
            run.output.contains("  …and 1,035 more releases with the same error: releases[1…1035], lines 7–1041\n    (--format json lists each)\n"),
            "\(run.output)")
        #expect(run.output.contains("✗ 1036 errors"), "the count is every diagnostic")
        #expect(run.output.split(separator: "\n").count < 30)
    }

    @Test("JSON: every diagnostic, none grouped")
    func json() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.plan(paid: 1_036))
        let run = Run("check", "plan.json", "--format", "json", directory: scratch.url)
        #expect(run.output.components(separatedBy: #""code": "paid-release-includes-nothing""#).count - 1 == 1_036)
        #expect(run.output.contains(#""errors": 1036"#))
    }

    @Test("GitHub: one annotation for the group, whose message says how many more (GitHub shows 10 errors a step)")
    func github() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.plan(paid: 1_036))
        let run = Run("check", "plan.json", "--format", "github", directory: scratch.url)
        let annotations = run.output.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 1, "\(annotations)")
        #expect(
            annotations.first?.hasSuffix(
                "%0A…and 1,035 more releases with the same error: releases[1…1035], lines 7–1041 (migrate check --format json lists each)") == true)
    }

    @Test("Two alike are each printed in full; three are grouped", arguments: [(2, 2, false), (3, 1, true)])
    func smallGroups(paid: Int, shown: Int, grouped: Bool) throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", Self.plan(paid: paid))
        let run = Run("check", "plan.json", directory: scratch.url)
        #expect(run.output.components(separatedBy: Self.message).count - 1 == shown)
        #expect(run.output.contains("…and 2 more releases with the same error: releases[1…2], lines 7–8") == grouped, "\(run.output)")
    }

    static func diagnostic(_ code: String, _ message: String, _ path: JSONPath, hint: String? = nil, severity: Diagnostic.Severity = .error)
        -> Diagnostic
    {
        Diagnostic(severity, code: DiagnosticCode(rawValue: code), message, at: path, hint: hint)
    }

    @Test(
        "Alike: same severity, code, place but for indexes, and message and fix but for numbers and dates",
        arguments: [
            (
                diagnostic("a", "release 1.0 (1) is late", .root / "releases" / 0),
                diagnostic("a", "release 2.10.3 (40) is late", .root / "releases" / 7), true
            ),
            (
                diagnostic("a", "x", .root / "releases" / 0, hint: "cover 2015-01-03T04:26:40Z"),
                diagnostic("a", "x", .root / "releases" / 1, hint: "cover 2016-11-30T00:00:00Z"), true
            ),
            (diagnostic("a", "x", .root / "releases" / 0), diagnostic("b", "x", .root / "releases" / 1), false),
            (diagnostic("a", "x", .root / "releases" / 0), diagnostic("a", "x", .root / "releases" / 1, severity: .warning), false),
            (diagnostic("a", "x", .root / "releases" / 0 / "includes"), diagnostic("a", "x", .root / "releases" / 1 / "build"), false),
            (
                diagnostic("r", "unknown feature 'theme1'", .root / "releases" / 0),
                diagnostic("r", "unknown feature 'theme2'", .root / "releases" / 1), false
            ),
            (
                diagnostic("r", "unknown feature 'themes'", .root / "releases" / 0),
                diagnostic("r", "unknown feature 'sync'", .root / "releases" / 1), false
            ),
        ])
    func alike(first: Diagnostic, second: Diagnostic, alike: Bool) {
        #expect((DiagnosticGroup.shape(of: first) == DiagnosticGroup.shape(of: second)) == alike)
    }

    @Test(
        "Indexes are named as runs, at most four",
        arguments: [
            ([1, 2, 3, 5, 7, 8], "1…3, 5, 7…8"), ([4], "4"), ([1, 3, 5, 7, 9, 11], "1, 3, 5, 7, …"), ([3, 1, 2, 2], "1…3"),
        ])
    func runs(indexes: [Int], text: String) {
        #expect(DiagnosticGroup.runs(indexes) == text)
    }
}
