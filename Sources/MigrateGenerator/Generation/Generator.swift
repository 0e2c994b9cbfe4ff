import Foundation
import MigrateCore
import MigratePlan

/// A file `migrate generate` writes, before its header is added.
public struct GeneratedFile: Sendable, Hashable {
    /// Relative to the output folder, with `/`.
    public var path: String
    /// The content without the generated-file header.
    public var body: String
    /// The template it came from.
    public var template: String
}

/// What to generate.
public enum OutputGroup: String, Sendable, CaseIterable {
    case swift
    case tests
    case docs
    case storekit
    /// The server's decisions and their tests, with `--server`.
    case server
}

/// Renders the templates for a plan: a pure function from plan, options and templates to files.
public struct Generator: Sendable {
    public var library: TemplateLibrary
    public var options: GenerationOptions
    /// A Swift package: `Package.swift`, `Sources/MODULE/…` and `Tests/MODULETests/…`, so `swift test`
    /// runs the generated tests and Xcode adds the folder as a local package.
    public var package: Bool

    public init(library: TemplateLibrary = .builtIn, options: GenerationOptions = GenerationOptions(), package: Bool = false) {
        self.library = library
        self.options = options
        self.package = package
    }

    /// Which template makes which file, and the group `--only` selects it by.
    public func outputs(module: String) -> [(path: String, template: String, group: OutputGroup)] {
        Self.outputs(module: module, package: package, storeLayer: options.storeLayer, server: options.server)
    }

    /// Which template makes which file, and the group `--only` selects it by: the one list that
    /// generation, `--only` and the command's help read.
    public static func outputs(
        module: String, package: Bool = false, storeLayer: GenerationOptions.StoreLayer = .vendored, server: Bool = false
    ) -> [(path: String, template: String, group: OutputGroup)] {
        guard package else { return files(module: module, storeLayer: storeLayer, server: server) }
        return [("Package.swift", "package/Package", .swift)]
            + files(module: module, storeLayer: storeLayer, server: server).map { output in
                var output = output
                let folder = output.path.split(separator: "/").first.map(String.init) ?? ""
                if output.path.contains("/") && [module + "Tests", module + "ServerTests"].contains(folder) {
                    output.path = "Tests/" + output.path
                } else if output.path.contains("/") && [module, module + "Server"].contains(folder) {
                    output.path = "Sources/" + output.path
                }
                return output
            }
    }

    private static func files(
        module: String, storeLayer: GenerationOptions.StoreLayer, server: Bool
    ) -> [(path: String, template: String, group: OutputGroup)] {
        [
            ("\(module)/OriginalPurchase.swift", "swift/OriginalPurchase", .swift),
            ("\(module)/Entitlements.swift", "swift/Entitlements", .swift),
            ("\(module)/Upsell.swift", "swift/Upsell", .swift),
            ("\(module)/FreemiumStore.swift", "swift/FreemiumStore", .swift),
            ("\(module)Tests/\(module)Tests.swift", "tests/FreemiumTests", .tests),
            ("\(module)Tests/StoreTests.swift", "tests/StoreTests", .tests),
            ("ENTITLEMENTS.md", "docs/ENTITLEMENTS", .docs),
            ("INTEGRATION.md", "docs/INTEGRATION", .docs),
            ("TEST_MATRIX.md", "docs/TEST_MATRIX", .docs),
            ("TEST_MATRIX.csv", "csv/TEST_MATRIX", .docs),
            ("Products.storekit", "storekit/Products", .storekit),
        ]
            // The same decisions on the app's server, from the App Store Server API's verified payloads.
            + (server
                ? [
                    ("\(module)Server/ServerDecisions.swift", "server/ServerDecisions", .server),
                    ("\(module)ServerTests/\(module)ServerTests.swift", "tests/ServerTests", .server),
                    ("SERVER.md", "docs/SERVER", .docs),
                ] : [])
            // The StoreKit layer's own sources, copied verbatim (never rendered), beside the plan's code.
            + (storeLayer == .vendored ? StoreLayerSources.names : []).map { name in
                ("\(module)/\(StoreLayerSources.folder)/\(name).swift", StoreLayerSources.templatePrefix + name, .swift)
            }
            // Its test double, only where the tests see it: the app target never holds a model of the App Store.
            + (storeLayer == .vendored ? StoreLayerSources.appTestingNames : []).map { name in
                ("\(module)Tests/\(StoreLayerSources.testingFolder)/\(name).swift", StoreLayerSources.testingTemplatePrefix + name, .tests)
            }
            // The server's tests read what the App Store Server API sends through the test double's payloads.
            + (storeLayer == .vendored && server ? StoreLayerSources.serverTestingNames : []).map { name in
                (
                    "\(module)ServerTests/\(StoreLayerSources.testingFolder)/\(name).swift", StoreLayerSources.testingTemplatePrefix + name,
                    .server
                )
            }
    }

    /// Renders every selected file, sorted by path.
    public func generate(_ plan: MigrationPlan, only groups: Set<OutputGroup> = Set(OutputGroup.allCases)) throws(TemplateError) -> [GeneratedFile] {
        try generate(PlanCatalog(plan), only: groups)
    }

    /// Renders every selected file from a catalog already built (by `check`, say), sorted by path.
    /// - Parameter progress: told what is being done: "the test cases", then "3 of 14: TEST_MATRIX.md".
    public func generate(
        _ catalog: PlanCatalog, only groups: Set<OutputGroup> = Set(OutputGroup.allCases), progress: ((String) -> Void)? = nil
    ) throws(TemplateError) -> [GeneratedFile] {
        progress?("the test cases and tables")
        let context = GenerationContext(catalog: catalog, options: options).value
        let renderer = library.renderer
        var files: [GeneratedFile] = []
        let selected = outputs(module: options.module).filter { groups.contains($0.group) }
        for (index, output) in selected.enumerated() {
            progress?("\(index + 1) of \(selected.count): \(output.path)")
            if let source = StoreLayerSources.source(for: output.template, module: options.module) {
                files.append(GeneratedFile(path: output.path, body: source, template: output.template))
                continue
            }
            let template = try library.template(named: output.template)
            var body = try renderer.render(template, context: context)
            // Looked for first: a search through Foundation on megabytes of tests without one took seconds.
            if body.utf8.contains(UInt8(ascii: "\r")) { body = body.replacingOccurrences(of: "\r\n", with: "\n") }
            if !body.hasSuffix("\n") { body += "\n" }
            files.append(GeneratedFile(path: output.path, body: body, template: output.template))
        }
        return files.sorted { $0.path < $1.path }
    }
}
