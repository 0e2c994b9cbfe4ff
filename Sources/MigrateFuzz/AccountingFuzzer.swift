import Foundation
import MigrateSupport

/// One generated input whose accounting is known before the run: the lines the command must report for each file,
/// the exit statuses it may end with, and the files it must leave exactly as they were.
public struct AccountingCase: Sendable {
    public var fuzzCase: FuzzCase
    /// Per file the command reads and accounts for: the tally it must print (a `LineTally.sentence`).
    public var expected: [String: LineTally]
    /// Where the sentences are printed: standard error (`explain --batch` to standard output, sales reports) or
    /// standard output (`--output` given, license and code files).
    public var exitCodes: Set<Int32>
    /// Files that must be byte for byte the same after the run (the plan, the list, an export).
    public var unchanged: [String]
    /// A second run whose JSON output this run's must equal (the report with another app's rows added against the
    /// report alone): nothing foreign is counted.
    public var sameOutputAs: [String]?
    /// What a refusal's message must hold, for a case that must be refused.
    public var refusal: String?
}

/// Generates inputs for every reader with known counts and injected faults (a stray quote in any column, CR-only and
/// mixed line ends, blank rows, duplicate keys and ids, another app's rows, unknown products, truncated gzip, an
/// output over an input) and checks that the counts a run prints add up to what was generated, that nothing foreign
/// is counted, and that no input is destroyed. The same seed gives the same cases on every machine.
public struct AccountingFuzzer: Sendable {
    let flagship: [UInt8]
    let report: [UInt8]
    let licensePlan: [UInt8]
    let products: [String]

    /// Reads what it builds on from the repository at `root`: the flagship plan, its sales report, the licenses plan.
    public init(root: URL) throws {
        func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: root.appendingPathComponent(path))) }
        flagship = try read("Examples/tilt-to-live-hd/migration.json")
        report = try read("Examples/tilt-to-live-hd/sales-2011-11-to-2012-02.txt")
        licensePlan = try read("Tests/Fixtures/licenses/migration.json")
        products = ["com.example.tilttolivehd.full", "com.example.tilttolivehd.turret", "com.example.tilttolivehd.fullturret"]
    }

    public func cases(seed: UInt64, count: Int) -> [AccountingCase] {
        (0..<count).map { makeCase(seed: seed, index: $0) }
    }

    public func makeCase(seed: UInt64, index: Int) -> AccountingCase {
        var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        switch random.next() % 8 {
        case 0, 1, 2: return customerListCSV(index, &random)
        case 3: return customerListJSONLines(index, &random)
        case 4: return licenseExports(index, &random)
        case 5: return offerCodes(index, &random)
        case 6: return salesReport(index, &random)
        default: return refusal(index, &random)
        }
    }

    // MARK: - Line ends

    enum LineEnd: CaseIterable { case lf, crlf, cr, mixed }

    /// Joins lines with the chosen ends; the last line ends too unless `trailing` is false.
    static func join(_ lines: [String], _ end: LineEnd, trailing: Bool, _ random: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for (offset, line) in lines.enumerated() {
            bytes += Array(line.utf8)
            guard trailing || offset < lines.count - 1 else { break }
            switch end {
            case .lf: bytes.append(10)
            case .crlf: bytes += [13, 10]
            case .cr: bytes.append(13)
            case .mixed:
                // A carriage return before an empty line's line feed would be one CRLF, not two line ends.
                let choice = Int(random.next() % 3)
                bytes += choice == 2 && offset + 1 < lines.count && lines[offset + 1].isEmpty ? [13, 10] : [[10], [13, 10], [13]][choice]
            }
        }
        return bytes
    }

    // MARK: - Customer lists

    func customerListCSV(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        let count = 3 + Int(random.next() % 150)
        let versions = ["10", "14", "21", "30", "40"]
        var lines = ["customerID,originalAppVersion,originalPurchaseDate,environment,products,note"]
        var faults: [String] = []
        var skipped = 0
        var blank = 0
        var duplicates = 0
        var unknown = 0
        for row in 1...count {
            var fields = [
                "c-\(row)", versions[Int(random.next() % 5)], "2011-0\(1 + random.next() % 9)-1\(random.next() % 10)T10:00:00Z", "Production",
                random.next() % 3 == 0 ? products[Int(random.next() % 3)] : "", "note \(row)",
            ]
            switch random.next() % 20 {
            case 0:
                // A stray quote at the start of any field: that row alone is refused.
                let column = Int(random.next() % UInt64(fields.count))
                fields[column] = "\"" + fields[column]
                skipped += 1
                faults.append("stray-quote(\(column + 1))")
            case 1:
                fields[0] = "c-\(max(1, row - 1 - Int(random.next() % UInt64(row))))"
                if row > 1 {
                    duplicates += 1
                    faults.append("duplicate-id")
                } else {
                    fields[0] = "c-1"
                }
            case 2:
                fields[4] = random.next() % 2 == 0 ? "com.example.nope" : "\(products[0]),\(products[1])"
                if fields[4].contains(",") { fields[4] = "\"" + fields[4] + "\"" }
                unknown += 1
                faults.append("unknown-product")
            default: break
            }
            lines.append(fields.joined(separator: ","))
            if random.next() % 40 == 0 {
                lines.append(random.next() % 2 == 0 ? ",,,,," : "")
                blank += 1
                faults.append("blank-row")
            }
        }
        let end = LineEnd.allCases[Int(random.next() % 4)]
        // Without a final line end the last line still counts, unless it is empty (then it is no line at all).
        var bytes = Self.join(lines, end, trailing: random.next() % 5 != 0 || lines.last == "", &random)
        if random.next() % 4 == 0 {
            bytes = [0xEF, 0xBB, 0xBF] + bytes
            faults.append("bom")
        }
        var tally = LineTally()
        tally.lines = lines.count
        tally.header = 1
        tally.blank = blank
        tally.skipped = skipped
        tally.decided = count - skipped
        let name = "list-\(index)-\(end)" + (faults.isEmpty ? "" : "-" + faults.joined(separator: "-"))
        let strict = random.next() % 2 == 0
        // With --strict, a row's own doubts (a date in a paid era, a share of legacy) may fail it too; what the faults
        // inject (a repeated id, an unknown product, a blank row) always does.
        var exits: Set<Int32> = skipped > 0 ? [65] : strict ? [0, 1] : [0]
        if strict && skipped == 0 && duplicates + unknown + blank > 0 { exits = [1] }
        return AccountingCase(
            fuzzCase: FuzzCase(
                name: name, files: ["plan.json": flagship, "list.csv": bytes],
                arguments: ["explain", "plan.json", "--batch", "list.csv"] + (strict ? ["--strict"] : []), input: "list.csv", isCustomerList: true),
            expected: ["list.csv": tally], exitCodes: exits, unchanged: ["plan.json", "list.csv"])
    }

    func customerListJSONLines(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        let count = 2 + Int(random.next() % 80)
        var lines: [String] = []
        var faults: [String] = []
        var skipped = 0
        var blank = 0
        for row in 1...count {
            var members = [#""customerID":"c-\#(row)""#, #""originalAppVersion":"\#(["10", "14", "40"][Int(random.next() % 3)])""#]
            switch random.next() % 12 {
            case 0:
                members.append(#""originalAppVersion":"40""#)
                skipped += 1
                faults.append("duplicate-key")
            case 1:
                members.append(#""originalApplicationVersion":"14""#)
                skipped += 1
                faults.append("two-names")
            case 2:
                lines.append("{" + members.joined(separator: ","))
                skipped += 1
                faults.append("cut-line")
                continue
            default: break
            }
            lines.append("{" + members.joined(separator: ",") + "}")
            if random.next() % 30 == 0 {
                lines.append("   ")
                blank += 1
                faults.append("blank-line")
            }
        }
        let end = LineEnd.allCases[Int(random.next() % 4)]
        let bytes = Self.join(lines, end, trailing: true, &random)
        var tally = LineTally()
        tally.lines = lines.count
        tally.blank = blank
        tally.skipped = skipped
        tally.decided = count - skipped
        return AccountingCase(
            fuzzCase: FuzzCase(
                name: "jsonl-\(index)-\(end)" + (faults.isEmpty ? "" : "-" + faults.joined(separator: "-")),
                files: ["plan.json": flagship, "list.jsonl": bytes], arguments: ["explain", "plan.json", "--batch", "list.jsonl"],
                input: "list.jsonl",
                isCustomerList: true),
            expected: ["list.jsonl": tally], exitCodes: skipped > 0 ? [65] : [0], unchanged: ["plan.json", "list.jsonl"])
    }

    // MARK: - License exports and offer codes

    /// Two shops' plain exports, each numbering from #1001 (different buyers: every row a license), with faults.
    func licenseExports(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        var files: [String: [UInt8]] = ["migration.json": licensePlan]
        var expected: [String: LineTally] = [:]
        var faults: [String] = []
        var anySkipped = false
        for shop in 1...2 {
            let count = 1 + Int(random.next() % 20)
            var lines = ["order,email,name,product,purchased,seats"]
            var tally = LineTally()
            for row in 1...count {
                var fields = [
                    "#\(1000 + row)", "buyer\(row)@shop\(shop).example", "Buyer \(row)", "Tally for Mac",
                    "2019-0\(1 + random.next() % 9)-1\(row % 10)",
                    "\(1 + random.next() % 3)",
                ]
                if random.next() % 12 == 0 {
                    let column = Int(random.next() % UInt64(fields.count))
                    fields[column] = "\"" + fields[column]
                    tally.skipped += 1
                    anySkipped = true
                    faults.append("stray-quote")
                } else {
                    tally.decided += 1
                }
                lines.append(fields.joined(separator: ","))
                if random.next() % 25 == 0 {
                    lines.append(",,,,,")
                    tally.blank += 1
                    faults.append("blank-row")
                }
            }
            let end = LineEnd.allCases[Int(random.next() % 4)]
            files["shop\(shop).csv"] = Self.join(lines, end, trailing: true, &random)
            tally.lines = lines.count
            tally.header = 1
            expected["shop\(shop).csv"] = tally
            faults.append("\(end)")
        }
        return AccountingCase(
            fuzzCase: FuzzCase(
                name: "licenses-\(index)-" + faults.joined(separator: "-"), files: files,
                arguments: ["import", "licenses", "shop1.csv", "shop2.csv", "--dry-run"], input: "shop1.csv"),
            expected: expected, exitCodes: anySkipped ? [65] : [0], unchanged: ["migration.json", "shop1.csv", "shop2.csv"])
    }

    func offerCodes(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        let count = 1 + Int(random.next() % 30)
        var lines = ["Code,Expiration Date"]
        var tally = LineTally()
        var faults: [String] = []
        for row in 1...count {
            var code = "CODE\(String(row, radix: 36).uppercased())X\(index)"
            if random.next() % 10 == 0 {
                code = "\"" + code
                tally.skipped += 1
                faults.append("stray-quote")
            } else {
                tally.decided += 1
            }
            lines.append("\(code),2099-04-30")
        }
        let end = LineEnd.allCases[Int(random.next() % 4)]
        tally.lines = lines.count
        tally.header = 1
        let export = "order,email,name,product,purchased,seats\n#1001,one@shop.example,One,Tally for Mac,2019-03-14,1\n"
        return AccountingCase(
            fuzzCase: FuzzCase(
                name: "codes-\(index)-\(end)" + (faults.isEmpty ? "" : "-" + faults.joined(separator: "-")),
                files: ["migration.json": licensePlan, "codes.csv": Self.join(lines, end, trailing: true, &random), "shop.csv": Array(export.utf8)],
                arguments: [
                    "codes", "assign", "--codes", "com.example.tally.license=codes.csv", "--licenses", "shop.csv", "--ledger", "ledger.json",
                    "--output",
                    "mail.csv", "--now", "2026-01-01T00:00:00Z",
                ], input: "codes.csv"),
            expected: ["codes.csv": tally], exitCodes: [0, 1], unchanged: ["migration.json", "codes.csv", "shop.csv"])
    }

    // MARK: - Sales reports

    /// The flagship's report with another app's rows interleaved (another SKU, title, Apple Identifier and products):
    /// every figure must equal the report's alone.
    func salesReport(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        let text = String(decoding: report, as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        var mixed = [header]
        var foreign = 0
        for line in lines {
            if random.next() % 2 == 0 {
                mixed.append(
                    line.replacingOccurrences(of: "tilttolivehd", with: "app\(index)").replacingOccurrences(
                        of: "Tilt to Live HD", with: "App \(index)"
                    )
                    .replacingOccurrences(of: "42000", with: "53000"))
                foreign += 1
            }
            mixed.append(line)
        }
        var tally = LineTally()
        tally.lines = mixed.count
        tally.header = 1
        tally.decided = lines.count
        tally.setAside = foreign
        let end: LineEnd = random.next() % 2 == 0 ? .lf : .crlf
        var bytes = Self.join(mixed, end, trailing: true, &random)
        var name = "sales-\(index)-\(end)-foreign(\(foreign))"
        var exits: Set<Int32> = [0]
        var same: [String]? = ["simulate", "plan.json", "--actuals", "alone.txt", "--format", "json", "--draws", "200"]
        var expected = ["both.txt": tally]
        if random.next() % 6 == 0 {
            // A gzipped report cut short: refused whole, naming the file, nothing compared.
            bytes = Array(Self.gzipStored(bytes).prefix(20 + Int(random.next() % 200)))
            name += "-truncated-gzip"
            exits = [65]
            same = nil
            expected = [:]
        }
        return AccountingCase(
            fuzzCase: FuzzCase(
                name: name, files: ["plan.json": flagship, "both.txt": bytes, "alone.txt": report],
                arguments: ["simulate", "plan.json", "--actuals", "both.txt", "--format", "json", "--draws", "200"], input: "both.txt"),
            expected: expected, exitCodes: exits, unchanged: ["plan.json", "both.txt", "alone.txt"], sameOutputAs: same)
    }

    /// `bytes` as a gzip member of stored (uncompressed) DEFLATE blocks, with its CRC and length: a valid `.gz` to cut.
    static func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let size = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + size >= bytes.count ? 1 : 0
            out += [last, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)]
            out += bytes[offset..<(offset + size)]
            offset += size
        } while offset < bytes.count
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((crc >> UInt32(shift)) & 0xFF)) }
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((size >> UInt32(shift)) & 0xFF)) }
        return out
    }

    // MARK: - Refusals that must leave every input as it was

    func refusal(_ index: Int, _ random: inout SeededGenerator) -> AccountingCase {
        let list = Array("customerID,originalAppVersion\nc-1,14\nc-2,40\n".utf8)
        let files: [String: [UInt8]] = ["plan.json": flagship, "list.csv": list]
        let choices: [(name: String, arguments: [String], exit: Int32, message: String)] = [
            ("output-over-plan", ["explain", "plan.json", "--batch", "list.csv", "--output", "plan.json"], 64, "names a file this run reads"),
            ("output-over-list", ["explain", "plan.json", "--batch", "list.csv", "--output", "list.csv"], 64, "names a file this run reads"),
            ("rejected-over-plan", ["explain", "plan.json", "--batch", "list.csv", "--rejected", "./plan.json"], 64, "names a file this run reads"),
            ("report-over-list", ["report", "plan.json", "--batch", "list.csv", "--output", "list.csv"], 64, "names a file this run reads"),
            ("chart-over-plan", ["simulate", "plan.json", "--chart", "plan.json"], 64, "names a file this run reads"),
            ("two-outputs", ["explain", "plan.json", "--batch", "list.csv", "--output", "x.csv", "--rejected", "x.csv"], 64, "name the same file"),
            ("missing-folder", ["explain", "plan.json", "--batch", "list.csv", "--output", "nowhere/x.csv"], 73, "does not exist"),
            ("same-list-twice", ["explain", "plan.json", "--batch", "list.csv", "--licenses", "list.csv", "--licenses", "list.csv"], 64, "twice"),
        ]
        let choice = choices[Int(random.next() % UInt64(choices.count))]
        return AccountingCase(
            fuzzCase: FuzzCase(name: "refusal-\(index)-\(choice.name)", files: files, arguments: choice.arguments, input: "list.csv"),
            expected: [:], exitCodes: [choice.exit], unchanged: ["plan.json", "list.csv"], refusal: choice.message)
    }

    // MARK: - The oracle

    /// What is wrong with a run of `accountingCase`, or nil: its exit status, every file's printed tally against the
    /// generated one (and that its parts add up), the inputs it must leave alone, and the output it must match.
    public static func check(
        _ accountingCase: AccountingCase, exitCode: Int32, output: String, error: String, filesAfter: [String: [UInt8]?],
        referenceOutput: String? = nil
    ) -> String? {
        guard accountingCase.exitCodes.contains(exitCode) else {
            return "exit \(exitCode), expected \(accountingCase.exitCodes.sorted()): \(error.prefix(400))"
        }
        for name in accountingCase.unchanged {
            guard let after = filesAfter[name] else { continue }
            if after != accountingCase.fuzzCase.files[name] { return "\(name) was changed or destroyed" }
        }
        if let message = accountingCase.refusal {
            return (output + error).contains(message) ? nil : "the refusal doesn't say '\(message)': \(error.prefix(300))"
        }
        // A sentence is on its file's line, or (after a long path) on the line under it.
        let printed = (output + "\n" + error).replacingOccurrences(of: ":\n  ", with: ": ")
        for (file, tally) in accountingCase.expected {
            guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix(file + ": ") && PrintedTally(summaryIn: String($0)) != nil }),
                let found = PrintedTally(summaryIn: String(line))
            else { return "no accounting for \(file)" }
            if !found.balances { return "\(file): the parts don't add up: \(line)" }
            if found.lines != tally.lines { return "\(file): \(found.lines) lines, generated \(tally.lines): \(line)" }
            let parts: [(String, Int, Int)] = [
                ("header", found.parts["header"] ?? 0, tally.header), ("decided", found.decided, tally.decided),
                ("skipped", found.parts["skipped"] ?? 0, tally.skipped), ("blank", found.parts["blank"] ?? 0, tally.blank),
                ("set aside", found.parts["set aside"] ?? 0, tally.setAside),
            ]
            for (name, got, want) in parts where got != want { return "\(file): \(got) \(name), generated \(want): \(line)" }
        }
        if let reference = referenceOutput {
            guard let mine = try? JSONParser.parse(output), let theirs = try? JSONParser.parse(reference) else { return "the outputs are not JSON" }
            for key in ["headline", "months", "assumptions"] where mine[key]?.value != theirs[key]?.value {
                return "'\(key)' differs from the report without the other app's rows: another app's sales were counted"
            }
        }
        return nil
    }
}
