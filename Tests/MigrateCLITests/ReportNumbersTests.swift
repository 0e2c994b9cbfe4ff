import MigratePlan
import MigrateReport
import MigrateSimulation
import Testing

@testable import MigrateCLI

/// The report writes numbers as `simulate` does: one table of values, both formatters, the same text.
@Suite struct FigureTextTests {
    static let values: [Double] = [
        0, 0.4, 0.5, 1, 12.5, 999.5, 1_000, -43_550.2, 1_234_567.89, 0.0004, 0.02, 0.9996, 3.14159, -0.035, .infinity, .nan,
    ]

    @Test(arguments: values)
    func moneyNumberAndPercentAsSimulatePrintsThem(_ value: Double) {
        #expect(FigureText.money(value) == SimulationRenderer.money(value))
        #expect(FigureText.number(value) == SimulationRenderer.number(value))
        if value.isFinite { #expect(FigureText.percent(value) == SimulationRenderer.percent(value)) }
    }

    @Test(arguments: [
        Distribution.point(3), .uniform(low: 0.01, high: 0.05), .triangular(low: 2.21, mode: 3, high: 3.78), .logNormal(low: 0.5, high: 2),
    ])
    func distributionsAsSimulatePrintsThem(_ distribution: Distribution) {
        #expect(FigureText.describe(distribution) == SimulationRenderer.describe(distribution))
        for assumption in SimulationAssumption.allCases {
            #expect(FigureText.now(distribution, assumption) == SimulationRenderer.now(distribution, assumption))
            #expect(!FigureText.inWords(distribution, assumption).isEmpty)
        }
    }

    @Test func breakEvenAsSimulatePrintsIt() {
        for month in [nil, 1, 7, 24] as [Int?] { #expect(FigureText.breakEven(month) == SimulationRenderer.breakEven(month)) }
    }
}
