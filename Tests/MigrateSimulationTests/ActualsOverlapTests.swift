import Foundation
import MigratePlan
import MigrateSimulation
import MigrateTestSupport
import Testing

/// `simulate --actuals` never counts a sale twice (reports that overlap), never drops a currency unsaid, calls an
/// assumption contradicted only when the refit's band misses its range, and shows the verdict the refit gives.
@Suite("simulate --actuals: overlapping reports, currencies, contradictions and the refitted verdict", .timeLimit(.minutes(20)))
struct ActualsOverlapTests {
    static func day(_ text: String) -> Date { Timestamp.parse(text)! }

    static let app = ActualSeries(provider: "APPLE", sku: "demo", country: "US", productType: "1")
    static let france = ActualSeries(provider: "APPLE", sku: "demo", country: "FR", productType: "1")

    static func period(_ begin: String, _ end: String, _ downloads: Int, file: String, line: Int = 2, series: ActualSeries = app) -> ActualPeriod {
        ActualPeriod(
            begin: day(begin), end: day(end), freeDownloads: downloads, origin: "\(file):\(line)", file: file, series: series)
    }

    static let januaryDays = (1...31).map {
        period(String(format: "2021-01-%02d", $0), String(format: "2021-01-%02d", $0), 100, file: "daily.txt", line: $0 + 1)
    }

    @Test(
        "Periods of one series that share days are counted once, with a warning naming the files; other series and other days are kept",
        arguments: [
            // The same report twice: counted once, from the file given first.
            (
                [Self.period("2021-01-01", "2021-01-31", 3_100, file: "a.txt"), Self.period("2021-01-01", "2021-01-31", 3_100, file: "b.txt")], 3_100,
                ["b.txt", "a.txt"]
            ),
            // A daily report inside a monthly one, either order: the month counts.
            ([Self.period("2021-01-01", "2021-01-31", 3_100, file: "month.txt")] + Self.januaryDays, 3_100, ["daily.txt", "month.txt"]),
            (Self.januaryDays + [Self.period("2021-01-01", "2021-01-31", 3_100, file: "month.txt")], 3_100, ["daily.txt", "month.txt"]),
            // Another country on the same days is other sales: both count, no warning.
            (
                [
                    Self.period("2021-01-01", "2021-01-31", 3_100, file: "a.txt"),
                    Self.period("2021-01-01", "2021-01-31", 900, file: "b.txt", series: Self.france),
                ], 4_000, []
            ),
            // Days after the month are not inside it: both count.
            ([Self.period("2021-01-01", "2021-01-31", 3_100, file: "a.txt"), Self.period("2021-02-01", "2021-02-01", 50, file: "b.txt")], 3_150, []),
            // Rows of one report for the same series and days (two versions) add up.
            (
                [
                    Self.period("2021-01-01", "2021-01-31", 3_000, file: "a.txt"),
                    Self.period("2021-01-01", "2021-01-31", 100, file: "a.txt", line: 3),
                ], 3_100, []
            ),
        ])
    func counted(periods: [ActualPeriod], downloads: Int, files: [String]) throws {
        let resolution = try ActualOverlaps.resolve(periods)
        #expect(resolution.periods.reduce(0) { $0 + $1.freeDownloads } == downloads)
        if files.isEmpty {
            #expect(resolution.warnings.isEmpty, "\(resolution.warnings)")
        } else {
            let warning = try #require(resolution.warnings.first)
            #expect(resolution.warnings.count == 1)
            #expect(warning.hasPrefix("warning: \(files[0]) counts sales that \(files[1]) already counts"), "\(warning)")
            #expect(warning.contains("counted once, from \(files[1])"))
        }
    }

    @Test("Shorter periods that count more than the period holding them: the longer one counts, and the warning says so")
    func shorterCountMore() throws {
        let resolution = try ActualOverlaps.resolve([Self.period("2021-01-01", "2021-01-31", 1_000, file: "month.txt")] + Self.januaryDays)
        #expect(resolution.periods.reduce(0) { $0 + $1.freeDownloads } == 1_000)
        #expect(resolution.warnings.count == 2)
        // Copies of the month, and the days given twice, are not "more": no such warning.
        let copies = try ActualOverlaps.resolve(
            [Self.period("2021-01-01", "2021-01-31", 3_100, file: "month.txt")] + Self.januaryDays
                + Self.januaryDays.map { day in
                    var day = day
                    day.file = "again.txt"
                    return day
                } + [
                    Self.period("2021-01-01", "2021-01-31", 3_100, file: "copy.txt"),
                    Self.period("2021-01-01", "2021-01-31", 3_100, file: "more.txt"),
                ])
        #expect(copies.periods.reduce(0) { $0 + $1.freeDownloads } == 3_100)
        #expect(copies.warnings.count == 4, "daily.txt, again.txt, copy.txt and more.txt against month.txt: \(copies.warnings)")
        #expect(!copies.warnings.contains { $0.contains("shorter periods inside it count") })
        #expect(
            resolution.warnings.last?.hasPrefix(
                "warning: month.txt: SKU 'demo' (US, type 1, provider APPLE), 2021-01-01 to 2021-01-31 (month.txt:2) counts 1,000 units, but the shorter periods inside it count 3,100"
            ) == true, "\(resolution.warnings)")
    }

    @Test("A period that shares days with another without one holding the other is refused, naming both files")
    func partialOverlap() {
        let periods = [
            Self.period("2021-01-01", "2021-01-31", 3_100, file: "month.txt"), Self.period("2021-01-28", "2021-02-03", 700, file: "week.txt"),
        ]
        #expect {
            try ActualOverlaps.resolve(periods)
        } throws: { error in
            guard let error = error as? SimulationError else { return false }
            return error.message.hasPrefix("month.txt and week.txt overlap in part") && error.message.contains("share 4 days")
                && error.file == "week.txt"
                && !error.isUsage
        }
    }

    @Test("The comparison counts a repeated report once: the same implied values and refit as the report alone")
    func comparisonCountsOnce() throws {
        let plan = try ActualsTests.plan()
        let alone = ActualsTests.periods.map { period in
            var period = period
            period.file = "a.txt"
            period.series = Self.app
            return period
        }
        let twice =
            alone
            + alone.map { period in
                var period = period
                period.file = "b.txt"
                period.origin = "b.txt:2"
                return period
            }
        let once = try ActualsComparison.compare(plan, periods: alone, draws: 100)
        let repeated = try ActualsComparison.compare(plan, periods: twice, draws: 100)
        #expect(repeated.implied == once.implied)
        #expect(repeated.refits == once.refits)
        #expect(repeated.overlaps.count == 1)
        #expect(repeated.notes.first == repeated.overlaps.first)
    }

    static func withProceeds(_ proceeds: [[String: Double]]) -> [ActualPeriod] {
        zip(ActualsTests.periods, proceeds).map { period, amounts in
            var period = period
            period.proceeds = amounts
            return period
        }
    }

    @Test(
        "Proceeds in several currencies are compared only converted; what is not compared is said",
        arguments: [
            // One currency: compared as it is.
            ([["USD": 950], ["USD": 490], ["USD": 385]], [:], "USD", [950.0, 490, 385]),
            // Two without a rate between them: not compared.
            ([["USD": 900, "EUR": 50], ["USD": 490], ["USD": 385]], [:], nil, [Double]?.none),
            // EUR converted into USD, the one currency without a rate.
            ([["USD": 900, "EUR": 50], ["USD": 490], ["USD": 385]], ["EUR": 1.1], "USD", [955.0, 490, 385]),
            // Every currency rated: in the plan's currency.
            ([["GBP": 100, "EUR": 50], ["GBP": 10], ["EUR": 10]], ["EUR": 2, "GBP": 3], ActualsProceeds.planCurrency, [400.0, 30, 20]),
            // One currency with a rate: converted.
            ([["EUR": 100], ["EUR": 10], ["EUR": 10]], ["EUR": 2], ActualsProceeds.planCurrency, [200.0, 20, 20]),
        ] as [([[String: Double]], [String: Double], String?, [Double]?)])
    func currencies(proceeds: [[String: Double]], rates: [String: Double], currency: String?, compared: [Double]?) throws {
        let report = try ActualsComparison.compare(ActualsTests.plan(), periods: Self.withProceeds(proceeds), draws: 100, rates: rates)
        #expect(report.currency == currency)
        if let compared {
            #expect(report.rows.map { $0.proceedsActual ?? -1 }.map { ($0 * 100).rounded() / 100 } == compared)
            #expect(report.rows.allSatisfy { $0.proceedsPlace != nil })
            #expect(report.proceeds.notCompared == nil)
        } else {
            #expect(report.rows.allSatisfy { $0.proceedsActual == nil && $0.proceedsPlace == nil })
            let reason = try #require(report.proceeds.notCompared)
            #expect(reason.contains("EUR, USD"), "names every currency left out: \(reason)")
            #expect(report.notes.contains("note: " + reason))
        }
        var totals: [String: Double] = [:]
        for amounts in proceeds { totals.merge(amounts, uniquingKeysWith: +) }
        #expect(report.proceeds.totals == totals, "every currency's total is kept")
    }

    @Test(
        "A rate for a currency no report has proceeds in after the switch, or one that leaves two currencies without a rate, is refused as a usage error",
        arguments: [
            (
                [["USD": 950], ["USD": 490], ["USD": 385]], ["GBP": 1.2],
                "'--rate GBP=…' is not used: no report has proceeds in GBP (they are in USD)."
            ),
            (
                [["USD": 900, "EUR": 50, "GBP": 10], ["USD": 490], ["USD": 385]], ["EUR": 1.1],
                "'--rate EUR=…' is not used: the proceeds in GBP, USD have no rate between them, so none are compared"
            ),
        ] as [([[String: Double]], [String: Double], String)])
    func unusedRate(proceeds: [[String: Double]], rates: [String: Double], message: String) {
        #expect {
            try ActualsComparison.compare(ActualsTests.plan(), periods: Self.withProceeds(proceeds), draws: 10, rates: rates)
        } throws: { error in
            guard let error = error as? SimulationError else { return false }
            return error.isUsage && error.message == message
        }
    }

    @Test(
        "Contradicted only when the refit's band and the plan's range don't overlap; outside its range is said apart",
        arguments: [
            // The actuals imply 0.02; the refit's band is 0.0154–0.0246.
            (#"{ "distribution": "uniform", "low": 0.021, "high": 0.05 }"#, true, false),
            (#"{ "distribution": "uniform", "low": 0.0246, "high": 0.05 }"#, true, false),
            (#"{ "distribution": "uniform", "low": 0.025, "high": 0.05 }"#, true, true),
            (#"{ "distribution": "triangular", "low": 0.001, "mode": 0.01, "high": 0.016 }"#, true, false),
            (#"{ "distribution": "uniform", "low": 0.01, "high": 0.05 }"#, false, false),
        ])
    func contradiction(conversion: String, outside: Bool, contradicted: Bool) throws {
        let report = try ActualsComparison.compare(ActualsTests.plan(conversion: conversion), periods: ActualsTests.periods, draws: 100)
        let item = try #require(report.implied.first { $0.assumption == .conversion })
        #expect(item.refitBand == 0.0154...0.0246)
        #expect(item.isOutside == outside, "\(conversion)")
        #expect(item.isContradicted == contradicted, "\(conversion)")
    }

    @Test("The refitted verdict is the simulation's verdict with the refit's distributions, and the headline says both")
    func refittedVerdict() throws {
        let plan = try ActualsTests.plan()
        let report = try ActualsComparison.compare(plan, periods: ActualsTests.periods, draws: 2_000, seed: 3)
        // The plan as written, run by the simulator.
        let written = try Simulator.run(plan, options: SimulationOptions(scenarios: ["plan"], draws: 2_000, seed: 3, threads: 2))
        #expect(report.verdictBefore == written.scenarios[0].verdict)
        // The plan with the refit written into it, run by the simulator.
        var refitted = plan
        var settings = try #require(refitted.simulation)
        for refit in report.refits {
            settings.assumptions.removeAll { $0.name == refit.assumption.rawValue }
            settings.assumptions.append(AssumptionValue(name: refit.assumption.rawValue, distribution: refit.after))
        }
        refitted.simulation = settings
        let rerun = try Simulator.run(refitted, options: SimulationOptions(scenarios: ["plan"], draws: 2_000, seed: 3, threads: 2))
        let after = try #require(report.verdictAfter)
        #expect(after == rerun.scenarios[0].verdict)
        #expect(after.probabilityAhead != report.verdictBefore.probabilityAhead || after.medianDifference != report.verdictBefore.medianDifference)
        // The refund rate (5 of 750) is contradicted; the lasting multiple of 4 against 5–12 only outside its range, its
        // refit overlapping it: the headline leads with what is contradicted, then the two verdicts.
        #expect(report.headline.hasPrefix("0.667% of in-app purchases were refunded, against the "), "\(report.headline)")
        #expect(
            report.headline.hasSuffix(
                "with the refit, freemium comes out ahead in \(percent(after.probabilityAhead!)) of draws (was \(percent(report.verdictBefore.probabilityAhead!)))."
            ))
    }

    func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
}
