import MigratePlan
import Testing

@Suite("Version.isValid agrees with Version(_:)", .timeLimit(.minutes(20)))
struct VersionValidityTests {
    @Test(
        "Every kind of text",
        arguments: [
            "1", "1.0", "10.2.3", "0", "007", "1.2.3.4", "18446744073709551615", "18446744073709551616", "1234567890123456789",
            "", ".", "1.", ".1", "1..2", "-1", "+1", "1 ", " 1", "1a", "1.0b", "١", "1,2", "٣.1", "1.\n2",
        ])
    func agrees(_ text: String) {
        #expect(Version.isValid(text) == ((try? Version(text)) != nil), "\(text)")
    }
}
