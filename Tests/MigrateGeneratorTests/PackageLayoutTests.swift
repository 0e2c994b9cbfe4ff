import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// `migrate generate --package`: a Swift package whose `swift test` runs the generated tests.
@Suite("Generated Swift package", .serialized, .timeLimit(.minutes(45)))
struct PackageLayoutTests {
    @Test(
        "--package --store-layer dependency writes Package.swift depending on migrate's FreemiumStoreKit (the tests also on FreemiumStoreKitTesting), Sources/MODULE and Tests/MODULETests, and swift test passes in it"
    )
    func packageBuildsAndTests() async throws {
        // SwiftPM names a path dependency after its folder: the link is called what the manifest expects.
        let options = GenerationOptions(module: "ServerPalStore", storeLayer: .dependency, storeLayerPackage: "../migrate")
        #expect(options.storeLayerPackageIdentity == "migrate")
        let files = try Generator(options: options, package: true).generate(try examplePlan("server-pal"))
        let paths = files.map(\.path)
        #expect(paths.contains("Package.swift"))
        #expect(paths.contains("Sources/ServerPalStore/FreemiumStore.swift"))
        #expect(paths.contains("Tests/ServerPalStoreTests/StoreTests.swift"))
        #expect(!paths.contains { $0.hasPrefix("ServerPalStore/") })
        // Nothing of the layer is copied: the library product brings it.
        #expect(!paths.contains { $0.contains("/\(StoreLayerSources.folder)/") })
        let manifest = try #require(files.first { $0.path == "Package.swift" })
        // The tools version must stay the first line: no header above it.
        #expect(GeneratedFileHeader.content(for: manifest, source: "migration.json").hasPrefix("// swift-tools-version:6.0\n"))
        #expect(manifest.body.contains("platforms: [.iOS(.v16), .macOS(.v13)]"))
        #expect(manifest.body.contains(#".package(path: "../migrate")"#))
        #expect(manifest.body.contains(#"dependencies: [.product(name: "FreemiumStoreKit", package: "migrate")]"#))
        // The App Store model is the tests' dependency only: the app target's line above names the layer alone.
        #expect(manifest.body.components(separatedBy: #".product(name: "FreemiumStoreKitTesting", package: "migrate")"#).count == 2)
        #expect(!paths.contains { $0.contains("AppStoreModel") })
        let store = try #require(files.first { $0.path == "Sources/ServerPalStore/FreemiumStore.swift" })
        #expect(store.body.hasPrefix("import Foundation\nimport FreemiumStoreKit\n"))

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-package-\(Checksum.of(repositoryRoot.path))")
        let root = scratch.appendingPathComponent("app")
        let link = scratch.appendingPathComponent("migrate")
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != repositoryRoot.path {
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: repositoryRoot)
        }
        var written: Set<String> = []
        for file in files {
            let url = root.appendingPathComponent(file.path)
            written.insert(url.standardizedFileURL.path)
            try GeneratedPackageTests.write(GeneratedFileHeader.content(for: file, source: "migration.json"), to: url)
        }
        try GeneratedPackageTests.removeFiles(in: root, except: written)
        let run = try await shell(ScratchBuild.yielding + ScratchBuild.swift("test"), in: root)
        #expect(run.status == 0, "\(run.output.suffix(3_000))")
        #expect(run.output.contains("✔ Suite \"Customer journeys through the App Store model\" passed"))
        // Every generated test ran: this package is where server-pal's generated code is built and tested.
        let declared = try GeneratedPackageTests.declaredTests(in: root.appendingPathComponent("Tests/ServerPalStoreTests"))
        GeneratedPackageTests.expectEveryTestRan(run.output, declared: declared)
        try await GeneratedPackageTests.expectLintClean(["Sources", "Tests"], in: root)
    }

    @Test(
        "Vendored (the default), the package copies the layer into Sources/MODULE/FreemiumStoreKit, its test double into Tests/MODULETests, and depends on nothing"
    )
    func vendoredPackage() throws {
        let files = try Generator(options: GenerationOptions(module: "ServerPalStore"), package: true).generate(try examplePlan("server-pal"))
        let manifest = try #require(files.first { $0.path == "Package.swift" })
        #expect(!manifest.body.contains(".package("))
        #expect(manifest.body.contains(#".target(name: "ServerPalStore"),"#))
        let copies = files.filter { $0.path.hasPrefix("Sources/ServerPalStore/\(StoreLayerSources.folder)/") }
        #expect(copies.count == StoreLayerSources.names.count)
        let store = try #require(files.first { $0.path == "Sources/ServerPalStore/FreemiumStore.swift" })
        #expect(!store.body.contains("import FreemiumStoreKit"))
        // The test double goes to the tests, never to Sources: no model of the App Store ships in the app.
        let testing = files.filter { $0.path.hasPrefix("Tests/ServerPalStoreTests/\(StoreLayerSources.testingFolder)/") }
        #expect(testing.map(\.path) == StoreLayerSources.appTestingNames.map { "Tests/ServerPalStoreTests/FreemiumStoreKitTesting/\($0).swift" })
        #expect(!files.contains { $0.path.hasPrefix("Sources/") && $0.path.contains("AppStoreModel") })
        #expect(!manifest.body.contains("FreemiumStoreKitTesting"))
    }

    @Test("A git URL is depended on from this migrate's version; its identity drops .git")
    func dependencyByURL() throws {
        let options = GenerationOptions(storeLayer: .dependency, storeLayerPackage: "https://example.com/tools/Migrate.git")
        #expect(GenerationOptions().storeLayerPackageDeclaration(version: "1.2.3").isEmpty)
        #expect(options.storeLayerPackageIdentity == "migrate")
        #expect(
            options.storeLayerPackageDeclaration(version: "1.2.3") == #".package(url: "https://example.com/tools/Migrate.git", from: "1.2.3")"#)
        #expect(
            GenerationOptions(storeLayer: .dependency, storeLayerPackage: "/src/migrate").storeLayerPackageDeclaration(version: "1.2.3")
                == #".package(path: "/src/migrate")"#)
    }

    @Test("The package names the plan's platforms at the first OS with AppTransaction")
    func platforms() throws {
        let files = try Generator(package: true).generate(try examplePlan("inkwell-universal"), only: [.swift])
        let manifest = try #require(files.first { $0.path == "Package.swift" })
        #expect(manifest.body.contains("platforms: [.iOS(.v16), .macOS(.v13)]"))
    }
}
