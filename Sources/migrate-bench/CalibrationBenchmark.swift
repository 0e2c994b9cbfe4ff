import Foundation
import MigratePlan
import MigrateSimulation

// `migrate-bench calibrate`: the forecast held against real switches whose numbers before and after were published
// (Tests/Fixtures/calibration, one folder per switch: the plan of only what was known before it, and the outcome).
// For each published figure: the forecast's P10–P90 and whether the figure fell inside; for each published answer,
// whether the verdict agreed; then the hit rate. It takes a second or two, so CI runs it.
//
// `calibrate --before` runs the same cases under the model as it was before the calibration set existed, emulated
// with today's engine: the former default ranges (launch 10–90×, half-life 0.5–2 months, lasting 5–20×,
// conversion 1–4%), no tax in the price, no season, the paid rate taken as exact, and conversion quoted at each
// offer's own price (an elasticity of 0, since every offer then sold at its written price).

/// A case's plan under the former defaults, for `calibrate --before`.
func formerDefaults(_ item: CalibrationCase) -> CalibrationCase {
    var item = item
    var settings = item.plan.simulation ?? SimulationSettings()
    func set(_ assumption: SimulationAssumption, _ distribution: Distribution, force: Bool = false) {
        let exists = settings.assumptions.contains { $0.name == assumption.rawValue }
        if exists && !force { return }
        settings.assumptions.removeAll { $0.name == assumption.rawValue }
        settings.assumptions.append(AssumptionValue(name: assumption.rawValue, distribution: distribution))
    }
    set(.launchMultiple, .logNormal(low: 10, high: 90))
    set(.burstHalfLifeMonths, .logNormal(low: 0.5, high: 2))
    set(.lastingMultiple, .logNormal(low: 5, high: 20))
    set(.conversion, .logNormal(low: 0.01, high: 0.04))
    set(.refundRate, .uniform(low: 0.01, high: 0.05))
    set(.priceElasticity, .point(0), force: true)
    set(.taxInPrice, .point(0), force: true)
    if let rate = item.plan.installBase?.averagePaidPerMonth?.rate { set(.paidDownloadsPerMonth, .point(rate)) }
    settings.seasonality = nil
    item.plan.simulation = settings
    return item
}

func calibrationBenchmark(root: URL, before: Bool = false) -> Bool {
    let folder = root.appendingPathComponent("Tests/Fixtures/calibration")
    let cases: [CalibrationCase]
    let results: [CalibrationResult]
    let elapsed: Double
    do {
        cases = try CalibrationCase.load(folder: folder).map { before ? formerDefaults($0) : $0 }
        let start = DispatchTime.now().uptimeNanoseconds
        results = try Calibration.run(cases)
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } catch let error as CalibrationError {
        print("calibrate: \(error)")
        return false
    } catch {
        print("calibrate: \(error)")
        return false
    }
    func figure(_ value: Double) -> String {
        if !value.isFinite { return "—" }
        if abs(value) >= 100 { return Limits.grouped(Int(value.rounded())) }
        return String(format: abs(value) >= 10 ? "%.1f" : "%.2f", value)
    }
    print(
        "calibrate\(before ? " --before (the former defaults, emulated)" : ""): \(cases.count) published switches (Tests/Fixtures/calibration), \(Calibration.draws) draws each, seed \(Calibration.seed), \(String(format: "%.2f", elapsed)) s"
    )
    for result in results {
        let verdict: String
        switch (result.publishedAhead, result.verdictRight) {
        case (let ahead?, let right?):
            verdict =
                "published: freemium \(ahead ? "ahead" : "behind"); forecast ahead in \(FigureText.percent(result.probabilityAhead)) — \(right ? "right" : "WRONG")"
        default: verdict = "forecast ahead in \(FigureText.percent(result.probabilityAhead)); no published answer"
        }
        print("  \(result.id) (\(result.app), \(result.months) month\(result.months == 1 ? "" : "s")): \(verdict)")
        for item in result.figures {
            let outcome = item.outcome
            let value = (outcome.bound == .atLeast ? "≥ " : "") + figure(outcome.value)
            let place = item.inside ? "inside" : (item.above ? "ABOVE" : "BELOW")
            print(
                "    \(outcome.figure.rawValue), month\(outcome.months == 1 ? " 1" : "s 1–\(outcome.months)"): \(value) against P10–P90 \(figure(item.band.p10))–\(figure(item.band.p90)) (P50 \(figure(item.band.p50))): \(place)"
            )
        }
    }
    let summary = CalibrationSummary(results)
    print(
        "calibrate: \(summary.inside) of \(summary.figures) published figures inside P10–P90 (hit rate \(String(format: "%.0f%%", summary.hitRate * 100)); the target is about 80%), verdict right in \(summary.verdictsRight) of \(summary.verdicts)"
    )
    if !before && summary != Calibration.published {
        print(
            "calibrate: Calibration.published (\(Calibration.published.inside) of \(Calibration.published.figures), \(Calibration.published.verdictsRight) of \(Calibration.published.verdicts)), which simulate quotes, is not this run: update it"
        )
        return false
    }
    return true
}
