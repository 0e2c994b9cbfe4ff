import Foundation
import MigrateCLI
import Testing

@Suite("migrate init, non-interactive", .timeLimit(.minutes(20)))
struct InitCommandTests {
    @Test(
        "from a .storekit file and a tagged git history, --yes alone gives a plan that checks and simulates",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func defaultsAlone() throws {
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        // The app went free with the newest tag (3.0): said, since the default is a release not listed yet.
        let status = Migrate.run(["init", "--yes", "--price", "4.99", "--first-free", "3.0"], context: context)
        print(context.standardOutput.text, context.standardError.text)
        #expect(status == .success)
        let output = context.standardOutput.text
        #expect(output.contains("StoreKit configuration  Tally.storekit"))
        #expect(output.contains("Xcode project           Tally.xcodeproj/project.pbxproj"))
        #expect(output.contains("so purchases are dated instead"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))
        // An Xcode project with no package of its own: the generated code is suggested as a package.
        #expect(output.unwrapped.contains("migrate generate migration.json --package   the entitlement code and its tests, as a Swift package"))

        let check = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["check", "migration.json"], context: check) == .success)
        #expect(check.standardOutput.text.contains("✓"))
        // The go-live was the tag's date, taken with --yes: unconfirmed, so check says what to confirm.
        #expect(check.standardOutput.text.contains("the first free release, iOS 3.0 (1), is dated by a git tag date (2021-06-01T17:00:00Z)"))
        let simulate = CommandContext.testing(directory: folder.path)
        #expect(Migrate.run(["simulate", "migration.json", "--draws", "200"], context: simulate) == .success)
        print(check.standardOutput.text, simulate.standardOutput.text.prefix(1500))
    }

    @Test(
        "answers come from a file and flags; a missing one names its flag; an existing plan is kept without --force",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func answersFile() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment
        let missing = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--app-name", "Tally"], context: missing) == .usage)
        #expect(missing.standardError.text.contains("Give --bundle-id <id>"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("migration.json").path))

        let answers = """
            { "appName": "Tally", "bundleID": "com.example.tally", "platforms": ["iOS"], "firstFree": "3.0", "price": 1.99,
              "features": ["Themes", "Sync"], "featureSince": { "themes": "1.0", "sync": "2.0" },
              "grants": { "com.example.tally.themes": ["themes"], "com.example.tally.sync": "sync" },
              "eras": { "1": "keep", "2": "discount" }, "eraDiscounts": { "2": "com.example.tally.sync 0.99" },
              "nonProduction": "new", "verificationFailure": "keep 3", "familySharing": false, "paidDownloadsPerMonth": 250,
              "freeFrom": "2021-06-01T17:00:00Z", "freeGaveAway": "none" }
            """
        try answers.write(to: folder.appendingPathComponent("answers.json"), atomically: true, encoding: .utf8)
        let context = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--answers", "answers.json"], context: context) == .success, "\(context.standardError.text)")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"price\": \"0.99\""))
        #expect(plan.contains("\"familySharing\": \"ignored\""))
        #expect(plan.contains("\"released\": \"2021-06-01T17:00:00Z\", \"releasedSource\": \"appStore\""), "\(plan)")
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)

        let again = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--yes", "--price", "4.99"], context: again) == .cannotCreate)
        #expect(again.standardError.text.contains("give --force"))
        #expect(try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8) == plan)

        try #"{ "appNme": "Tally" }"#.write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--force", "--answers", "bad.json"], context: bad) == .dataError)
        #expect(bad.standardError.text.contains("Did you mean 'appName'?"))
    }
}
