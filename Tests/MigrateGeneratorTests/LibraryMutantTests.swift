import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// The StoreKit layer's guards and rules in the library, proven by the library's own tests: each mutant of
/// `PlanStore`'s files, the cutoff and catalog rules and the cache (the same list the generated tests must catch) is a
/// copy of the library with one guard removed, beside copies of the library's tests, in one small package built
/// once. A mutant `inLibrary` has no generated test: the library test it names must fail. CI runs them
/// (`.ci/mutants` sets `MIGRATE_MUTANTS=1`).
@Suite("Library mutants", .serialized, .timeLimit(.minutes(45)))
struct LibraryMutantTests {
    static let files: Set<String> = [
        "PlanStore.swift", "PlanStore+Consumables.swift", "PlanStore+Purchasing.swift", "PlanStore+Reading.swift",
        "PlanStore+Restoring.swift", "PlanStore+PlanChanges.swift", "NotificationLedger.swift", "CatalogRules.swift", "CatalogEntitlements.swift",
        "CatalogUpsell.swift", "CatalogPlan.swift", "CohortRules.swift",
        "PurchaseCache.swift",
    ]
    static let mutants = GeneratedPackageTests.layerMutants.filter { files.contains($0.file) }
    static let testFiles = [
        "PlanStoreTests.swift", "CatalogRulesTests.swift", "ProvisionalGrantTests.swift", "CohortRulesTests.swift", "PurchaseCacheTests.swift",
        "CatalogPlanStoreTests.swift", "LayerPromptTests.swift", "SubscriptionJourneyTests.swift", "NotificationLedgerTests.swift",
    ].map { repositoryRoot.appendingPathComponent("Tests/\(StoreLayerSources.folder)Tests/\($0)") }

    /// Builds the package once; the tests below share it.
    static let package = GeneratedPackageTests.PackageBuild { try await makePackage() }

    static func makePackage() async throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-library-mutants-\(Checksum.of(repositoryRoot.path))")
        let tests = try testFiles.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
        var written: Set<String> = []
        func write(_ text: String, to url: URL) throws {
            written.insert(url.standardizedFileURL.path)
            try GeneratedPackageTests.write(text, to: url)
        }
        var targets: [String] = []
        for mutant in mutants {
            let module = "Mutant" + mutant.name
            // The library's sources as this build embeds them (what `generate` copies into an app).
            for name in StoreLayerSources.names {
                var text = StoreLayerSources.source(named: name) ?? ""
                if name + ".swift" == mutant.file {
                    guard text.contains(mutant.find) else {
                        throw GeneratedPackageTests.PackageError(message: "\(mutant.name): the mutation point moved in \(name); update the mutant")
                    }
                    text = text.replacingOccurrences(of: mutant.find, with: mutant.replace)
                }
                try write(text, to: root.appendingPathComponent("Sources/\(module)/\(name).swift"))
            }
            // The test double as `generate` vendors it: copies in the test target, importing the module.
            for name in StoreLayerSources.testingNames {
                try write(
                    StoreLayerSources.testingSource(named: name, module: module) ?? "",
                    to: root.appendingPathComponent("Tests/\(module)Tests/\(StoreLayerSources.testingFolder)/\(name).swift"))
            }
            for (file, text) in tests {
                let imported = text.replacingOccurrences(
                    of: "@testable import \(StoreLayerSources.folder)\n", with: "@testable import \(module)\n"
                ).replacingOccurrences(of: "@testable import \(StoreLayerSources.testingFolder)\n", with: "")
                    .replacingOccurrences(of: "import \(StoreLayerSources.testingFolder)\n", with: "")
                try write(imported, to: root.appendingPathComponent("Tests/\(module)Tests/\(file)"))
            }
            targets.append(#"    .target(name: "\#(module)"),"#)
            targets.append(#"    .testTarget(name: "\#(module)Tests", dependencies: ["\#(module)"]),"#)
        }
        try await GeneratedPackageTests.build(named: "LibraryMutants", targets: targets, at: root, keeping: written)
        return root
    }

    @Test("The library's mutants are the generated tests' mutants of the same files, and there are some of each")
    func mutantsListed() {
        #expect(Self.mutants.count >= 30)
        #expect(Set(Self.mutants.map(\.file)) == Self.files)
        #expect(Set(Self.mutants.map(\.name)).count == Self.mutants.count)
    }

    @Test("Each mutant no generated test catches mutates a library file here and names a test of the library's own")
    func libraryMutantsNameLibraryTests() throws {
        let titles = try Self.testFiles.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for mutant in GeneratedPackageTests.layerMutants where mutant.inLibrary {
            #expect(Self.files.contains(mutant.file), "\(mutant.name)")
            #expect(titles.contains("@Test(\"\(mutant.test)\"") || titles.contains("@Test(\n        \"\(mutant.test)\""), "\(mutant.name)")
        }
    }

    @Test(
        "Each guard of PlanStore and each catalog rule, removed, fails the library's own tests",
        .enabled(if: GeneratedPackageTests.mutantsEnabled, "the mutants run with MIGRATE_MUTANTS=1 (.ci/mutants)"),
        arguments: mutants.map(\.name))
    func libraryMutantFails(name: String) async throws {
        let root = try await Self.package.get()
        let run = try await shell(ScratchBuild.swift("test", ["--skip-build", "--filter", "Mutant\(name)Tests\\."]), in: root)
        #expect(run.status != 0, "\(name): the library's tests passed with the guard removed")
        #expect(run.output.contains("✘ Test \""), "\(name): no test failed:\n\(run.output.suffix(1_000))")
        if let mutant = Self.mutants.first(where: { $0.name == name }), mutant.inLibrary {
            #expect(run.output.contains("✘ Test \"\(mutant.test)\""), "\(name): expected «\(mutant.test)» to fail")
        }
    }
}
