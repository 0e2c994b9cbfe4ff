import Foundation

/// The goal for a CSV list of this many rows: this many seconds and megabytes at most.
let batchGoal = (rows: 1_000_000, seconds: 5.0, megabytes: 40.0)

/// `batch [ROWS]`: `migrate explain --batch` over a customer list of ROWS rows (default 1,000,000) of the
/// flagship plan, as CSV and as JSON Lines, each run by the release `migrate` in its own process; prints wall
/// time and peak memory (the child's ru_maxrss). The list mixes paid-era and free-era builds, sandbox
/// testers, owned products and a carried-through customer id, as a real export would.
///
/// With `MIGRATE_BASELINE=/path/to/migrate` (an earlier build), each list is also run by that binary, in turn
/// with this one, so a change is measured before and after in one run.
///
/// The goal (`batchGoal`) is the CSV list's. What its memory is made of: the process itself (16 MB for a list of ten
/// rows), the rows of one block and their results (all held while the block is decided), and the table of customer ids
/// that finds a repeated one (twelve bytes an id, every id of the list). With blocks of 8,192 rows, 100,000 rows
/// already took 44 MB; and the ids were one table that grew by copying itself whole, so past 750,000 ids its old and
/// new copies were held together (30 MB), and a million rows peaked at 57–66 MB. Blocks of 2,048 rows (100,000 rows:
/// 30 MB) and a table in 256 shards that each grow alone bring it to 52–54 MB: the same list without its customerID
/// column peaks at 32 MB, so the ids' table (about 17 MB) is what still stands between it and the goal. Blocks of
/// 1,024 rows and shards filled to 7/8 before they grow by 1/8 (about 14.5 bytes an id) bring it to 44–47 MB in 4.4–4.8 s
/// (JSON Lines 38 MB in 5.2 s). The last of it was the allocator's: the list without ids stays at 23 MB from start to
/// end, with ids it grew to 47, 23 MB for slots that hold 14.5, because 256 shards each outgrew their arrays some
/// thirty times and the freed ones were too small for any shard's next growth. Each shard's slots in an anonymous
/// mapping of their own, unmapped whole when it grows, bring the CSV list to 38 MB in 4.3 s (JSON Lines 36 MB in 5.5 s).
/// The time the change took back: each row's place was written out as text ("line 17") whether or not a warning listed
/// it, its id trimmed by Foundation and hashed on the thread that keeps the order, and each cohort's counts copied to
/// add one.
func batchBenchmark(binary: URL, root: URL, rows: Int) {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("batch: skipped, build migrate first (swift build -c release)")
        return
    }
    let plan = root.appendingPathComponent("Examples/tilt-to-live-hd/migration.json").path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-batch-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let products = [
        "", "", "", "com.example.tilttolivehd.turret", "com.example.tilttolivehd.fullturret", "com.example.tilttolivehd.full:familyShared",
    ]
    let environments = Array(repeating: "Production", count: 49) + ["Sandbox"]
    var random = SystemRandomNumberGenerator()
    let start = Date(timeIntervalSince1970: 1_299_776_400)  // the first release, 2011-03-10
    var csv = "customerID,originalAppVersion,originalPurchaseDate,environment,products\n"
    var lines = ""
    let csvURL = folder.appendingPathComponent("customers.csv")
    let jsonURL = folder.appendingPathComponent("customers.jsonl")
    guard FileManager.default.createFile(atPath: csvURL.path, contents: nil), FileManager.default.createFile(atPath: jsonURL.path, contents: nil),
        let csvFile = FileHandle(forWritingAtPath: csvURL.path), let jsonFile = FileHandle(forWritingAtPath: jsonURL.path)
    else {
        print("batch: could not create the customer lists in \(folder.path)")
        return
    }
    for index in 0..<rows {
        let build = Int.random(in: 10...45, using: &random)
        // Builds before 30 were paid; the date follows the build, a day or two after its release.
        let date = start.addingTimeInterval(Double(build - 10) * 12 * 86_400 + Double.random(in: 0...172_800, using: &random))
        let stamp = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime])
        let owned = products.randomElement(using: &random)!
        let environment = environments.randomElement(using: &random)!
        csv += "cust-\(index),\(build),\(stamp),\(environment),\(owned)\n"
        lines +=
            "{\"customerID\":\"cust-\(index)\",\"originalAppVersion\":\"\(build)\",\"originalPurchaseDate\":\(Int(date.timeIntervalSince1970 * 1000)),\"environment\":\"\(environment)\",\"products\":\"\(owned)\"}\n"
        if csv.utf8.count > 1 << 20 {
            csvFile.write(Data(csv.utf8))
            jsonFile.write(Data(lines.utf8))
            csv = ""
            lines = ""
        }
    }
    csvFile.write(Data(csv.utf8))
    jsonFile.write(Data(lines.utf8))
    try? csvFile.close()
    try? jsonFile.close()
    print(
        "batch: migrate explain --batch, \(rows.grouped) customers of the flagship plan, each run in its own process (goal for the CSV list of "
            + "\(batchGoal.rows.grouped): \(format(batchGoal.seconds)) s and \(Int(batchGoal.megabytes)) MB at most)")
    let baseline = ProcessInfo.processInfo.environment["MIGRATE_BASELINE"].flatMap { path in
        FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
    let binaries = [("this build", binary.path)] + (baseline.map { [("baseline", $0)] } ?? [])
    for (name, url) in [("CSV", csvURL), ("JSON Lines", jsonURL)] {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        for (label, path) in binaries {
            let output = folder.appendingPathComponent("decisions-\(name.prefix(3))").path
            let run = runChild(path, ["explain", plan, "--batch", url.path, "--output", output, "--now", "2026-11-26T00:00:00Z"])
            let goal =
                name == "CSV" && rows == batchGoal.rows && label == "this build"
                ? (run.exitCode == 0 && run.seconds <= batchGoal.seconds && run.peakMB <= batchGoal.megabytes ? "  goal met" : "  goal NOT met")
                : ""
            print(
                "  \(name.padding(toLength: 10, withPad: " ", startingAt: 0))  \(String(format: "%5.1f", Double(size) / 1_048_576)) MB in  "
                    + "\(format(run.seconds)) s  peak \(String(format: "%.0f", run.peakMB)) MB  exit \(run.exitCode.map(String.init) ?? "killed")"
                    + (baseline == nil ? "" : "  (\(label))") + goal)
        }
    }
}
