import Foundation
import MigratePlan
import MigrateSupport
import Testing

@testable import MigrateImport

@Suite("Import: project.pbxproj read at its real line and column", .timeLimit(.minutes(20)))
struct OpenStepPropertyListTests {
    @Test(
        "A project Xcode wrote reads as Foundation reads it",
        arguments: ["xcode/Shelf/Shelf.xcodeproj/project.pbxproj", "xcode/Tipster/Tipster.xcodeproj/project.pbxproj"])
    func sameAsFoundation(path: String) throws {
        let bytes = try fixture(path)
        #expect(OpenStepPropertyList.looksLikeOpenStep(bytes))
        let ours = try #require(try OpenStepPropertyList.parse(bytes) as? [String: Any])
        let foundation = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect((ours as NSDictionary).isEqual(to: foundation))
    }

    @Test("Strings, escapes, data, comments and trailing commas")
    func values() throws {
        let text = #"""
            // !$*UTF8*$!
            { a = "x\"y\n\U00e9\101"; /* note */ b = (1, two, "3",); c = <0aFF 01>; d = {}; e = "$(SRCROOT)/x.plist"; f = Sources/App.swift; }
            """#
        let value = try #require(try OpenStepPropertyList.parse(Array(text.utf8)) as? [String: Any])
        #expect(value["a"] as? String == "x\"y\néA")
        #expect(value["b"] as? [String] == ["1", "two", "3"])
        #expect(value["c"] as? Data == Data([0x0A, 0xFF, 0x01]))
        #expect((value["d"] as? [String: Any])?.isEmpty == true)
        #expect(value["e"] as? String == "$(SRCROOT)/x.plist" && value["f"] as? String == "Sources/App.swift")
    }

    static let damaged: [(text: String, line: Int, column: Int, message: String)] = [
        ("{\n  isa = PBXProject\n}", 3, 1, "expected ';' after the value of 'isa', found '}'"),
        ("{\n  objects = {\n    A = { isa = X; };\n  ;\n}", 4, 3, "expected a key or '}' to close the dictionary, found ';'"),
        ("{ a = (1, 2 3); }", 1, 13, "expected ',' or ')' after a list item, found '3'"),
        ("{ a = \"never closed; }", 1, 7, "a string that is never closed with '\"'"),
        ("{ /* never closed\n a = 1; }", 1, 3, "a comment that is never closed with '*/'"),
        ("{ a = 1; } }", 1, 12, "unexpected '}' after the end of the property list"),
        ("{ a = ", 1, 7, "expected the value of 'a', found the end of the file"),
        ("{ é = 1; ü }", 1, 3, "expected a key or '}' to close the dictionary, found byte 0xC3"),
        ("{ a = <0g>; }", 1, 9, "expected a hexadecimal digit or '>' in data, found 'g'"),
    ]

    @Test("A damaged project is an error at the line and column where it breaks", arguments: damaged.indices)
    func damagedProject(index: Int) {
        let damage = Self.damaged[index]
        #expect {
            _ = try XcodeProject.parse(Array(damage.text.utf8), file: "p.pbxproj")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .badData && error.location == SourceLocation(line: damage.line, column: damage.column)
                && error.message == damage.message + "; expected an Xcode project (project.pbxproj)"
        }
    }

    @Test("Nesting past the limit is refused at its place, without exhausting the stack")
    func deepNesting() {
        let text = String(repeating: "{a=", count: 100_000)
        #expect {
            _ = try XcodeProject.parse(Array(text.utf8), file: "deep.pbxproj")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.location == SourceLocation(line: 1, column: 3 * Limits.propertyListDepth + 1)
                && error.message.hasPrefix("nested more than 512 deep")
        }
    }
}
