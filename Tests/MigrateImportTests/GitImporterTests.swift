import Foundation
import MigrateImport
import MigratePlan
import Testing

@Suite("Import: git history")
struct GitImporterTests {
    /// main: 1.0 (1) → 1.1 (5) → 2.0 (1), a restart; hotfix from v1.0: 1.0.1 (3), after 1.1 (5), going back.
    func history(in scratch: Scratch) throws -> GitRepository {
        let repo = try GitRepository(in: scratch.url)
        try repo.commitVersion("1.0", build: "1", date: "2019-01-01T10:00:00Z")
        try repo.git("tag", "v1.0")
        try repo.commitOther("README.md", date: "2019-01-15T10:00:00Z")
        // A rebased commit: its author date is older than its parent's, the committer date is not.
        try repo.commitVersion("1.1", build: "5", date: "2019-03-01T10:00:00Z", authorDate: "2018-06-01T10:00:00Z")
        try repo.git("tag", "-a", "v1.1", "-m", "1.1", date: "2019-03-02T12:00:00Z")
        try repo.git("checkout", "-q", "-b", "hotfix", "v1.0")
        try repo.commitVersion("1.0.1", build: "3", date: "2019-04-01T10:00:00Z")
        try repo.git("tag", "v1.0.1")
        try repo.git("checkout", "-q", "main")
        try repo.commitVersion("2.0", build: "1", date: "2019-06-01T10:00:00Z")
        return repo
    }

    @Test("Commits, tags, a hotfix branch that goes back and a restart of build numbers")
    func realRepository() throws {
        let scratch = try Scratch()
        let repo = try history(in: scratch)
        let history = try GitImporter.read(repository: repo.url.path, displayPath: "repo")
        let releases = history.result.releases
        #expect(releases.map(\.displayName) == ["1.0 (1)", "1.1 (5)", "1.0.1 (3)", "2.0 (1)"])
        #expect(releases.map(\.date) == ["2019-01-01", "2019-03-01", "2019-04-01", "2019-06-01"].map { date($0 + "T10:00:00Z") })
        #expect(releases.allSatisfy { $0.dateSource == "git commit date" && $0.platform == .iOS })
        #expect(history.changes.first { $0.displayName == "1.0 (1)" }?.tags == ["v1.0"])
        #expect(history.result.app == AppHints(name: "Shelf", bundleID: "com.example.shelf", platforms: [.iOS]))
        #expect(history.result.issues.contains { $0.message.contains("dated before its parent") } == false, "committer dates are in order")

        let tagged = try GitImporter.read(repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(taggedOnly: true))
        #expect(tagged.result.releases.map(\.displayName) == ["1.0 (1)", "1.1 (5)", "1.0.1 (3)"])
        #expect(tagged.result.releases[1].date == date("2019-03-02T12:00:00Z"), "an annotated tag is dated by its tagger")
        #expect(tagged.result.releases[1].dateSource == "git tag date")

        let mainOnly = try GitImporter.read(repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(refs: ["main"], paths: ["Shelf.xcodeproj", "Config"]))
        #expect(mainOnly.result.releases.count == 4, "tags are always walked, so the hotfix is found from main too")
    }

    @Test("The command reports the restart and the hotfix going back, and the plan gets the releases")
    func command() throws {
        let scratch = try Scratch()
        let repo = try history(in: scratch)
        let run = Run("import", "git", "repo", "--price", "1.99", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("+ release iOS 1.0.1 (3), paid 1.99, released 2019-04-01T10:00:00Z (git commit date)"))
        #expect(run.output.contains("iOS backwards: 1.0.1 (3) came after 1.1 (5) but its build number is not higher"))
        #expect(run.output.contains("iOS restarted: 2.0 (1) restarts the build numbers (after 1.1 (5))"))
        #expect(run.output.contains("Created migration.json and migration.schema.json."))
        let text = try #require(scratch.read("migration.json"))
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.app.bundleID == "com.example.shelf" && plan.releases.count == 4)
        _ = repo
    }

    @Test("A folder that is not a repository, a missing folder, an unknown ref, and git missing")
    func errors() throws {
        let scratch = try Scratch()
        #expect {
            try GitImporter.read(repository: scratch.url.path, displayPath: "plain")
        } throws: { error in
            (error as? ImportError).map { $0.kind == .noInput && $0.file == "plain" && $0.message == "not a git repository" } ?? false
        }
        #expect {
            try GitImporter.read(repository: scratch.url.path + "/nope", displayPath: "nope")
        } throws: { error in (error as? ImportError)?.kind == .noInput }
        let repo = try history(in: scratch)
        #expect {
            try GitImporter.read(repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(refs: ["release/9"]))
        } throws: { error in (error as? ImportError)?.place == "--ref release/9" }
        #expect {
            try GitImporter.read(repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(environment: ["PATH": "/nonexistent"]))
        } throws: { error in
            (error as? ImportError).map { $0.kind == .toolMissing && $0.message.contains("git is not installed") } ?? false
        }
        let noGit = Run("import", "git", "repo", directory: scratch.url, environment: ["PATH": "/nonexistent"])
        #expect(noGit.status == .noInput)
        #expect(noGit.error.contains("Error: repo: git is not installed (not found on PATH)"))
    }
}
