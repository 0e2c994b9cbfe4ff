import Foundation
import MigratePlan
import MigrateSimulation
import MigrateTestSupport
import Testing

@Suite("The forecast held against published switches", .timeLimit(.minutes(20)))
struct CalibrationTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/calibration")

    @Test("Every case reads, holds only a plan and published outcomes, and quotes an address for each")
    func casesRead() throws {
        let cases = try CalibrationCase.load(folder: Self.folder)
        #expect(cases.count >= 8)
        for item in cases {
            #expect(!item.outcomes.isEmpty || item.verdict != nil, "\(item.id)")
            for outcome in item.outcomes {
                #expect(outcome.source.hasPrefix("http"), "\(item.id): \(outcome.source)")
                #expect(!outcome.quote.isEmpty)
            }
            if let verdict = item.verdict { #expect(verdict.source.hasPrefix("http")) }
            // Only what was known before the switch: the plan's horizon is the outcome's, its assumptions few.
            #expect(PreparedScenario.switchDate(item.plan) != nil, "\(item.id) has a switch")
        }
    }

    @Test("The hit rate simulate quotes is the calibration set's, and the manual's table is this run's")
    func hitRate() throws {
        let results = try Calibration.run(try CalibrationCase.load(folder: Self.folder))
        let summary = CalibrationSummary(results)
        #expect(summary == Calibration.published, "update Calibration.published to \(summary)")
        // About 80% inside P10–P90 is the aim; a set this small wanders either side of it.
        #expect(summary.hitRate >= 0.7 && summary.hitRate <= 0.95, "\(summary.inside) of \(summary.figures)")
        try expectGeneratedSection(CalibrationTable.markdown(results), named: "calibration", in: "Documentation/Migrate.docc/Calibration.md")
    }

    @Test("A figure is inside when it lies between P10 and P90, a floor when P90 reaches it")
    func inside() throws {
        var item = try #require(try CalibrationCase.load(folder: Self.folder).first { $0.id == "ioctocat-2013" })
        let band = try Calibration.run(item).figures[0].band
        item.outcomes = [
            CalibrationOutcome(figure: .freeDownloads, months: 1, value: band.p50, bound: .exact, source: "https://example.com", quote: "median"),
            CalibrationOutcome(
                figure: .freeDownloads, months: 1, value: band.p90 * 1.01, bound: .exact, source: "https://example.com", quote: "above"),
            CalibrationOutcome(
                figure: .freeDownloads, months: 1, value: band.p90 * 0.99, bound: .atLeast, source: "https://example.com", quote: "floor"),
            CalibrationOutcome(
                figure: .freeDownloads, months: 1, value: band.p90 * 1.01, bound: .atLeast, source: "https://example.com", quote: "high floor"),
        ]
        let figures = try Calibration.run(item).figures
        #expect(figures.map(\.inside) == [true, false, true, false])
        #expect(figures[1].above)
    }
}

@Suite("The manual's defaults table is AssumptionDefaults", .timeLimit(.minutes(20)))
struct DefaultsDocumentationTests {
    /// One row per assumption: its default's median, P10–P90 and source, as the code has them.
    static func table() -> String {
        var out = "| assumption | default (median) | P10–P90 | source |\n|---|---|---|---|\n"
        for assumption in SimulationAssumption.allCases {
            let known = AssumptionDefaults.of(assumption)
            let name = assumption == .codeRedemptionRate ? "`\(assumption.rawValue)` (only with `directSales`)" : "`\(assumption.rawValue)`"
            guard let distribution = known.distribution else {
                let range = assumption == .paidDownloadsPerMonth ? "its count's uncertainty (see above)" : "±50%"
                out += "| \(name) | \(known.derivation ?? "") | \(range) | \(known.source) |\n"
                continue
            }
            let median = FigureText.assumptionValue(distribution.median, assumption)
            out += "| \(name) | \(FigureText.describe(distribution)) (\(median)) | \(FigureText.now(distribution, assumption)) | \(known.source) |\n"
        }
        out +=
            "| `commission` (not an assumption: a choice) | `standard`; `smallBusiness` for a switch on or after \(Timestamp.formatDate(Commission.smallBusinessProgramStart)) | — | "
            + "Apple: 30%; 15% for auto-renewable subscriptions after a subscriber's first paid year; `smallBusiness`: 15% on everything (App Store "
            + "Small Business Program, proceeds up to $1M in the previous calendar year, enrolment needed) |\n"
        return out
    }

    @Test("SimulationModel.md's defaults are the code's, word for word")
    func defaults() throws {
        try expectGeneratedSection(Self.table(), named: "defaults", in: "Documentation/Migrate.docc/SimulationModel.md")
    }
}
