import MigrateCore
import MigratePlan
import MigrateSupport
import Testing

@Suite("Version arithmetic", .timeLimit(.minutes(20)))
struct VersionTests {
    @Test(
        "Versions compare numerically, component by component",
        arguments: [
            ("1", "1.0", 0), ("1.0", "1.0.0", 0), ("1", "1.0.0", 0),
            ("1.10", "1.9", 1), ("10", "9", 1), ("10", "2", 1), ("2", "13", -1),
            ("1.2.5", "1.2.10", -1), ("2.0", "1.99.99", 1), ("31", "40", -1), ("0", "0.0.1", -1),
            ("01", "1", 0), ("1.0.1", "1", 1),
        ])
    func numericComparison(lhs: String, rhs: String, expected: Int) throws {
        let left = try Version(lhs)
        let right = try Version(rhs)
        #expect((left < right) == (expected < 0), "\(lhs) < \(rhs)")
        #expect((left == right) == (expected == 0), "\(lhs) == \(rhs)")
        #expect((left > right) == (expected > 0), "\(lhs) > \(rhs)")
    }

    /// Trap 1: Apple's sample compares Strings, where "10" < "2" and "2" > "13".
    @Test("Trap 1: string comparison gets these wrong; Version gets them right")
    func stringComparisonTrap() throws {
        #expect("10" < "2")  // what String comparison says
        #expect(try Version("10") > Version("2"))
        #expect(!("2" < "13"))
        #expect(try Version("2") < Version("13"))
    }

    @Test(
        "Malformed versions are rejected with the reason",
        arguments: [
            ("", "empty"), ("2.0.1b", "'1b' is not a non-negative integer"), (" 1.0", "white space"), ("1 .0", "white space"),
            ("-1", "negative"), ("1..2", "empty component"), (".1", "starts or ends with a period"), ("1.", "starts or ends with a period"),
            ("1.0-beta", "'0-beta'"), ("99999999999999999999", "too large"), ("v1.0", "'v1'"),
        ])
    func rejectsMalformed(text: String, reason: String) {
        #expect {
            try Version(text)
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.description.contains(reason) && error.text == text
        }
    }

    @Test("More than three components are accepted and flagged")
    func extraComponents() throws {
        let version = try Version("1.2.3.4")
        #expect(version.hasExtraComponents)
        let plain = try Version("1.2.3")
        #expect(!plain.hasExtraComponents)
        #expect(try version > Version("1.2.3"))
    }

    @Test("Canonical form drops trailing zeros and keeps the text")
    func canonical() throws {
        #expect(try Version("1.0.0").canonical == "1")
        #expect(try Version("1.0.0").text == "1.0.0")
        #expect(try Version("2.10.0").canonical == "2.10")
        #expect(try Version("0").canonical == "0")
    }

    // MARK: - Properties, on seeded random versions

    private static func randomVersion(_ generator: inout SeededGenerator) -> Version {
        let count = Int.random(in: 1...4, using: &generator)
        let components = (0..<count).map { _ -> String in
            // Small numbers collide often, which is where bugs hide; zeros test padding.
            let small = Bool.random(using: &generator)
            return String(small ? UInt64.random(in: 0...3, using: &generator) : UInt64.random(in: 0...1_000, using: &generator))
        }
        return try! Version(components.joined(separator: "."))
    }

    @Test("Total order, antisymmetry and transitivity hold on random versions", arguments: [1, 2, 3] as [UInt64])
    func orderProperties(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let versions = (0..<120).map { _ in Self.randomVersion(&generator) }
        for a in versions {
            for b in versions {
                let relations = [a < b, a == b, b < a].filter { $0 }.count
                #expect(relations == 1, "exactly one of <, ==, > for \(a) and \(b)")
                if a == b { #expect(a.hashValue == b.hashValue, "equal versions hash alike: \(a), \(b)") }
            }
        }
        for _ in 0..<2_000 {
            let a = versions.randomElement(using: &generator)!
            let b = versions.randomElement(using: &generator)!
            let c = versions.randomElement(using: &generator)!
            if a < b && b < c { #expect(a < c, "transitivity: \(a) < \(b) < \(c)") }
            if a == b && b == c { #expect(a == c) }
        }
    }

    @Test("The canonical form round-trips", arguments: [7, 8] as [UInt64])
    func canonicalRoundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<500 {
            let version = Self.randomVersion(&generator)
            let reparsed = try Version(version.canonical)
            #expect(reparsed == version)
            #expect(reparsed.canonical == version.canonical)
            #expect(try Version(version.text).text == version.text)
        }
    }

    @Test("Sorting agrees with numeric components, never with the text")
    func sortingMatchesNumbers() throws {
        let sorted = try ["10", "9", "1.10", "1.9", "2", "1", "1.0.1"].map { try Version($0) }.sorted().map(\.text)
        #expect(sorted == ["1", "1.0.1", "1.9", "1.10", "2", "9", "10"])
    }
}
