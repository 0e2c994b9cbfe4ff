import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("Shipped examples", .timeLimit(.minutes(20)))
struct ExampleTests {
    static let names = Examples.names

    @Test("Every example passes check with no errors", arguments: names)
    func checks(name: String) throws {
        let plan = try examplePlan(name)
        let report = PlanChecker.check(plan, now: date("2026-11-22T00:00:00Z"))
        #expect(!report.diagnostics.hasErrors, "\(report.diagnostics.map(\.message))")
    }

    @Test("Every example folder is listed here and described in Examples/README.md")
    func listed() throws {
        let folder = repositoryRoot.appendingPathComponent("Examples")
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/migration.json").path)
        }
        #expect(Set(folders) == Set(Self.names))
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for name in Self.names { #expect(readme.contains("(\(name)/)"), "Examples/README.md describes \(name)") }
    }

    @Test("Restarted build numbers use the date rule; the others the version rule")
    func rules() throws {
        let expected: [String: [Platform: CutoffRuleKind]] = [
            "tilt-to-live-hd": [.iOS: .buildNumber],
            "server-pal": [.iOS: .buildNumber],
            "pocket-ledger": [.iOS: .purchaseDate],
            "inkwell-universal": [.iOS: .buildNumber, .macOS: .marketingVersion],
            "tally-two-switches": [.iOS: .buildNumber],
            "quill-writer": [.iOS: .buildNumber],
            "seven-minute-workout": [.iOS: .buildNumber],
        ]
        for (name, rules) in expected {
            let report = PlanChecker.check(try examplePlan(name), now: date("2026-11-22T00:00:00Z"))
            #expect(Dictionary(uniqueKeysWithValues: report.rules.map { ($0.platform, $0.rule) }) == rules, "\(name)")
        }
    }
}
