import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// `migrate generate --package`: a Swift package whose `swift test` runs the generated tests.
@Suite("Generated Swift package", .serialized)
struct PackageLayoutTests {
    @Test("--package writes Package.swift, Sources/MODULE and Tests/MODULETests, and swift test passes in it")
    func packageBuildsAndTests() throws {
        let files = try Generator(options: GenerationOptions(module: "ServerPalStore"), package: true).generate(try examplePlan("server-pal"))
        let paths = files.map(\.path)
        #expect(paths.contains("Package.swift"))
        #expect(paths.contains("Sources/ServerPalStore/FreemiumStore.swift"))
        #expect(paths.contains("Tests/ServerPalStoreTests/StoreTests.swift"))
        #expect(!paths.contains { $0.hasPrefix("ServerPalStore/") })
        let manifest = try #require(files.first { $0.path == "Package.swift" })
        // The tools version must stay the first line: no header above it.
        #expect(GeneratedFileHeader.content(for: manifest, source: "migration.json").hasPrefix("// swift-tools-version:6.0\n"))
        #expect(manifest.body.contains("platforms: [.iOS(.v16), .macOS(.v13)]"))

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-package-\(Checksum.of(repositoryRoot.path))")
        for stale in ["Sources", "Tests", "Package.swift"] { try? FileManager.default.removeItem(at: root.appendingPathComponent(stale)) }
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try GeneratedFileHeader.content(for: file, source: "migration.json").write(to: url, atomically: true, encoding: .utf8)
        }
        let run = try shell(["swift", "test"], in: root)
        #expect(run.status == 0, "\(run.output.suffix(3_000))")
        #expect(run.output.contains("✔ Suite \"StoreKit layer\" passed"))
    }

    @Test("The package names the plan's platforms at the first OS with AppTransaction")
    func platforms() throws {
        let files = try Generator(package: true).generate(try examplePlan("inkwell-universal"), only: [.swift])
        let manifest = try #require(files.first { $0.path == "Package.swift" })
        #expect(manifest.body.contains("platforms: [.iOS(.v16), .macOS(.v13)]"))
    }
}
