import Foundation
import PackagePlugin

/// Compiles the package's `Templates/` and the StoreKit layer's sources (`Sources/FreemiumStoreKit`,
/// `Sources/FreemiumStoreKitTesting`) into the generator as string constants (`EmbeddedTemplates.all`,
/// `EmbeddedStoreLayer.all`, `EmbeddedStoreLayerTesting.all`), so an
/// installed `migrate` copied alone has them, and no committed Swift file repeats them.
@main
struct EmbedResources: BuildToolPlugin {
    /// What is embedded: the enum's name, the folder in the package, the files' extension.
    static let embedded: [(name: String, folder: String, suffix: String)] = [
        ("EmbeddedTemplates", "Templates", ".mustache"),
        ("EmbeddedStoreLayer", "Sources/FreemiumStoreKit", ".swift"),
        ("EmbeddedStoreLayerTesting", "Sources/FreemiumStoreKitTesting", ".swift"),
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        var arguments: [String] = []
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        arguments.append(output.path)
        for entry in Self.embedded {
            let folder = root.appending(path: entry.folder)
            arguments.append("\(entry.name)=\(folder.path)=\(entry.suffix)")
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = enumerator?.nextObject() as? URL {
                if file.path.hasSuffix(entry.suffix) { inputs.append(file) }
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding Templates/, FreemiumStoreKit and FreemiumStoreKitTesting in \(target.name)",
                executable: try context.tool(named: "embed-resources").url,
                arguments: arguments,
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output])
        ]
    }
}
