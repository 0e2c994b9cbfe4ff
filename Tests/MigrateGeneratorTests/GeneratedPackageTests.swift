import Foundation
import MigrateGenerator
import MigratePlan
import Testing

/// Runs a command and returns its status and combined output.
@discardableResult
func shell(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    // Read before waiting, so a chatty build can't fill the pipe and stall.
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The generated code is proven here: every example is generated into one SwiftPM package next to a
/// StoreKit 2 shim, built, tested, and linted with the toolchain's swift-format. A mutant whose
/// versions compare as Strings (Apple's sample) must fail its generated tests.
@Suite("Generated package", .serialized)
struct GeneratedPackageTests {
    static let modules: [(example: String, module: String, access: GenerationOptions.Access)] = [
        ("tilt-to-live-hd", "Tilt", .public),
        ("server-pal", "ServerPal", .public),
        ("server-pal", "ServerPalInternal", .internal),
        ("pocket-ledger", "PocketLedger", .public),
        ("inkwell-universal", "Inkwell", .public),
        ("tally-two-switches", "Tally", .public),
        ("quill-writer", "Quill", .public),
    ]
    static let mutant = "TiltMutant"

    /// Builds the package once; the tests below share it.
    static let package: Result<URL, PackageError> = {
        do {
            return .success(try makePackage())
        } catch let error as PackageError {
            return .failure(error)
        } catch {
            return .failure(PackageError(message: "\(error)"))
        }
    }()

    struct PackageError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func makePackage() throws -> URL {
        // One folder per checkout, reused between runs so the scratch build is incremental.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-generated-\(Checksum.of(repositoryRoot.path))")
        for stale in ["Sources", "Tests", "Package.swift"] { try? FileManager.default.removeItem(at: root.appendingPathComponent(stale)) }
        let sources = root.appendingPathComponent("Sources"), tests = root.appendingPathComponent("Tests")
        try FileManager.default.createDirectory(at: sources.appendingPathComponent("StoreKit"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Tests/Fixtures/StoreKitShim/StoreKit.swift"),
            to: sources.appendingPathComponent("StoreKit/StoreKit.swift"))

        var targets: [String] = [#"    .target(name: "StoreKit"),"#]
        for entry in modules + [("tilt-to-live-hd", mutant, .public)] {
            let options = GenerationOptions(access: entry.access, module: entry.module)
            for file in try Generator(options: options).generate(try examplePlan(entry.example), only: [.swift, .tests]) {
                let isTest = file.path.hasPrefix("\(entry.module)Tests/")
                var body = GeneratedFileHeader.content(for: file, source: "migration.json")
                if entry.module == mutant && file.path.hasSuffix("OriginalPurchase.swift") {
                    // Apple's sample code compares originalAppVersion as Strings, where "10" < "2".
                    let numeric = "    for position in 0..<max(lhs.components.count, rhs.components.count) {"
                    guard body.contains(numeric) else { throw PackageError(message: "the mutation point moved; update the test") }
                    body = body.replacingOccurrences(of: numeric, with: "    return lhs.description < rhs.description\n" + numeric)
                }
                let folder = (isTest ? tests : sources).appendingPathComponent(isTest ? "\(entry.module)Tests" : entry.module)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try body.write(to: folder.appendingPathComponent((file.path as NSString).lastPathComponent), atomically: true, encoding: .utf8)
            }
            targets.append(#"    .target(name: "\#(entry.module)", dependencies: ["StoreKit"]),"#)
            targets.append(#"    .testTarget(name: "\#(entry.module)Tests", dependencies: ["\#(entry.module)"]),"#)
        }
        // Referencing the StoreKit layer from a test makes the build fail if `#if canImport(StoreKit)`
        // didn't see the shim and compiled the layer away.
        let probe = """
            import Testing

            @testable import Tilt

            @Test @MainActor func storeKitLayerIsCompiled() {
              #expect(String(describing: StoreKitEntitlements.self).hasSuffix("StoreKitEntitlements"))
            }

            """
        try probe.write(to: tests.appendingPathComponent("TiltTests/StoreKitLayerIsCompiled.swift"), atomically: true, encoding: .utf8)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
              name: "Generated",
              platforms: [.macOS(.v13), .iOS(.v16)],
              targets: [
            \(targets.joined(separator: "\n"))
              ]
            )

            """
        try manifest.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let build = try shell(["swift", "build", "--build-tests"], in: root)
        guard build.status == 0 else {
            throw PackageError(message: "swift build failed:\n" + build.output.split(separator: "\n").filter { $0.contains("error") }.prefix(20).joined(separator: "\n"))
        }
        return root
    }

    @Test("Every example's generated code builds, with the StoreKit layer type-checked against the shim, and its tests pass")
    func buildsAndPasses() throws {
        let root = try Self.package.get()
        let run = try shell(["swift", "test", "--skip", Self.mutant + "Tests"], in: root)
        #expect(run.status == 0, "generated tests failed:\n\(run.output.split(separator: "\n").filter { $0.contains("✘") }.prefix(20).joined(separator: "\n"))")
        // Every module's tests ran: the template's test functions, once per module.
        let template = try String(contentsOf: repositoryRoot.appendingPathComponent("Templates/tests/FreemiumTests.mustache"), encoding: .utf8)
        let perModule = template.components(separatedBy: "  @Test(").count - 1
        let summary = run.output.split(separator: "\n").last { $0.contains("Test run with") } ?? ""
        // One more: the probe that proves the StoreKit layer was compiled.
        #expect(summary.contains("Test run with \(perModule * Self.modules.count + 1) tests") && summary.contains("passed"), "\(summary)")
    }

    @Test("A cutoff that compares versions as Strings fails the generated tests")
    func mutantFails() throws {
        let root = try Self.package.get()
        let run = try shell(["swift", "test", "--filter", Self.mutant + "Tests"], in: root)
        #expect(run.status != 0, "the string-comparison mutant passed its tests; the matrix misses the trap")
        #expect(run.output.contains("✘ Test \"Cohort, features and offers match migrate's model\""))
    }

    @Test("Generated Swift passes swift format lint --strict")
    func lint() throws {
        let root = try Self.package.get()
        let folders = Self.modules.flatMap { ["Sources/\($0.module)", "Tests/\($0.module)Tests"] }
        let run = try shell(["swift", "format", "lint", "--strict", "-r"] + folders, in: root)
        #expect(run.status == 0 && run.output.isEmpty, "swift format lint:\n\(run.output.split(separator: "\n").prefix(20).joined(separator: "\n"))")
    }
}
