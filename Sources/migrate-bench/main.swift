import Foundation
import MigrateCore
import MigrateFuzz
import MigrateGenerator
import MigrateImport
import MigrateMatrix
import MigratePlan
import MigrateSimulation

// Benchmarks print their figures; targets are read from the output, never asserted in unit tests.
// Run with: swift run -c release migrate-bench [startup|explain|batch [ROWS]|generate|import [git|sales [MB]]|matrix|matrix random [N] [SEED]|matrix model FILE [T] [RUNS]|simulate|calibrate [--before]|scale [matrix|catalog]|montecarlo|all]
// or: swift run -c release migrate-bench fuzz N [SEED]   (each case in its own migrate process)

let arguments = Array(CommandLine.arguments.dropFirst())
let which = arguments.first ?? "all"
let known = ["startup", "explain", "batch", "generate", "import", "matrix", "simulate", "calibrate", "scale", "montecarlo", "all", "fuzz"]
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

/// The repository: the nearest folder above the binary that holds Package.swift. `swift run` starts the binary by
/// its real path (`.build/<triple>/release`), one level deeper than the `.build/release` link.
let repositoryRoot: URL = {
    var folder = binary.deletingLastPathComponent()
    for _ in 0..<6 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder = folder.deletingLastPathComponent()
    }
    return folder
}()

/// Fastest, median and maximum wall time of running a program, in seconds, spawned with posix_spawn (Foundation's Process
/// adds tens of milliseconds of its own on Linux, which would swamp what is measured), and the most resident memory one
/// run took, in MB (the child's ru_maxrss, from wait4).
func spawnTimes(_ path: String, _ arguments: [String], runs: Int = 30) -> (fastest: Double, median: Double, max: Double, peakMB: Double) {
    var samples: [Double] = []
    var peak = 0.0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    for _ in 0..<runs {
        samples.append(
            seconds {
                var pid: pid_t = 0
                guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return }
                var status: Int32 = 0
                var usage = rusage()
                wait4(pid, &status, 0, &usage)
                #if os(macOS)
                    peak = max(peak, Double(usage.ru_maxrss) / 1_048_576)
                #else
                    peak = max(peak, Double(usage.ru_maxrss) / 1024)
                #endif
            })
    }
    samples.sort()
    return (samples[0], samples[runs / 2], samples.last!, peak)
}

/// An earlier build of `migrate` to measure beside this one, from `MIGRATE_BASELINE`, so that a benchmark prints the
/// figures before and after a change in one run.
let baselineBinary: String? = ProcessInfo.processInfo.environment["MIGRATE_BASELINE"].flatMap {
    FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil
}

/// `fuzz N [SEED]`: N mutated inputs, each run by the release `migrate` in its own process with a time bound, then N
/// generated inputs with known counts and injected faults for every reader (`AccountingFuzzer`); prints how many
/// crashed (a signal), hung (killed at the bound), ended with an exit code outside the table, or printed counts that
/// don't match what was generated (or destroyed an input), and exits 1 if any did.
if which == "fuzz" {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("fuzz: build migrate first (swift build -c release)")
        exit(66)
    }
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 1_000
    let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : 1
    guard count > 0 else {
        FileHandle.standardError.write(Data("Error: fuzz takes a case count, such as: migrate-bench fuzz 20000\n".utf8))
        exit(64)
    }
    let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let fuzzer: Fuzzer
    let accounting: AccountingFuzzer
    do {
        fuzzer = try Fuzzer(root: root)
        accounting = try AccountingFuzzer(root: root)
    } catch {
        print("fuzz: run from the repository (Examples/ and Tests/Fixtures/ are the corpus): \(error)")
        exit(66)
    }
    let bound = 10.0
    var codes: [Int32: Int] = [:]
    var crashes: [String] = []
    var hangs: [String] = []
    var unexpected: [String] = []
    /// Customer-list cases, and those whose rows didn't add up.
    var listCases = 0
    var unaccounted: [String] = []
    var slowest = (name: "", seconds: 0.0)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-fuzz-\(getpid())")
    let start = DispatchTime.now().uptimeNanoseconds
    /// Runs one case in a new folder: its exit code (nil when it crashed or hung, which is recorded), what it printed
    /// when `keeps`, and its files afterwards.
    func run(_ fuzzCase: FuzzCase, arguments: [String]? = nil, keeps: Bool) -> (
        code: Int32, output: String, error: String, files: [String: [UInt8]?]
    )? {
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, bytes) in fuzzCase.files {
            let url = folder.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(bytes).write(to: url)
        }
        // The child runs in the case's folder (inherited; the folder is new for every case).
        _ = FileManager.default.changeCurrentDirectoryPath(folder.path)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let outputPath = folder.appendingPathComponent(".fuzz-output").path
        let errorPath = folder.appendingPathComponent(".fuzz-error").path
        posix_spawn_file_actions_addopen(&actions, 1, keeps ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, keeps ? errorPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([binary.path] + (arguments ?? fuzzCase.arguments)).map { strdup($0) } + [nil]
        var pid: pid_t = 0
        let began = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        for argument in argv { free(argument) }
        posix_spawn_file_actions_destroy(&actions)
        guard spawned == 0 else {
            print("fuzz: cannot spawn \(binary.path)")
            exit(70)
        }
        var status: Int32 = 0
        var killed = false
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 > bound {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                killed = true
                break
            }
            usleep(2_000)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        if elapsed > slowest.seconds { slowest = (fuzzCase.name, elapsed) }
        let signal = status & 0x7F
        if killed {
            hangs.append(fuzzCase.name)
            return nil
        }
        if signal != 0 {
            crashes.append("\(fuzzCase.name) (signal \(signal))")
            return nil
        }
        let code = (status >> 8) & 0xFF
        codes[code, default: 0] += 1
        if !Fuzzer.exitCodes.contains(code) { unexpected.append("\(fuzzCase.name) (exit \(code))") }
        var files: [String: [UInt8]?] = [:]
        for path in fuzzCase.files.keys {
            files[path] = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map(Array.init)
        }
        let output = keeps ? FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) } ?? "" : ""
        let error = keeps ? FileManager.default.contents(atPath: errorPath).map { String(decoding: $0, as: UTF8.self) } ?? "" : ""
        return (code, output, error, files)
    }
    for index in 0..<count {
        let fuzzCase = fuzzer.makeCase(seed: seed, index: index)
        guard let result = run(fuzzCase, keeps: fuzzCase.isCustomerList), fuzzCase.isCustomerList else { continue }
        listCases += 1
        if let problem = Fuzzer.accounting(
            of: fuzzCase, exitCode: result.code, output: Array(result.output.utf8), error: result.error, listBytes: fuzzCase.files[fuzzCase.input])
        {
            unaccounted.append("\(fuzzCase.name): \(problem)")
        }
        if (index + 1) % 1_000 == 0 { FileHandle.standardError.write(Data("fuzz: \(index + 1)/\(count)\n".utf8)) }
    }
    var accountingKinds: [String: Int] = [:]
    var misaccounted: [String] = []
    for index in 0..<count {
        let generated = accounting.makeCase(seed: seed, index: index)
        accountingKinds[String(generated.fuzzCase.name.prefix { $0 != "-" }), default: 0] += 1
        var reference: String?
        if let arguments = generated.sameOutputAs {
            reference = run(generated.fuzzCase, arguments: arguments, keeps: true)?.output
        }
        guard let result = run(generated.fuzzCase, keeps: true) else { continue }
        if let problem = AccountingFuzzer.check(
            generated, exitCode: result.code, output: result.output, error: result.error, filesAfter: result.files, referenceOutput: reference)
        {
            misaccounted.append("\(generated.fuzzCase.name): \(problem)")
        }
    }
    _ = FileManager.default.changeCurrentDirectoryPath(root.path)
    try? FileManager.default.removeItem(at: folder)
    let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let table = codes.keys.sorted().map { "\($0): \(codes[$0]!)" }.joined(separator: ", ")
    print(
        "fuzz: \(count) mutated and \(count) generated cases, seed \(seed), \(format(total)) s: \(crashes.count) crashes, \(hangs.count) hangs (> \(Int(bound)) s), \(unexpected.count) unexpected exit codes"
    )
    print("  exit codes: \(table)")
    print("  customer lists: \(listCases) cases, \(unaccounted.count) whose lines don't add up (or ≠ the lines of the list)")
    let kinds = accountingKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print("  generated with known counts (\(kinds)): \(misaccounted.count) whose counts, inputs or totals are not what was generated")
    print("  slowest: \(slowest.name) \(format(slowest.seconds)) s")
    for name in (crashes + hangs + unexpected + unaccounted + misaccounted).prefix(20) { print("  \(name)") }
    exit(crashes.isEmpty && hangs.isEmpty && unexpected.isEmpty && unaccounted.isEmpty && misaccounted.isEmpty ? 0 : 1)
}

if which == "startup" || which == "all" {
    startupBenchmark(binary: binary)
}

if which == "explain" || which == "all" {
    let root = repositoryRoot
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

if which == "batch" || which == "all" {
    let root = repositoryRoot
    let rows = which == "batch" ? arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000 : 1_000_000
    batchBenchmark(binary: binary, root: root, rows: rows)
}

/// A large plan: two platforms, paid then free, features granted by single products and bundles.
func syntheticPlan(products productCount: Int, releases releaseCount: Int) -> MigrationPlan {
    let features = (0..<60).map { Feature(id: "feature-\($0)", name: "Feature \($0)") }
    var releases: [Release] = []
    let start = Timestamp.parse("2015-01-01T00:00:00Z")!
    for index in 0..<releaseCount {
        let platform: Platform = index % 2 == 0 ? .iOS : .macOS
        let step = index / 2
        let paid = step < releaseCount * 3 / 10
        let version = try! Version("\(1 + step / 20).\(step % 20)")
        releases.append(
            Release(
                platform: platform, version: version, build: try! Version(String(100 + step)),
                released: start.addingTimeInterval(Double(step) * 86_400 * 3), model: paid ? .paid(try! Price("4.99")) : .free,
                includes: paid ? features.prefix(10 + step % 20).map(\.id) : Array(features.prefix(3).map(\.id))))
    }
    var products: [Product] = []
    for index in 0..<productCount {
        let granted = [features[index % features.count].id, features[(index * 7 + 3) % features.count].id]
        let bundle = index % 25 == 24 ? products.suffix(3).map(\.id) : []
        products.append(
            Product(
                id: "com.example.big.product\(index)", name: "Product \(index)", kind: .nonConsumable,
                price: try! Price("\(index % 10).99"), grants: granted, contains: bundle))
    }
    return MigrationPlan(
        app: AppInfo(name: "Big", bundleID: "com.example.big", platforms: [.iOS, .macOS], universalPurchase: true),
        features: features, releases: releases, products: products)
}

// MARK: - simulate: Monte Carlo draws per second on the flagship plan

/// Peak resident memory of this process, in MB (ru_maxrss is in KB on Linux, bytes on macOS).
func peakMemoryMB() -> Double {
    var usage = rusage()
    #if os(macOS)
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
    #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    #endif
}

if which == "simulate" || which == "all" {
    let root = repositoryRoot
    let url = root.appendingPathComponent("Examples/tilt-to-live-hd/migration.json")
    guard let data = FileManager.default.contents(atPath: url.path), let plan = PlanDecoder.decode(bytes: Array(data)).plan,
        let scenario = try? PreparedScenario.prepare(plan, scenario: nil)
    else {
        print("simulate: skipped, \(url.path) not found (run from the repository)")
        exit(66)
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    _ = MonteCarlo.run(scenario, draws: 10_000, seed: 1)  // warm up
    var best = Double.infinity
    for run in 0..<3 {
        best = min(best, seconds { _ = MonteCarlo.run(scenario, draws: 100_000, seed: UInt64(run + 1), threads: cores) })
    }
    let single = seconds { _ = MonteCarlo.run(scenario, draws: 100_000, seed: 1, threads: 1) }
    let before = peakMemoryMB()
    let million = seconds { _ = MonteCarlo.run(scenario, draws: 1_000_000, seed: 1, threads: cores) }
    let after = peakMemoryMB()
    print(
        "simulate: 100,000 draws × \(scenario.model.months) months × \(scenario.model.cohorts.count) cohorts, flagship plan: "
            + "\(format(best * 1000)) ms on \(cores) threads (\(Int(100_000 / best)) draws per second; target: under 1 s), "
            + "\(format(single * 1000)) ms on 1 thread")
    print(
        "simulate: 1,000,000 draws in \(format(million)) s; peak memory \(format(before)) MB before, \(format(after)) MB after "
            + "(fixed-size sketches: memory does not grow with --draws)")
}

// MARK: - calibrate: the forecast against published switches; exits 1 when the quoted hit rate is not this run's

if which == "calibrate" || which == "all" {
    let before = which == "calibrate" && arguments.dropFirst().first == "--before"
    if !calibrationBenchmark(root: repositoryRoot, before: before) && which == "calibrate" { exit(1) }
}

// MARK: - import: the git importer on a generated 2,000-commit repository, and sales reports

// `import` runs both; `import git` or `import sales [MB]` one of them.
if which == "import" || which == "all" {
    let part = which == "import" ? arguments.dropFirst().first : nil
    if part == nil || part == "git" { importBenchmark() }
    if part == nil || part == "sales" { salesBenchmark(megabytes: arguments.dropFirst(2).first.flatMap { Int($0) } ?? 160) }
}

/// Builds a 2,000-commit repository with one `git fast-import` (a project.pbxproj and an .xcconfig
/// that change on every commit, a new marketing version every 50 commits, a tag every 100), then
/// times `GitImporter.read` on it.
func importBenchmark() {
    let root = repositoryRoot
    let fixture = root.appendingPathComponent("Tests/Fixtures/import/xcode/Shelf")
    guard let project = try? String(contentsOf: fixture.appendingPathComponent("Shelf.xcodeproj/project.pbxproj"), encoding: .utf8) else {
        print("import: skipped, \(fixture.path) not found (run from the repository)")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-git-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let commits = 2_000
    var stream = ""
    for index in 0..<commits {
        let version = "1.\(index / 50)"
        let build = String(index + 1)
        let pbxproj = project.replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 57;", with: "CURRENT_PROJECT_VERSION = \(build);")
        let xcconfig = "SHELF_VERSION = \(version)\n"
        let message = "Build \(build)\n"
        stream += "commit refs/heads/main\nmark :\(index + 1)\ncommitter Bench <bench@example.com> \(1_500_000_000 + index * 3_600) +0000\n"
        stream += "data \(message.utf8.count)\n\(message)"
        if index > 0 { stream += "from :\(index)\n" }
        stream += "M 100644 inline Shelf.xcodeproj/project.pbxproj\ndata \(pbxproj.utf8.count)\n\(pbxproj)\n"
        stream += "M 100644 inline Config/Shelf.xcconfig\ndata \(xcconfig.utf8.count)\n\(xcconfig)\n"
        if index % 100 == 99 { stream += "reset refs/tags/v\(version).\(index)\nfrom :\(index + 1)\n\n" }
    }
    func git(_ arguments: [String], input: String? = nil) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardInput = pipe
        guard (try? process.run()) != nil else { return false }
        if let input { pipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var built = false
    let setup = seconds {
        built = git(["init", "-q", "-b", "main"]) && git(["fast-import", "--quiet"], input: stream) && git(["checkout", "-q", "main"])
    }
    guard built else {
        print("import: skipped, git is not available to build the repository")
        return
    }
    var releases = 0
    var failure: String?
    var samples: [Double] = []
    for _ in 0..<3 {
        samples.append(
            seconds {
                do {
                    releases = try GitImporter.read(repository: folder.path, displayPath: "bench").result.releases.count
                } catch {
                    failure = "\(error)"
                }
            })
    }
    if let failure {
        print("import: failed: \(failure)")
        return
    }
    samples.sort()
    print(
        "import: git history of \(commits) commits (pbxproj and xcconfig changed in each) read in \(format(samples[1] * 1000)) ms median of 3 "
            + "(max \(format(samples[2] * 1000)) ms; \(releases) versions; 4 git processes; building the repository took \(format(setup)) s)")
}

if which == "matrix" && arguments.dropFirst().first == "model", let path = arguments.dropFirst(2).first {
    let rest = arguments.dropFirst(3)
    singleModelBenchmark(path: path, strength: rest.first.flatMap { Int($0) } ?? 2, runs: rest.dropFirst().first.flatMap { Int($0) } ?? 21)
} else if which == "matrix" && arguments.dropFirst().first == "random" {
    let rest = arguments.dropFirst(2)
    randomMatrixBenchmark(count: rest.first.flatMap { Int($0) } ?? 86, seed: rest.dropFirst().first.flatMap { UInt64($0) } ?? 11)
} else if which == "matrix" || which == "all" {
    matrixBenchmark(effort: arguments.dropFirst().first.flatMap { Int($0) })
}

// `scale` runs both tables; `scale matrix` or `scale catalog` one of them.
if which == "scale" || which == "all" {
    let part = which == "scale" ? arguments.dropFirst().first : nil
    if part == nil || part == "matrix" { scaleMatrixBenchmark(binary: binary) }
    if part == nil || part == "catalog" { scaleCatalogBenchmark(binary: binary) }
}

if which == "montecarlo" || which == "all" {
    monteCarloBenchmark(root: repositoryRoot)
}

// Last, so that its memory doesn't count in the simulate figure above.
if which == "generate" || which == "all" {
    generateBenchmark(binary: binary)
}
