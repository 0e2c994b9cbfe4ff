import Foundation
import MigrateMatrix

// PICT, the reference for the matrix benchmark's time bound: its times as recorded on the project's
// machine, or measured there and then when `PICT` names a PICT binary. Each is a whole run (process
// start included, output to /dev/null), as a user would see it; migrate's time beside it leaves out
// migrate's own process start.

/// Where and how PICT's recorded times were measured.
let pictRecording =
    "PICT 3.7.4 (github.com/microsoft/pict, built with its CMake release flags: g++ 12 -O3 -DNDEBUG -flto), measured "
    + "2026-11-27 side by side with migrate on the 2-core Linux reference machine (6.18, x86_64): the fastest of two "
    + "sessions of 40 whole runs (20 at strengths 3 and 4; 5 and 3 for the largest 3-wise model); /bin/true takes 0.7 ms there"

/// A model in PICT's format: factors P1, P2, … with values 0, 1, …; the same array either way.
func pictModelText(levels: [Int]) -> String {
    levels.enumerated().map { "P\($0.offset + 1): " + (0..<$0.element).map(String.init).joined(separator: ", ") }.joined(separator: "\n") + "\n"
}

/// PICT's rows and fastest whole run on `text` at `strength`, run from `pict` in a scratch folder.
func measurePICT(_ pict: String, text: String, strength: Int, runs: Int) -> (rows: Int, milliseconds: Double)? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-pict-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("model.txt")
    guard (try? text.write(to: file, atomically: true, encoding: .utf8)) != nil else { return nil }
    let arguments = [file.path] + (strength == 2 ? [] : ["/o:\(strength)"])
    // Rows from one run whose output is read (a header line, then a row per line).
    guard let lines = outputLines(pict, arguments) else { return nil }
    return (lines - 1, spawnTimes(pict, arguments, runs: runs).fastest * 1000)
}

/// Where jenny's recorded rows come from.
let jennyRecording =
    "jenny (github.com/ligurio/jenny at eedabf4, gcc 12 -O3), rows of `jenny -nT LEVELS…` recorded 2026-12-06 on the "
    + "2-core Linux reference machine; it is deterministic, so its rows are the same on any machine"

/// jenny's rows on a model without constraints at `strength`, or nil when it can't run (`jenny -nT 4 4 3 …`, one test a line).
func measureJenny(_ jenny: String, levels: [Int], strength: Int) -> Int? {
    outputLines(jenny, ["-n\(strength)"] + levels.map(String.init))
}

/// The lines a program prints to standard output when run with `arguments`, or nil when it can't run or fails.
func outputLines(_ program: String, _ arguments: [String]) -> Int? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return data.split(separator: UInt8(ascii: "\n")).count
}
