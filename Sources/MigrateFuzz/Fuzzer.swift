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
    /// A customer list for `explain --batch`: its summary must account for every row (`Fuzzer.accounting`).
    public var isCustomerList = false
}

/// A seeded generator of bad inputs: mutations of the examples and the project's own fixtures (plans,
/// receipts, PICT models, sales reports). The same seed gives the same cases on every machine.
public struct Fuzzer: Sendable {
    /// Exit codes `migrate` may end with (the manual, "Limits and exit codes"); anything else, or a signal, is a bug.
    public static let exitCodes: Set<Int32> = [0, 1, 64, 65, 66, 73, 74]

    let plans: [[UInt8]]
    let receipts: [[UInt8]]
    let models: [[UInt8]]
    let sales: [[UInt8]]
    /// Customer lists for `explain --batch` with the flagship plan: CSV (with a note column that may hold line
    /// breaks) and JSON Lines.
    let lists: [(name: String, bytes: [UInt8])]
    let flagship: [UInt8]

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
        sales = try ["summary-28-columns.txt", "summary-20-columns.txt", "summary-28-columns.txt.gz", "daily-first-sales.txt"].map {
            try read("Tests/Fixtures/import/sales/\($0)")
        }
        flagship = try read("Examples/tilt-to-live-hd/migration.json")
        let csv = try read("Examples/tilt-to-live-hd/customers.csv")
        let text = String(decoding: csv, as: UTF8.self)
        let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        var noted = "note," + rows[0].joined(separator: ",") + "\n"
        var jsonLines = ""
        for (index, row) in rows.dropFirst().enumerated() {
            noted += (index % 3 == 0 ? "\"line one\nline, two\"" : "plain") + "," + row.joined(separator: ",") + "\n"
            let members = zip(rows[0], row).map { "\"\($0)\":\"\($1)\"" }
            jsonLines += "{" + members.joined(separator: ",") + "}\n"
        }
        lists = [("customers.csv", csv), ("noted.csv", Array(noted.utf8)), ("customers.jsonl", Array(jsonLines.utf8))]
    }

    /// `count` cases from `seed`; case `i` depends only on the seed and `i`.
    public func cases(seed: UInt64, count: Int) -> [FuzzCase] {
        (0..<count).map { makeCase(seed: seed, index: $0) }
    }

    public func makeCase(seed: UInt64, index: Int) -> FuzzCase {
        var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let kind = Int(random.next() % 13)
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
        case 10, 11:
            let list = lists[Int(random.next() % UInt64(lists.count))]
            let (bytes, mutation) = random.next() % 2 == 0 ? mutateList(list.bytes, &random) : mutate(list.bytes, &random)
            let formats: [[String]] = [[], ["--format", "csv"], ["--format", "jsonl"]]
            return FuzzCase(
                name: "list-\(index)-\(list.name)-\(mutation)", files: ["plan.json": flagship, list.name: bytes],
                arguments: ["explain", "plan.json", "--batch", list.name] + formats[Int(random.next() % 3)], input: list.name, isCustomerList: true)
        case 12:
            // A folder of responses, one customer a file, one of them mutated.
            var files: [String: [UInt8]] = ["plan.json": plans[Int(random.next() % UInt64(plans.count))]]
            let chosen = (0..<3).map { _ in Int(random.next() % UInt64(receipts.count)) }
            for (offset, receipt) in chosen.enumerated() { files["responses/\(offset).json"] = receipts[receipt] }
            let (bytes, mutation) = mutate(receipts[chosen[0]], &random)
            files["responses/0.json"] = bytes
            return FuzzCase(
                name: "responses-\(index)-\(mutation)", files: files, arguments: ["explain", "plan.json", "--batch", "responses"], input: "responses",
                isCustomerList: true)
        default:
            let report = sales[Int(random.next() % UInt64(sales.count))]
            let (bytes, mutation) = mutate(report, &random)
            let commands = [
                ["import", "sales", "report.txt", "--plan", "plan.json", "--dry-run"],
                ["simulate", "plan.json", "--actuals", "report.txt", "--draws", "20"],
            ]
            return FuzzCase(
                name: "sales-\(index)-\(mutation)", files: ["plan.json": flagship, "report.txt": bytes],
                arguments: commands[Int(random.next() % 2)], input: "report.txt")
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

    /// Mutations a customer list meets in the wild: a stray quote at a field's start, another separator, Excel's
    /// byte order mark and CRLF, a huge field, a line cut short, lines repeated.
    func mutateList(_ bytes: [UInt8], _ random: inout SeededGenerator) -> ([UInt8], String) {
        var bytes = bytes
        let starts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") || bytes[$0] == 10 }.map { $0 + 1 }.filter { $0 < bytes.count }
        func fieldStart() -> Int { starts[Int(random.next() % UInt64(starts.count))] }
        switch random.next() % 7 {
        case 0:
            for _ in 0...(random.next() % 3) { bytes.insert(UInt8(ascii: "\""), at: fieldStart()) }
            return (bytes, "stray-quote")
        case 1:
            return (bytes.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ";") : $0 }, "semicolons")
        case 2:
            return ([0xEF, 0xBB, 0xBF] + bytes.flatMap { $0 == 10 ? [13, 10] : [$0] }, "excel")
        case 3:
            let size = [1_000, 70_000, 1 << 20 + 10][Int(random.next() % 3)]
            bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "9"), count: size), at: fieldStart())
            return (bytes, "huge-field(\(size))")
        case 4:
            let at = fieldStart()
            let end = bytes[at...].firstIndex(of: 10) ?? bytes.count
            bytes.removeSubrange(at..<end)
            return (bytes, "cut-line")
        case 5:
            bytes.insert(contentsOf: Array("\"a\"b,".utf8), at: fieldStart())
            return (bytes, "text-after-quote")
        default:
            let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            let line = lines[Int(random.next() % UInt64(lines.count))]
            bytes += Array(repeating: Array(line) + [10], count: 1 + Int(random.next() % 50)).flatMap { $0 }
            return (bytes, "repeat-line")
        }
    }

    /// Whether an `explain --batch` run accounted for every line: the summary's parts (header, decided, skipped,
    /// blank…) add up to its lines, the decisions written are the decided rows, and the lines are the list's own
    /// (every line end counted: LF, CRLF and CR alone). Nil when it did, else what is wrong. A run that refused the list
    /// (exit 64, 65 with no summary, 66, 73) has nothing to account for.
    public static func accounting(
        of fuzzCase: FuzzCase, exitCode: Int32, output: [UInt8], error: String, listBytes: [UInt8]?
    ) -> String? {
        guard fuzzCase.isCustomerList, exitCode == 0 || exitCode == 1 || exitCode == 65 else { return nil }
        guard let tally = PrintedTally(summaryIn: error) else {
            return exitCode == 65 ? nil : "no summary line on standard error"
        }
        if !tally.balances { return "the parts don't add up to the lines: \(tally.line)" }
        // The decisions written: one JSON line each, or CSV records after the header.
        let text = String(decoding: output, as: UTF8.self)
        let written: Int
        if text.hasPrefix("{") {
            written = text.split(separator: "\n").count
        } else {
            var reader = CSVReader(maxRecordBytes: 1 << 24)
            var records = 0
            reader.feed(output[...], record: { _ in records += 1 }, failure: { _ in records += 1 })
            reader.finish(record: { _ in records += 1 }, failure: { _ in records += 1 })
            written = max(0, records - 1)
        }
        if written != tally.decided { return "\(written) decisions written, \(tally.decided) decided" }
        if let list = listBytes, !list.contains(0), !list.starts(with: [0xFF, 0xFE]), !list.starts(with: [0xFE, 0xFF]), !tally.isFolder {
            let lines = physicalLines(list)
            if tally.lines != lines { return "\(tally.lines) lines accounted for, but the list has \(lines)" }
        }
        return nil
    }

    /// Lines as every reader counts them: each LF, CRLF or lone CR ends one, and text after the last ends one more.
    public static func physicalLines(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 {
                count += 1
            } else if bytes[index] == 13 {
                count += 1
                if index + 1 < bytes.count && bytes[index + 1] == 10 { index += 1 }
            }
            index += 1
        }
        if let last = bytes.last, last != 10 && last != 13 { count += 1 }
        return count
    }
}

/// A line-accounting sentence as a command prints it (`LineTally.sentence`): `FILE: 100,001 lines: 1 header,
/// 99,998 customers decided (…), 1 skipped, 2 blank`. The fuzzers' oracle reads it back to check that the parts add up.
public struct PrintedTally: Sendable {
    public var line: String
    public var lines = 0
    public var parts: [String: Int] = [:]
    public var isFolder = false

    /// The first accounting sentence in `text`.
    public init?(summaryIn text: String) {
        guard
            let line = text.split(separator: "\n").first(where: {
                $0.range(of: #"[0-9,]+ (lines?|entr(y|ies)): "#, options: .regularExpression) != nil
            })
        else { return nil }
        self.line = String(line)
        guard let head = line.range(of: #"[0-9,]+ (lines?|entr(y|ies)): "#, options: .regularExpression) else { return nil }
        isFolder = line[head].contains("entr")
        lines = Int(line[head].prefix { $0.isNumber || $0 == "," }.replacingOccurrences(of: ",", with: "")) ?? -1
        // The parts run to the first ';' or '.' that ends the sentence, parentheses aside.
        var body = ""
        var depth = 0
        for character in line[head.upperBound...] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 && (character == ";" || character == ".") { break }
            if depth == 0 && character != ")" { body.append(character) }
        }
        for part in body.components(separatedBy: ", ") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let first = words.first, let count = Int(first.replacingOccurrences(of: ",", with: "")) else { continue }
            let kind = words.dropFirst().last.map(String.init) ?? ""
            let key = part.contains("not counted") ? "not counted" : part.contains("set aside") ? "set aside" : kind
            parts[key, default: 0] += count
        }
    }

    public var decided: Int { parts["decided"] ?? parts["read"] ?? parts["counted"] ?? 0 }

    public var balances: Bool { parts.values.reduce(0, +) == lines }
}
