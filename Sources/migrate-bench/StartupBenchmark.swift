import Foundation

// `migrate-bench startup`: how long `migrate` takes to start and answer, each run in its own process.

/// The goal for `migrate --version`: the median of 30 whole runs, in milliseconds.
let startupGoalMilliseconds = 5.0

/// `migrate --version` as the release before this work measured it on the project's 2-core machine (the median of 30
/// runs, and its peak memory): the figures the goal was set against.
let startupBefore = (milliseconds: 13.0, megabytes: 21.0)

/// `--version` and `--help` by the release `migrate` (and by `MIGRATE_BASELINE` when set), 30 runs each: the median,
/// the fastest and the peak memory, beside the goal, the release before and spawning `/bin/true` the same way.
func startupBenchmark(binary: URL) {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("startup: skipped, build migrate first (swift build -c release)")
        exit(66)
    }
    let floor = spawnTimes("/bin/true", [])
    print(
        "startup: each run in its own process, 30 runs (spawning /bin/true the same way: median \(format(floor.median * 1000)) ms); "
            + "goal for --version: a median of \(format(startupGoalMilliseconds)) ms or less (the release before: "
            + "\(format(startupBefore.milliseconds)) ms, \(Int(startupBefore.megabytes)) MB)")
    let binaries = [("this build", binary.path)] + (baselineBinary.map { [("baseline", $0)] } ?? [])
    for (label, path) in binaries {
        for arguments in [["--version"], ["--help"]] {
            let run = spawnTimes(path, arguments)
            let goal = arguments == ["--version"] ? (run.median * 1000 <= startupGoalMilliseconds ? "  goal met" : "  goal NOT met") : ""
            print(
                "  migrate \(arguments[0].padding(toLength: 9, withPad: " ", startingAt: 0)) median \(format(run.median * 1000)) ms, "
                    + "fastest \(format(run.fastest * 1000)) ms, max \(format(run.max * 1000)) ms, peak \(String(format: "%.0f", run.peakMB)) MB"
                    + (baselineBinary == nil ? "" : "  (\(label))") + (label == "this build" ? goal : ""))
        }
    }
}
