import Foundation
import MigrateGenerator
import MigrateTestSupport
import Testing

@Suite("Embedded templates")
struct EmbeddedTemplatesTests {
    @Test("EmbeddedTemplates.swift matches Templates/")
    func inSync() throws {
        let folder = repositoryRoot.appendingPathComponent("Templates").path
        var templates: [String: String] = [:]
        for name in try TemplateLibrary.files(in: folder) {
            templates[name] = try String(contentsOfFile: folder + "/" + name + ".mustache", encoding: .utf8)
        }
        #expect(!templates.isEmpty)
        try expectMatchesGolden(
            EmbeddedTemplatesSource.render(templates), at: "Sources/MigrateGenerator/Generation/EmbeddedTemplates.swift")
        #expect(TemplateLibrary.builtIn.templates == templates || isRecording, "the binary carries exactly Templates/")
    }
}
