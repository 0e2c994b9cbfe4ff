import Foundation
import MigratePlan
import Testing

@Suite("Dates and prices", .timeLimit(.minutes(20)))
struct ScalarTests {
    @Test(
        "ISO 8601 date-times parse to the right instant",
        arguments: [
            ("2012-02-08T17:00:00Z", 1_328_720_400.0),
            ("2012-02-08T18:00:00+01:00", 1_328_720_400.0),
            ("2012-02-08T12:00:00-0500", 1_328_720_400.0),
            ("2012-02-08", 1_328_659_200.0),
            ("2017-10-08T02:47:56.250Z", 1_507_430_876.25),
            ("2000-02-29T00:00:00Z", 951_782_400.0),
            ("1970-01-01T00:00:00Z", 0.0),
            ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ])
    func parsesTimestamps(text: String, seconds: Double) {
        #expect(Timestamp.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(
        "Ambiguous or impossible date-times are refused",
        arguments: ["2012-02-30", "2012-13-01", "2012-02-08T17:00:00", "2012-02-08T25:00:00Z", "08/02/2012", "2012-2-8", "", "2012-02-08Tfoo"])
    func refusesTimestamps(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test("Formatting is UTC with a Z and round-trips")
    func formatsTimestamps() {
        let date = Date(timeIntervalSince1970: 1_328_720_400)
        #expect(Timestamp.format(date) == "2012-02-08T17:00:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_507_430_876.25)) == "2017-10-08T02:47:56.250Z")
        #expect(Timestamp.parse(Timestamp.format(date)) == date)
        #expect(Timestamp.format(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    }

    @Test(
        "Prices are exact decimals",
        arguments: [("2.99", "2.99", 29_900), ("0", "0.00", 0), ("12", "12.00", 120_000), ("0.125", "0.125", 1_250), ("4.5", "4.50", 45_000)])
    func parsesPrices(text: String, shown: String, units: Int64) throws {
        let price = try Price(text)
        #expect(price.tenThousandths == units)
        #expect(price.description == shown)
    }

    @Test("Malformed prices are refused", arguments: ["-1", "1,99", "$2.99", "2.99999", "", ".99", "1.", "1e3", "2.9.9"])
    func refusesPrices(text: String) {
        #expect(throws: PriceError.self) { try Price(text) }
    }

    @Test("Platforms know what originalAppVersion means on them")
    func versionMeaning() {
        #expect(Platform.iOS.originalVersionMeaning == .buildNumber)
        #expect(Platform.visionOS.originalVersionMeaning == .buildNumber)
        #expect(Platform.macOS.originalVersionMeaning == .marketingVersion)
        #expect(Platform(named: "macos") == .macOS)
        #expect(Platform(named: "android") == nil)
    }
}
