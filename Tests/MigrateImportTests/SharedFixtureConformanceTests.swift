import Foundation
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

/// Reads every real file in ../shared/fixtures (beside the repository) with the importers.
/// A user's clone has no such folder: Swift Testing then reports the suite skipped, with the reason.
@Suite(
    "Import: real files in ../shared/fixtures", .timeLimit(.minutes(20)),
    .enabled(if: SharedFixtures.isPresent, "../shared/fixtures is absent (it exists only beside the developers' checkout)"))
struct SharedFixtureConformanceTests {
    /// The files in a folder of ../shared/fixtures, sorted; one missing while ../shared is present fails the test.
    func files(_ folder: String) throws -> [URL] {
        let url = SharedFixtures.url(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        #expect(!names.isEmpty, "\(url.path) is empty")
        return names.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("Every .storekit file gives products and never the private key")
    func storekit() throws {
        let files = try files("storekit")
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let result = try StoreKitImporter.read(bytes, file: file.lastPathComponent)
            #expect(!result.products.isEmpty, "\(file.lastPathComponent)")
            #expect(result.issues.isEmpty, "\(file.lastPathComponent): \(result.issues)")
            #expect(!"\(result)".contains("REDACTED"))
            #expect(result.products.allSatisfy { $0.kind != .autoRenewable || $0.subscription != nil })
        }
    }

    @Test("The App Store Connect responses read together; missing pages are reported, not invented")
    func appStoreConnect() throws {
        let files = try files("asc-api")
        let pages = try files.map { AppStoreConnectImporter.Page(file: $0.lastPathComponent, bytes: Array(try Data(contentsOf: $0))) }
        let result = try AppStoreConnectImporter.read(pages)
        #expect(result.releases.contains { $0.version.text == "1.2.3" && $0.dateSource == "createdDate" })
        #expect(result.issues.contains { $0.placeDescription == "links.next" })
        for page in pages { _ = try AppStoreConnectImporter.read([page]) }
    }

    @Test("Sales reports: the summary report reads; the subscription report is refused with a reason")
    func sales() throws {
        let files = try files("sales-reports")
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            if file.lastPathComponent.contains("subscriptions") {
                #expect {
                    try SalesReportImporter.read(bytes, file: file.lastPathComponent)
                } throws: { error in (error as? ImportError)?.hint?.contains("Subscription report") == true }
            } else {
                let result = try SalesReportImporter.read(bytes, file: file.lastPathComponent)
                let downloads = try #require(result.installBase?.downloads)
                #expect(!downloads.isEmpty)
                #expect(result.issues.isEmpty, "\(result.issues)")
            }
        }
    }

    @Test("Info.plists read or say what they need; the pbxproj excerpt is refused with a clear error")
    func xcode() throws {
        let files = try files("xcode")
        for file in files {
            if file.pathExtension == "plist" {
                let version = try XcodeImporter.read(path: file.path, displayPath: file.lastPathComponent)
                #expect(version.version != nil || version.issues.contains { $0.message.contains("pass the .xcodeproj") }, "\(file.lastPathComponent)")
            } else {
                #expect {
                    try XcodeImporter.read(path: file.path, displayPath: file.lastPathComponent)
                } throws: { error in (error as? ImportError)?.kind == .badData }
            }
        }
    }
}
