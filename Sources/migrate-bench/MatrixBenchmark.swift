import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan

// The matrix benchmark: rows, lower bound and time for the standard covering-array models, beside the
// best-known sizes (with their source), PICT's sizes and times, and the rows migrate made before
// constructions and bounds, which no model may exceed; then PICT's constrained
// disk-partition model and the migration model of every example plan.
// Run with: swift run -c release migrate-bench matrix [EFFORT]

struct StandardModel {
    var name: String
    var strength: Int
    var levels: [Int]
    /// The smallest array published or proven, and where it comes from.
    var bestKnown: String
    var source: String
    /// PICT's rows and time, measured 2026-11 on a 2-core Linux machine with PICT c3dad2b;
    /// "2–5" where only the range of PICT's times on the small models was recorded.
    var pict: String
    var pictMilliseconds: String
    /// migrate's rows at the default settings before the constructions (November 2026), on the same machine.
    var before: Int
}

func levels(_ groups: (Int, Int)...) -> [Int] { groups.flatMap { Array(repeating: $0.0, count: $0.1) } }

let colbourn = "Colbourn's CA tables"
let standardModels: [StandardModel] = [
    StandardModel(
        name: "3^4", strength: 2, levels: levels((3, 4)), bestKnown: "9", source: "OA, Bush 1952", pict: "12", pictMilliseconds: "2–5", before: 9),
    StandardModel(
        name: "3^13", strength: 2, levels: levels((3, 13)), bestKnown: "15", source: colbourn, pict: "19", pictMilliseconds: "2–5", before: 15),
    StandardModel(
        name: "2^10 3^5", strength: 2, levels: levels((2, 10), (3, 5)), bestKnown: "≥11", source: colbourn, pict: "14", pictMilliseconds: "2–5",
        before: 12),
    StandardModel(
        name: "2^100", strength: 2, levels: levels((2, 100)), bestKnown: "10", source: "Kleitman–Spencer 1973", pict: "16", pictMilliseconds: "2–5",
        before: 11),
    StandardModel(
        name: "4^15 3^17 2^29", strength: 2, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "29", source: colbourn, pict: "38",
        pictMilliseconds: "2–5", before: 32),
    StandardModel(
        name: "4^1 3^39 2^35", strength: 2, levels: levels((4, 1), (3, 39), (2, 35)), bestKnown: "21", source: colbourn, pict: "28",
        pictMilliseconds: "2–5", before: 23),
    StandardModel(
        name: "10^20", strength: 2, levels: levels((10, 20)), bestKnown: "~180", source: colbourn, pict: "213", pictMilliseconds: "2–5", before: 196),
    StandardModel(name: "5^10", strength: 2, levels: levels((5, 10)), bestKnown: "", source: "", pict: "", pictMilliseconds: "", before: 39),
    StandardModel(
        name: "6^10", strength: 2, levels: levels((6, 10)), bestKnown: "high 30s", source: "published constructions", pict: "", pictMilliseconds: "",
        before: 56),
    StandardModel(
        name: "5^6", strength: 2, levels: levels((5, 6)), bestKnown: "25", source: "OA, Bush 1952", pict: "", pictMilliseconds: "", before: 25),
    StandardModel(
        name: "7^8", strength: 2, levels: levels((7, 8)), bestKnown: "49", source: "OA, Bush 1952", pict: "", pictMilliseconds: "", before: 69),
    StandardModel(
        name: "5^6", strength: 3, levels: levels((5, 6)), bestKnown: "125", source: "OA, Bush 1952", pict: "217", pictMilliseconds: "", before: 192),
    StandardModel(name: "3^8", strength: 4, levels: levels((3, 8)), bestKnown: "", source: "", pict: "", pictMilliseconds: "", before: 175),
    StandardModel(
        name: "4^15 3^17 2^29", strength: 3, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "", source: "", pict: "",
        pictMilliseconds: "2500", before: 209),
    StandardModel(name: "3^13", strength: 3, levels: levels((3, 13)), bestKnown: "", source: "", pict: "", pictMilliseconds: "", before: 68),
    StandardModel(
        name: "2^10 3^5", strength: 3, levels: levels((2, 10), (3, 5)), bestKnown: "", source: "", pict: "", pictMilliseconds: "", before: 42),
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

/// The constrained models' rows before the constructions, by name.
let constrainedBefore: [String: Int] = [
    "PICT disk partition": 56, "plan inkwell-universal": 46, "plan pocket-ledger": 43, "plan quill-writer": 39, "plan server-pal": 37,
    "plan seven-minute-workout": 33, "plan tally-two-switches": 43, "plan tilt-to-live-hd": 37,
]

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

func matrixBenchmark(effort: Int?) {
    let efforts = effort.map { [0, $0] } ?? [0]
    var header = [pad("model", 26), pad("t", 2), pad("bound", 6), pad("best (source)", 32), pad("PICT", 5), pad("PICT ms", 8), pad("before", 7)]
    for level in efforts { header += [pad("rows", 5), pad(level == 0 ? "ms" : "ms (effort \(level))", 10)] }
    print(header.joined(separator: " "))
    var regressions: [String] = []
    func measure(_ name: String, before: Int?, _ generate: (Int) throws -> CoveringArray) -> [String] {
        var cells: [String] = []
        for level in efforts {
            var array: CoveringArray?
            let time = milliseconds { array = try? generate(level) }
            let rows = array?.rows.count ?? -1
            if let before, rows > before || rows < 0 { regressions.append("\(name): \(rows) rows (effort \(level)), \(before) before") }
            cells += [pad(String(rows), 5), pad(String(format: "%.1f", time), 10)]
        }
        return cells
    }
    for model in standardModels {
        let coverage = CoverageModel(levelCounts: model.levels)
        let bound = CoverageBound.lowerBound(levelCounts: model.levels, strength: model.strength)
        let best = model.bestKnown.isEmpty ? "—" : "\(model.bestKnown) (\(model.source))"
        var cells = [
            pad(model.name, 26), pad(String(model.strength), 2), pad(String(bound), 6), pad(best, 32), pad(model.pict.isEmpty ? "—" : model.pict, 5),
            pad(model.pictMilliseconds.isEmpty ? "—" : model.pictMilliseconds, 8), pad(String(model.before), 7),
        ]
        cells += measure("\(model.name) t=\(model.strength)", before: model.before) { level in
            try CoveringArrayGenerator(model: coverage, options: GeneratorOptions(strength: model.strength, effort: level)).generate()
        }
        print(cells.joined(separator: " "))
    }
    func constrainedRow(_ name: String, _ generate: (Int) throws -> CoveringArray) {
        let bound = (try? generate(0))?.lowerBound ?? 0
        var cells = [pad(name, 26), pad("2", 2), pad(String(bound), 6), pad("—", 32), pad("—", 5), pad("—", 8)]
        cells.append(pad(constrainedBefore[name].map(String.init) ?? "—", 7))
        cells += measure(name, before: constrainedBefore[name], generate)
        print(cells.joined(separator: " "))
    }
    if let model = PICTModel.parse(diskPartitionModel).model {
        constrainedRow("PICT disk partition") { level in try model.generate(options: GeneratorOptions(strength: 2, effort: level)) }
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
    // PICT's times are whole runs; migrate's above are the work alone. The process start, beside them:
    if FileManager.default.isExecutableFile(atPath: binary.path) {
        let start = spawnTimes(binary.path, ["--version"])
        print("migrate's process start (migrate --version): \(String(format: "%.1f", start.median * 1000)) ms median of 30 runs")
    }
    print("PICT's rows and times: measured 2026-11, 2-core Linux machine, PICT c3dad2b; \"2–5\" is the range recorded for the small models.")
    print(
        "migrate's times are in-process (no process start); 'before' is migrate's rows at the default settings before the constructions (November 2026)."
    )
    if regressions.isEmpty {
        print("No model has more rows than before.")
    } else {
        print("More rows than before: " + regressions.joined(separator: "; "))
        exit(1)
    }
}
