import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// The StoreKit layer's guards and rules in the library, proven by the library's own tests: each mutant `inLibrary`
/// (a guard no generated test can reach: it is the same for every plan) is a copy of the library with that guard
/// removed, beside a copy of the library test file that names it and of the files declaring what that file uses, in one
/// small package built once; the named test must fail. The other mutants are proven by the generated tests
/// (`GeneratedPackageTests`). Each module costs about 20 s of CPU to compile, so each holds only what its proof needs.
/// CI runs them (`.ci/mutants` sets `MIGRATE_MUTANTS=1`), a third at a time (`selected`).
@Suite("Library mutants", .serialized, .timeLimit(.minutes(45)))
struct LibraryMutantTests {
    static let files: Set<String> = [
        "PlanStore.swift", "PlanStore+Consumables.swift", "PlanStore+Purchasing.swift", "PlanStore+Reading.swift",
        "PlanStore+Restoring.swift", "PlanStore+PlanChanges.swift", "NotificationLedger.swift", "CatalogRules.swift", "CatalogEntitlements.swift",
        "CatalogUpsell.swift", "CatalogPlan.swift", "CohortRules.swift",
        "PurchaseCache.swift", "StoreFront.swift", "StoreMessages.swift",
    ]
    static let mutants = GeneratedPackageTests.layerMutants.filter(\.inLibrary)

    /// The share of `mutants` this run builds and runs: `MIGRATE_MUTANT_SHARE=k/n` takes every n-th from the k-th
    /// (CI takes a third, in turn by commit, so every mutant runs every third commit; each costs about 25 s of CPU to
    /// compile); unset, all of them.
    static let share: (part: Int, parts: Int) = {
        let words = (ProcessInfo.processInfo.environment["MIGRATE_MUTANT_SHARE"] ?? "").split(separator: "/").compactMap { Int($0) }
        guard words.count == 2, words[1] > 0, (0..<words[1]).contains(words[0]) else { return (0, 1) }
        return (words[0], words[1])
    }()

    /// The mutants `MIGRATE_MUTANT_NAMES` names (comma-separated), to try new ones without building the rest.
    static let named = Set((ProcessInfo.processInfo.environment["MIGRATE_MUTANT_NAMES"] ?? "").split(separator: ",").map(String.init))

    /// The mutants this run builds: those named, or else its share, every n-th of the list.
    static let selected: [LayerMutant] = {
        if !named.isEmpty { return mutants.filter { named.contains($0.name) } }
        return mutants.enumerated().filter { $0.offset % share.parts == share.part }.map(\.element)
    }()

    static let testFiles = [
        "PlanStoreTests.swift", "CatalogRulesTests.swift", "ProvisionalGrantTests.swift", "CohortRulesTests.swift", "PurchaseCacheTests.swift",
        "CatalogPlanStoreTests.swift", "LayerPromptTests.swift", "SubscriptionJourneyTests.swift", "NotificationLedgerTests.swift",
        "StoreFrontTests.swift", "StoreMessagesTests.swift",
    ].map { repositoryRoot.appendingPathComponent("Tests/\(StoreLayerSources.folder)Tests/\($0)") }

    /// Builds the package once; the tests below share it.
    static let package = GeneratedPackageTests.PackageBuild { try await makePackage() }

    static func makePackage() async throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-library-mutants-\(Checksum.of(repositoryRoot.path))")
        let tests = try testFiles.map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
        var written: Set<String> = []
        func write(_ text: String, to url: URL) throws {
            written.insert(url.standardizedFileURL.path)
            try GeneratedPackageTests.write(text, to: url)
        }
        var targets: [String] = []
        for mutant in selected {
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
            for (file, text) in try Self.testFiles(proving: mutant, from: tests) {
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

    /// Whether a test file declares the test titled `title`.
    static func declares(_ title: String, in text: String) -> Bool {
        text.contains("@Test(\"\(title)\"") || text.contains("@Test(\n        \"\(title)\"")
    }

    /// The names a test file declares at its top level (types, and the types it extends), which other files may use.
    static func declaredNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let words = line.split(separator: " ")
            // Top level only: a declaration at the start of its line, after at most `final` or an access level.
            var index = 0
            while index < words.count, ["final", "public", "internal", "private", "fileprivate"].contains(words[index]) { index += 1 }
            guard index + 1 < words.count, ["class", "struct", "enum", "actor", "protocol", "extension", "typealias"].contains(words[index])
            else { continue }
            let name = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    /// The test files a mutant's module compiles: the one declaring its named test, and every file declaring a name
    /// those use, transitively. A file missing here fails the build, loudly; none is left out that the proof needs.
    static func testFiles(proving mutant: LayerMutant, from files: [(name: String, text: String)]) throws -> [(String, String)] {
        guard let named = files.firstIndex(where: { declares(mutant.test, in: $0.text) }) else {
            throw GeneratedPackageTests.PackageError(message: "\(mutant.name): no library test file declares «\(mutant.test)»")
        }
        let declared = files.map { declaredNames(in: $0.text) }
        var kept: Set<Int> = [named]
        var queue = [named]
        while let index = queue.popLast() {
            let text = files[index].text
            for (other, names) in declared.enumerated() where !kept.contains(other) {
                let uses = names.contains { name in
                    text.firstMatch(of: try! Regex("\\b\(name)\\b")) != nil
                }
                if uses {
                    kept.insert(other)
                    queue.append(other)
                }
            }
        }
        return files.indices.filter(kept.contains).map { (files[$0].name, files[$0].text) }
    }

    @Test("The library's mutants are its own guards, each naming a test of the library's, and every library file has a mutant")
    func mutantsListed() throws {
        #expect(Self.mutants.count >= 30)
        #expect(Set(Self.mutants.map(\.file)).isSubset(of: Self.files))
        // Every library file has a guard removed somewhere: here, or in a generated package's copy of the layer.
        #expect(Set(GeneratedPackageTests.layerMutants.map(\.file)).isSuperset(of: Self.files))
        #expect(Set(Self.mutants.map(\.name)).count == Self.mutants.count)
        #expect(Self.named.isSubset(of: Self.mutants.map(\.name)), "MIGRATE_MUTANT_NAMES names no such mutant")
        // Each mutation point is in the library as `generate` embeds it, whichever share of the mutants runs.
        for mutant in Self.mutants {
            let source = StoreLayerSources.source(named: String(mutant.file.dropLast(".swift".count))) ?? ""
            #expect(source.contains(mutant.find), "\(mutant.name): the mutation point moved in \(mutant.file)")
        }
        let tests = try Self.testFiles.map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
        for mutant in Self.mutants {
            let kept = try Self.testFiles(proving: mutant, from: tests).map(\.0)
            #expect(
                kept.contains { name in tests.first { $0.name == name }.map { Self.declares(mutant.test, in: $0.text) } == true }, "\(mutant.name)")
        }
    }

    @Test("A test file is compiled with the files declaring what it uses, and not the others")
    func testFilesClosure() throws {
        let files: [(name: String, text: String)] = [
            ("A.swift", "struct ATests {\n  @Test(\"the named one\") func a() { _ = Helper() }\n}\n"),
            ("B.swift", "final class Helper {\n  let clock = Clock()\n}\n"),
            ("C.swift", "struct Clock {}\nextension Unrelated {}\n"),
            ("D.swift", "struct DTests {\n  @Test(\"another\") func d() {}\n}\n"),
        ]
        let mutant = LayerMutant(name: "M", example: "", file: "", find: "", replace: "", test: "the named one", inLibrary: true)
        #expect(try Self.testFiles(proving: mutant, from: files).map(\.0) == ["A.swift", "B.swift", "C.swift"])
        let missing = LayerMutant(name: "N", example: "", file: "", find: "", replace: "", test: "nowhere", inLibrary: true)
        #expect(throws: GeneratedPackageTests.PackageError.self) { try Self.testFiles(proving: missing, from: files) }
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
        arguments: selected.map(\.name))
    func libraryMutantFails(name: String) async throws {
        let root = try await Self.package.get()
        let run = try await ScratchBuild.runTests(filter: "Mutant\(name)Tests\\.", package: "LibraryMutants", in: root)
        #expect(run.status != 0, "\(name): the library's tests passed with the guard removed")
        #expect(run.output.contains("✘ Test \""), "\(name): no test failed:\n\(run.output.suffix(1_000))")
        if let mutant = Self.mutants.first(where: { $0.name == name }), mutant.inLibrary {
            #expect(run.output.contains("✘ Test \"\(mutant.test)\""), "\(name): expected «\(mutant.test)» to fail")
        }
    }
}
