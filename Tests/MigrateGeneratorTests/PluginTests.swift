import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

/// The SwiftPM command plugins, run for real: `swift package plugin migrate …` (which may write) and
/// `swift package plugin migrate-read …` (which asks for no permission).
///
/// `swift test` runs them in this package, where SwiftPM finds the `migrate` it just built for the tests
/// (about 2 s), and checks the manifest exports both plugins to the packages that depend on this one.
/// The same runs from an app's package that depends on this one by path (`DependentPackage`) compile
/// `migrate` a second time, about 50 s of CPU, the largest single part of a cold `swift test`: CI runs
/// them (`MIGRATE_PLUGIN_CONSUMER=1`, in `.ci/run`), as it runs the layer's mutants.
@Suite("SwiftPM plugin", .serialized)
struct PluginTests {
    /// A folder inside this package for what `generate` writes (a plugin may write only into its
    /// package); under `.build`, which git ignores, and removed after each test.
    static func outputFolder() throws -> (relative: String, url: URL) {
        let relative = ".build/migrate-plugin-test-\(ProcessInfo.processInfo.processIdentifier)"
        let url = repositoryRoot.appendingPathComponent(relative)
        try? FileManager.default.removeItem(at: url)
        return (relative, url)
    }

    /// `swift package plugin ARGUMENTS` in this package. `--ignore-lock`: a `swift test` that still holds
    /// the build folder's lock while its tests run must not leave this waiting for it.
    static func plugin(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await shell(["swift", "package", "--ignore-lock", "plugin"] + arguments, in: repositoryRoot)
    }

    static let plan = "Examples/tilt-to-live-hd/migration.json"

    /// Whether the dependent package's runs are on: CI sets `MIGRATE_PLUGIN_CONSUMER=1`.
    static let dependentPackageEnabled = ProcessInfo.processInfo.environment["MIGRATE_PLUGIN_CONSUMER"] == "1"

    @Test("swift package plugin migrate checks and generates in the package, and keeps a failure a failure")
    func pluginRunsMigrate() async throws {
        let output = try Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: output.url) }
        let check = try await Self.plugin(["--allow-writing-to-package-directory", "migrate", "check", Self.plan])
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let generate = try await Self.plugin(
            ["--allow-writing-to-package-directory", "migrate", "generate", Self.plan, "--output", output.relative + "/Generated"])
        #expect(generate.status == 0, "\(generate.output.suffix(2_000))")
        for path in ["Generated/Freemium/FreemiumStore.swift", "Generated/INTEGRATION.md", "Generated/Products.storekit"] {
            #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent(path).path), "\(path) was not written")
        }

        let missing = try await Self.plugin(["--allow-writing-to-package-directory", "migrate", "check", "absent.json"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("absent.json: no such file"))
    }

    @Test("swift package plugin migrate-read checks, explains and simulates without the write flag, and refuses generate")
    func readOnlyPluginRunsWithoutPermission() async throws {
        let output = try Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: output.url) }
        let check = try await Self.plugin(["migrate-read", "check", Self.plan])
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let explain = try await Self.plugin(["migrate-read", "explain", Self.plan, "--original-version", "1.0"])
        #expect(explain.status == 0, "\(explain.output.suffix(2_000))")

        let simulate = try await Self.plugin(["migrate-read", "simulate", Self.plan, "--draws", "0"])
        #expect(simulate.status == 0, "\(simulate.output.suffix(2_000))")
        #expect(simulate.output.contains("Cohort preview"))

        let generate = try await Self.plugin(["migrate-read", "generate", Self.plan, "--output", output.relative + "/Generated"])
        #expect(generate.status != 0)
        #expect(generate.output.contains("'generate' may write into the package"), "\(generate.output.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("Generated").path))
    }

    @Test("The manifest exports both plugins to the packages that depend on this one; only migrate asks to write")
    func pluginsAreProducts() async throws {
        let dump = try await shell(["swift", "package", "--ignore-lock", "dump-package"], in: repositoryRoot)
        #expect(dump.status == 0, "\(dump.output.suffix(2_000))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.drop { $0 != "{" }.utf8)) as? [String: Any])
        let products = json["products"] as? [[String: Any]] ?? []
        let plugins = products.filter { ($0["type"] as? [String: Any])?.keys.contains("plugin") == true }
        #expect(plugins.map { $0["name"] as? String ?? "" }.sorted() == ["MigratePlugin", "MigrateReadOnlyPlugin"])
        for plugin in plugins { #expect(plugin["targets"] as? [String] == [plugin["name"] as? String ?? ""]) }
        // Each command's verb, and whether it asks to write: `"command": [intent, permissions]`.
        let targets = json["targets"] as? [[String: Any]] ?? []
        var verbs: [String: Bool] = [:]
        for target in targets {
            guard let command = (target["pluginCapability"] as? [String: Any])?["command"] as? [Any], command.count == 2,
                let custom = (command[0] as? [String: Any])?["custom"] as? [String: Any], let verb = custom["verb"] as? String
            else { continue }
            verbs[verb] = (command[1] as? [[String: Any]] ?? []).contains { $0.keys.contains("writeToPackageDirectory") }
        }
        #expect(verbs == ["migrate": true, "migrate-read": false], "\(verbs)")
    }

    /// The same plugins from an app's package that depends on this one by path, as an app's repository uses
    /// them; CI only (`MIGRATE_PLUGIN_CONSUMER=1`), since that package compiles `migrate` again.
    @Suite("SwiftPM plugin from a dependent package", .serialized, .enabled(if: PluginTests.dependentPackageEnabled))
    struct DependentPackage {
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
            let plan = try String(contentsOf: repositoryRoot.appendingPathComponent(PluginTests.plan), encoding: .utf8)
            try plan.write(to: root.appendingPathComponent("migration.json"), atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: root.appendingPathComponent("Generated"))
            return root
        }

        /// `swift package plugin ARGUMENTS` in the dependent package.
        static func plugin(_ arguments: [String], in app: URL) async throws -> (status: Int32, output: String) {
            try await shell(ScratchBuild.yielding + ScratchBuild.swiftWithoutTests("package", ["plugin"] + arguments), in: app)
        }

        @Test("From a dependent package: migrate checks and generates in the app's own package, and keeps a failure a failure")
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

        @Test("From a dependent package: migrate-read checks, explains and simulates without the write flag, and refuses generate")
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
}
