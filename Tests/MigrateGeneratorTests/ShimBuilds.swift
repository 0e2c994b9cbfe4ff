import Foundation

/// The shim modules, built once per distinct rewrite and language mode for the whole test run.
///
/// Every `AvailabilityChecker.check` used to build its shims again: 87 `swiftc -emit-module` runs
/// in one `swift test`, more than half of the availability checks' CPU, for a few dozen distinct
/// inputs. What a build depends on is all in its key: the availability domains' header (the
/// releases every checked source names, so a client naming a new release gets shims built against
/// its domain), each shim's rewritten text, and the language mode. The folders are removed when the
/// test process exits.
actor ShimBuilds {
    static let shared = ShimBuilds()

    /// A shim's rewritten source.
    struct Shim: Sendable {
        var module: AvailabilityChecker.Module
        var name: String
        var text: String
    }

    /// The domains module and the shim modules a client compiles against, and what building them said.
    struct Built: Sendable {
        var domains: URL
        var modules: URL
        var diagnostics: [AvailabilityChecker.Diagnostic]
    }

    private static let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "availability-shims-\(ProcessInfo.processInfo.processIdentifier)")
    private var builds: [String: Task<Built, any Error>] = [:]
    private var removesAtExit = false

    /// The shims built from `shims` against `header`'s domains in `mode`: built by the first caller, awaited by the rest.
    func build(_ shims: [Shim], header: String, mode: AvailabilityChecker.LanguageMode) async throws -> Built {
        let key = ([header, mode.rawValue] + shims.flatMap { [$0.module.rawValue, $0.text] }).joined(separator: "\u{0}")
        if let task = builds[key] { return try await task.value }
        if !removesAtExit {
            removesAtExit = true
            atexit { try? FileManager.default.removeItem(at: ShimBuilds.root) }
        }
        let folder = Self.root.appendingPathComponent("\(builds.count)")
        let task = Task { try await Self.make(shims, header: header, mode: mode, in: folder) }
        builds[key] = task
        return try await task.value
    }

    private static func make(_ shims: [Shim], header: String, mode: AvailabilityChecker.LanguageMode, in folder: URL) async throws -> Built {
        let domains = folder.appendingPathComponent("domains")
        let modules = folder.appendingPathComponent("modules")
        for directory in [domains, modules] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        try header.write(to: domains.appendingPathComponent("AvailabilityDomains.h"), atomically: true, encoding: .utf8)
        try "module AvailabilityDomains {\n  header \"AvailabilityDomains.h\"\n  export *\n}\n"
            .write(to: domains.appendingPathComponent("module.modulemap"), atomically: true, encoding: .utf8)
        var diagnostics: [AvailabilityChecker.Diagnostic] = []
        for shim in shims {
            let source = folder.appendingPathComponent("shims/\(shim.module.rawValue)/\(shim.name)")
            try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
            try shim.text.write(to: source, atomically: true, encoding: .utf8)
            let run = try await AvailabilityChecker.swiftc(
                [
                    "-emit-module", "-module-name", shim.module.rawValue, "-enable-library-evolution",
                    "-emit-module-path", modules.appendingPathComponent("\(shim.module.rawValue).swiftmodule").path,
                    // A shim may import one built before it (StoreKit imports UIKit).
                    "-I", modules.path,
                ]
                    + (shim.module.userModuleVersion.map { ["-user-module-version", $0] } ?? [])
                    + AvailabilityChecker.commonFlags(domains: domains) + mode.flags + [source.path])
            diagnostics += AvailabilityChecker.parse(run.output, names: [source.path: shim.name], mode: mode)
            if run.status != 0 && !diagnostics.contains(where: { $0.severity == .error }) {
                throw AvailabilityChecker.CheckError(description: "building the \(shim.module.rawValue) shim failed:\n\(run.output)")
            }
        }
        return Built(domains: domains, modules: modules, diagnostics: diagnostics)
    }
}
