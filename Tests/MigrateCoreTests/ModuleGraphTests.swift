import Foundation
import MigrateTestSupport
import Testing

/// ARCHITECTURE.md's module graph is the real one, and the generic parts import no domain module.
@Suite("Module graph")
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

    @Test("Each library's dependencies in ARCHITECTURE.md are those Package.swift declares")
    func architectureTable() throws {
        let package = try Self.read("Package.swift")
        let architecture = try Self.read("ARCHITECTURE.md")
        // `| `MigrateCore` | MigrateSupport, MigratePlan | …`: rows naming one module and a list of modules.
        var checked = 0
        for row in architecture.split(separator: "\n") where row.hasPrefix("| `Migrate") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard let declared = Self.dependencies(of: module, in: package) else { continue }
            let documented = cells[2] == "—" ? Set<String>() : Set(cells[2].components(separatedBy: ", "))
            guard documented.allSatisfy({ $0.hasPrefix("Migrate") }) else { continue }  // "all of the above"
            #expect(documented == declared, "\(module): ARCHITECTURE.md says \(documented.sorted()), Package.swift \(declared.sorted())")
            checked += 1
        }
        #expect(checked >= 8)
    }

    /// The dependencies of `.target(name: "NAME", dependencies: [...])` in Package.swift; empty for a target
    /// without any, nil when there is no such library target.
    static func dependencies(of name: String, in package: String) -> Set<String>? {
        guard let start = package.range(of: ".target(name: \"\(name)\"") ?? package.range(of: ".target(\n            name: \"\(name)\"") else {
            return nil
        }
        let rest = package[start.upperBound...]
        let end = rest.range(of: ".target(")?.lowerBound ?? rest.range(of: ".executableTarget(")?.lowerBound ?? rest.endIndex
        let declaration = rest[..<end]
        guard let open = declaration.range(of: "dependencies: [") else { return [] }
        let list = declaration[open.upperBound...].prefix { $0 != "]" }
        return Set(
            list.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }.filter { !$0.isEmpty })
    }
}
