import Foundation
import MigrateTestSupport
import Testing

/// The generic parts import no domain module. (ARCHITECTURE.md's module table is rendered from the package graph:
/// `DerivedDocsTests`.)
@Suite("Module graph", .timeLimit(.minutes(20)))
struct ModuleGraphTests {
    /// Folders of generic code, and the project modules each may import.
    static let genericFolders: [(folder: String, allowed: Set<String>)] = [
        ("Sources/MigrateSupport", []),
        // The StoreKit layer is copied into apps: it can't need any of migrate.
        ("Sources/FreemiumStoreKit", []),
        ("Sources/MigrateCLI/Arguments", ["MigrateSupport"]),
        ("Sources/MigrateMatrix/Generator", ["MigrateSupport"]),
    ]

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The project modules (`Migrate…`) a Swift file imports.
    static func projectImports(_ text: String) -> Set<String> {
        Set(
            text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count, words[index + 1].hasPrefix("Migrate") else { return nil }
                return String(words[index + 1])
            })
    }

    @Test("Generic code imports no domain module", arguments: genericFolders.map(\.folder))
    func genericImports(folder: String) throws {
        let allowed = try #require(Self.genericFolders.first { $0.folder == folder }).allowed
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(folder).path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        for file in files {
            let imports = Self.projectImports(try Self.read("\(folder)/\(file)"))
            #expect(imports.isSubset(of: allowed), "\(folder)/\(file) imports \(imports.subtracting(allowed).sorted())")
        }
    }
}
