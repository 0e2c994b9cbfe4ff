import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// The SwiftPM command plugins, used the way an app's repository would: a scratch package that depends on
/// this one by path runs `swift package plugin migrate …` (which may write) and `swift package plugin
/// migrate-read …` (which asks for no permission) on its own plan.
@Suite("SwiftPM plugin", .serialized)
struct PluginTests {
    /// A package beside its plan, reused between runs so its build is incremental.
    static func makeApp() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-plugin-\(Checksum.of(repositoryRoot.path))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
              name: "App",
              platforms: [.macOS(.v13)],
              dependencies: [.package(path: \(String(reflecting: repositoryRoot.path)))],
              targets: [.target(name: "App")]
            )

            """
        try manifest.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "public let app = 1\n".write(to: root.appendingPathComponent("Sources/App/App.swift"), atomically: true, encoding: .utf8)
        let plan = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/migration.json"), encoding: .utf8)
        try plan.write(to: root.appendingPathComponent("migration.json"), atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(at: root.appendingPathComponent("Generated"))
        return root
    }

    /// `swift package plugin ARGUMENTS` in the consumer package.
    static func plugin(_ arguments: [String], in app: URL) async throws -> (status: Int32, output: String) {
        try await shell(ScratchBuild.yielding + ScratchBuild.swiftWithoutTests("package", ["plugin"] + arguments), in: app)
    }

    @Test("swift package plugin migrate checks and generates in the app's own package, and keeps a failure a failure")
    func pluginRunsMigrate() async throws {
        let app = try Self.makeApp()
        let check = try await Self.plugin(["--allow-writing-to-package-directory", "migrate", "check", "migration.json"], in: app)
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let generate = try await Self.plugin(
            ["--allow-writing-to-package-directory", "migrate", "generate", "migration.json", "--output", "Generated"], in: app)
        #expect(generate.status == 0, "\(generate.output.suffix(2_000))")
        for path in ["Generated/Freemium/FreemiumStore.swift", "Generated/INTEGRATION.md", "Generated/Products.storekit"] {
            #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent(path).path), "\(path) was not written")
        }

        let missing = try await Self.plugin(["--allow-writing-to-package-directory", "migrate", "check", "absent.json"], in: app)
        #expect(missing.status != 0)
        #expect(missing.output.contains("absent.json: no such file"))
    }

    @Test("swift package plugin migrate-read checks, explains and simulates without the write flag, and refuses generate")
    func readOnlyPluginRunsWithoutPermission() async throws {
        let app = try Self.makeApp()
        let check = try await Self.plugin(["migrate-read", "check", "migration.json"], in: app)
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let explain = try await Self.plugin(["migrate-read", "explain", "migration.json", "--original-version", "1.0"], in: app)
        #expect(explain.status == 0, "\(explain.output.suffix(2_000))")

        let simulate = try await Self.plugin(["migrate-read", "simulate", "migration.json", "--draws", "0"], in: app)
        #expect(simulate.status == 0, "\(simulate.output.suffix(2_000))")
        #expect(simulate.output.contains("Cohort preview"))

        let generate = try await Self.plugin(["migrate-read", "generate", "migration.json", "--output", "Generated"], in: app)
        #expect(generate.status != 0)
        #expect(generate.output.contains("'generate' may write into the package"), "\(generate.output.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("Generated").path))
    }
}
