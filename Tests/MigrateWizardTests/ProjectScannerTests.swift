import Foundation
import MigratePlan
import MigrateWizard
import Testing

@Suite("Project discovery", .timeLimit(.minutes(20)))
struct ProjectScannerTests {
    @Test("Discovery skips migrate's own output, so a second init doesn't read its generated Products.storekit")
    func skipsGeneratedOutput() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-scan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["App", "Generated"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try "{}".write(to: root.appendingPathComponent("\(folder)/Products.storekit"), atomically: true, encoding: .utf8)
        }
        try "{}".write(to: root.appendingPathComponent("Generated/\(GeneratedOutput.manifestName)"), atomically: true, encoding: .utf8)
        #expect(ProjectScanner.scan(root.path).storeKitFiles == ["App/Products.storekit"])
    }
}
