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
@Suite("SwiftPM plugin", .serialized, .timeLimit(.minutes(45)))
struct PluginTests {
    /// A package the plugins run in: its folder, its plan and where `generate` writes (both relative to
    /// the folder: a plugin may write only into its package), and how `swift package plugin` is run there.
    struct Place {
        var root: URL
        var plan: String
        var output: String
        var plugin: @Sendable ([String]) async throws -> (status: Int32, output: String)
    }

    static let plan = "Examples/tilt-to-live-hd/migration.json"

    /// This package. `generate` writes under `.build` (which git ignores), removed by the caller;
    /// `--ignore-lock`: a `swift test` that still holds the build folder's lock while its tests run must
    /// not leave the plugin waiting for it.
    static func thisPackage() -> Place {
        let output = ".build/migrate-plugin-test-\(ProcessInfo.processInfo.processIdentifier)/Generated"
        try? FileManager.default.removeItem(at: repositoryRoot.appendingPathComponent(output))
        return Place(root: repositoryRoot, plan: plan, output: output) { arguments in
            try await shell(["swift", "package", "--ignore-lock", "plugin"] + arguments, in: repositoryRoot)
        }
    }

    /// Whether the dependent package's runs are on: CI sets `MIGRATE_PLUGIN_CONSUMER=1`.
    static let dependentPackageEnabled = ProcessInfo.processInfo.environment["MIGRATE_PLUGIN_CONSUMER"] == "1"

    /// `migrate check` and `generate` through the writing plugin, and a failing `check` that stays a failure.
    static func expectMigrateRuns(in place: Place) async throws {
        let check = try await place.plugin(["--allow-writing-to-package-directory", "migrate", "check", place.plan])
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let generate = try await place.plugin(["--allow-writing-to-package-directory", "migrate", "generate", place.plan, "--output", place.output])
        #expect(generate.status == 0, "\(generate.output.suffix(2_000))")
        let output = place.root.appendingPathComponent(place.output)
        for path in ["Freemium/FreemiumStore.swift", "INTEGRATION.md", "Products.storekit"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path) was not written")
        }

        let missing = try await place.plugin(["--allow-writing-to-package-directory", "migrate", "check", "absent.json"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("absent.json: no such file"))
    }

    /// `migrate-read` checks, explains and simulates without permission, and refuses `generate`, writing nothing.
    static func expectReadOnlyRuns(in place: Place) async throws {
        let check = try await place.plugin(["migrate-read", "check", place.plan])
        #expect(check.status == 0, "\(check.output.suffix(2_000))")
        #expect(check.output.contains("No problems found."))

        let explain = try await place.plugin(["migrate-read", "explain", place.plan, "--original-version", "1.0"])
        #expect(explain.status == 0, "\(explain.output.suffix(2_000))")

        let simulate = try await place.plugin(["migrate-read", "simulate", place.plan, "--draws", "0"])
        #expect(simulate.status == 0, "\(simulate.output.suffix(2_000))")
        #expect(simulate.output.contains("Cohort preview"))

        let generate = try await place.plugin(["migrate-read", "generate", place.plan, "--output", place.output])
        #expect(generate.status != 0)
        #expect(generate.output.contains("'generate' may write into the package"), "\(generate.output.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: place.root.appendingPathComponent(place.output).path))
    }

    @Test("swift package plugin migrate checks and generates in the package, and keeps a failure a failure")
    func pluginRunsMigrate() async throws {
        let place = Self.thisPackage()
        defer { try? FileManager.default.removeItem(at: place.root.appendingPathComponent(place.output).deletingLastPathComponent()) }
        try await Self.expectMigrateRuns(in: place)
    }

    @Test("swift package plugin migrate-read checks, explains and simulates without the write flag, and refuses generate")
    func readOnlyPluginRunsWithoutPermission() async throws {
        let place = Self.thisPackage()
        defer { try? FileManager.default.removeItem(at: place.root.appendingPathComponent(place.output).deletingLastPathComponent()) }
        try await Self.expectReadOnlyRuns(in: place)
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

    /// The same runs from an app's package that depends on this one by path, as an app's repository uses
    /// the plugins; CI only (`MIGRATE_PLUGIN_CONSUMER=1`), since that package compiles `migrate` again.
    @Suite(
        "SwiftPM plugin from a dependent package", .serialized, .timeLimit(.minutes(45)),
        .enabled(if: PluginTests.dependentPackageEnabled, "these runs build migrate again; CI runs them with MIGRATE_PLUGIN_CONSUMER=1 (.ci/run)"))
    struct DependentPackage {
        /// A package beside its plan, reused between runs so its build is incremental.
        static func makeApp() throws -> Place {
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
            return Place(root: root, plan: "migration.json", output: "Generated") { arguments in
                try await shell(ScratchBuild.yielding + ScratchBuild.swiftWithoutTests("package", ["plugin"] + arguments), in: root)
            }
        }

        @Test("From a dependent package: migrate checks and generates in the app's own package, and keeps a failure a failure")
        func pluginRunsMigrate() async throws {
            try await PluginTests.expectMigrateRuns(in: Self.makeApp())
        }

        @Test("From a dependent package: migrate-read checks, explains and simulates without the write flag, and refuses generate")
        func readOnlyPluginRunsWithoutPermission() async throws {
            try await PluginTests.expectReadOnlyRuns(in: Self.makeApp())
        }
    }
}
