import Foundation
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("Import: git history", .timeLimit(.minutes(20)))
struct GitImporterTests {
    /// main: 1.0 (1) → 1.1 (5) → 2.0 (1), a restart; hotfix from v1.0: 1.0.1 (3), after 1.1 (5), going back.
    /// v1.0 and v1.0.1 are lightweight tags, v1.1 an annotated one; HEAD (2.0) is tagged only when asked.
    func history(in scratch: Scratch, tagHead: Bool = false) throws -> GitRepository {
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
        if tagHead { try repo.git("tag", "v2.0") }
        return repo
    }

    @Test("Tagged versions are the releases: annotated tags date them, lightweight ones leave it to the commit; HEAD untagged is current")
    func realRepository() throws {
        let scratch = try Scratch()
        let repo = try history(in: scratch)
        let history = try GitImporter.read(repository: repo.url.path, displayPath: "repo")
        let releases = history.result.releases
        #expect(releases.map(\.displayName) == ["1.0 (1)", "1.1 (5)", "1.0.1 (3)"])
        #expect(releases.map(\.date) == [date("2019-01-01T10:00:00Z"), date("2019-03-02T12:00:00Z"), date("2019-04-01T10:00:00Z")])
        #expect(releases.map(\.provenance) == [.commit, .tag, .commit])
        #expect(releases.map(\.dateSource) == ["git commit date, tag v1.0", "git tag date", "git commit date, tag v1.0.1"])
        #expect(history.current?.displayName == "2.0 (1)", "HEAD's version has no tag: work in progress")
        #expect(history.result.ignored.contains("2.0 (1) at HEAD: no tag marks it released; read as the current version, not a release"))
        #expect(history.result.ignored.contains { $0.hasPrefix("1 untagged version left out") && $0.contains("--all-versions") })
        #expect(history.changes.first { $0.displayName == "1.0 (1)" }?.tags == ["v1.0"])
        #expect(history.result.app == AppHints(name: "Shelf", bundleID: "com.example.shelf", platforms: [.iOS]))
        #expect(!history.result.issues.contains { $0.message.contains("rewritten") }, "one rebased commit is not a rewritten history")

        // Every version change: the rebased 1.1 is dated by its author date, but not before the commit it builds on.
        let every = try GitImporter.read(repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(taggedOnly: false))
        #expect(every.result.releases.map(\.displayName) == ["1.0 (1)", "1.1 (5)", "1.0.1 (3)"], "HEAD's untagged version stays out")
        #expect(every.result.releases[1].date == date("2019-01-15T10:00:00Z") && every.result.releases[1].provenance == .commit)

        let mainOnly = try GitImporter.read(
            repository: repo.url.path, displayPath: "repo", options: GitImporter.Options(refs: ["main"], paths: ["Shelf.xcodeproj", "Config"]))
        #expect(mainOnly.result.releases.count == 3, "tags are always walked, so the hotfix is found from main too")

        let other = try Scratch()
        let tagged = try self.history(in: other, tagHead: true)
        let all = try GitImporter.read(repository: tagged.url.path, displayPath: "repo")
        #expect(all.current == nil && all.result.releases.map(\.displayName).last == "2.0 (1)")
    }

    @Test("A repository without tags: every version change, HEAD's flagged as maybe unreleased")
    func untagged() throws {
        let scratch = try Scratch()
        let repo = try GitRepository(in: scratch.url)
        try repo.commitVersion("1.0", build: "1", date: "2019-01-01T10:00:00Z")
        try repo.commitVersion("1.1", build: "2", date: "2019-02-01T10:00:00Z")
        let history = try GitImporter.read(repository: repo.url.path, displayPath: "repo")
        #expect(history.result.releases.map(\.displayName) == ["1.0 (1)", "1.1 (2)"])
        #expect(history.current?.displayName == "1.1 (2)")
        let warning = try #require(history.result.issues.first { $0.place == "HEAD" })
        #expect(warning.severity == .warning && warning.message.contains("1.1 (2), the version at HEAD, has no tag"))
    }

    @Test("A rewritten history and tags made after the fact on one day, in reverse order: dated by author dates, said once")
    func rewrittenHistory() throws {
        let scratch = try Scratch()
        let repo = try GitRepository(in: scratch.url)
        // A filter-branch in 2024 gave twelve commits written over 2015–2016 one committer second.
        let rewrite = "2024-11-20T09:00:00Z"
        for month in 1...12 {
            let version = "1.\(month - 1)"
            let written = String(format: "2015-%02d-10T12:00:00Z", month)
            try repo.commitVersion(version, build: "\(month)", date: rewrite, authorDate: written)
        }
        // Then every release was tagged in one sitting, newest first.
        for (offset, month) in (1...12).reversed().enumerated() {
            let commit = try repo.git("log", "--format=%H", "--grep", "^1.\(month - 1) (\(month))$").trimmingCharacters(in: .whitespacesAndNewlines)
            try repo.git("tag", "-a", "v1.\(month - 1)", "-m", "release", commit, date: String(format: "2024-11-21T10:00:%02dZ", offset))
        }
        let history = try GitImporter.read(repository: repo.url.path, displayPath: "repo")
        let releases = history.result.releases
        #expect(releases.map(\.version.text) == (0...11).map { "1.\($0)" }, "in the order they were written")
        #expect(releases.first?.date == date("2015-01-10T12:00:00Z") && releases.last?.date == date("2015-12-10T12:00:00Z"))
        #expect(releases.allSatisfy { $0.provenance == .commit })
        let notes = history.result.issues.filter { $0.severity == .note }
        #expect(notes.count == 2, "one note for the rewrite, one for the tags: \(notes.map(\.message))")
        #expect(
            notes.contains {
                $0.message.hasPrefix(
                    "the history looks rewritten: of 12 commits, 12 share their commit time with others (12 at 2024-11-20T09:00:00Z), 12 were committed more than 30 days after"
                )
            })
        #expect(notes.contains { $0.message.hasPrefix("12 tags were made together on 2024-11-21 for commits written weeks apart") })
    }

    @Test("The command reports the restart and the hotfix going back, and the plan gets the releases")
    func command() throws {
        let scratch = try Scratch()
        let repo = try history(in: scratch, tagHead: true)
        let run = Run("import", "git", "repo", "--price", "1.99", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(flat(run.output).contains("+ release iOS 1.0.1 (3), paid 1.99, released 2019-04-01T10:00:00Z (git commit date, tag v1.0.1)"))
        #expect(flat(run.output).contains("iOS backwards: 1.0.1 (3) came after 1.1 (5) but its build number is not higher"))
        #expect(flat(run.output).contains("iOS versionBackwards: 1.0.1 went live after 1.1 but its marketing version is lower"))
        #expect(flat(run.output).contains("iOS restarted: 2.0 (1) restarts the build numbers (after 1.1 (5))"))
        #expect(run.output.contains("Created migration.json and migration.schema.json."))
        let text = try #require(scratch.read("migration.json"))
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.app.bundleID == "com.example.shelf" && plan.releases.count == 4)
        #expect(plan.releases.map(\.releasedSource) == [.commit, .tag, .commit, .commit])
        let both = Run("import", "git", "repo", "--tagged-only", "--all-versions", directory: scratch.url)
        #expect(both.status == .usage && both.error.contains("'--tagged-only' and '--all-versions'"))
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
