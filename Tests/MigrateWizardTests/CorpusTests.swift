import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

@Suite("A corpus of real repositories", .timeLimit(.minutes(20)))
struct CorpusTests {
    @Test("explore", .enabled(if: ProcessInfo.processInfo.environment["CORPUS_EXPLORE"] != nil))
    func explore() throws {
        for (name, repository) in try CorpusRepository.all() {
            let folder = try repository.rebuild()
            defer { try? FileManager.default.removeItem(at: folder) }
            let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
            let status = Migrate.run(["init", "--yes", "--now", "2026-12-01T00:00:00Z"], context: context)
            print("=== \(name): exit \(status)")
            print(context.standardOutput.text)
            print(context.standardError.text)
            if let plan = try? String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8) {
                print(plan)
                let check = CommandContext.testing(directory: folder.path)
                print("check: \(Migrate.run(["check", "migration.json", "--now", "2026-12-01T00:00:00Z"], context: check))")
                print(check.standardOutput.text)
            }
        }
    }
}
