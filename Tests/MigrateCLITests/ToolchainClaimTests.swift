import Foundation
import MigrateTestSupport
import Testing

/// The toolchain the README and the install page ask for is the one this build proves. (The manifest's tools
/// version they name is read from the package graph: `DerivedDocsTests`.)
@Suite("Toolchain claim", .timeLimit(.minutes(20)))
struct ToolchainClaimTests {
    @Test(
        "The README and the install page name the Swift version CI builds with",
        arguments: ["README.md", "Documentation/Migrate.docc/Installing.md"])
    func claimMatchesTheBuild(page: String) throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(page), encoding: .utf8)
        #expect(text.contains("Swift 6.3 or later"))
        #if !compiler(>=6.3)
            Issue.record("\(page) says Swift 6.3 or later, but this build used an older compiler")
        #endif
    }
}
