import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// What a version decision can't see for itself is said in its notes: a purchase before the plan's first release,
/// and a marketing version where the track's original version is a build number.
@Suite("Cohort doubts: a history that starts too late, a marketing version on a build-number track", .timeLimit(.minutes(20)))
struct CohortDoubtTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var version: String
        var date: String?
        /// The start of the note expected, or nil for none.
        var note: String?
        var testDescription: String { name }
    }

    // Tilt to Live HD's first release, 1.0 (10), went live 2011-03-10T17:00:00Z; its builds are single numbers.
    static let cases: [Case] = [
        Case(
            name: "a second before the first release", version: "10", date: "2011-03-10T16:59:59Z",
            note: "the purchase date 2011-03-10T16:59:59Z is before"),
        Case(name: "at the first release", version: "10", date: "2011-03-10T17:00:00Z", note: nil),
        Case(name: "years before", version: "14", date: "2009-01-01T00:00:00Z", note: "the purchase date 2009-01-01T00:00:00Z is before"),
        Case(name: "a release's marketing version", version: "1.1", date: nil, note: "1.1 is the marketing version of 1.1 (14), not a build"),
        Case(name: "a marketing-looking version no release has", version: "3.4.1", date: nil, note: "3.4.1 looks like a marketing version"),
        Case(name: "a build", version: "14", date: nil, note: nil),
    ]

    @Test("Each doubt is noted at its boundary, and only there", arguments: cases)
    func doubts(_ example: Case) throws {
        let catalog = PlanCatalog(try examplePlan("tilt-to-live-hd"))
        let customer = Customer(
            platform: .iOS, originalAppVersion: example.version, originalPurchaseDate: example.date.flatMap(Timestamp.parse))
        let notes = Advisor(catalog: catalog).cohortDecision(for: customer).notes
        let doubts = notes.filter { $0.contains("is before the first") || $0.contains("marketing version") }
        if let note = example.note {
            #expect(doubts.count == 1, "\(notes)")
            #expect(doubts.first?.hasPrefix(note) == true, "\(notes)")
        } else {
            #expect(doubts.isEmpty, "\(notes)")
        }
    }

    @Test("On a marketing-version track (macOS) a dotted version is no doubt")
    func macOS() throws {
        let plan = try examplePlan("inkwell-universal")
        let catalog = PlanCatalog(plan)
        let mac = try #require(plan.releases.first { $0.platform == .macOS }, "inkwell-universal lists a macOS release")
        let customer = Customer(platform: .macOS, originalPlatform: .macOS, originalAppVersion: mac.version.text)
        let notes = Advisor(catalog: catalog).cohortDecision(for: customer).notes
        #expect(!notes.contains { $0.contains("marketing version") }, "\(notes)")
        // On a build-number track a release's marketing version is the doubt, so a reworded note fails here.
        let tilt = Advisor(catalog: PlanCatalog(try examplePlan("tilt-to-live-hd")))
        let phone = tilt.cohortDecision(for: Customer(platform: .iOS, originalAppVersion: "1.1")).notes
        #expect(phone.contains { $0.contains("marketing version") }, "\(phone)")
    }
}
