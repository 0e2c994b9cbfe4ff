import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan
import MigrateSupport

// The matrix benchmark: rows, lower bound and time for the standard covering-array models, beside the
// best-known sizes (with their source), PICT's sizes and times, and the rows migrate made before
// constructions and bounds, which no model may exceed; then PICT's constrained
// disk-partition model and the migration model of every example plan.
// Run with: swift run -c release migrate-bench matrix [EFFORT]; PICT=/path/to/pict measures PICT beside it.

struct StandardModel {
    var name: String
    var strength: Int
    var levels: [Int]
    /// The smallest array published or proven, and where it comes from.
    var bestKnown: String
    var source: String
    /// PICT's rows and fastest whole run (see `pictRecording`).
    var pict: String
    var pictMilliseconds: Double?
    /// jenny's rows (see `jennyRecording`).
    var jenny: Int
    /// migrate's rows at the default settings before the constructions (November 2026), on the same machine.
    var before: Int
}

func levels(_ groups: (Int, Int)...) -> [Int] { groups.flatMap { Array(repeating: $0.0, count: $0.1) } }

let colbourn = "Colbourn's CA tables"
let standardModels: [StandardModel] = [
    StandardModel(
        name: "3^4", strength: 2, levels: levels((3, 4)), bestKnown: "9", source: "OA, Bush 1952", pict: "12", pictMilliseconds: 1.47, jenny: 12,
        before: 9),
    StandardModel(
        name: "3^13", strength: 2, levels: levels((3, 13)), bestKnown: "15", source: colbourn, pict: "19", pictMilliseconds: 1.70, jenny: 19,
        before: 15),
    StandardModel(
        name: "2^10 3^5", strength: 2, levels: levels((2, 10), (3, 5)), bestKnown: "≥11", source: colbourn, pict: "14", pictMilliseconds: 1.65,
        jenny: 17,
        before: 12),
    StandardModel(
        name: "2^100", strength: 2, levels: levels((2, 100)), bestKnown: "10", source: "Kleitman–Spencer 1973", pict: "16", pictMilliseconds: 8.13,
        jenny: 16,
        before: 11),
    StandardModel(
        name: "4^15 3^17 2^29", strength: 2, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "29", source: colbourn, pict: "38",
        pictMilliseconds: 8.37, jenny: 39, before: 32),
    StandardModel(
        name: "4^1 3^39 2^35", strength: 2, levels: levels((4, 1), (3, 39), (2, 35)), bestKnown: "21", source: colbourn, pict: "28",
        pictMilliseconds: 8.65, jenny: 29, before: 23),
    StandardModel(
        name: "10^20", strength: 2, levels: levels((10, 20)), bestKnown: "~180", source: colbourn, pict: "213", pictMilliseconds: 26.19, jenny: 196,
        before: 196),
    StandardModel(
        name: "5^10", strength: 2, levels: levels((5, 10)), bestKnown: "", source: "", pict: "45", pictMilliseconds: 1.97, jenny: 45, before: 39),
    StandardModel(
        name: "6^10", strength: 2, levels: levels((6, 10)), bestKnown: "high 30s", source: "published constructions", pict: "66",
        pictMilliseconds: 2.40, jenny: 63, before: 56),
    StandardModel(
        name: "5^6", strength: 2, levels: levels((5, 6)), bestKnown: "25", source: "OA, Bush 1952", pict: "38", pictMilliseconds: 1.60, jenny: 38,
        before: 25),
    StandardModel(
        name: "7^8", strength: 2, levels: levels((7, 8)), bestKnown: "49", source: "OA, Bush 1952", pict: "80", pictMilliseconds: 2.33, jenny: 76,
        before: 69),
    StandardModel(
        name: "5^6", strength: 3, levels: levels((5, 6)), bestKnown: "125", source: "OA, Bush 1952", pict: "217", pictMilliseconds: 5.63, jenny: 213,
        before: 192),
    StandardModel(
        name: "3^8", strength: 4, levels: levels((3, 8)), bestKnown: "", source: "", pict: "187", pictMilliseconds: 11.29, jenny: 185, before: 175),
    StandardModel(
        name: "4^15 3^17 2^29", strength: 3, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "", source: "", pict: "217",
        pictMilliseconds: 1913, jenny: 200, before: 209),
    StandardModel(
        name: "3^13", strength: 3, levels: levels((3, 13)), bestKnown: "", source: "", pict: "74", pictMilliseconds: 7.72, jenny: 72, before: 68),
    StandardModel(
        name: "2^10 3^5", strength: 3, levels: levels((2, 10), (3, 5)), bestKnown: "", source: "", pict: "45", pictMilliseconds: 5.00, jenny: 49,
        before: 42),
]

/// PICT's documented example (doc/pict.md, "Constraints"): a disk partition with two conditional constraints.
let diskPartitionModel = """
    Type:          Primary, Logical, Single, Span, Stripe, Mirror, RAID-5
    Size:          10, 100, 500, 1000, 5000, 10000, 40000
    Format method: quick, slow
    File system:   FAT, FAT32, NTFS
    Cluster size:  512, 1024, 2048, 4096, 8192, 16384, 32768, 65536
    Compression:   on, off
    IF [File system] = "FAT"   THEN [Size] <= 4096;
    IF [File system] = "FAT32" THEN [Size] <= 32000;
    """

/// PICT's rows and fastest whole run on its disk-partition model, measured with the standard models.
let diskPartitionPICT = (rows: "63", milliseconds: 2.06)

/// The constrained models' rows before the constructions, by name.
let constrainedBefore: [String: Int] = [
    "PICT disk partition": 56, "plan inkwell-universal": 46, "plan pocket-ledger": 43, "plan quill-writer": 39, "plan server-pal": 37,
    "plan seven-minute-workout": 33, "plan tally-two-switches": 43, "plan tilt-to-live-hd": 37,
]

/// Wall and CPU (the process's: both cores when the greedy restarts run at once) milliseconds of one call.
func milliseconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    func cpuNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let startCPU = cpuNanoseconds()
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, (cpuNanoseconds() - startCPU) / 1e6)
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

/// Whether migrate's time keeps the bound against PICT's whole run: "yes" at or under PICT's fastest,
/// "no" over it, "—" with no PICT time. `startMilliseconds` is added for a bound on the whole run (the
/// largest 3-wise model's wall time).
func pictBound(_ milliseconds: Double, pict: Double?, startMilliseconds: Double = 0) -> String {
    guard let pict else { return "—" }
    return milliseconds + startMilliseconds <= pict ? "yes" : "no"
}

/// The runs `migrate-bench matrix` takes the fastest of, for a model under 200 ms.
let matrixRuns = 21

func matrixBenchmark(effort: Int?) {
    let efforts = effort.map { [0, $0] } ?? [0]
    // PICT measured here and now, when `PICT` names its binary; its recorded times otherwise.
    let livePICT = ProcessInfo.processInfo.environment["PICT"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    // jenny's rows measured here and now, when `JENNY` names its binary; as recorded otherwise.
    let liveJenny = ProcessInfo.processInfo.environment["JENNY"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    // The process start first: the bound on the largest 3-wise model is for the whole run.
    var startMilliseconds = 0.0
    if FileManager.default.isExecutableFile(atPath: binary.path) {
        startMilliseconds = spawnTimes(binary.path, ["--version"]).median * 1000
    }
    var header = [
        pad("model", 26), pad("t", 2), pad("bound", 6), pad("best (source)", 34), pad("PICT", 5), pad("PICT ms", 8), pad("jenny", 6),
        pad("before", 7),
    ]
    for level in efforts {
        header += [pad("rows", 5), pad(level == 0 ? "ms" : "ms (effort \(level))", 10), pad("cpu ms", 8)]
        if level == 0 { header.append("≤ PICT") }
    }
    print(header.joined(separator: " "))
    var regressions: [String] = []
    var bounds: [String: Int] = [:]
    // The models where migrate's rows at the default effort are as few as the other tools' or fewer, and those where not.
    var fewest = 0
    var notFewest: [String] = []
    var rowsAtDefault = 0
    func measure(_ name: String, before: Int?, pict: Double?, wholeRun: Bool, _ generate: (Int) throws -> CoveringArray) -> [String] {
        var cells: [String] = []
        for level in efforts {
            var array: CoveringArray?
            // The fastest of `matrixRuns` for a model that takes under 200 ms (the machine is shared, and
            // PICT's time is its fastest too); one run otherwise.
            var time = milliseconds { array = try? generate(level) }
            if time.wall < 200 {
                for _ in 1..<matrixRuns {
                    let again = milliseconds { _ = try? generate(level) }
                    time = (min(time.wall, again.wall), min(time.cpu, again.cpu))
                }
            }
            let rows = array?.rows.count ?? -1
            if level == 0 { rowsAtDefault = rows }
            if let before, rows > before || rows < 0 { regressions.append("\(name): \(rows) rows (effort \(level)), \(before) before") }
            cells += [pad(String(rows), 5), pad(String(format: "%.1f", time.wall), 10), pad(String(format: "%.1f", time.cpu), 8)]
            if level == 0 {
                let bound = pictBound(time.wall, pict: pict, startMilliseconds: wholeRun ? startMilliseconds : 0)
                bounds[bound, default: 0] += 1
                cells.append(bound)
            }
        }
        return cells
    }
    /// PICT's rows and time for a model: measured now with `livePICT`, or as recorded.
    func pict(text: String, strength: Int, recorded: (rows: String, milliseconds: Double?)) -> (rows: String, milliseconds: Double?) {
        guard let livePICT, recorded.milliseconds != nil else { return recorded }
        let runs = recorded.milliseconds! > 1000 ? 3 : strength == 2 ? 40 : 20
        guard let measured = measurePICT(livePICT, text: text, strength: strength, runs: runs) else { return ("?", nil) }
        return (String(measured.rows), measured.milliseconds)
    }
    func formatPICT(_ milliseconds: Double?) -> String {
        guard let milliseconds else { return "—" }
        return String(format: milliseconds >= 100 ? "%.0f" : "%.2f", milliseconds)
    }
    for model in standardModels {
        let coverage = CoverageModel(levelCounts: model.levels)
        let bound = CoverageBound.lowerBound(levelCounts: model.levels, strength: model.strength)
        let best = model.bestKnown.isEmpty ? "—" : "\(model.bestKnown) (\(model.source))"
        let reference = pict(text: pictModelText(levels: model.levels), strength: model.strength, recorded: (model.pict, model.pictMilliseconds))
        let jenny = liveJenny.flatMap { measureJenny($0, levels: model.levels, strength: model.strength) } ?? model.jenny
        var cells = [
            pad(model.name, 26), pad(String(model.strength), 2), pad(String(bound), 6), pad(best, 34),
            pad(reference.rows.isEmpty ? "—" : reference.rows, 5),
            pad(formatPICT(reference.milliseconds), 8), pad(String(jenny), 6), pad(String(model.before), 7),
        ]
        // PICT's time on the largest 3-wise model is compared with migrate's whole run (the issue's bound).
        let wholeRun = (reference.milliseconds ?? 0) > 1000
        let name = "\(model.name) t=\(model.strength)"
        cells += measure(name, before: model.before, pict: reference.milliseconds, wholeRun: wholeRun) { level in
            try CoveringArrayGenerator(model: coverage, options: GeneratorOptions(strength: model.strength, effort: level)).generate()
        }
        if rowsAtDefault >= 0 && rowsAtDefault <= min(Int(reference.rows) ?? .max, jenny) {
            fewest += 1
        } else {
            notFewest.append("\(name): \(rowsAtDefault) rows, PICT \(reference.rows), jenny \(jenny)")
        }
        print(cells.joined(separator: " "))
    }
    func constrainedRow(_ name: String, pict: (rows: String, milliseconds: Double?) = ("", nil), _ generate: (Int) throws -> CoveringArray) {
        let bound = (try? generate(0))?.lowerBound ?? 0
        var cells = [
            pad(name, 26), pad("2", 2), pad(String(bound), 6), pad("—", 34), pad(pict.rows.isEmpty ? "—" : pict.rows, 5),
            pad(formatPICT(pict.milliseconds), 8), pad("—", 6),
        ]
        cells.append(pad(constrainedBefore[name].map(String.init) ?? "—", 7))
        cells += measure(name, before: constrainedBefore[name], pict: pict.milliseconds, wholeRun: false, generate)
        if let pictRows = Int(pict.rows) {
            if rowsAtDefault >= 0 && rowsAtDefault <= pictRows {
                fewest += 1
            } else {
                notFewest.append("\(name): \(rowsAtDefault) rows, PICT \(pictRows)")
            }
        }
        print(cells.joined(separator: " "))
    }
    if let model = PICTModel.parse(diskPartitionModel).model {
        constrainedRow("PICT disk partition", pict: pict(text: diskPartitionModel, strength: 2, recorded: diskPartitionPICT)) { level in
            try model.generate(options: GeneratorOptions(strength: 2, effort: level))
        }
    }
    let examples = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted()
    for name in names {
        let url = examples.appendingPathComponent(name).appendingPathComponent("migration.json")
        guard let data = FileManager.default.contents(atPath: url.path), let plan = PlanDecoder.decode(bytes: Array(data)).plan else { continue }
        constrainedRow("plan " + name) { level in
            try PlanFactorModel(plan: plan).matrix(options: GeneratorOptions(strength: 2, effort: level))
        }
    }
    if startMilliseconds > 0 {
        print("migrate's process start (migrate --version): \(String(format: "%.1f", startMilliseconds)) ms median of 30 runs")
    }
    print(
        "PICT: " + (livePICT.map { "\($0), measured now: the fastest of 40 whole runs (20 at strengths 3 and 4, 3 over a second)" } ?? pictRecording)
            + ".")
    print("jenny: " + (liveJenny.map { "\($0), run now" } ?? jennyRecording) + ".")
    print(
        "Fewest rows at the default effort (as few as PICT's and jenny's, or fewer) on \(fewest) of \(fewest + notFewest.count) models with "
            + "another tool's rows (goal: all)" + (notFewest.isEmpty ? "." : "; not on " + notFewest.joined(separator: "; ") + "."))
    print(
        "migrate's times are in-process (no process start), the fastest of \(matrixRuns) runs under 200 ms: wall, and the process's CPU "
            + "(both cores while the greedy restarts run at once); 'before' is migrate's rows at the default settings before the "
            + "constructions (November 2026)."
    )
    print(
        "≤ PICT: migrate's wall time is at most PICT's fastest whole run (yes) or not (no); for the 3-wise model over a second, "
            + "migrate's whole run (in-process plus the process start) against PICT's. "
            + bounds.filter { $0.key != "—" }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    )
    pictExamplesBenchmark(binary: binary, root: repositoryRoot, pict: livePICT)
    if regressions.isEmpty {
        print("No model has more rows than before.")
    } else {
        print("More rows than before: " + regressions.joined(separator: "; "))
        exit(1)
    }
}

/// `matrix random [N] [SEED]`: N seeded random pairwise models without constraints (3 to 62 factors of 2
/// to 12 levels), each with its rows, lower bound and time (in-process, best of 3) at the default settings,
/// then the totals. The models depend only on N and SEED, so two builds compare line by line: run it in
/// each checkout and diff the rows.
func randomMatrixBenchmark(count: Int, seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var totalRows = 0
    var totalMilliseconds = 0.0
    print([pad("model", 56), pad("rows", 5), pad("bound", 6), "ms"].joined(separator: " "))
    for _ in 0..<count {
        let factors = Int(random.next() % 60) + 3
        let most = Int(random.next() % 11) + 2
        let levels = (0..<factors).map { _ in Int(random.next() % UInt64(most - 1)) + 2 }
        var array: CoveringArray?
        var best = Double.infinity
        do {
            for _ in 0..<3 {
                let time = try milliseconds { array = try CoveringArrayGenerator(model: CoverageModel(levelCounts: levels)).generate() }
                best = min(best, time.wall)
            }
        } catch {
            // Never expected (no constraints); said rather than left out of the totals unnoticed.
            print("\(levels): \(error)")
            continue
        }
        guard let array else { continue }
        // Written as PICT-style exponents, largest level first: "4^15 3^17 2^29".
        let counts = Dictionary(grouping: levels, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { $0.0 > $1.0 }
        let name = counts.map { "\($0.0)^\($0.1)" }.joined(separator: " ")
        print(
            [pad(name, 56), pad(String(array.rows.count), 5), pad(String(array.lowerBound), 6), String(format: "%.1f", best)].joined(separator: " "))
        totalRows += array.rows.count
        totalMilliseconds += best
    }
    print("\(count) random models (seed \(seed)): \(totalRows) rows, \(String(format: "%.0f", totalMilliseconds)) ms")
}

/// `matrix model FILE [T] [RUNS]`: one model in PICT's format, generated RUNS times in-process at
/// strength T (default 2 and 21): its rows, and the fastest and median wall times. For comparing a
/// model's time with another tool's whole run, or two builds on one model.
func singleModelBenchmark(path: String, strength: Int, runs: Int) {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        print("matrix model: cannot read \(path)")
        exit(66)
    }
    let parsed = PICTModel.parse(text)
    guard let model = parsed.model else {
        print("matrix model: \(path) is not a model migrate reads: \(parsed.errors.map(\.description).joined(separator: "; "))")
        exit(65)
    }
    var times: [Double] = []
    var rows = -1
    for _ in 0..<max(runs, 1) {
        times.append(milliseconds { rows = (try? model.generate(options: GeneratorOptions(strength: strength)))?.rows.count ?? -1 }.wall)
    }
    times.sort()
    let fastest = String(format: "%.2f", times[0])
    let median = String(format: "%.2f", times[times.count / 2])
    print("\(path), t=\(strength): \(rows) rows; fastest \(fastest) ms, median \(median) ms of \(times.count) runs in-process")
}
