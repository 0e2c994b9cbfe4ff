import Foundation
import MigratePlan

// `migrate-bench scale`, catalog size: for 10, 100, 1,000 and 10,000 products, the wall time and peak
// memory of `check`, `explain`, `generate` and `simulate`, each run by the release `migrate` in its own
// process (peak memory is the child's own ru_maxrss, from wait4: what getrusage(RUSAGE_CHILDREN) reports
// for one child). The plans are made in code (`scaleCatalogPlan`), the same on every run.
// The bound, so a large catalog has no cliff: each command under 10 s and 500 MB at 10,000 products.

/// A plan with `count` products on two platforms (iOS build numbers, macOS marketing versions), six paid
/// releases then six free ones on each: one feature per product (and at least 8), each product granting two;
/// every 25th a bundle of the three before it, every 20th an add-on requiring what the one before grants,
/// every 10th a subscription, every 40th retired and every 50th a consumable.
func scaleCatalogPlan(products count: Int) -> MigrationPlan {
    let featureCount = max(8, count)
    let features = (0..<featureCount).map { Feature(id: "feature-\($0)", name: "Feature \($0)") }
    let start = Timestamp.parse("2016-01-04T16:00:00Z")!
    let paidPrice = try! Price("4.99")
    var releases: [Release] = []
    for (offset, platform) in [Platform.iOS, .macOS].enumerated() {
        for step in 0..<12 {
            let paid = step < 6
            let includes: [String]? = step == 0 ? features.prefix(4).map(\.id) : step == 6 ? [features[0].id] : nil
            releases.append(
                Release(
                    platform: platform, version: try! Version("1.\(step)"), build: try! Version(String(100 + step)),
                    released: start.addingTimeInterval(Double(step * 45 + offset * 2) * 86_400), model: paid ? .paid(paidPrice) : .free,
                    includes: includes))
        }
    }
    var products: [Product] = []
    let periods = ["P1M", "P1Y", "P1W"]
    for index in 0..<count {
        let id = "com.example.catalog.item\(index)"
        var product = Product(
            id: id, name: "Item \(index)", kind: .nonConsumable, price: try! Price("\(index % 10).99"),
            grants: [features[index % featureCount].id, features[(index * 7 + 3) % featureCount].id])
        if index % 50 == 49 {
            product.kind = .consumable
            product.grants = []
        } else if index % 25 == 24 {
            product.contains = products.suffix(3).filter { $0.kind != .consumable }.map(\.id)
            product.grants = []
        } else if index % 10 == 9 {
            product.kind = .autoRenewable
            product.subscription = SubscriptionInfo(group: "pro", level: index / 10 % 3 + 1, period: periods[index / 10 % 3])
        }
        if index % 20 == 19, let previous = products.last?.grants.first { product.requires = [previous] }
        if index % 40 == 39 { product.forSale = false }
        products.append(product)
    }
    let simulation = SimulationSettings(
        assumptions: [AssumptionValue(name: SimulationAssumption.paidDownloadsPerMonth.rawValue, distribution: .uniform(low: 800, high: 1_200))])
    return MigrationPlan(
        app: AppInfo(name: "Catalog", bundleID: "com.example.catalog", platforms: [.iOS, .macOS]), features: features,
        releases: releases, products: products, simulation: simulation)
}

/// One run of a child process: wall time, its peak resident memory, and how it ended.
struct ChildRun {
    var seconds: Double
    var peakMB: Double
    /// The exit code, or nil when it was killed (past `limit`) or died of a signal.
    var exitCode: Int32?
}

/// Runs `path` with `arguments` (output to /dev/null), killing it after `limit` seconds.
func runChild(_ path: String, _ arguments: [String], limit: Double = 300) -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let start = DispatchTime.now().uptimeNanoseconds
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return ChildRun(seconds: 0, peakMB: 0, exitCode: nil) }
    var status: Int32 = 0
    var usage = rusage()
    var killed = false
    while wait4(pid, &status, WNOHANG, &usage) == 0 {
        if Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 > limit {
            kill(pid, SIGKILL)
            wait4(pid, &status, 0, &usage)
            killed = true
            break
        }
        usleep(1_000)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    #if os(macOS)
        let peak = Double(usage.ru_maxrss) / 1_048_576
    #else
        let peak = Double(usage.ru_maxrss) / 1024
    #endif
    let exited = status & 0x7F == 0
    return ChildRun(seconds: seconds, peakMB: peak, exitCode: killed || !exited ? nil : (status >> 8) & 0xFF)
}

/// Prints the catalog-size table. `binary` is the release `migrate`.
func scaleCatalogBenchmark(binary: URL, sizes: [Int] = [10, 100, 1_000, 10_000]) {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("scale (catalog): skipped, build migrate first (swift build -c release)")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-scale-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bound = (seconds: 10.0, megabytes: 500.0)
    print("scale (catalog): each command run by the release migrate in its own process; wall time and peak memory (the child's ru_maxrss)")
    print("  products   check             explain           generate          simulate (10,000 draws)")
    var worst: (name: String, run: ChildRun)?
    var notes: [String] = []
    for size in sizes {
        let plan = scaleCatalogPlan(products: size)
        let file = folder.appendingPathComponent("plan-\(size).json")
        do {
            try Data(PlanEncoder.encode(plan).utf8).write(to: file)
        } catch {
            print("scale (catalog): cannot write \(file.path): \(error)")
            return
        }
        let output = folder.appendingPathComponent("generated-\(size)").path
        let legacyBuild = plan.releases.first { $0.platform == .iOS }?.build?.text ?? "100"
        let commands: [(String, [String])] = [
            ("check", ["check", file.path]),
            ("explain", ["explain", file.path, "--original-version", legacyBuild, "--owns", plan.products[0].id]),
            ("generate", ["generate", file.path, "--output", output]),
            ("simulate", ["simulate", file.path]),
        ]
        var cells: [String] = []
        for (name, arguments) in commands {
            let run = runChild(binary.path, arguments)
            let text = run.exitCode == nil ? "killed" : String(format: "%.2f s %4.0f MB", run.seconds, run.peakMB)
            cells.append(text.padding(toLength: 18, withPad: " ", startingAt: 0))
            if let code = run.exitCode, code != 0 { notes.append("\(name) of \(size) products exited \(code)") }
            if size == sizes.last, worst.map({ run.seconds > $0.run.seconds }) ?? true { worst = (name, run) }
            if size == sizes.last, run.exitCode == nil || run.seconds > bound.seconds || run.peakMB > bound.megabytes {
                notes.append("\(name) of \(size) products is past the bound")
            }
        }
        print("  " + String(size).leftPadded(to: 8) + "   " + cells.joined())
        // `generate` builds the pairwise matrix for small plans (MigrateMatrix's step): its share, measured alone.
        if size <= 12 {
            let matrix = runChild(binary.path, ["matrix", file.path], limit: 120)
            let share = matrix.exitCode == nil ? "over 120 s (killed)" : String(format: "%.2f s", matrix.seconds)
            notes.append("generate of \(size) products includes the pairwise matrix; `migrate matrix` alone: \(share)")
        }
    }
    if let worst {
        print(
            "  bound at \(sizes.last!) products: each under \(Int(bound.seconds)) s and \(Int(bound.megabytes)) MB; slowest "
                + String(format: "%@ %.2f s, %.0f MB", worst.name, worst.run.seconds, worst.run.peakMB))
    }
    for note in notes { print("  note: \(note)") }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
