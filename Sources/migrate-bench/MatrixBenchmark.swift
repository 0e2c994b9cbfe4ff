import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan

// The matrix benchmark: rows and time for the standard covering-array models, with the published
// best-known sizes and PICT's sizes beside them, then the migration model of every example plan.
// Run with: swift run -c release migrate-bench matrix [EFFORT]

struct StandardModel {
    var name: String
    var strength: Int
    var levels: [Int]
    var bestKnown: String
    var pict: String
}

func levels(_ groups: (Int, Int)...) -> [Int] { groups.flatMap { Array(repeating: $0.0, count: $0.1) } }

let standardModels: [StandardModel] = [
    StandardModel(name: "3^4", strength: 2, levels: levels((3, 4)), bestKnown: "9", pict: "12"),
    StandardModel(name: "3^13", strength: 2, levels: levels((3, 13)), bestKnown: "15", pict: "19"),
    StandardModel(name: "2^10 3^5", strength: 2, levels: levels((2, 10), (3, 5)), bestKnown: "≥11", pict: "14"),
    StandardModel(name: "2^100", strength: 2, levels: levels((2, 100)), bestKnown: "10", pict: "16"),
    StandardModel(name: "4^15 3^17 2^29", strength: 2, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "29", pict: "38"),
    StandardModel(name: "4^1 3^39 2^35", strength: 2, levels: levels((4, 1), (3, 39), (2, 35)), bestKnown: "21", pict: "28"),
    StandardModel(name: "10^20", strength: 2, levels: levels((10, 20)), bestKnown: "~180", pict: "213"),
    StandardModel(name: "5^10", strength: 2, levels: levels((5, 10)), bestKnown: "", pict: ""),
    StandardModel(name: "6^10", strength: 2, levels: levels((6, 10)), bestKnown: "", pict: ""),
    StandardModel(name: "5^6", strength: 2, levels: levels((5, 6)), bestKnown: "", pict: ""),
    StandardModel(name: "7^8", strength: 2, levels: levels((7, 8)), bestKnown: "", pict: ""),
    StandardModel(name: "5^6", strength: 3, levels: levels((5, 6)), bestKnown: "", pict: ""),
    StandardModel(name: "3^8", strength: 4, levels: levels((3, 8)), bestKnown: "", pict: ""),
    StandardModel(name: "4^15 3^17 2^29", strength: 3, levels: levels((4, 15), (3, 17), (2, 29)), bestKnown: "", pict: ""),
    StandardModel(name: "3^13", strength: 3, levels: levels((3, 13)), bestKnown: "", pict: ""),
    StandardModel(name: "2^10 3^5", strength: 3, levels: levels((2, 10), (3, 5)), bestKnown: "", pict: ""),
]

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

func matrixBenchmark(effort: Int?) {
    let efforts = effort.map { [0, $0] } ?? [0]
    var header = [pad("model", 26), pad("t", 2), pad("best", 5), pad("PICT", 5)]
    for level in efforts { header += [pad("rows", 5), pad(level == 0 ? "ms" : "ms (effort \(level))", 10)] }
    print(header.joined(separator: " "))
    for model in standardModels {
        var cells = [pad(model.name, 26), pad(String(model.strength), 2), pad(model.bestKnown, 5), pad(model.pict, 5)]
        for level in efforts {
            let generator = CoveringArrayGenerator(
                model: CoverageModel(levelCounts: model.levels), options: GeneratorOptions(strength: model.strength, effort: level))
            var rows = 0
            let time = milliseconds { rows = (try? generator.generate().rows.count) ?? -1 }
            cells += [pad(String(rows), 5), pad(String(format: "%.0f", time), 10)]
        }
        print(cells.joined(separator: " "))
    }
    let disk = """
        Type:          Primary, Logical, Single, Span, Stripe, Mirror, RAID-5
        Size:          10, 100, 500, 1000, 5000, 10000, 40000
        Format method: quick, slow
        File system:   FAT, FAT32, NTFS
        Cluster size:  512, 1024, 2048, 4096, 8192, 16384, 32768, 65536
        Compression:   on, off
        IF [File system] = "FAT"   THEN [Size] <= 4096;
        IF [File system] = "FAT32" THEN [Size] <= 32000;
        """
    if let model = PICTModel.parse(disk).model {
        var cells = [pad("PICT disk partition", 26), pad("2", 2), pad("", 5), pad("", 5)]
        for level in efforts {
            var rows = 0
            let time = milliseconds { rows = (try? model.generate(options: GeneratorOptions(strength: 2, effort: level)).rows.count) ?? -1 }
            cells += [pad(String(rows), 5), pad(String(format: "%.0f", time), 10)]
        }
        print(cells.joined(separator: " "))
    }
    let examples = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted()
    for name in names {
        let url = examples.appendingPathComponent(name).appendingPathComponent("migration.json")
        guard let data = FileManager.default.contents(atPath: url.path), let plan = PlanDecoder.decode(bytes: Array(data)).plan else { continue }
        var cells = [pad("plan " + name, 26), pad("2", 2), pad("", 5), pad("", 5)]
        for level in efforts {
            var rows = 0
            let time = milliseconds {
                let factorModel = PlanFactorModel(plan: plan)
                rows = (try? factorModel.matrix(options: GeneratorOptions(strength: 2, effort: level)).rows.count) ?? -1
            }
            cells += [pad(String(rows), 5), pad(String(format: "%.0f", time), 10)]
        }
        print(cells.joined(separator: " "))
    }
}
