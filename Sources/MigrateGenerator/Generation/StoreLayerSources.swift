/// The StoreKit layer's sources (`Sources/FreemiumStoreKit`), compiled into the binary by the
/// EmbedResources build-tool plugin. `generate` copies them byte for byte into the app's module:
/// the code an app runs is the code this package compiles and tests.
public enum StoreLayerSources {
    /// The folder, inside the generated module, that holds the copy; also the library's module name.
    public static let folder = "FreemiumStoreKit"
    /// How `Generator.outputs` names a copied source where other outputs name a template.
    static let templatePrefix = "library/"

    /// File names without `.swift`, sorted.
    public static let names: [String] = EmbeddedStoreLayer.all.keys.sorted()

    /// A source by file name without `.swift`.
    public static func source(named name: String) -> String? { EmbeddedStoreLayer.all[name] }

    /// The source an output copies, when its template name is a library file's.
    static func source(for template: String) -> String? {
        guard template.hasPrefix(templatePrefix) else { return nil }
        return source(named: String(template.dropFirst(templatePrefix.count)))
    }

    /// Whether a generated path is a copy of the layer: it carries no header (it must stay byte
    /// for byte the library's), and the manifest records its checksum instead.
    public static func isCopy(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().last.map { $0 == folder } ?? false
    }

    /// The version of the layer compiled into this binary: migrate's own (`StoreLayer.version`).
    public static let version = ToolVersion.current
}
