import MigratePlan
import MigrateSupport
import Testing

/// The one digit grouper, and the three separators the project writes with it.
@Suite("Digit grouping", .timeLimit(.minutes(20)))
struct DigitGroupingTests {
    @Test(
        "Thousands grouped from the right",
        arguments: [
            (0, ",", "0"), (7, ",", "7"), (999, ",", "999"), (1_000, ",", "1,000"), (-1_000, ",", "-1,000"), (12_345, ",", "12,345"),
            (1_000_000, ",", "1,000,000"), (123_456_789, " ", "123 456 789"), (Int.min, ",", "-9,223,372,036,854,775,808"),
            (1_299_776_400, "_", "1_299_776_400"),
        ])
    func grouped(_ value: Int, _ separator: String, _ expected: String) {
        #expect(DigitGrouping.grouped(value, separator: separator) == expected)
    }

    @Test("Digits alone, as a figure's whole part", arguments: [("", ""), ("5", "5"), ("1234", "1.234"), ("123456", "123.456")])
    func digits(_ digits: String, _ expected: String) {
        #expect(DigitGrouping.grouped(digits[...], separator: ".") == expected)
    }

    @Test("Messages group with a comma")
    func messages() {
        #expect(Limits.grouped(1_234_567) == "1,234,567")
        #expect(Limits.grouped(-12) == "-12")
    }
}
