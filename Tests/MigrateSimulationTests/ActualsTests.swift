import Foundation
import MigratePlan
import MigrateSimulation
import MigrateTestSupport
import Testing

/// `simulate --actuals` worked out on paper: 1,000 paid downloads a month, a half-life of one month, and three
/// months after the switch (2021-01-01) of 10,000, 7,000 and 5,500 free downloads, which is a launch multiple of
/// 10 and a lasting multiple of 4 exactly (7 = 4 + 6 × 0.5, 5.5 = 4 + 6 × 0.25); 2% of them buy 'pro', which only
/// new free users are offered; 300 legacy buyers of 1.0 buy 'extra'.
@Suite("simulate --actuals: implied values, contradictions and the refit", .timeLimit(.minutes(20)))
struct ActualsTests {
    static func plan(conversion: String = #"{ "distribution": "uniform", "low": 0.01, "high": 0.05 }"#) throws -> MigrationPlan {
        try decode(
            handPlan(
                assumptions: """
                    { "paidDownloadsPerMonth": 1000, "legacyBuyers": 6000, "burstHalfLifeMonths": 1,
                      "launchMultiple": { "distribution": "logNormal", "low": 5, "high": 20 },
                      "lastingMultiple": { "distribution": "triangular", "low": 5, "mode": 8, "high": 12 },
                      "conversion": \(conversion) }
                    """, horizon: 12,
                products: """
                    [ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro"] },
                      { "id": "com.example.demo.extra", "type": "nonConsumable", "price": "1.99", "grants": ["extra"], "requires": ["pro"] } ]
                    """))
    }

    static func day(_ text: String) -> Date { Timestamp.parse(text)! }

    static let periods: [ActualPeriod] = [
        ActualPeriod(
            begin: day("2021-01-01"), end: day("2021-01-31"), freeDownloads: 10_000,
            inAppUnits: ["com.example.demo.pro": 200, "com.example.demo.extra": 300],
            inAppRefunds: ["com.example.demo.pro": 5], proceeds: ["USD": 950], origin: "a.txt:2"),
        ActualPeriod(
            begin: day("2021-02-01"), end: day("2021-02-28"), freeDownloads: 7_000, inAppUnits: ["com.example.demo.pro": 140], proceeds: ["USD": 490],
            origin: "a.txt:3"),
        ActualPeriod(
            begin: day("2021-03-01"), end: day("2021-03-31"), freeDownloads: 5_500, inAppUnits: ["com.example.demo.pro": 110], proceeds: ["USD": 385],
            origin: "a.txt:4"),
    ]

    @Test(
        "Each implied value is what the reports say, worked out by hand",
        arguments: [
            (SimulationAssumption.launchMultiple, 10.0),
            (.lastingMultiple, 4.0),
            (.conversion, 0.02),
            (.legacyUpgradeRate, 0.05),
            (.refundRate, 5.0 / 750),
        ])
    func implied(assumption: SimulationAssumption, expected: Double) throws {
        let report = try ActualsComparison.compare(Self.plan(), periods: Self.periods, draws: 200)
        let item = try #require(report.implied.first { $0.assumption == assumption })
        #expect(abs(item.implied - expected) < 1e-9, "\(assumption): \(item.implied)")
    }

    @Test(
        "An assumption whose range does not hold the implied value is contradicted, and only then",
        arguments: [
            (#"{ "distribution": "uniform", "low": 0.01, "high": 0.05 }"#, false),
            (#"{ "distribution": "uniform", "low": 0.03, "high": 0.05 }"#, true),
            (#"{ "distribution": "triangular", "low": 0.005, "mode": 0.01, "high": 0.015 }"#, true),
            (#"{ "distribution": "logNormal", "low": 0.015, "high": 0.03 }"#, false),
            ("0.021", false),
            ("0.03", true),
        ])
    func contradiction(conversion: String, contradicted: Bool) throws {
        let report = try ActualsComparison.compare(Self.plan(conversion: conversion), periods: Self.periods, draws: 200)
        let item = try #require(report.implied.first { $0.assumption == .conversion })
        #expect(item.isContradicted == contradicted, "\(conversion)")
        // The lasting multiple of 4 is below the plan's 5–12 in every case, but its refit (2.87–5.13) overlaps it.
        let lasting = try #require(report.implied.first { $0.assumption == .lastingMultiple })
        #expect(lasting.isOutside && !lasting.isContradicted)
    }

    @Test("The refit centres on the implied values with the documented spread, and is the same on every run")
    func refit() throws {
        let first = try ActualsComparison.compare(Self.plan(), periods: Self.periods, draws: 2_000, seed: 7)
        let second = try ActualsComparison.compare(Self.plan(), periods: Self.periods, draws: 2_000, seed: 7)
        #expect(first == second)
        let refits = Dictionary(uniqueKeysWithValues: first.refits.map { ($0.assumption, $0.after) })
        // Conversion: 3 months, ±40% ÷ √3 = ±23.1%; the launch multiple ±10%; the lasting multiple: 2 months, ±28.3%.
        #expect(refits[.conversion] == .triangular(low: 0.0154, mode: 0.02, high: 0.0246))
        #expect(refits[.launchMultiple] == .triangular(low: 9, mode: 10, high: 11))
        #expect(refits[.lastingMultiple] == .triangular(low: 2.87, mode: 4, high: 5.13))
        #expect(first.refits.map(\.assumption) == [.conversion, .launchMultiple, .lastingMultiple])
    }

    @Test("Each month's actual is placed against the forecast's P10–P90; the months below it are flagged")
    func bands() throws {
        let report = try ActualsComparison.compare(Self.plan(), periods: Self.periods, draws: 2_000)
        #expect(report.rows.map(\.month.label) == ["2021-01", "2021-02", "2021-03"])
        #expect(report.currency == "USD")
        for row in report.rows {
            #expect(row.downloads.p10 <= row.downloads.p50 && row.downloads.p50 <= row.downloads.p90)
        }
        // A lasting multiple of 4 against the plan's 5–12: by month 3 the downloads are below the band.
        #expect(report.rows[2].downloadsPlace == .below)
        #expect(report.rows[0].downloadsPlace == .within)
    }

    @Test("Periods before the switch are left out with a warning, a week across two months is split by its days, and a part-month is scaled")
    func bucketing() {
        let periods = [
            ActualPeriod(begin: Self.day("2020-12-01"), end: Self.day("2020-12-31"), freeDownloads: 0, paidDownloads: 900, origin: "old.txt:2"),
            ActualPeriod(begin: Self.day("2021-01-29"), end: Self.day("2021-02-04"), freeDownloads: 700, origin: "week.txt:2"),
        ]
        let (months, notes) = ActualMonths.bucket(periods, switchDate: Self.day("2021-01-15T17:00:00Z"))
        #expect(months.map(\.label) == ["2021-01", "2021-02"])
        #expect(months.map(\.freeDownloads) == [300, 400])
        #expect(months[0].daysInMonth == 17, "from the 15th to the 31st")
        #expect(months[0].daysCovered == 3)
        #expect(months[1].daysCovered == 4)
        #expect(notes.first?.hasPrefix("warning: 1 reporting period ends before the switch (2021-01-15)") == true)
    }

    @Test("A plan without a switch, or reports without a month after it, cannot be compared")
    func nothingToCompare() throws {
        let early = [ActualPeriod(begin: Self.day("2020-06-01"), end: Self.day("2020-06-30"), freeDownloads: 10, origin: "old.txt:2")]
        #expect(throws: SimulationError.self) { try ActualsComparison.compare(Self.plan(), periods: early, draws: 10) }
        #expect(throws: SimulationError.self) { try ActualsComparison.compare(Self.plan(), periods: Self.periods, scenarioID: "nope", draws: 10) }
    }
}
