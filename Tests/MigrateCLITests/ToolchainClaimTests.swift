import Foundation
import MigrateTestSupport
import Testing

/// The README's toolchain claim is the one this build proves.
@Suite("Toolchain claim")
struct ToolchainClaimTests {
    @Test("README names the Swift version CI builds with, and Package.swift's tools version")
    func readmeMatchesTheBuild() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(readme.contains("Swift 6.3 or later"))
        #expect(manifest.hasPrefix("// swift-tools-version:6.0\n"))
        #expect(readme.contains("Package.swift declares tools version 6.0"))
        #if !compiler(>=6.3)
            Issue.record("README says Swift 6.3 or later, but this build used an older compiler")
        #endif
    }
}
