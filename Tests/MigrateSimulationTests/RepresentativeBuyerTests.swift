import Foundation
import MigratePlan
import Testing

@testable import MigrateSimulation

/// The simulation's representative buyers carry the original version a receipt carries on their platform, as the
/// cutoff rules read the releases: a build number on iOS, a marketing version on macOS, and none where the plan doesn't
/// know the build number (the rules then read that release by its date), never a marketing version read as a build.
@Suite(.timeLimit(.minutes(20))) struct RepresentativeBuyerTests {
    static let released = Date(timeIntervalSince1970: 1_400_000_000)

    @Test(
        "A representative buyer's original version is the receipt's on that platform, or none",
        arguments: [
            (Platform.iOS, "2.1", "40", "40"), (.iOS, "2.1", nil, nil), (.macOS, "2.1", "40", "2.1"), (.macOS, "2.1", nil, "2.1"),
        ] as [(Platform, String, String?, String?)])
    func originalVersion(platform: Platform, version: String, build: String?, expected: String?) throws {
        let release = Release(
            platform: platform, version: try Version(version), build: try build.map { try Version($0) }, released: Self.released,
            model: .paid(try Price("2.99")))
        let buyer = PreparedScenario.buyer(of: release, on: platform)
        #expect(buyer.originalAppVersion == expected)
        #expect(buyer.originalPurchaseDate == Self.released)
        #expect(buyer.platform == platform)
    }
}
