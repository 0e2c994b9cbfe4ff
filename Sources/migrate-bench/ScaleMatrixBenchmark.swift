import Foundation
import MigratePlan

// `migrate-bench scale`, matrix part: for plans of 1 to 60 products (every size up to 12, then steps of
// 6), 200 releases and 40 discount tiers, the wall time of `migrate matrix` and `migrate generate` (which
// builds the same pairwise matrix for its tests), each run by the release `migrate` in its own process.
// The bound, so a larger plan has no cliff: each under 2 s at every size.

/// Product counts the matrix table measures.
let matrixScaleSizes = Array(1...12) + [18, 24, 30, 36, 42, 48, 54, 60]

/// A plan with `count` products, `releaseCount` releases on two platforms (the first 60% paid, the rest
/// free) and `tierCount` legacy tiers that split the paid years between them. Products mix the kinds a
/// real catalog has: every 10th a subscription, every 7th a consumable, every 8th a bundle of the two
/// before it, every 9th an add-on requiring what the one before grants, every 11th retired.
func matrixScalePlan(products count: Int, releases releaseCount: Int = 200, tiers tierCount: Int = 40) -> MigrationPlan {
    let features = (0..<12).map { Feature(id: "feature-\($0)", name: "Feature \($0)") }
    let start = Timestamp.parse("2012-03-05T16:00:00Z")!
    let paidPrice = try! Price("2.99")
    var releases: [Release] = []
    let perPlatform = releaseCount / 2
    for (offset, platform) in [Platform.iOS, .macOS].enumerated() {
        let count = offset == 0 ? releaseCount - perPlatform : perPlatform
        for step in 0..<count {
            let paid = step < count * 6 / 10
            releases.append(
                Release(
                    platform: platform, version: try! Version("\(1 + step / 10).\(step % 10)"), build: try! Version(String(100 + step)),
                    released: start.addingTimeInterval(Double(step * 14 + offset) * 86_400), model: paid ? .paid(paidPrice) : .free,
                    includes: step == 0 ? features.prefix(6).map(\.id) : nil))
        }
    }
    let paidDates = releases.filter { $0.model.isPaid }.map(\.released).sorted()
    let tiers = (0..<min(tierCount, paidDates.count)).map { index in
        LegacyTier(
            id: "tier-\(index)", name: "Tier \(index)", from: index == 0 ? nil : paidDates[index * paidDates.count / tierCount],
            until: index == tierCount - 1 ? paidDates.last!.addingTimeInterval(30 * 86_400) : paidDates[(index + 1) * paidDates.count / tierCount],
            grants: [features[index % 6].id])
    }
    var products: [Product] = []
    let periods = ["P1M", "P1Y"]
    for index in 0..<count {
        var product = Product(
            id: "com.example.matrix.item\(index)", name: "Item \(index)", kind: .nonConsumable, price: try! Price("\(index % 10).99"),
            grants: [features[index % features.count].id])
        if index % 7 == 6 {
            product.kind = .consumable
            product.grants = []
        } else if index % 8 == 7 {
            product.contains = products.suffix(2).filter { $0.kind != .consumable }.map(\.id)
            product.grants = []
        } else if index % 10 == 9 {
            product.kind = .autoRenewable
            product.subscription = SubscriptionInfo(group: "pro", level: index / 10 % 2 + 1, period: periods[index / 10 % 2])
        }
        if index % 9 == 8, let previous = products.last(where: { !$0.grants.isEmpty })?.grants.first { product.requires = [previous] }
        if index % 11 == 10 { product.forSale = false }
        products.append(product)
    }
    var plan = MigrationPlan(
        app: AppInfo(name: "Matrix", bundleID: "com.example.matrix", platforms: [.iOS, .macOS], universalPurchase: true),
        features: features, releases: releases, products: products)
    plan.tiers = tiers
    return plan
}

/// Prints the matrix table. `binary` is the release `migrate`.
func scaleMatrixBenchmark(binary: URL, sizes: [Int] = matrixScaleSizes) {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("scale (matrix): skipped, build migrate first (swift build -c release)")
        return
    }
    // MIGRATE_BENCH_KEEP=DIR keeps the plans in DIR, to profile one command on its own.
    let kept = ProcessInfo.processInfo.environment["MIGRATE_BENCH_KEEP"]
    let folder =
        kept.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-matrix-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }
    let bound = 2.0
    print("scale (matrix): 200 releases, 40 tiers; each command run by the release migrate in its own process (wall time)")
    print("  products   matrix     generate")
    var notes: [String] = []
    var slowest: (name: String, size: Int, seconds: Double)?
    for size in sizes {
        let plan = matrixScalePlan(products: size)
        let file = folder.appendingPathComponent("plan-\(size).json")
        do {
            try Data(PlanEncoder.encode(plan).utf8).write(to: file)
        } catch {
            print("scale (matrix): cannot write \(file.path): \(error)")
            return
        }
        // A plan that `check` fails would only time the error: say what it is instead.
        let check = errorOutput(binary, ["check", file.path])
        if check.status != 0 {
            print("scale (matrix): `migrate check` fails the plan of \(size) products (exit \(check.status)):")
            print(check.text.split(separator: "\n").filter { $0.contains("error:") }.prefix(8).map { "  " + $0 }.joined(separator: "\n"))
            return
        }
        let output = folder.appendingPathComponent("generated-\(size)").path
        var cells: [String] = []
        for (name, arguments) in [("matrix", ["matrix", file.path]), ("generate", ["generate", file.path, "--output", output])] {
            let run = runChild(binary.path, arguments, limit: 120)
            cells.append((run.exitCode == nil ? "killed" : String(format: "%.2f s", run.seconds)).padding(toLength: 11, withPad: " ", startingAt: 0))
            if let code = run.exitCode, code != 0 { notes.append("\(name) of \(size) products exited \(code)") }
            if run.exitCode == nil || run.seconds > bound { notes.append("\(name) of \(size) products is past the bound") }
            if slowest.map({ run.seconds > $0.seconds }) ?? true { slowest = (name, size, run.seconds) }
        }
        print("  " + String(repeating: " ", count: max(0, 8 - String(size).count)) + String(size) + "   " + cells.joined())
    }
    if let slowest {
        print(String(format: "  bound: each under %.0f s; slowest %@ of %d products, %.2f s", bound, slowest.name, slowest.size, slowest.seconds))
    }
    for note in notes { print("  note: \(note)") }
}

/// The exit status and output (standard output, then standard error) of running `binary` with `arguments`.
func errorOutput(_ binary: URL, _ arguments: [String]) -> (status: Int32, text: String) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = Pipe()
    process.standardError = output
    process.standardOutput = output
    do { try process.run() } catch { return (-1, "\(error)") }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
