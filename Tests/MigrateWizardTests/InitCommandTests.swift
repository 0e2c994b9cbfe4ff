import Foundation
import MigrateCLI
import Testing

@Suite("migrate init, non-interactive")
struct InitCommandTests {
    @Test("from a .storekit file and a git history, --yes alone gives a plan that checks and simulates")
    func defaultsAlone() throws {
        guard DemoProject.gitAvailable else {
            print("skipped: git is not installed")
            return
        }
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        let status = Migrate.run(["init", "--yes"], context: context)
        print(context.standardOutput.text, context.standardError.text)
        #expect(status == .success)
        let output = context.standardOutput.text
        #expect(output.contains("StoreKit configuration  Tally.storekit"))
        #expect(output.contains("Xcode project           Tally.xcodeproj/project.pbxproj"))
        #expect(output.contains("so purchases are dated instead"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))

        let check = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["check", "migration.json"], context: check) == .success)
        #expect(check.standardOutput.text.contains("✓"))
        let simulate = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["simulate", "migration.json", "--draws", "200"], context: simulate) == .success)
        print(check.standardOutput.text, simulate.standardOutput.text.prefix(1500))
    }
}
