import Foundation
import MigrateCLI
import MigratePlan
import MigrateTestSupport
import Testing

/// `migrate init` uses every flag and `--answers` key it is given, or refuses it (exit 64) naming it and saying
/// why: nothing given is dropped in silence.
@Suite("migrate init: every answer given is used or refused", .timeLimit(.minutes(20)))
struct UnusedAnswersTests {
    /// A project with nothing to import: two paid releases typed, the rest from flags and defaults.
    static let base = [
        "init", "--yes", "--app-name", "Demo", "--bundle-id", "com.example.demo", "--platform", "iOS", "--release", "1.0 (1) 2020-01-01",
        "--release", "1.1 (2) 2020-06-01", "--now", "2022-01-01T00:00:00Z",
    ]

    /// The scratch folder is removed when the last reference to it goes: the caller keeps it.
    static func run(_ arguments: [String], files: [String: String] = [:], terminal: Bool = false, input: [String] = []) throws -> (
        ExitCode, CommandContext, Scratch
    ) {
        let scratch = try Scratch()
        for (name, text) in files { _ = try scratch.write(name, text) }
        let context = CommandContext.testing(input: input, directory: scratch.url.path, environment: ["NO_COLOR": "1"], terminal: terminal)
        // No catalog here, so the price has no default: it is given unless the case gives its own.
        let pricing = arguments.contains("--price") || files.values.contains { $0.contains("\"price\"") } ? [] : ["--price", "2.99"]
        return (Migrate.run(arguments + pricing, context: context), context, scratch)
    }

    static func plan(in folder: Scratch) throws -> MigrationPlan {
        let text = try String(contentsOf: folder.url.appendingPathComponent("migration.json"), encoding: .utf8)
        return try #require(PlanDecoder.decode(text).plan)
    }

    @Test(
        "--free-from when the first free release is not listed yet is that release's go-live, planned while still to come",
        arguments: [
            (["--free-from", "2022-03-15T16:00:00Z"], "2.0 (3)", "2022-03-15T16:00:00Z"),
            (["--free-from", "2022-03-15T16:00:00Z", "--first-free", "new"], "2.0 (3)", "2022-03-15T16:00:00Z"),
            // The release given, its day the same: the moment from --free-from.
            (["--free-from", "2022-03-15T16:00:00Z", "--new-free-release", "3.0 (9) 2022-03-15"], "3.0 (9)", "2022-03-15T16:00:00Z"),
        ])
    func freeFromForANewRelease(flags: [String], release: String, goLive: String) throws {
        let (status, context, folder) = try Self.run(Self.base + flags)
        #expect(status == .success, "\(context.standardError.text)")
        #expect(context.standardOutput.text.contains("Free from \(release) at \(goLive), planned"))
        let plan = try Self.plan(in: folder)
        let free = try #require(plan.releases.first { !$0.model.isPaid })
        #expect(free.displayName == release)
        #expect(Timestamp.format(free.released) == goLive, "not 30 days from --now")
        #expect(free.releasedSource == .planned, "--now is 2022-01-01: a go-live still to come is a plan")
    }

    @Test(
        "An answer no question of this run asks, or for an item the run doesn't have, is refused naming the flag and why",
        arguments: [
            (
                ["--universal-purchase", "yes"],
                "'--universal-purchase' is not used: it is asked only of an app on platforms sold from separate App Store records (an iPad app is the iOS app), and the app is on iOS."
            ),
            (
                ["--first-free", "1.1", "--new-free-release", "2.0 (3) 2022-03-15"],
                "'--new-free-release' is not used: the first free release is a listed one (1.1 (2)), so no new release is asked; give --first-free new to add one."
            ),
            (
                ["--feature-since", "nope=1.0"],
                "'--feature-since nope=…' is not used: there is no feature 'nope' (the features are 'pro-features', by id)."
            ),
            (
                ["--feature", "Themes", "--feature-since", "Themes=1.0"],
                "'--feature-since Themes=…' is not used: there is no feature 'Themes' (the features are 'themes', by id); did you mean 'themes'? Leave it out"
            ),
            (
                ["--grants", "com.example.nope=all"],
                "'--grants com.example.nope=…' is not used: there is no product 'com.example.nope' (the products are 'com.example.demo.pro'); did you mean 'com.example.demo.pro'? Leave it out"
            ),
            (["--era", "5=keep"], "'--era 5=…' is not used: there is no paid era 5 (there is 1)."),
            (
                ["--era-discount", "1=com.example.demo.pro 0.99"],
                "'--era-discount 1=…' is not used: era 1 is not treated with a discount; give --era 1=discount with it."
            ),
            (
                ["--free-from", "2022-03-15T16:00:00Z", "--new-free-release", "2.0 (3) 2022-03-16"],
                "for --new-free-release <'VERSION (BUILD) DATE'> is invalid: it goes live on 2022-03-16, but --free-from says 2022-03-15T16:00:00Z"
            ),
            (
                ["--free-from", "2019-03-15T16:00:00Z"],
                "The answer '2019-03-15T16:00:00Z' for --free-from <date-time> is invalid: it must go live after the last listed release"
            ),
            (
                ["--tagged-only"],
                "'--tagged-only' chooses which versions of the git history are releases, but . has no git repository, so it would change nothing"
            ),
            (["--all-versions"], "'--all-versions' chooses which versions of the git history are releases"),
            (
                ["--era", "1=keep", "--era", "1=everything"],
                "'--era 1=…' is given twice with different answers ('keep', 'everything'); it takes one."
            ),
        ])
    func refused(flags: [String], message: String) throws {
        let (status, context, folder) = try Self.run(Self.base + flags)
        #expect(status == .usage, "\(context.standardOutput.text)")
        #expect(context.standardError.text.contains(message), "\(context.standardError.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("migration.json").path), "nothing written")
    }

    @Test(
        "With a version history found, --release is refused; --free-from for a release not listed yet is its go-live",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func historyFound() throws {
        let folder = try DemoProject.make(tagged: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment
        let refused = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(Migrate.run(["init", "--yes", "--price", "4.99", "--release", "9.0 (1) 2020-01-01"], context: refused) == .usage)
        #expect(
            refused.standardError.text.contains(
                "'--release' is not used: the version history was found (4 releases), so the releases are not asked."),
            "\(refused.standardError.text)")
        // The issue's case: the first free release not listed yet, --yes and --free-from alone.
        let context = CommandContext.testing(directory: folder.path, environment: environment)
        #expect(
            Migrate.run(["init", "--yes", "--price", "4.99", "--free-from", "2022-03-15T16:00:00Z"], context: context) == .success,
            "\(context.standardError.text)")
        let text = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        let plan = try #require(PlanDecoder.decode(text).plan)
        let free = try #require(plan.releases.first { !$0.model.isPaid })
        #expect(Timestamp.format(free.released) == "2022-03-15T16:00:00Z")
        #expect(free.version.text == "4.0")
    }

    @Test("An --answers key no question asks is refused naming the file and the key; a flag replacing a file's answer says so")
    func answersFile() throws {
        let answers = #"{ "universalPurchase": true, "eras": { "4": "keep" }, "price": "1.99" }"#
        let (status, context, _) = try Self.run(Self.base + ["--answers", "answers.json"], files: ["answers.json": answers])
        #expect(status == .usage)
        let error = context.standardError.text
        #expect(error.contains("2 answers are not used:"), "\(error)")
        #expect(error.contains(#""eras": {"4": …} in answers.json is not used: there is no paid era 4 (there is 1)."#))
        #expect(error.contains(#""universalPurchase" in answers.json is not used: it is asked only of an app on platforms sold"#))

        let (replaced, replacing, folder) = try Self.run(
            Self.base + ["--answers", "answers.json", "--price", "2.49"], files: ["answers.json": #"{ "price": "1.99" }"#])
        #expect(replaced == .success, "\(replacing.standardError.text)")
        #expect(replacing.standardOutput.text.contains("--price 2.49 replaces answers.json's answer '1.99'."))
        let plan = try Self.plan(in: folder)
        #expect(plan.releases.first?.model == .paid(try Price("2.49")))
    }

    @Test("--yes on a terminal takes the defaults instead of asking, so it is used there too")
    func yesOnATerminal() throws {
        let (status, context, folder) = try Self.run(Self.base + ["--free-from", "2022-03-15T16:00:00Z"], terminal: true)
        #expect(status == .success, "\(context.standardError.text)")
        #expect(!context.standardOutput.text.contains("Press Return to take the [default]"))
        // Without --yes the same terminal is asked, and the hint is there: a reworded hint fails here.
        let (_, asked, _) = try Self.run(Self.base.filter { $0 != "--yes" } + ["--free-from", "2022-03-15T16:00:00Z"], terminal: true)
        #expect(asked.standardOutput.text.contains("Press Return to take the [default]"), "\(asked.standardOutput.text.prefix(300))")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("migration.json").path))
    }

    @Test("On a terminal, --free-from answers the new release's go-live, and an answer never asked is refused with the session saved")
    func interactive() throws {
        let arguments = ["init", "--now", "2022-01-01T00:00:00Z", "--free-from", "2022-03-15T16:00:00Z", "--universal-purchase", "yes"]
        let input = ["Demo", "com.example.demo", "iOS", "1.0 (1) 2020-01-01, 1.1 (2) 2020-06-01"] + Array(repeating: "", count: 20)
        let (status, context, folder) = try Self.run(arguments, terminal: true, input: input)
        #expect(status == .usage, "\(context.standardOutput.text)")
        let output = context.standardOutput.text
        #expect(output.unwrapped.contains("(given) iOS 2.0 (3) 2022-03-15T16:00:00Z"), "\(output)")
        #expect(context.standardError.text.contains("'--universal-purchase' is not used: it is asked only of an app on platforms sold"))
        #expect(context.standardError.text.contains("Your answers were saved to migration.answers.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("migration.json").path))
    }
}
