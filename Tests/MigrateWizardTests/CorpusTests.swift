import Foundation
import MigrateCLI
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// `init` on real public app repositories of varied shapes (`Tests/Fixtures/corpus`, each rebuilt as a small git
/// repository from its recorded facts), with the defaults a busy developer accepts: the plan takes nothing from anyone
/// who paid, holds only this app's versions and products, plans a platform only where a release shipped, and passes
/// `check`. The manual's "A corpus of real repositories" says what the corpus covers.
@Suite("A corpus of real repositories", .timeLimit(.minutes(20)), .enabled(if: CorpusRepository.gitAvailable, "git is not installed"))
struct CorpusTests {
    static let now = "2026-12-01T00:00:00Z"

    static let repositories: [String] = (try? CorpusRepository.all().map(\.name)) ?? []

    /// The main app target of a snapshot, as the fixture's `app` names it (its bundle id, else the target of its name).
    static func appTarget(_ snapshot: CorpusRepository.Snapshot, _ repository: CorpusRepository) -> CorpusRepository.Target? {
        let targets = snapshot.projects.flatMap(\.targets).filter { $0.type == "application" }
        return targets.first { $0.bundleID?.lowercased() == repository.app.bundleID.lowercased() }
    }

    @Test(
        "init --yes on a real repository: nothing taken from anyone who paid, only this app's versions and products, platforms with releases",
        arguments: repositories)
    func initHoldsItsInvariants(_ name: String) throws {
        let repository = try #require(try CorpusRepository.all().first { $0.name == name }?.repository)
        let folder = try repository.rebuild()
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["init", "--yes", "--price", "2.99", "--now", Self.now]
        // A developer whose project doesn't say its bundle id (it comes from an xcconfig left out of the repository)
        // types it: init asks, and has no default it could trust.
        let head = try #require(repository.snapshots.last)
        let headTargets = head.projects.flatMap(\.targets).filter { $0.type == "application" }
        if !headTargets.contains(where: { $0.bundleID?.lowercased() == repository.app.bundleID.lowercased() }) {
            arguments += ["--bundle-id", repository.app.bundleID]
        }
        let context = CommandContext.testing(directory: folder.path, environment: ProcessInfo.processInfo.environment)
        let status = Migrate.run(arguments, context: context)
        let said = context.standardOutput.text + context.standardError.text
        if ProcessInfo.processInfo.environment["CORPUS_VERBOSE"] != nil { print("=== \(name)\n\(said)") }
        try #require(status == .success, "\(name): init exit \(status)\n\(said)")
        let text = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        let plan = try #require(PlanDecoder.decode(text).plan)

        // check: no error, nothing taken from anyone.
        let check = CommandContext.testing(directory: folder.path)
        let checked = Migrate.run(["check", "migration.json", "--now", Self.now, "--format", "json"], context: check)
        #expect(checked == .success, "\(name): check\n\(check.standardOutput.text)")
        let report = try JSONParser.parse(check.standardOutput.text)
        let codes = try #require(report["diagnostics"]?.arrayValue, "\(name): check's JSON lists no diagnostics").compactMap {
            $0["code"]?.stringValue
        }
        #expect(!codes.contains("free-update-taken-away"), "\(name): \(codes)")
        #expect(!codes.contains("paid-release-uncovered"), "\(name): \(codes)")

        // A platform is planned only where a release shipped; no release is on a platform the plan doesn't declare.
        let shipped = Set(plan.releases.map(\.platform))
        #expect(Set(plan.app.platforms) == shipped, "\(name): platforms \(plan.app.platforms) but releases on \(shipped.sorted())")

        // The plan's app is one the repository builds (a monorepo's first, unless named), and every version is that app's:
        // some snapshot's app target with its bundle id (or none recorded) had it on that platform.
        let known = plan.app.bundleID.lowercased()
        let apps = Set(repository.snapshots.flatMap { $0.projects.flatMap(\.targets) }.compactMap { $0.bundleID?.lowercased() })
        #expect(apps.contains(known) || known == repository.app.bundleID.lowercased(), "\(name): \(known) is no app of the repository")
        for release in plan.releases where release.releasedSource != .planned {
            let found = repository.snapshots.contains { snapshot in
                snapshot.projects.flatMap(\.targets).contains { target in
                    target.type == "application" && (target.bundleID == nil || target.bundleID?.lowercased() == known)
                        && target.version.map { (try? Version($0))?.canonical == release.version.canonical } == true
                        && CorpusRepository.platforms(of: target).contains(release.platform.rawValue)
                        && (target.bundleID != nil || known == repository.app.bundleID.lowercased())
                }
            }
            #expect(found, "\(name): \(release.platform) \(release.version) is no version of \(repository.app.bundleID) on \(release.platform)")
        }
        // A tagged history's releases are its release tags', never a beta's or a release candidate's alone.
        let releaseTags = repository.snapshots.filter { !$0.tags.filter { !GitVersionChange.isPrerelease(tag: $0) }.isEmpty }
        if !releaseTags.isEmpty {
            for release in plan.releases where release.releasedSource == .tag {
                let tagged = releaseTags.contains { snapshot in
                    snapshot.projects.flatMap(\.targets).contains { target in
                        target.version.map { (try? Version($0))?.canonical == release.version.canonical } == true
                    }
                }
                #expect(tagged, "\(name): \(release.version) is dated by a tag, but only pre-release tags name it")
            }
        }
        // Only this app's products: those of its .storekit files at HEAD, or the unlock init proposes under its bundle id.
        let catalog = Set((head.storekit ?? []).flatMap(\.products).map(\.id))
        for product in plan.products {
            #expect(
                catalog.contains(product.id) || product.id.lowercased().hasPrefix(plan.app.bundleID.lowercased() + "."),
                "\(name): \(product.id) is no product of this app")
        }
    }
}
