import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// Users have the README, the manual, the examples, the templates and what `migrate` prints — not the project's
/// internal research notes or its tracker. Everything they read must cite public sources (Apple's documentation,
/// named articles and reports), never the internal brief ("DOMAIN.md", "DOMAIN.md §5"), the articles' internal
/// numbers ("seed 000") or a tracker issue ("issue 12", "Issue 38, item 6", "(#45)", "issue \"Scale without cliffs\""). The
/// code's comments state rules rather than cite the tracker too.
@Suite("Public sources", .timeLimit(.minutes(20)))
struct PublicSourcesTests {
    /// "seed 000", "Seed 002's", "seeds 001", a path into the internal shared folder, or the brief itself. A random seed
    /// such as "(strength 2, seed 0)" in `migrate matrix` output is not a citation and does not match.
    static var internalReference: Regex<AnyRegexOutput> {
        try! Regex("(?i)domain\\.md|\\bseeds?\\s+0\\d|\\.\\./shared|shared/seeds|shared/fixtures|seeds/0|" + trackerCitation)
    }

    /// A tracker issue however it is cited: "issue 12", "Issue 38, item 6", "item 1 of issue 38", "issues #3 and #4", a
    /// pull request "(#45)", or an issue by its title, `issue "Scale without cliffs"`.
    static let trackerCitation = "\\bissues?\\s+#?\\d|\\bissue\\s+\"|\\(#\\d+\\)"

    /// Every alternative of `internalReference` contains one of these (lowercased): lines without any are not matched
    /// against the pattern, which is most of the time this suite took in a debug build.
    static let keywords = ["domain.md", "seed", "shared", "issue", "(#"]

    static func internalReferences(in text: String) -> [String] {
        matches(of: internalReference, keywords: keywords, in: text)
    }

    /// Lines of `text` that match `pattern`, looked at only when they contain one of `keywords` (lowercased).
    static func matches(of pattern: Regex<AnyRegexOutput>, keywords: [String], in text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { line in
                let lowercased = line.element.lowercased()
                return keywords.contains { lowercased.contains($0) } && line.element.contains(pattern)
            }
            .map { "line \($0.offset + 1): \($0.element)" }
    }

    /// The comments of Swift source (what follows `//` on each line, doc comments included), each on the line it was
    /// on, the code left out: a string literal may hold "(#1001)", a build number as the wizard prints it.
    static func comments(in source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[$0.lowerBound...]) } ?? "" }
            .joined(separator: "\n")
    }

    static var examples: [String] {
        let folder = repositoryRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent("migration.json").path)
        }.sorted()
    }

    /// Every file under a folder of the repository, as paths relative to the repository root.
    static func files(under folder: String) -> [String] {
        let root = repositoryRoot.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(folder + "/" + path)
            }
        }
        return files.sorted()
    }

    @Test("The pattern catches internal references and leaves a random seed alone")
    func pattern() {
        for text in [
            "see DOMAIN.md §5", "(domain.md, trap 2)", "seed 000's states", "Seed 002's developer", "../shared/seeds/001_x.txt",
            "Tests that read `../shared/fixtures` skip",
            "as issue 12 asked", "(issue \"Scale without cliffs\")", "/// Issue 38, item 6: one rule for a go-live",
            "/// Item 1 of issue 38: buyers keep", "// fixed in (#45)", "the fix for issues #3 and #4",
        ] {
            #expect(!Self.internalReferences(in: text).isEmpty, "\(text)")
        }
        #expect(!Self.comments(in: "let label = \"'3.5 (1001)' (#1001)\"  // a build number, not a citation").contains("(#"))
        #expect(Self.comments(in: "let x = 1  // see (#45)") == "// see (#45)")
        for text in ["36 rows cover all 268 valid pairs of 6 factors (strength 2, seed 0).", "Monte Carlo: 10,000 draws, seed 1", "the domain model"]
        {
            #expect(Self.internalReferences(in: text).isEmpty, "\(text)")
        }
    }

    @Test("README, the manual, CHANGELOG, Examples and Templates cite public sources only")
    func documents() throws {
        let paths =
            ["README.md", "CHANGELOG.md", "ARCHITECTURE.md"] + Self.files(under: "Documentation") + Self.files(under: "Examples")
            + Self.files(under: "Templates")
        #expect(paths.contains("Documentation/Migrate.docc/Migrate.md"))
        #expect(paths.contains("Examples/README.md"))
        #expect(paths.contains { $0.hasPrefix("Templates/swift/") })
        for path in paths {
            let data = try Data(contentsOf: repositoryRoot.appendingPathComponent(path))
            guard let text = String(data: data, encoding: .utf8) else { continue }
            let hits = Self.internalReferences(in: text)
            #expect(hits.isEmpty, "\(path) cites internal notes: \(hits.joined(separator: "; "))")
        }
    }

    @Test("The code's comments state rules, never cite the tracker")
    func codeComments() throws {
        let tracker = try Regex("(?i)" + Self.trackerCitation)
        // This suite names the forms it looks for, in its comments as in its cases.
        let paths = (Self.files(under: "Sources") + Self.files(under: "Tests") + Self.files(under: "Plugins") + ["Package.swift"])
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Tests/Goldens/") && !$0.hasSuffix("/PublicSourcesTests.swift") }
        #expect(paths.contains("Sources/MigrateCore/Check/PlanChecker.swift"))
        #expect(paths.contains("Tests/MigrateCoreTests/GoLiveDateTests.swift"))
        for path in paths {
            let source = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            let hits = Self.matches(of: tracker, keywords: ["issue", "(#"], in: Self.comments(in: source))
            #expect(hits.isEmpty, "\(path) cites the tracker in a comment instead of stating the rule: \(hits.joined(separator: "; "))")
        }
    }

    @Test("check, explain and simulate on every example print public sources only")
    func commandOutput() {
        let examples = Self.examples
        #expect(examples.count >= 6)
        var runs: [[String]] = []
        for example in examples {
            let plan = "Examples/\(example)"
            for format in ["text", "json"] {
                runs.append(["check", plan, "--now", "2026-01-01T00:00:00Z", "--format", format])
                runs.append(["explain", plan, "--format", format])
                runs.append(["explain", plan, "--original-version", "1", "--format", format])
            }
            for format in ["text", "markdown", "json"] {
                runs.append(["simulate", plan, "--draws", "200", "--format", format])
            }
        }
        runs.append(["explain", "Examples/server-pal", "--receipt", "Examples/server-pal/receipt-production.json"])
        runs.append(["explain", "Examples/server-pal", "--receipt", "Examples/server-pal/receipt-sandbox.json"])
        var sawDefaults = false
        for arguments in runs {
            let run = Run(arguments: arguments)
            let hits = Self.internalReferences(in: run.output) + Self.internalReferences(in: run.error)
            #expect(hits.isEmpty, "migrate \(arguments.joined(separator: " ")) cites internal notes: \(hits.joined(separator: "; "))")
            if run.output.contains("default: judgement") { sawDefaults = true }
        }
        #expect(sawDefaults, "some example leaves assumptions at their defaults, so their sources are printed and checked")
    }
}
