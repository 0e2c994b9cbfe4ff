import Foundation
import MigrateCLI
import Testing

/// The report of a plan `init` made from a real repository (a git history and a StoreKit file): every warning the
/// other commands give is on the page, and a value the simulation derives is never said to be "taken as exactly" zero.
@Suite("migrate report on a plan init made", .timeLimit(.minutes(20)), .enabled(if: DemoProject.gitAvailable, "git is not installed"))
struct InitReportTests {
    static func run(_ arguments: [String], in folder: URL) -> (status: ExitCode, output: String, error: String) {
        let context = CommandContext.testing(directory: folder.path)
        let status = Migrate.run(arguments, context: context)
        return (status, context.standardOutput.text, context.standardError.text)
    }

    static func text(_ html: String) -> String {
        var text = html.replacing(/<[^>]+>/, with: "")
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    @Test func everyWarningOfTheOtherCommandsIsOnThePage() throws {
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        #expect(
            Migrate.run(["init", "--yes", "--first-free", "3.0", "--price", "2.99"], context: context) == .success, "\(context.standardError.text)")

        var expected = Set<String>()
        let check = Self.run(["check", "migration.json", "--format", "json"], in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any], "\(check.error)")
        for diagnostic in (json["diagnostics"] as? [[String: Any]]) ?? [] { expected.insert(try #require(diagnostic["message"] as? String)) }
        let simulate = Self.run(["simulate", "migration.json", "--format", "json", "--draws", "200"], in: folder)
        try #require(simulate.status == .success, "a plan init made from a git history simulates: \(simulate.error)")
        let scenarios = try #require(try JSONSerialization.jsonObject(with: Data(simulate.output.utf8)) as? [String: Any])["scenarios"]
        let notes = try #require((scenarios as? [[String: Any]])?.first?["notes"] as? [String], "simulate's first scenario has notes")
        expected.formUnion(notes)
        #expect(!expected.isEmpty, "a plan made from git dates warns that they are unconfirmed")

        let report = Self.run(["report", "migration.json", "--draws", "200", "--output", "-"], in: folder)
        #expect(report.status == .success, "\(report.error)")
        let html = report.output
        let section = try #require(html.firstMatch(of: /<section id="warnings".*?<\/section>/.dotMatchesNewlines())).0
        let listed = section.matches(of: /<tr><th scope="row">.*?<\/tr>/).map { row in
            row.0.matches(of: /<td[^>]*>(.*?)<\/td>/).map { Self.text(String($0.1)) }
        }.compactMap { $0.count > 2 ? $0[2] : nil }
        #expect(Set(listed) == expected, "the page \(listed), the commands \(expected)")
        // A derived figure says what it is derived from.
        #expect(!Self.text(html).contains("Taken as exactly 0"))
        #expect(!html.contains(folder.path), "an absolute path in the page")
    }
}
