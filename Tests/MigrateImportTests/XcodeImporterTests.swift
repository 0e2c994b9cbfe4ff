import Foundation
import MigrateImport
import MigratePlan
import Testing

@Suite("Import: Info.plist, project.pbxproj and .xcconfig")
struct XcodeImporterTests {
    @Test("Several targets: the app target's Release settings, GENERATE_INFOPLIST_FILE, MARKETING_VERSION from an .xcconfig")
    func project() throws {
        for path in ["xcode/Shelf", "xcode/Shelf/Shelf.xcodeproj", "xcode/Shelf/Shelf.xcodeproj/project.pbxproj"] {
            let version = try XcodeImporter.read(path: fixtures.appendingPathComponent(path).path, displayPath: path)
            #expect(version.version?.text == "2.4" && version.build?.text == "57", "\(path)")
            #expect(version.target == "Shelf")
            #expect(version.bundleID == "com.example.shelf" && version.name == "Shelf" && version.platforms == [.iOS])
            #expect(version.sources.first?.contains("$(MARKETING_VERSION) → 2.4") == true)
            #expect(version.issues.isEmpty, "\(version.issues)")
        }
    }

    @Test("A literal Info.plist with a four-component build")
    func literal() throws {
        let version = try XcodeImporter.read(path: fixtures.appendingPathComponent("xcode/Literal/Info.plist").path, displayPath: "Info.plist")
        #expect(version.version?.text == "1.2.5" && version.build?.text == "1.2.5.3" && version.bundleID == "com.example.ledger")
        #expect(version.build?.hasExtraComponents == true)
    }

    @Test("A file that is not a property list, and an unresolvable variable")
    func bad() throws {
        #expect {
            try XcodeImporter.read(path: fixtures.appendingPathComponent("xcode/not-a-plist.plist").path, displayPath: "not-a-plist.plist")
        } throws: { error in
            (error as? ImportError).map { $0.kind == .badData && $0.file == "not-a-plist.plist" && $0.message.contains("not a property list") } ?? false
        }
        #expect {
            try XcodeImporter.read(path: "/nonexistent/Info.plist", displayPath: "Info.plist")
        } throws: { error in (error as? ImportError)?.kind == .noInput }
        let project = try XcodeProject.parse(try fixture("xcode/Shelf/Shelf.xcodeproj/project.pbxproj"), file: "p")
        let version = try XcodeImporter.resolve(project: project, projectFile: "p") { _ in nil }  // no .xcconfig
        #expect(version.version == nil && version.build?.text == "57")
        #expect(version.issues.contains { $0.message.contains("$(SHELF_VERSION), which no build setting defines") })
    }

    @Test("xcconfig: comments, conditional settings and semicolons")
    func xcconfig() {
        let settings = XcodeConfig.parse("// c\nA = 1 // note\nB[sdk=iphoneos*] = 2\n#include \"x.xcconfig\"\nC = $(A).0;\n")
        #expect(settings == ["A": "1", "C": "$(A).0"])
    }
}
