import Foundation
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

@Suite("Import: Info.plist, project.pbxproj and .xcconfig", .timeLimit(.minutes(20)))
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
            (error as? ImportError).map { $0.kind == .badData && $0.file == "not-a-plist.plist" && $0.message.contains("not a property list") }
                ?? false
        }
        #expect {
            try XcodeImporter.read(path: "/nonexistent/Info.plist", displayPath: "Info.plist")
        } throws: { error in (error as? ImportError)?.kind == .noInput }
        let project = try XcodeProject.parse(try fixture("xcode/Shelf/Shelf.xcodeproj/project.pbxproj"), file: "p")
        let version = try XcodeImporter.resolve(project: project, projectFile: "p") { _ in nil }  // no .xcconfig
        #expect(version.version == nil && version.build?.text == "57")
        #expect(version.issues.contains { $0.message.contains("$(SHELF_VERSION), which no build setting defines") })
    }

    @Test(
        "An Info.plist saying $(PRODUCT_BUNDLE_IDENTIFIER), without version keys: the bundle id and versions come from the target's build settings",
        arguments: ["xcode/Tipster", "xcode/Tipster/Tipster.xcodeproj", "xcode/Tipster/Tipster/Info.plist"])
    func placeholderInfoPlist(path: String) throws {
        let version = try XcodeImporter.read(path: fixtures.appendingPathComponent(path).path, displayPath: path)
        #expect(version.bundleID == "com.example.tipster", "the Release configuration's, not Debug's .debug")
        #expect(version.version?.text == "2.3", "MARKETING_VERSION of the target")
        #expect(version.build?.text == "14", "CURRENT_PROJECT_VERSION, set for the whole project")
        #expect(version.name == "Tipster" && version.target == "Tipster" && version.platforms == [.iOS])
        #expect(version.infoPlist == "Tipster/Info.plist")
        #expect(version.issues.isEmpty, "\(version.issues)")
        // The versions are read from the project's build settings, and the sources say so.
        #expect(
            version.sources.contains {
                $0.hasPrefix("CFBundleShortVersionString = $(MARKETING_VERSION) → 2.3 (") && $0.contains("project.pbxproj, target Tipster, Release")
            })
    }

    @Test("An Info.plist alone, with no project that uses it: a message that says where the version lives")
    func infoPlistWithoutProject() throws {
        let scratch = try Scratch()
        let plist = try String(contentsOf: fixtures.appendingPathComponent("xcode/Tipster/Tipster/Info.plist"), encoding: .utf8)
        let file = try scratch.write("App/Info.plist", plist)
        #expect {
            try XcodeImporter.read(path: file.path, displayPath: "App/Info.plist")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .badData && error.file == "App/Info.plist" && error.message.contains("MARKETING_VERSION build setting")
                && error.hint?.contains(".xcodeproj") == true
        }
    }

    @Test("A build setting that names itself is reported, not followed or taken for the Info.plist's own key")
    func selfReference() throws {
        var project = try XcodeProject.parse(try fixture("xcode/Tipster/Tipster.xcodeproj/project.pbxproj"), file: "p")
        let index = try #require(project.targets.firstIndex { $0.isApplication })
        project.targets[index].settings["Release"]?["PRODUCT_BUNDLE_IDENTIFIER"] = "$(PRODUCT_BUNDLE_IDENTIFIER)"
        let plist = try fixture("xcode/Tipster/Tipster/Info.plist")
        let version = try XcodeImporter.resolve(project: project, projectFile: "p") { $0 == "Tipster/Info.plist" ? plist : nil }
        #expect(version.bundleID == nil)
        #expect(version.issues.contains { $0.message.contains("refers to itself through $(PRODUCT_BUNDLE_IDENTIFIER)") }, "\(version.issues)")
        #expect(version.version?.text == "2.3")
    }

    @Test("xcconfig: comments, conditional settings and semicolons")
    func xcconfig() {
        let settings = XcodeConfig.parse("// c\nA = 1 // note\nB[sdk=iphoneos*] = 2\n#include \"x.xcconfig\"\nC = $(A).0;\n")
        #expect(settings == ["A": "1", "C": "$(A).0"])
    }
}
