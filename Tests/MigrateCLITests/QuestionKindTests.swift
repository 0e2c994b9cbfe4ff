import Foundation
import MigrateTestSupport
import MigrateWizard
import Testing

@testable import MigrateCLI

/// Each question's key and flag are declared once (`QuestionKind`): a flag and an answers-file key give the same
/// answer, and help names every one (the init page's table is rendered from them: `DerivedDocsTests`).
@Suite("init: every question's flag and answers-file key", .timeLimit(.minutes(20)))
struct QuestionKindTests {
    /// One answer per kind, as typed after its flag (and as the JSON value of its key). A new kind without a sample
    /// fails `everyKindHasASample`.
    static let samples: [String: (flag: [String], json: String)] = [
        "appName": (["Tally"], #""Tally""#),
        "bundleID": (["com.example.tally"], #""com.example.tally""#),
        "platforms": (["iOS", "macOS"], #"["iOS", "macOS"]"#),
        "universalPurchase": (["yes"], "true"),
        "releases": (["1.0 (1) 2019-03-01", "2.0 (40) 2021-06-01"], #"["1.0 (1) 2019-03-01", "2.0 (40) 2021-06-01"]"#),
        "firstFree": (["2.0"], #""2.0""#),
        "freeFrom": (["2021-06-01T17:00:00Z"], #""2021-06-01T17:00:00Z""#),
        "newFreeRelease": (["3.0 (50) 2027-01-01"], #""3.0 (50) 2027-01-01""#),
        "newFreeReleases": (["macOS=3.0 2027-01-02"], #"{ "macOS": "3.0 2027-01-02" }"#),
        "freeFromOn": (["macOS=2021-06-03T12:00:00Z"], #"{ "macOS": "2021-06-03T12:00:00Z" }"#),
        "sells": (["com.temporary.id.nonconsumable.a=no"], #"{ "com.temporary.id.nonconsumable.a": "no" }"#),
        "price": (["1.99"], #""1.99""#),
        "features": (["Themes", "Sync"], #"["Themes", "Sync"]"#),
        "featureSince": (["sync=2.0"], #"{ "sync": "2.0" }"#),
        "freeGaveAway": (["themes", "sync"], #"["themes", "sync"]"#),
        "product": (["com.example.tally.pro 4.99"], #""com.example.tally.pro 4.99""#),
        "durations": (["com.example.tally.lifetime=P10Y"], #"{ "com.example.tally.lifetime": "P10Y" }"#),
        "grants": (["com.example.tally.pro=themes,sync"], #"{ "com.example.tally.pro": "themes,sync" }"#),
        "eras": (["1=keep"], #"{ "1": "keep" }"#),
        "eraDiscounts": (["1=com.example.tally.pro 2.99"], #"{ "1": "com.example.tally.pro 2.99" }"#),
        "nonProduction": (["new"], #""new""#),
        "verificationFailure": (["keep:7"], #""keep:7""#),
        "familySharing": (["no"], "false"),
        "paidDownloadsPerMonth": (["150-350"], #""150-350""#),
    ]

    @Test("Every kind of question has a sample here, and keys and flags are unique")
    func everyKindHasASample() {
        #expect(Set(QuestionKind.all.map(\.key)) == Set(Self.samples.keys))
        #expect(Set(QuestionKind.all.map(\.flag)).count == QuestionKind.all.count)
        #expect(AnswersFile.keys == Set(Self.samples.keys))
    }

    @Test("A flag and its answers-file key give the same answer", arguments: QuestionKind.all.map(\.key))
    func roundTrip(key: String) throws {
        let kind = try #require(QuestionKind.all.first { $0.key == key })
        let sample = try #require(Self.samples[key])
        let words = sample.flag.flatMap { ["--\(kind.flag)", $0] }
        let parsed = try ArgumentParser.parseArguments(words, for: InitCommand.spec)
        let context = CommandContext.testing()
        let fromFlags = try InitCommand.answers(from: parsed, context: context).answers
        let fromFile = try AnswersFile.read(Array("{ \"\(key)\": \(sample.json) }".utf8), file: "answers.json")
        #expect(!fromFlags.isEmpty)
        #expect(fromFlags == fromFile, "--\(kind.flag) and \"\(key)\" disagree")
    }

    @Test("init --help names every flag and key")
    func documented() {
        let help = CommandContext.testing()
        _ = Migrate.run(["init", "--help"], context: help)
        for kind in QuestionKind.all {
            #expect(help.standardOutput.text.contains("--\(kind.flag) <"), "help: --\(kind.flag)")
            #expect(help.standardOutput.text.contains(kind.key), "help names the answers-file key \(kind.key)")
        }
    }
}
