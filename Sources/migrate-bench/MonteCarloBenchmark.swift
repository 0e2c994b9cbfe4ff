import Foundation
import MigrateCore
import MigratePlan
import MigrateSimulation
import MigrateSupport

// `migrate-bench montecarlo`: migrate's Monte Carlo against a vectorised NumPy implementation of the same
// model (Benchmarks/montecarlo_numpy.py), on the flagship plan, single-threaded. Agreement first: the same
// uniform draws through both models must give the same monthly proceeds (relative difference under 1e-9),
// and 100,000 draws of each with its own generator the same percentiles, within the sampling and sketch
// error; then the time per draw at 100,000 and 1,000,000 draws, and the ratio (the target: migrate at most a
// third of NumPy's time). NumPy is not a dependency of migrate: without it the comparison is skipped.

/// The compiled model of a prepared scenario, as the NumPy twin reads it.
func monteCarloModelJSON(_ scenario: PreparedScenario) -> String {
    let model = scenario.model
    func number(_ value: Double) -> JSONValue { .number(String(format: "%.17g", value)) }
    func distribution(_ distribution: Distribution) -> JSONValue {
        switch distribution {
        case .point(let value): .members([("kind", .string("point")), ("value", number(value))])
        case .uniform(let low, let high): .members([("kind", .string("uniform")), ("low", number(low)), ("high", number(high))])
        case .triangular(let low, let mode, let high):
            .members([("kind", .string("triangular")), ("low", number(low)), ("mode", number(mode)), ("high", number(high))])
        case .logNormal(let low, let high): .members([("kind", .string("logNormal")), ("low", number(low)), ("high", number(high))])
        }
    }
    let cohorts: [JSONValue] = model.cohorts.map { cohort in
        let kind: String
        switch cohort.kind {
        case .newCustomers: kind = "new"
        case .legacy: kind = "legacy"
        }
        return .members([
            ("kind", .string(kind)), ("share", number(cohort.share)),
            (
                "offers",
                .array(
                    cohort.offers.map { offer in
                        .members([
                            ("price", number(offer.price)), ("weight", number(offer.weight)), ("reference", number(offer.referencePrice)),
                            ("slot", offer.slot.map { .integer($0) } ?? .null),
                        ])
                    })
            ),
        ])
    }
    let subscriptions: [JSONValue] = model.subscriptions.map { offer in
        .members([
            ("slot", .integer(offer.slot ?? 0)), ("price", number(offer.price)), ("periodMonths", .integer(offer.periodMonths ?? 1)),
            ("chargesPerPeriod", number(offer.chargesPerPeriod)),
        ])
    }
    return JSONWriter().string(
        from: .members([
            ("months", .integer(model.months)), ("cut", number(model.commission.rate)),
            ("laterCut", number(min(model.commission.rate, Commission.afterFirstYearRate))),
            ("paidMonthsOnSale", number(model.paidMonthsOnSale)), ("derivedLegacy", .bool(scenario.medians.legacyBuyers == nil)),
            ("tieTolerance", number(MonteCarlo.tieTolerance)), ("season", .array(model.season.map(number))),
            ("assumptions", .array(scenario.assumptions.map { .string($0.assumption.rawValue) })),
            ("distributions", .array(scenario.assumptions.map { distribution($0.distribution) })),
            ("cohorts", .array(cohorts)), ("subscriptions", .array(subscriptions)),
        ]))
}

/// Runs the NumPy twin; nil (with the reason) when Python or NumPy is missing or it fails.
func runNumPyTwin(script: URL, _ arguments: [String]) -> (output: String?, problem: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + arguments
    var environment = ProcessInfo.processInfo.environment
    // Set on some machines for old OpenBLAS builds, they slow a current NumPy: unset for this command only.
    environment["OPENBLAS_CORETYPE"] = nil
    environment["OPENBLAS_L2_SIZE"] = nil
    for name in ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"] { environment[name] = "1" }
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
        try process.run()
    } catch {
        return (nil, "python3 cannot be run: \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problem = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        let text = String(decoding: problem, as: UTF8.self)
        return (nil, text.contains("No module named 'numpy'") ? "NumPy is not installed" : "the NumPy twin failed: \(text.suffix(400))")
    }
    return (String(decoding: data, as: UTF8.self), nil)
}

func monteCarloBenchmark(root: URL) {
    let url = root.appendingPathComponent("Examples/tilt-to-live-hd/migration.json")
    let script = root.appendingPathComponent("Benchmarks/montecarlo_numpy.py")
    guard let data = FileManager.default.contents(atPath: url.path), let plan = PlanDecoder.decode(bytes: Array(data)).plan,
        let scenario = try? PreparedScenario.prepare(plan, scenario: nil)
    else {
        print("montecarlo: skipped, \(url.path) not found (run from the repository)")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-montecarlo-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let modelFile = folder.appendingPathComponent("model.json")
    try? Data(monteCarloModelJSON(scenario).utf8).write(to: modelFile)
    let model = scenario.model
    let months = model.months
    print(
        "montecarlo: the flagship plan (Tilt to Live HD), \(months) months, \(model.cohorts.count) cohorts, single-threaded; NumPy twin: Benchmarks/montecarlo_numpy.py"
    )
    print(
        "  the NumPy runs unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (set on some machines for old OpenBLAS builds) and set OPENBLAS_NUM_THREADS=1")

    // 1. The same uniforms through both models.
    let checkDraws = 4_096
    var generator = SeededGenerator(seed: 7)
    let samplers = scenario.assumptions.map {
        (assumption: $0.assumption, sampler: DistributionSampler($0.distribution), derived: $0.origin.isDerived)
    }
    var uniforms: [Double] = []
    var expected: [Double] = []
    var values = scenario.medians
    var paid = [Double](repeating: 0, count: months)
    var freemium = paid
    var ledger = [Double](repeating: 0, count: model.scratchSize)
    for _ in 0..<checkDraws {
        for entry in samplers {
            let unit = max(generator.nextUnit(), 0x1p-60)
            uniforms.append(unit)
            if entry.derived { values[entry.assumption] = nil } else { values.set(entry.assumption, entry.sampler.quantile(unit)) }
        }
        model.evaluate(values, paid: &paid, freemium: &freemium, ledger: &ledger)
        expected += paid + freemium
    }
    func write(_ numbers: [Double], _ name: String) -> URL {
        let file = folder.appendingPathComponent(name)
        let bytes = numbers.withUnsafeBufferPointer { Data(buffer: $0) }  // little-endian on every platform migrate builds for
        try? bytes.write(to: file)
        return file
    }
    let uniformFile = write(uniforms, "uniforms.f64")
    let expectedFile = write(expected, "expected.f64")
    let check = runNumPyTwin(script: script, ["check", modelFile.path, uniformFile.path, expectedFile.path])
    var numpyAvailable = check.output != nil
    if let output = check.output, let result = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
        let paidError = result["paid"] as? Double, let freemiumError = result["freemium"] as? Double
    {
        let agrees = max(paidError, freemiumError) < 1e-9
        print(
            "  agreement, the same \(Limits.grouped(checkDraws)) draws' uniforms through both: largest relative difference "
                + String(
                    format: "%.1e (staying paid), %.1e (freemium), month by month: %@ (tolerance 1e-9)", paidError, freemiumError,
                    agrees ? "agree" : "DISAGREE"))
        if !agrees { numpyAvailable = false }
    } else {
        print("  NumPy comparison skipped: \(check.problem ?? "unreadable output from the twin")")
        numpyAvailable = false
    }

    // 2. Each with its own generator: the same distribution.
    func migrateRun(_ draws: Int, repeats: Int) -> (seconds: Double, summary: MonteCarloSummary) {
        var best = Double.infinity
        var summary: MonteCarloSummary?
        for repeat_ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            summary = MonteCarlo.run(scenario, draws: draws, seed: UInt64(repeat_ + 1), threads: 1)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (best, summary!)
    }
    func numpyRun(_ draws: Int, repeats: Int) -> (seconds: Double, summary: [String: Any])? {
        guard numpyAvailable, let output = runNumPyTwin(script: script, ["time", modelFile.path, String(draws), "1", String(repeats)]).output,
            let result = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], let seconds = result["seconds"] as? Double,
            let summary = result["summary"] as? [String: Any]
        else { return nil }
        return (seconds, summary)
    }
    _ = MonteCarlo.run(scenario, draws: 10_000, seed: 1, threads: 1)  // warm up
    var rows: [(draws: Int, migrate: Double, numpy: Double?)] = []
    // The fastest of several runs on each side: this machine's speed wanders by a third from second to second.
    let runs = [(draws: 100_000, repeats: 5), (draws: 1_000_000, repeats: 3)]
    for (draws, repeats) in runs {
        let ours = migrateRun(draws, repeats: repeats)
        let theirs = numpyRun(draws, repeats: repeats)
        if draws == 100_000, let theirs {
            // Percentiles at the horizon and the shares of draws: within the sketch's 0.5% and the sampling error.
            func horizon(_ key: String, _ column: Int) -> Double? {
                (theirs.summary[key] as? [[Double]])?[months - 1][column]
            }
            let last = months - 1
            let comparisons: [(String, Double, Double?, Double, Bool)] = [
                ("cumulative freemium P10", ours.summary.cumulativeFreemium[last].p10, horizon("cumulativeFreemium", 0), 0.02, true),
                ("cumulative freemium P50", ours.summary.cumulativeFreemium[last].p50, horizon("cumulativeFreemium", 1), 0.02, true),
                ("cumulative freemium P90", ours.summary.cumulativeFreemium[last].p90, horizon("cumulativeFreemium", 2), 0.02, true),
                ("cumulative paid P50", ours.summary.cumulativePaid[last].p50, horizon("cumulativePaid", 1), 0.02, true),
                (
                    "P(freemium ahead)", ours.summary.probabilityFreemiumWins,
                    (theirs.summary["freemiumWins"] as? Double).map { $0 / Double(draws) }, 0.01, false
                ),
            ]
            var agree = true
            print(
                "  agreement, \(Limits.grouped(draws)) draws each from its own generator (tolerance: 2% relative for percentiles, 0.01 for shares):")
            for (name, mine, twin, tolerance, relative) in comparisons {
                guard let twin else { continue }
                let difference = relative ? abs(mine - twin) / max(abs(twin), 1e-9) : abs(mine - twin)
                if difference > tolerance { agree = false }
                print(
                    "    " + name.padding(toLength: 26, withPad: " ", startingAt: 0)
                        + String(format: "migrate %12.4f  NumPy %12.4f  %@", mine, twin, difference <= tolerance ? "agree" : "DISAGREE"))
            }
            if !agree { print("  the distributions disagree: the timings below compare different models") }
        }
        rows.append((draws, ours.seconds, theirs?.seconds))
    }
    print("  fastest of " + runs.map { "\($0.repeats) runs at \(Limits.grouped($0.draws))" }.joined(separator: " and ") + " draws, each side")
    print("  draws        migrate µs/draw   NumPy µs/draw   migrate ÷ NumPy (target: at most 0.33)")
    for row in rows {
        let ours = row.migrate / Double(row.draws) * 1e6
        var line = "  " + Limits.grouped(row.draws).padding(toLength: 13, withPad: " ", startingAt: 0) + String(format: "%14.3f", ours)
        if let numpy = row.numpy {
            let theirs = numpy / Double(row.draws) * 1e6
            line += String(format: "  %14.3f  %16.2f", theirs, ours / theirs)
        } else {
            line += "               —                 —"
        }
        print(line)
    }
}
