import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan

// Benchmarks print their figures; targets are read from the output, never asserted in unit tests.
// Run with: swift run -c release migrate-bench [startup|explain|matrix|all]

let arguments = Array(CommandLine.arguments.dropFirst())
let which = arguments.first ?? "all"
let known = ["startup", "explain", "matrix", "all"]
guard known.contains(which) else {
    FileHandle.standardError.write(Data("Error: Unknown benchmark '\(which)'. Use one of: \(known.joined(separator: ", ")).\n".utf8))
    exit(64)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// The release `migrate` binary beside this one.
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("migrate")

/// Median and maximum wall time of running a program, spawned with posix_spawn: Foundation's Process
/// adds tens of milliseconds of its own on Linux, which would swamp what is measured.
func spawnTimes(_ path: String, _ arguments: [String], runs: Int = 30) -> (median: Double, max: Double) {
    var samples: [Double] = []
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    for _ in 0..<runs {
        samples.append(
            seconds {
                var pid: pid_t = 0
                guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return }
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            })
    }
    samples.sort()
    return (samples[runs / 2], samples.last!)
}

if which == "startup" || which == "all" {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("startup: skipped, build migrate first (swift build -c release)")
        exit(66)
    }
    let baseline = spawnTimes("/bin/true", [])
    let help = spawnTimes(binary.path, ["--help"])
    print(
        "startup: migrate --help, 30 runs: median \(format(help.median * 1000)) ms, max \(format(help.max * 1000)) ms "
            + "(target: well under 50 ms; spawning /bin/true the same way: \(format(baseline.median * 1000)) ms)")
}

if which == "explain" || which == "all" {
    let root = binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("Examples/tilt-to-live-hd/migration.json")
    guard let data = FileManager.default.contents(atPath: url.path), let plan = PlanDecoder.decode(bytes: Array(data)).plan else {
        print("explain: skipped, \(url.path) not found (run from the repository)")
        exit(66)
    }
    let advisor = Advisor(plan: plan)
    let versions = (0..<10_000).map { String(5 + $0 % 40) }
    var legacy = 0
    let elapsed = seconds {
        for version in versions {
            let customer = Customer(
                platform: .iOS, originalAppVersion: version, purchases: [OwnedProduct(productID: "com.example.tilttolivehd.full")])
            if case .legacy = advisor.report(for: customer).decision.cohort { legacy += 1 }
        }
    }
    print(
        "explain: \(versions.count) customers of the flagship plan in \(format(elapsed * 1000)) ms "
            + "(\(Int(Double(versions.count) / elapsed)) per second; \(legacy) legacy)")
}

if which == "matrix" || which == "all" {
    matrixBenchmark(effort: arguments.dropFirst().first.flatMap { Int($0) })
}
