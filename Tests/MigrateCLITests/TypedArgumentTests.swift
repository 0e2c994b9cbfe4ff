import Foundation
import MigratePlan
import MigrateTestSupport
import Testing

@testable import MigrateCLI

/// Each option is declared once with its type; the parser converts and checks it before a command runs, so a
/// command reads an `Int`, an enum case or a `Date`, and a bad value is a usage error naming the option.
@Suite("Typed arguments", .timeLimit(.minutes(20)))
struct TypedArgumentTests {
    enum Colour: String, CaseIterable, Sendable { case red, green }

    static let count = Argument<Int>.number("count", help: "A count.", in: 1...4, default: 2)
    static let limit = Argument<Int?>.number("limit", help: "A limit.", in: 0...10)
    static let seed = Argument<UInt64>.number("seed", help: "A seed.", in: 0...UInt64.max, default: 7)
    static let colour = Argument<Colour>.choice("colour", help: "A colour.", default: .red)
    static let other = Argument<Colour?>.choice("other", help: "Another colour.")
    static let colours = Argument<[Colour]>.choices("paint", help: "Colours.")
    static let when = Argument<Date?>.date("when", help: "A moment.")
    static let name = Argument<String>.positional("name", help: "A name.")
    static let tags = Argument<[String]>.options("tag", help: "Tags.")
    static let loud = Argument<Bool>.flag("loud", help: "Loud.")

    static let command = CommandSpec(
        name: "test", abstract: "A command to parse against.", arguments: [name, count, limit, seed, colour, other, colours, when, tags, loud])

    func parse(_ words: String...) throws -> ParsedArguments {
        try ArgumentParser.parseArguments(words, for: Self.command)
    }

    @Test("Defaults and absences read as the declared types")
    func defaults() throws {
        let parsed = try parse("anna")
        #expect(parsed[Self.name] == "anna")
        #expect(parsed[Self.count] == 2)
        #expect(parsed[Self.limit] == nil)
        #expect(parsed[Self.seed] == 7)
        #expect(parsed[Self.colour] == .red)
        #expect(parsed[Self.other] == nil)
        #expect(parsed[Self.colours].isEmpty)
        #expect(parsed[Self.when] == nil)
        #expect(parsed[Self.tags].isEmpty)
        #expect(parsed[Self.loud] == false)
        #expect(!parsed.isSet(Self.count))
    }

    @Test("Given values are converted once, in order")
    func given() throws {
        let parsed = try parse(
            "anna", "--count", "4", "--limit=0", "--seed", "18446744073709551615", "--colour", "green", "--other", "red", "--paint", "green",
            "--paint", "red", "--when", "2021-06-01T17:00:00Z", "--tag", "b", "--tag", "a", "--loud")
        #expect(parsed[Self.count] == 4)
        #expect(parsed[Self.limit] == 0)
        #expect(parsed[Self.seed] == UInt64.max)
        #expect(parsed[Self.colour] == .green)
        #expect(parsed[Self.other] == .red)
        #expect(parsed[Self.colours] == [.green, .red])
        #expect(parsed[Self.when] == Timestamp.parse("2021-06-01T17:00:00Z"))
        #expect(parsed[Self.tags] == ["b", "a"])
        #expect(parsed[Self.loud])
        #expect(parsed.isSet(Self.count) && parsed.isSet(Self.loud))
    }

    @Test(
        "A value the declaration refuses is a usage error naming the option and what it expects",
        arguments: [
            (["--count", "5"], "The value '5' is invalid for '--count <n>'. Expected a whole number from 1 to 4."),
            (["--count", "two"], "The value 'two' is invalid for '--count <n>'. Expected a whole number from 1 to 4."),
            (["--limit", "-1"], "The value '-1' is invalid for '--limit <n>'. Expected a whole number from 0 to 10."),
            (["--seed", "-1"], "The value '-1' is invalid for '--seed <n>'. Expected a whole number from 0 to 18446744073709551615."),
            (["--colour", "gren"], "The value 'gren' is invalid for '--colour <colour>'. Did you mean 'green'? Choose one of: red, green."),
            (["--paint", "blue"], "The value 'blue' is invalid for '--paint <paint>'. Choose one of: red, green."),
            (
                ["--when", "yesterday"],
                "The value 'yesterday' is invalid for '--when <date-time>'. Expected an ISO 8601 date-time such as 2017-10-08T02:47:56Z."
            ),
        ])
    func refused(words: [String], message: String) {
        let error = #expect(throws: CommandError.self) {
            try ArgumentParser.parseArguments(["anna"] + words, for: Self.command)
        }
        #expect(error?.exitCode == .usage)
        #expect(error?.message == message)
    }
}
