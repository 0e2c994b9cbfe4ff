import Foundation
import MigratePlan

/// True when tests should re-record golden files instead of comparing (and then fail, so a
/// recording run is never mistaken for a passing one).
public let isRecording = ProcessInfo.processInfo.environment["MIGRATE_RECORD"] == "1"

/// `line 12: expected «…», got «…»`, or nil when equal.
public func firstDifference(_ expected: String, _ actual: String) -> String? {
    guard expected != actual else { return nil }
    let left = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let right = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var checksumLine: Int?
    for index in 0..<max(left.count, right.count) {
        let a = index < left.count ? String(left[index]) : "<end of file>"
        let b = index < right.count ? String(right[index]) : "<end of file>"
        // A checksum differs whenever the body does; point at the body line that changed.
        if a != b && a.contains("migrate-checksum:") {
            checksumLine = checksumLine ?? index
            continue
        }
        if a != b { return "line \(index + 1): expected «\(a)», got «\(b)»" }
    }
    if let checksumLine { return "line \(checksumLine + 1): only the checksum differs" }
    return "the line endings"
}

// `swift build` builds this target too (it is a library, not a test target), and outside a test build
// the Testing module isn't there: the helpers that record issues exist only where it is.
#if canImport(Testing)
    import Testing

    /// Loads an example plan shipped in Examples/ (or, for a name with a slash, a plan file's path from the
    /// repository root), expecting it to decode without errors.
    public func examplePlan(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> MigrationPlan {
        let url = repositoryRoot.appendingPathComponent(name.contains("/") ? name : "Examples/\(name)/migration.json")
        let document = PlanDecoder.decode(bytes: Array(try Data(contentsOf: url)))
        #expect(!document.hasErrors, "\(name): \(document.diagnostics.map(\.message))", sourceLocation: sourceLocation)
        return try #require(document.plan, sourceLocation: sourceLocation)
    }

    /// Compares text with a golden file and says where they first differ; records it when asked.
    public func expectMatchesGolden(_ actual: String, at relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = repositoryRoot.appendingPathComponent(relativePath)
        if isRecording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(relativePath); run again without MIGRATE_RECORD=1", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no golden file at \(relativePath); record it with MIGRATE_RECORD=1", sourceLocation: sourceLocation)
            return
        }
        if let difference = firstDifference(expected, actual) {
            Issue.record("\(relativePath) differs from the generated output at \(difference)", sourceLocation: sourceLocation)
        }
    }

    /// Compares the part of a document between `<!-- generated: NAME … -->` and `<!-- end generated: NAME -->`
    /// with `rendered`, the text a test derived from the code, and rewrites that part when recording: a fact
    /// the documentation shows is derived, not copied by hand and then policed.
    public func expectGeneratedSection(
        _ rendered: String, named name: String, in relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let url = repositoryRoot.appendingPathComponent(relativePath)
        let text = try String(contentsOf: url, encoding: .utf8)
        let endMarker = "<!-- end generated: \(name) -->"
        guard let start = text.range(of: "<!-- generated: \(name)"), let startLine = text.range(of: "-->\n", range: start.upperBound..<text.endIndex),
            let end = text.range(of: endMarker, range: startLine.upperBound..<text.endIndex)
        else {
            Issue.record("\(relativePath) has no section marked <!-- generated: \(name) … --> … \(endMarker)", sourceLocation: sourceLocation)
            return
        }
        let current = String(text[startLine.upperBound..<end.lowerBound])
        guard current != rendered else { return }
        if isRecording {
            let updated = String(text[..<startLine.upperBound]) + rendered + String(text[end.lowerBound...])
            try updated.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(name) in \(relativePath); run again without MIGRATE_RECORD=1", sourceLocation: sourceLocation)
        } else {
            let difference = firstDifference(current, rendered) ?? "?"
            Issue.record(
                "\(relativePath)'s \(name) is not what the code gives, at \(difference); MIGRATE_RECORD=1 swift test re-records it",
                sourceLocation: sourceLocation)
        }
    }
#endif
