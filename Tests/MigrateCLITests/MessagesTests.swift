import Foundation
import MigrateCLI
import MigratePlan
import MigrateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A message names the real cause and the place, never a symptom of it.
@Suite(
    "Messages: not a regular file, invalid UTF-8, control characters, empty --output, unknown templates, scenario 'plan'", .timeLimit(.minutes(20)))
struct MessagesTests {
    @Test("A folder or FIFO named migration.json, and /dev/null, are 'not a regular file' (exit 66), and nothing blocks")
    func notARegularFile() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("folder/migration.json"), withIntermediateDirectories: true)
        let folder = Run("check", "folder", directory: scratch.url)
        #expect(folder.status == .noInput)
        #expect(folder.error.contains("folder/migration.json is not a regular file (it is a folder)"), "\(folder.error)")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("fifo"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.url.appendingPathComponent("fifo/migration.json").path, 0o644) == 0)
        let fifo = Run("check", "fifo", directory: scratch.url)
        #expect(fifo.status == .noInput)
        #expect(fifo.error.contains("is not a regular file (it is a FIFO (named pipe))"), "\(fifo.error)")
        let null = Run("check", "/dev/null", directory: scratch.url)
        #expect(null.status == .noInput)
        #expect(null.error.contains("/dev/null is not a regular file (it is a device)"), "\(null.error)")
    }

    @Test("Invalid UTF-8 in a plan is an error with its byte offset and line:column, not U+FFFD")
    func invalidUTF8() throws {
        let scratch = try Scratch()
        var bytes = Array(examplePlanText.utf8)
        let offset = Array(examplePlanText.utf8).firstIndex(of: UInt8(ascii: "S"))!  // in "Server Pal"
        bytes[offset] = 0xE9  // Latin-1 é
        try Data(bytes).write(to: scratch.url.appendingPathComponent("plan.json"))
        let run = Run("check", "plan.json", directory: scratch.url)
        #expect(run.status != .success)
        let text = run.output + run.error
        #expect(text.contains("not valid UTF-8: byte \(offset) (0xE9)"), "\(text)")
        let location = UTF8Check.location(of: offset, in: bytes)
        #expect(text.contains("plan.json:\(location.line):\(location.column)"), "\(text)")
        #expect(Run("generate", "plan.json", "-o", "out", directory: scratch.url).status == .dataError)
        #expect(UTF8Check.firstInvalidByte(in: Array("héllo ✓ 🎉".utf8)) == nil)
        #expect(UTF8Check.firstInvalidByte(in: [0x61, 0xC0, 0x80]) == 1, "overlong")
        #expect(UTF8Check.firstInvalidByte(in: [0xED, 0xA0, 0x80]) == 0, "surrogate")
        #expect(UTF8Check.firstInvalidByte(in: [0x61, 0xE2, 0x9C]) == 1, "truncated")
    }

    @Test("Control characters from a plan are escaped in explain and check output, on a terminal or not")
    func controlCharacters() throws {
        let scratch = try Scratch()
        let hostile = examplePlanText.replacingOccurrences(of: "\"name\": \"Server Pal\"", with: "\"name\": \"Server\\u001b]0;pwned\\u0007 Pal\"")
        #expect(hostile != examplePlanText)
        try scratch.write("plan.json", hostile)
        for terminal in [false, true] {
            let explain = Run("explain", "plan.json", "--original-version", "1.0", directory: scratch.url, terminal: terminal)
            let check = Run("check", "plan.json", directory: scratch.url, terminal: terminal)
            for text in [explain.output, explain.error, check.output, check.error] {
                #expect(!text.contains("\u{1B}]"), "no raw escape sequence from the plan")
                #expect(!text.contains("\u{07}"))
            }
        }
        // An id with a control character is an error, and the excerpt quoting it is escaped.
        try scratch.write("bad.json", examplePlanText.replacingOccurrences(of: "\"Server Pal\"", with: "\"Server\u{1B}[2J Pal\""))
        let bad = Run("check", "bad.json", directory: scratch.url)
        #expect(!(bad.output + bad.error).contains("\u{1B}[2J"))
        #expect((bad.output + bad.error).contains("\\u{1B}[2J"), "\(bad.output)\(bad.error)")
        #expect(TextOutput.escapingControls("a\u{1B}[31mb\u{9B}c\td\n") == "a\\u{1B}[31mb\\u{9B}c\td\n")
        let coloured = Run("check", "Examples/server-pal", terminal: true)
        #expect(coloured.output.contains("\u{1B}["), "migrate's own colours still reach the terminal")
    }

    @Test("generate -o '' is a usage error (64) and writes nothing")
    func emptyOutput() throws {
        let scratch = try Scratch()
        let plan = repositoryRoot.appendingPathComponent("Examples/server-pal").path
        let run = Run("generate", plan, "-o", "", directory: scratch.url)
        #expect(run.status == .usage)
        #expect(run.error.contains("'--output <dir>'"), "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test("A --templates file that matches no built-in template is an error with 'did you mean'")
    func misspelledTemplate() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("T/swift"), withIntermediateDirectories: true)
        try scratch.write("T/swift/Upsel.mustache", "// mine\n")
        let plan = repositoryRoot.appendingPathComponent("Examples/server-pal").path
        let run = Run("generate", plan, "-o", "out", "--templates", "T", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("swift/Upsel.mustache matches no built-in template"), "\(run.error)")
        #expect(run.error.contains("Did you mean 'swift/Upsell'?"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out").path))
    }

    @Test("A scenario may not be called 'plan'")
    func scenarioNamedPlan() throws {
        let scratch = try Scratch()
        let flagship = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/migration.json"), encoding: .utf8)
        let range = try #require(flagship.range(of: "\"scenarios\": [\n"))
        var text = flagship
        text.replaceSubrange(range, with: "\"scenarios\": [\n      { \"id\": \"plan\" },\n")
        try scratch.write("plan.json", text)
        let run = Run("check", "plan.json", directory: scratch.url)
        #expect(run.status == .checkFailed)
        #expect(run.output.contains("a scenario may not be called 'plan'"), "\(run.output)")
        #expect(run.output.contains("simulation.scenarios[0].id"), "\(run.output)")
    }
}
