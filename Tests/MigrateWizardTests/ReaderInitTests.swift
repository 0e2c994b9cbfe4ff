import Foundation
import MigrateCLI
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

/// `migrate init --yes` on `ReaderProject`, the shape of a real subscription app's repository, accepting every default.
@Suite("init on a real-shaped repository: tags, an extension, two .storekit files with trials, a lifetime pass", .timeLimit(.minutes(20)))
struct ReaderInitTests {
    static let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    static let initArguments = [
        "init", "--yes", "--price", "3.99", "--first-free", "new", "--new-free-release", "3.0 (4) 2027-01-04", "--duration",
        "com.example.reader.lifetime=lifetime",
    ]

    /// What `init --yes` writes for this repository, which the generated package test builds.
    static let fixture = "Tests/Fixtures/plans/reader-init.json"

    /// Features that came in free updates: buyers of 1.0 got 'groups' in 1.1 and 'cloud' in 2.0.
    static let features = [
        "--feature", "galleries", "--feature", "groups", "--feature", "cloud", "--feature-since", "galleries=1.0", "--feature-since", "groups=1.1",
        "--feature-since", "cloud=2.0",
    ]

    @Test(
        "Accepting the defaults: nothing taken away, every product and trial in the plan, placeholders not sold, check and generate pass",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func acceptingTheDefaults() throws {
        let folder = try ReaderProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: Self.environment)
        let status = Migrate.run(
            Self.initArguments
                + Self.features,
            context: context)
        let output = context.standardOutput.text + context.standardError.text
        #expect(status == .success, "\(output)")
        #expect(!output.contains("skipped NSE/Info.plist"), "the extension's Info.plist is read with its project")
        #expect(output.contains("from Reader.xcodeproj/project.pbxproj"), "\(output)")

        let text = try String(contentsOf: folder.appendingPathComponent("migration.json"), encoding: .utf8)
        // The plan is kept as a fixture, byte for byte, so GeneratedPackageTests builds and runs the generated package of
        // exactly what init writes for this repository (its journeys: nothing sold twice, same-level plans no ping-pong).
        let fixture = repositoryRoot.appendingPathComponent(Self.fixture)
        if ProcessInfo.processInfo.environment["MIGRATE_RECORD"] == "1" { try text.write(to: fixture, atomically: true, encoding: .utf8) }
        #expect(
            text == (try? String(contentsOf: fixture, encoding: .utf8)),
            "init's plan for this repository differs from \(Self.fixture); re-record with MIGRATE_RECORD=1")
        let plan = try #require(PlanDecoder.decode(text).plan)
        let sold = Set(plan.products.map(\.id))
        #expect(
            sold == ["com.example.reader.monthly", "com.example.reader.yearly", "com.example.reader.lifetime", "com.example.reader.themes"],
            "every product of both catalogs but Xcode's placeholders: \(sold.sorted())")
        let trials = Dictionary(plan.products.compactMap { product in product.subscription?.introductoryOffer.map { (product.id, $0) } }) { $1 }
        #expect(trials["com.example.reader.monthly"] == IntroductoryOffer(paymentMode: .freeTrial, period: "P1W"))
        #expect(trials["com.example.reader.yearly"] == IntroductoryOffer(paymentMode: .freeTrial, period: "P1M"))
        #expect(plan.products.first { $0.id == "com.example.reader.lifetime" }?.duration != nil)
        #expect(plan.releases.filter(\.model.isPaid).count == 3)
        #expect(plan.tiers.count == 3 && plan.tiers.allSatisfy { $0.grants == nil && $0.takesAway.isEmpty }, "every era keeps what it had")

        let check = CommandContext.testing(directory: folder.path, environment: Self.environment)
        #expect(Migrate.run(["check", "migration.json"], context: check) == .success, "\(check.standardOutput.text)\(check.standardError.text)")
        let codes = PlanChecker.check(plan, now: Date()).diagnostics.map(\.code)
        #expect(!codes.contains(.freeUpdateTakenAway) && !codes.contains(.universalPurchaseOff), "\(codes)")

        let generate = CommandContext.testing(directory: folder.path, environment: Self.environment)
        #expect(
            Migrate.run(["generate", "migration.json", "-o", "out"], context: generate) == .success,
            "\(generate.standardOutput.text)\(generate.standardError.text)")
        let storeKit = try String(contentsOf: folder.appendingPathComponent("out/Products.storekit"), encoding: .utf8)
        #expect(storeKit.components(separatedBy: "\"paymentMode\" : \"free\"").count == 3, "both trials written back")
        #expect(!storeKit.contains("com.temporary.id"))
        #expect(storeKit.contains("\"productID\" : \"com.example.reader.lifetime\""), "the app's own product is written back")
    }

    @Test(
        "The take-away check the defaults pass does fire on this repository: an era that keeps only its release's features",
        .enabled(if: DemoProject.gitAvailable, "git is not installed"))
    func takeAwayNamed() throws {
        let folder = try ReaderProject.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = CommandContext.testing(directory: folder.path, environment: Self.environment)
        _ = Migrate.run(
            Self.initArguments
                + Self.features,
            context: context)
        let url = folder.appendingPathComponent("migration.json")
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(written.contains(#""id": "era-1","#))
        try written.replacingOccurrences(of: #""id": "era-1","#, with: #""id": "era-1", "grants": ["galleries"],"#)
            .write(to: url, atomically: true, encoding: .utf8)
        let plan = try #require(PlanDecoder.decode(try String(contentsOf: url, encoding: .utf8)).plan)
        let takenAway = PlanChecker.check(plan, now: Date()).diagnostics.filter { $0.code == .freeUpdateTakenAway }.map(\.message)
        #expect(takenAway.count == 2 && takenAway.allSatisfy { $0.contains("buyers of iOS 1.0 (1) have used") }, "\(takenAway)")
        let check = CommandContext.testing(directory: folder.path, environment: Self.environment)
        #expect(Migrate.run(["check", "migration.json"], context: check) != .success)
    }
}
