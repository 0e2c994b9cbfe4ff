import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("Import: App Store Connect API", .timeLimit(.minutes(20)))
struct AppStoreConnectImporterTests {
    func pages(_ names: String...) throws -> [AppStoreConnectImporter.Page] {
        try names.map { AppStoreConnectImporter.Page(file: $0, bytes: try fixture("asc/" + $0)) }
    }

    @Test("appStoreVersions over two pages: builds from included, appStoreState and appVersionState, the date used is named")
    func versions() throws {
        let result = try AppStoreConnectImporter.read(try pages("versions-page1.json", "versions-page2.json"))
        #expect(result.releases.map(\.displayName) == ["1.0 (14)", "1.1 (22)", "2.0 (1)"])
        #expect(result.releases.map(\.dateSource) == ["createdDate", "earliestReleaseDate", "createdDate"])
        // Offsets and fractional seconds: 09:15:02.123-07:00 is 16:15:02.123Z.
        #expect(result.releases[0].date == date("2019-03-28T16:15:02.123Z"))
        #expect(result.releases[1].date == date("2019-06-10T15:00:00Z"))
        #expect(result.releases[2].date == date("2020-01-15T08:30:00.5Z"))
        #expect(result.app == AppHints(name: "Shelf", bundleID: "com.example.shelf", platforms: [.iOS]))
        #expect(result.ignored.contains("1 App Store version that never went live"))
        #expect(result.issues.isEmpty, "page 2 is the page links.next points at: \(result.issues)")
    }

    @Test("A missing next page is reported at links.next")
    func missingPage() throws {
        let result = try AppStoreConnectImporter.read(try pages("versions-page1.json"))
        let issue = try #require(result.issues.first)
        #expect(
            issue.placeDescription == "links.next" && issue.file == "versions-page1.json" && issue.location == SourceLocation(line: 50, column: 14))
        #expect(issue.hint?.contains("cursor=Mg.AB") == true)
    }

    @Test("builds joined to preReleaseVersions, in one file holding a links.next chain")
    func buildsChain() throws {
        let result = try AppStoreConnectImporter.read(try pages("builds-chain.json"))
        #expect(result.releases.map(\.displayName) == ["1.2 (31)", "2.0 (40)", "2.0 (41)"])
        #expect(result.releases.allSatisfy { $0.dateSource == "build uploadedDate" && $0.platform == .iOS })
        #expect(result.releases[1].date == date("2017-09-30T18:00:00.25Z"))
        #expect(result.issues.isEmpty, "\(result.issues)")
        #expect(result.ignored.contains { $0.contains("every uploaded build was imported") })
    }

    @Test("buildUploads: cfBundleShortVersionString, dotted cfBundleVersion, platform")
    func buildUploads() throws {
        let result = try AppStoreConnectImporter.read(try pages("build-uploads.json"))
        #expect(result.releases.map(\.displayName) == ["3.0 (3.0.7)"])
        #expect(result.releases.first?.platform == .macOS)
    }

    @Test("Truncated JSON and a document without data are errors naming the file and place")
    func bad() throws {
        #expect {
            try AppStoreConnectImporter.read(try pages("truncated.json"))
        } throws: { error in
            (error as? ImportError).map { $0.kind == .badData && $0.file == "truncated.json" && $0.location != nil } ?? false
        }
        #expect {
            try AppStoreConnectImporter.read(
                Array(#"{ "errors": [{ "status": "401", "title": "NOT_AUTHORIZED", "detail": "Provide a properly configured token." }] }"#.utf8),
                file: "e.json")
        } throws: { error in
            (error as? ImportError)?.message.contains("Provide a properly configured token.") == true
        }
    }

    @Test("The command reports the build-number analysis: a restart at 2.0 (1)")
    func command() throws {
        let scratch = try Scratch()
        try scratch.write("migration.json", handWrittenPlan)
        let run = Run(
            "import", "asc", fixtures.appendingPathComponent("asc/versions-page1.json").path,
            fixtures.appendingPathComponent("asc/versions-page2.json").path,
            directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(
            flat(run.output).contains(
                "! release iOS 1.0 (14): released: the plan says 2019-04-01T17:00:00Z, the source says 2019-03-28T16:15:02.123Z (createdDate)"))
        #expect(flat(run.output).contains("+ release iOS 1.1 (22), paid 2.99, released 2019-06-10T15:00:00Z (earliestReleaseDate)"))
        #expect(run.output.contains("iOS restarted: 2.0 (1) restarts the build numbers (after 1.1 (22))"))
        #expect(run.output.contains("Wrote migration.json."))
        let text = try #require(scratch.read("migration.json"))
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.releases.count == 3)
        #expect(plan.releases[0].released == date("2019-04-01T17:00:00Z"), "the user's date is kept")
        #expect(plan.products[0].grants == ["export"])
    }
}
