import Foundation
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@testable import MigrateCLI

/// A large catalog at the command line costs what it holds, not its square: the folded cohort preview and `--offer-states`, a 5 MB string read
/// once, and a line of any length quoted through a window of its bytes.
@Suite("Catalog scale: commands", .timeLimit(.minutes(20)))
struct CatalogScaleCommandTests {
    /// A plan whose new free users are offered `count` products.
    static func plan(products count: Int, appName: String = "Many") -> String {
        let products = (0..<count).map { index in
            #"{ "id": "com.example.many.p\#(index)", "name": "P\#(index)", "type": "nonConsumable", "price": "\#(index % 5).99", "grants": ["f\#(index)"] }"#
        }
        let features = (0..<count).map { #"{ "id": "f\#($0)" }"# }
        return """
            { "formatVersion": 1, "app": { "name": \(JSONWriter.quoted(appName)), "bundleID": "com.example.many", "platforms": ["iOS"] },
              "features": [\(features.joined(separator: ", "))],
              "releases": [
                { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["f0"] },
                { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free", "includes": [] } ],
              "products": [\(products.joined(separator: ",\n"))],
              "simulation": { "assumptions": { "paidDownloadsPerMonth": 1000 } } }
            """
    }

    @Test("simulate folds a cohort's many offers into one row; --offer-states lists each, in text and JSON")
    func foldedPreview() throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", Self.plan(products: 12))
        let folded = Run("simulate", "migration.json", "--draws", "0", directory: scratch.url)
        #expect(folded.status == .success, "\(folded.error)")
        #expect(folded.output.contains("new free users · iOS · owns one of its 12 offers · size"), "\(folded.output)")
        #expect(folded.output.contains("keeps: what the product bought grants"))
        #expect(folded.output.contains("each: P0 "))
        #expect(!folded.output.contains("owns P11 ·"))
        let detailed = Run("simulate", "migration.json", "--draws", "0", "--offer-states", directory: scratch.url)
        #expect(detailed.status == .success)
        #expect(detailed.output.contains("new free users · iOS · owns P11 · size"))
        #expect(!detailed.output.contains("owns one of its"))

        let json = Run("simulate", "migration.json", "--draws", "0", "--format", "json", directory: scratch.url)
        #expect(json.output.contains("\"ownsOneOf\""))
        #expect(json.output.contains("\"kind\": \"offers\""))
        let jsonDetailed = Run("simulate", "migration.json", "--draws", "0", "--format", "json", "--offer-states", directory: scratch.url)
        #expect(!jsonDetailed.output.contains("\"ownsOneOf\""))
        #expect(jsonDetailed.output.contains("\"owns\": [\n            \"com.example.many.p11\""), "\(jsonDetailed.output.prefix(2_000))")
        let markdown = Run("simulate", "migration.json", "--draws", "0", "--format", "markdown", directory: scratch.url)
        #expect(markdown.output.contains("| one of its 12 offers |"))
    }

    @Test("simulate --help documents --offer-states")
    func help() {
        let run = Run("simulate", "--help")
        #expect(run.output.contains("--offer-states"))
        #expect(run.output.contains("folded into one"))
    }

    @Test("A 5 MB app name with a trailing space is one error whose message quotes a bounded excerpt")
    func hugeName() throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", Self.plan(products: 2, appName: String(repeating: "n", count: 5 << 20) + " "))
        let run = Run("check", "migration.json", directory: scratch.url)
        #expect(run.status == .checkFailed)
        let line = try #require(run.output.split(separator: "\n").first { $0.contains("leading or trailing spaces") })
        #expect(line.count < 400, "\(line.prefix(400))")
        #expect(line.contains("nnnn…nnnn"))
        // The quoted source line is a window around the column too.
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count < 400 })
    }

    @Test("A long line is quoted around its column, as a short one is", arguments: [1, 150, 5_000, 9_990, 10_000])
    func longLineWindow(column: Int) {
        let line = (0..<10_000).map { String(UnicodeScalar(UInt8(97 + $0 % 26))) }.joined()
        let bytes = ArraySlice(Array(line.utf8))
        #expect(bytes.count > DiagnosticRenderer.longLine)
        let viaBytes = DiagnosticRenderer.window(bytes, column: column)
        let viaCharacters = DiagnosticRenderer.window(line, column: column)
        #expect(viaBytes.text == viaCharacters.text)
        #expect(viaBytes.caret == viaCharacters.caret)
    }
}
