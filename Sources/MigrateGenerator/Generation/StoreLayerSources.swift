/// The StoreKit layer's sources (`Sources/FreemiumStoreKit`) and its test double's
/// (`Sources/FreemiumStoreKitTesting`), compiled into the binary by the EmbedResources build-tool
/// plugin. `generate` copies the layer byte for byte into the app's module, and the test double into
/// the app's test target only, so no model of the App Store ships in an app: the code an app and its
/// tests run is the code this package compiles and tests.
///
/// A test double's copy differs from its library source in one line: `import FreemiumStoreKit`
/// becomes `@testable import MODULE`, because the vendored layer is part of the app's module, which
/// has no `FreemiumStoreKit` to import (`testingSource(named:module:)`). Every other byte is the
/// library's, and neither copy carries a header.
public enum StoreLayerSources {
    /// The folder, inside the generated module, that holds the copy; also the library's module name.
    public static let folder = "FreemiumStoreKit"
    /// The folder, inside the generated test target, that holds the test double's copy; also the
    /// testing library's module name.
    public static let testingFolder = "FreemiumStoreKitTesting"
    /// How `Generator.outputs` names a copied source where other outputs name a template.
    static let templatePrefix = "library/"
    /// How `Generator.outputs` names a copied test-double source.
    static let testingTemplatePrefix = "library-testing/"
    /// The one line of a test double's source that its copy rewrites.
    static let libraryImport = "import \(folder)\n"

    /// File names without `.swift`, sorted.
    public static let names: [String] = EmbeddedStoreLayer.all.keys.sorted()

    /// The test double's file names without `.swift`, sorted.
    public static let testingNames: [String] = EmbeddedStoreLayerTesting.all.keys.sorted()

    /// The test double's files only a server's tests read (the App Store Server API's payloads, a signer,
    /// the notification journeys).
    public static let serverOnlyTestingNames = ["ServerNotificationJourneys", "ServerPayloads"]

    /// The test double's files a server's tests read: its own and the journeys' checks, copied into the
    /// server's test target, which needs no model of the App Store.
    public static let serverTestingNames = ["JourneyChecks"] + serverOnlyTestingNames

    /// The test double's files an app's tests read: all but the server's own.
    public static var appTestingNames: [String] { testingNames.filter { !serverOnlyTestingNames.contains($0) } }

    /// A source by file name without `.swift`.
    public static func source(named name: String) -> String? { EmbeddedStoreLayer.all[name] }

    /// A test double's source by file name without `.swift`, as the library has it.
    public static func testingSource(named name: String) -> String? { EmbeddedStoreLayerTesting.all[name] }

    /// A test double's source as a vendored test target holds it: the library's, with its
    /// `import FreemiumStoreKit` line importing `module` instead, which holds the layer's copy.
    public static func testingSource(named name: String, module: String) -> String? {
        testingSource(named: name).map { $0.replacingOccurrences(of: libraryImport, with: "@testable import \(module)\n") }
    }

    /// The source an output copies, when its template name is a library file's.
    static func source(for template: String, module: String) -> String? {
        if template.hasPrefix(templatePrefix) { return source(named: String(template.dropFirst(templatePrefix.count))) }
        if template.hasPrefix(testingTemplatePrefix) {
            return testingSource(named: String(template.dropFirst(testingTemplatePrefix.count)), module: module)
        }
        return nil
    }

    /// Whether a generated path is a copy of the layer or of its test double: it carries no header
    /// (it must stay the library's source), and the manifest records its checksum instead.
    public static func isCopy(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().last.map { $0 == folder || $0 == testingFolder } ?? false
    }

    /// The version of the layer compiled into this binary: migrate's own (`StoreLayer.version`).
    public static let version = ToolVersion.current
}
