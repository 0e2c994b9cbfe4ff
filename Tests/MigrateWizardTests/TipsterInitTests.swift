import Foundation
import MigrateCLI
import MigratePlan
import Testing

/// `migrate init` on an older app's project: a placeholder Info.plist, a tip-jar-only `.storekit`,
/// and (when git is there) a history of a thousand builds.
@Suite("migrate init on a tip-jar project with a long history", .timeLimit(.minutes(20)))
struct TipsterInitTests {
    static let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    @Test("The bundle id comes from the build settings through Info.plist, and the product question ends the dead end")
    func tipJarWithoutHistory() throws {
        let folder = try TipsterProject.make(builds: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: Self.environment)
        let status = Migrate.run(
            [
                "init", "--yes", "--release", "1.0 (1) 2019-03-01", "--release", "2.0 (5) 2020-03-01", "--first-free", "new", "--new-free-release",
                "3.0 (9) 2027-01-04", "--price", "2.99",
            ],
            context: context)
        let output = context.standardOutput.text
        #expect(status == .success, "\(output)\(context.standardError.text)")
        #expect(output.contains("read: app Tipster (com.example.tipster) from Tipster.xcodeproj/project.pbxproj"))
        #expect(!output.contains("skipped"), "the Info.plist is read with its project, not rejected")
        #expect(output.contains("com.example.tipster.pro is sold at 4.99 as a non-consumable"))
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"bundleID\": \"com.example.tipster\""))
        #expect(plan.contains("\"id\": \"com.example.tipster.tip.coffee\"") && plan.contains("\"id\": \"com.example.tipster.pro\""))
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
    }

    @Test("--product is honoured beside a .storekit that has products of its own", .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func productFlagHonoured() throws {
        let folder = try DemoProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: Self.environment)
        #expect(
            Migrate.run(
                ["init", "--yes", "--price", "4.99", "--free-from", "2021-06-01T17:00:00Z", "--product", "com.example.tally.pro yearly 9.99"],
                context: context)
                == .success, "\(context.standardError.text)")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"id\": \"com.example.tally.pro\",\n      \"name\": \"Pro\",\n      \"type\": \"autoRenewable\""))
        #expect(plan.contains("\"subscription\": { \"group\": \"Tally\", \"level\": 1, \"period\": \"P1Y\" }"))
        #expect(plan.contains("\"id\": \"com.example.tally.themes\""), "the imported products stay")
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
    }

    @Test(
        "A thousand builds: each list shows a few, the summary changes the price, and the plan checks",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func longHistoryInteractive() throws {
        let folder = try TipsterProject.make(builds: 1_036)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Return for each of the 14 questions (the go-live given as a flag: lightweight tags are dated by their commits, which are
        // no default), then at the summary: 6 (the price), 1.99, and yes.
        // The first free release is the newest build, typed: the default is one not listed yet.
        let input = Array(repeating: "", count: 3) + ["3.5.3 (1036)"] + Array(repeating: "", count: 9) + ["6", "1.99", "yes"]
        let context = CommandContext.testing(input: input, directory: folder.path, environment: Self.environment, terminal: true)
        let status = Migrate.run(
            ["init", "--all-versions", "--free-from", "2023-07-03T17:00:00Z", "--price", "2.99", "--free-gave-away", "none"], context: context)
        let output = context.standardOutput.text
        #expect(status == .success, "\(output.suffix(3000))\(context.standardError.text)")
        #expect(output.contains("1036 versions on iOS from the git history of ."))
        #expect(output.contains("  … 1,026 more, not shown (type a version or its start to find one)\n  1027. iOS 3.5.2 (1027)"))
        #expect(!output.contains("\n  500. "), "no list prints every release")
        #expect(output.split(separator: "\n").count < 250, "\(output.split(separator: "\n").count) lines")
        // A long question wraps, its later lines in the same column.
        #expect(output.replacingOccurrences(of: "\n", with: " ").contains("Which in-app purchase will unlock the paid features?"))
        #expect(output.contains("  5. It went live: 2023-07-03T17:00:00Z (confirmed)"))
        #expect(output.contains("  6. Paid price: 2.99"))
        #expect(output.contains("  6. Paid price: 1.99"), "the summary shows the change")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.contains("\"price\": \"1.99\"") && !plan.contains("\"price\": \"2.99\", \"includes\""))
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
    }

    @Test(
        "init reads the tagged builds when the project tags any, as --tagged-only does",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"), arguments: [[], ["--tagged-only"]])
    func taggedOnly(flags: [String]) throws {
        let folder = try TipsterProject.make(builds: 1_036)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: Self.environment)
        #expect(
            Migrate.run(
                [
                    "init", "--yes", "--first-free", "3.5.3 (1036)", "--free-from", "2023-07-03T17:00:00Z", "--price", "2.99", "--free-gave-away",
                    "none",
                ] + flags,
                context: context)
                == .success,
            "\(context.standardError.text)")
        // A tag on every 40th build (25 of them) and on the last.
        let read = context.standardOutput.text.unwrapped
        #expect(read.contains("26 versions on iOS from the tags of .; 1010 untagged version changes left out"), "\(read.prefix(800))")
        let plan = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        #expect(plan.components(separatedBy: "{ \"platform\": \"iOS\"").count - 1 == 26)
        #expect(Migrate.run(["check", "migration.json"], context: .testing(directory: folder.path)) == .success)
    }
}
