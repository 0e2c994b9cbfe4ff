import Foundation
import MigrateCore
import MigrateSupport

/// One run of `migrate` on a mutated input: the files to put in an empty folder and the arguments.
public struct FuzzCase: Sendable {
    /// `kind-index-mutation`, to find the case again from its seed.
    public var name: String
    /// Relative path → bytes, written into the folder the command runs in.
    public var files: [String: [UInt8]]
    public var arguments: [String]
    /// The file the message should name when the command fails.
    public var input: String
}

/// A seeded generator of bad inputs: mutations of the examples and the project's own fixtures (plans,
/// receipts, PICT models, sales reports). The same seed gives the same cases on every machine.
public struct Fuzzer: Sendable {
    /// Exit codes `migrate` may end with (the manual, "Limits and exit codes"); anything else, or a signal, is a bug.
    public static let exitCodes: Set<Int32> = [0, 1, 64, 65, 66, 73]

    let plans: [[UInt8]]
    let receipts: [[UInt8]]
    let models: [[UInt8]]
    let sales: [[UInt8]]

    /// Reads the corpus from the repository at `root`.
    public init(root: URL) throws {
        func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: root.appendingPathComponent(path))) }
        let examples = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path).sorted()
        plans = try examples.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent("Examples/\($0)/migration.json").path) }
            .map { try read("Examples/\($0)/migration.json") }
        let receiptFolder = "Tests/Fixtures/receipts"
        receipts = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(receiptFolder).path).sorted()
            .filter { $0.hasSuffix(".json") }.map { try read("\(receiptFolder)/\($0)") }
        models = [
            Array("OS: iOS, macOS, tvOS\nInput: touch, mouse, remote\nNetwork: wifi, cellular\nIF [OS] = \"tvOS\" THEN [Input] = \"remote\";\n".utf8),
            Array(
                "Cohort: legacy, new\nVersion: 1, 2, 10\nOwns: none, full\nIF [Cohort] = \"new\" THEN NOT ([Owns] = \"full\" AND [Version] < 2);\n"
                    .utf8),
        ]
        sales = try ["summary-28-columns.txt", "summary-20-columns.txt"].map { try read("Tests/Fixtures/import/sales/\($0)") }
    }

    /// `count` cases from `seed`; case `i` depends only on the seed and `i`.
    public func cases(seed: UInt64, count: Int) -> [FuzzCase] {
        (0..<count).map { makeCase(seed: seed, index: $0) }
    }

    public func makeCase(seed: UInt64, index: Int) -> FuzzCase {
        var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let kind = Int(random.next() % 10)
        let plan = plans[Int(random.next() % UInt64(plans.count))]
        switch kind {
        case 0...4:
            let (bytes, mutation) = mutate(plan, &random)
            let commands: [[String]] = [
                ["check", "plan.json"], ["explain", "plan.json", "--original-version", "1.0"],
                ["simulate", "plan.json", "--draws", "20", "--threads", "1"], ["matrix", "plan.json"], ["check", "plan.json", "--format", "json"],
                ["explain", "plan.json", "--original-purchase-date", "2012-01-01T00:00:00Z"],
            ]
            return FuzzCase(
                name: "plan-\(index)-\(mutation)", files: ["plan.json": bytes], arguments: commands[Int(random.next() % UInt64(commands.count))],
                input: "plan.json")
        case 5, 6:
            let receipt = receipts[Int(random.next() % UInt64(receipts.count))]
            let (bytes, mutation) = mutate(receipt, &random)
            return FuzzCase(
                name: "receipt-\(index)-\(mutation)", files: ["plan.json": plan, "receipt.json": bytes],
                arguments: ["explain", "plan.json", "--receipt", "receipt.json"], input: "receipt.json")
        case 7, 8:
            let model = models[Int(random.next() % UInt64(models.count))]
            let (bytes, mutation) = mutate(model, &random)
            return FuzzCase(
                name: "model-\(index)-\(mutation)", files: ["model.txt": bytes], arguments: ["matrix", "--model", "model.txt"], input: "model.txt")
        default:
            let report = sales[Int(random.next() % UInt64(sales.count))]
            let (bytes, mutation) = mutate(report, &random)
            return FuzzCase(
                name: "sales-\(index)-\(mutation)", files: ["plan.json": plans[0], "report.txt": bytes],
                arguments: ["import", "sales", "report.txt", "--plan", "plan.json", "--dry-run"], input: "report.txt")
        }
    }

    static let hugeNumbers = ["1e308", "-1e308", "1e16", "1e22", "99999999999999999999", "-0", "4.9e-324", "1e-400", "0.000000000000000000001"]
    static let hostile = ["\u{1B}]0;title\u{07}", "\u{1B}[2J", "\u{0}", "\u{202E}", "\u{FEFF}", "é", "\\u0000", "\\ud800"]

    /// One mutation of `bytes`, named for the report.
    func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> ([UInt8], String) {
        guard !bytes.isEmpty else { return ([0xFF], "empty") }
        var bytes = bytes
        func position() -> Int { Int(random.next() % UInt64(bytes.count)) }
        switch random.next() % 11 {
        case 0:
            return (Array(bytes.prefix(position())), "truncate")
        case 1:
            let at = position()
            bytes[at] ^= UInt8(1 << (random.next() % 8))
            return (bytes, "flip")
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position())
            return (bytes, "insert")
        case 3:
            let start = position()
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + Int(random.next() % 40)))
            return (bytes, "delete")
        case 4:
            let start = position()
            let chunk = Array(bytes[start..<min(bytes.count, start + 1 + Int(random.next() % 200))])
            bytes.insert(contentsOf: chunk, at: position())
            return (bytes, "duplicate")
        case 5, 6:
            // Replace a number with a huge, tiny or overflowing one.
            let digits = bytes.indices.filter { (48...57).contains(bytes[$0]) && ($0 == 0 || !(48...57).contains(bytes[$0 - 1])) }
            guard let start = digits.isEmpty ? nil : digits[Int(random.next() % UInt64(digits.count))] else { return (bytes, "none") }
            var end = start
            while end < bytes.count, (48...57).contains(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            let number = Self.hugeNumbers[Int(random.next() % UInt64(Self.hugeNumbers.count))]
            bytes.replaceSubrange(start..<end, with: Array(number.utf8))
            return (bytes, "number(\(number))")
        case 7:
            let depth = [50, 1_000, 30_000][Int(random.next() % 3)]
            let (open, close) = [("[", "]"), ("{\"a\":", "}"), ("(", ")"), ("NOT ", "")][Int(random.next() % 4)]
            let at = position()
            bytes.insert(contentsOf: Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8), at: at)
            return (bytes, "nest(\(depth))")
        case 8:
            let text = Self.hostile[Int(random.next() % UInt64(Self.hostile.count))]
            bytes.insert(contentsOf: Array(text.utf8), at: position())
            return (bytes, "hostile")
        case 9:
            // Another encoding: Latin-1 bytes, UTF-16, or a lone continuation byte.
            switch random.next() % 3 {
            case 0: bytes.insert(0xE9, at: position())
            case 1: bytes = [0xFF, 0xFE] + bytes.flatMap { [$0, 0] }
            default: bytes.insert(0x80, at: position())
            }
            return (bytes, "encoding")
        default:
            // Swap two quoted strings' contents, or repeat a line many times.
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let line = lines[Int(random.next() % UInt64(lines.count))]
            let times = 1 + Int(random.next() % 500)
            bytes.insert(contentsOf: Array(repeating: Array(line) + [UInt8(ascii: "\n")], count: times).flatMap { $0 }, at: position())
            return (bytes, "repeat(\(times))")
        }
    }
}
