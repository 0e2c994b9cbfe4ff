import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import Testing

/// A gzip file of stored (uncompressed) DEFLATE blocks: no compressor needed, and the pieces it
/// inflates to are cut wherever the blocks end, so lines span them.
func storedGzip(_ bytes: [UInt8], blockSize: Int = 65_535) -> [UInt8] {
    var crc: UInt32 = 0xFFFF_FFFF
    crcTable.withUnsafeBufferPointer { table in
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
    crc ^= 0xFFFF_FFFF
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    var start = 0
    repeat {
        let end = min(bytes.count, start + blockSize)
        let length = end - start
        out.append(end == bytes.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
        out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
        out += bytes[start..<end]
        start = end
    } while start < bytes.count
    let size = UInt32(truncatingIfNeeded: bytes.count)
    for value in [crc, size] { out += (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    return out
}

/// CRC-32's table (gzip's polynomial), a byte at a time: the bitwise loop took seconds over the large
/// report in a debug build.
let crcTable: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    return crc
}

@Suite("Import: sales reports read as a stream", .timeLimit(.minutes(20)))
struct StreamingImportTests {
    /// The 28-column fixture with its data rows repeated: many inflated pieces, lines across their edges.
    static func largeReport(copies: Int) throws -> [UInt8] {
        let text = String(decoding: try fixture("sales/summary-28-columns.txt"), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let body = lines.dropFirst().joined(separator: "\n") + "\n"
        return Array((String(lines[0]) + "\n" + String(repeating: body, count: copies)).utf8)
    }

    /// 400 copies are 648 KB: ten 64 KiB pieces and 65 stored blocks, enough edges without a debug build
    /// spending seconds parsing megabytes.
    @Test("Gzipped and plain, a report of many pieces gives the same install base", arguments: [1, 7, 400])
    func sameResult(copies: Int) throws {
        let plain = try Self.largeReport(copies: copies)
        let plainResult = try SalesReportImporter.read(plain, file: "r.txt")
        // Odd block sizes put block and piece edges mid-line and between "\r" and "\n".
        let gzipped = try SalesReportImporter.read(storedGzip(plain, blockSize: 9_973), file: "r.txt.gz")
        #expect(gzipped.installBase == plainResult.installBase)
        #expect(gzipped.ignored == plainResult.ignored)
        #expect(gzipped.issues.map(\.message) == plainResult.issues.map(\.message))
        #expect(plainResult.installBase?.downloads.isEmpty == false)
    }

    @Test("gunzip hands on pieces of at most 64 KiB in order, and stops when asked")
    func pieces() throws {
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces: [Int] = []
        var joined: [UInt8] = []
        try Inflate.gunzip(storedGzip(data)) { chunk, _ in
            pieces.append(chunk.count)
            joined += chunk
            return true
        }
        #expect(joined == data)
        #expect(pieces.allSatisfy { $0 <= 64 << 10 + 65_535 } && pieces.count > 2)
        var calls = 0
        try Inflate.gunzip(storedGzip(data)) { _, _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
    }

    @Test("A line past the line limit is refused with the limit, before the rest is read")
    func longLine() throws {
        let header = Array("Provider\tSKU\tProduct Type Identifier\tUnits\tCustomer Price\n".utf8)
        let report = header + [UInt8](repeating: 0x41, count: Limits.salesReportLineBytes + 10) + [0x0A]
        for (bytes, file) in [(report, "r.txt"), (storedGzip(report), "r.txt.gz")] {
            do {
                _ = try SalesReportImporter.read(bytes, file: file)
                Issue.record("expected the long line to be refused")
            } catch {
                #expect(error.description.contains("longer than 1,048,576 bytes"), "\(error.description)")
                #expect(error.description.contains(file))
            }
        }
    }

    @Test("Warnings past the limit are counted in one line, not kept one per row")
    func warningsCapped() throws {
        let header = "Provider\tSKU\tProduct Type Identifier\tUnits\tCustomer Price\n"
        let rows = String(repeating: "APPLE\tapp\t1\tmany\t0.99\n", count: Limits.salesReportWarnings + 500)
        let result = try SalesReportImporter.read(storedGzip(Array((header + rows).utf8)), file: "r.txt.gz")
        #expect(result.issues.count == Limits.salesReportWarnings + 1)
        #expect(result.issues.last?.message == "500 more rows skipped with warnings; only the first 1,000 are listed")
    }

    @Test("Blank and binary files keep their errors when streamed")
    func emptyAndBinary() throws {
        for (bytes, expected) in [
            (Array(" \n\t\r\n\n".utf8), "the file is empty"), (Array("\n\nProvider\tSKU\n".utf8), "missing columns"),
            (Array("Provider\tSKU\n".utf8) + [0, 1, 2], "binary file"),
        ] {
            for (input, file) in [(bytes, "r.txt"), (storedGzip(bytes), "r.txt.gz")] {
                do {
                    _ = try SalesReportImporter.read(input, file: file)
                    Issue.record("expected \(expected)")
                } catch {
                    #expect(error.description.contains(expected), "\(file): \(error.description)")
                }
            }
        }
    }
}

@Suite("Import: sales rows read from bytes", .timeLimit(.minutes(20)))
struct SalesRowBytesTests {
    /// Fields padded with ASCII and Unicode spaces, a sign, grouping commas, characters past ASCII and invalid UTF-8: read as
    /// text trimmed by `trimmedOfSpaces` reads them, and a warning's column counted in characters, not bytes.
    static let report: [UInt8] = {
        let header = "Provider\tSKU\tVersion\tProduct Type Identifier\tUnits\tCustomer Price\tCustomer Currency\tBegin Date\tEnd Date\tTitle\n"
        var bytes = Array(header.utf8)
        bytes += Array("APPLE\tapp\t 1.0 \t1\t +3 \t1,299.00\tUSD\t01/06/2019\t01/06/2019\tCafé\u{A0}\r\n".utf8)
        bytes += Array("APPLE\tapp\t1.0\t 1 \t\u{A0}2\u{2003}\t0.99\tUSD\t 01/07/2019 \t01/07/2019\tCafé\n".utf8)
        bytes += Array("\u{3000}\t \r\n".utf8)  // a blank line of Unicode and ASCII spaces
        bytes += Array("APPLE\tapp\t1.0\t1\t-1\t0.99\tUSD\t01/07/2019\t01/07/2019\tCafé\n".utf8)
        bytes += Array("Ünïcödé\tapp\t1.0\t1\tx\t0.99\tUSD\t01/07/2019\t01/07/2019\tCafé\n".utf8)
        bytes += Array("APPLE\tapp\t1.0\t1\t1\t.99\tUSD\t01/07/2019\t01/07/2019\tCafé\n".utf8)
        bytes += Array("APPLE\tapp\t1.0\t1\t1\t0.99\tUSD\t01/07/2019\t01/07/2019\tC".utf8) + [0xFF] + Array("a\n".utf8)
        return bytes
    }()

    @Test("Trimming, signs, grouping commas and Unicode read as before, plain and gzipped", arguments: [false, true])
    func unicodeAndPadding(gzipped: Bool) throws {
        let result = try SalesReportImporter.read(gzipped ? storedGzip(Self.report, blockSize: 37) : Self.report, file: "r.txt")
        #expect(result.installBase?.downloads == [DownloadCount(platform: .iOS, version: try Version("1.0"), paid: 5, refunds: 1)])
        #expect(result.installBase?.from == date("2019-01-06") && result.installBase?.until == date("2019-01-07"))
        // 3 × 1,299.00 + 2 × 0.99 − 1 × 0.99 + 1 × 0.99, exactly.
        #expect(result.ignored.contains("customer sales 3898.98 USD (money is not stored in the plan)"), "\(result.ignored)")
        #expect(result.salesIdentity?.titles == ["Café", "C\u{FFFD}a"])
        #expect(result.issues.map(\.message) == ["'x' is not a whole number of units; row skipped", "'.99' is not an amount; row skipped"])
        // "Ünïcödé" is 7 characters (11 bytes): Units starts at character 19.
        #expect(result.issues.first?.location == SourceLocation(line: 6, column: 19))
        #expect(result.issues.last?.location?.line == 7)
    }

    @Test("Tabs found eight bytes a step: fields of every length around a word's, and rows with a tab too many")
    func tabs() throws {
        var report = "Provider\tSKU\tProduct Type Identifier\tUnits\tCustomer Price\n"
        for length in 0..<20 {
            let provider = String(repeating: "P", count: length)
            report += "\(provider)\tapp\t1\t\(length + 1)\t0\n\(provider)\t\tapp\t1\t1\t0\n"
        }
        let result = try SalesReportImporter.read(Array(report.utf8), file: "t.txt")
        #expect(result.installBase?.downloads.map(\.free) == [(1...20).reduce(0, +)])
        #expect(result.issues.count == 20 && result.issues.allSatisfy { $0.message == "the row has 6 fields but the header has 5; skipped" })
    }

    @Test("Currency totals found by remembered indexes stay right as currencies are added, read as text or from bytes")
    func currencies() throws {
        var report = "Provider\tSKU\tProduct Type Identifier\tUnits\tCustomer Price\tCustomer Currency\tDeveloper Proceeds\n"
        // Twenty currencies from bytes, forty more read as text (padded with a no-break space: the dictionary grows, and the
        // indexes remembered for the first twenty move), then all sixty from bytes again.
        for (range, padding) in [(0..<20, ""), (20..<60, "\u{A0}"), (0..<60, "")] {
            for index in range { report += "APPLE\tapp\t1\t1\t1.00\t\(padding)C\(index)\t0.70\n" }
        }
        let result = try SalesReportImporter.read(Array(report.utf8), file: "c.txt")
        for index in 0..<60 {
            #expect(result.ignored.contains("customer sales 2.00 C\(index) (money is not stored in the plan)"), "C\(index)")
            #expect(result.ignored.contains("developer proceeds 1.40 C\(index)"), "C\(index)")
        }
    }

    @Test("Thousands of distinct SKUs: past the texts remembered by their bytes, each is still counted once")
    func manyTexts() throws {
        var report = "Provider\tSKU\tProduct Type Identifier\tUnits\tCustomer Price\tTitle\n"
        for index in 0..<5_000 {
            report += "APPLE\tsku\(index)\tIA1\t1\t0.99\tTitle \(index % 3)\nAPPLE\tsku\(index)\tIA1\t2\t0.99\tTitle \(index % 3)\n"
        }
        let result = try SalesReportImporter.read(Array(report.utf8), file: "many.txt")
        #expect(result.salesIdentity?.products.count == 5_000)
        #expect(result.installBase?.products.count == 5_000 && result.installBase?.products.allSatisfy { $0.units == 3 } == true)
        #expect(result.app.name == nil, "three titles")
    }

    @Test("Whole numbers and amounts at their limits: the largest units, signs, four decimals, too many digits")
    func numbers() throws {
        let header = "Provider\tSKU\tVersion\tProduct Type Identifier\tUnits\tCustomer Price\tCustomer Currency\n"
        let rows = [
            "APPLE\tapp\t1.0\t1\t1000000000\t0.0001\tEUR", "APPLE\tapp\t1.0\t1\t-1000000000\t0.0001\tEUR",
            "APPLE\tapp\t1.0\t1\t1\t999999999999.9999\tGBP", "APPLE\tapp\t1.0\t1\t1\t-0.5\tJPY",
            "APPLE\tapp\t1.0\t1\t1\t1234567890123\tUSD", "APPLE\tapp\t1.0\t1\t1\t1.23456\tUSD", "APPLE\tapp\t1.0\t1\t99999999999999999999\t1\tUSD",
            "APPLE\tapp\t1.0\t1\t--1\t1\tUSD", "APPLE\tapp\t1.0\t1\t1\t-\tUSD", "APPLE\tapp\t1.0\t1\t1\t1.\tUSD",
        ]
        let result = try SalesReportImporter.read(Array((header + rows.joined(separator: "\n")).utf8), file: "n.txt")
        #expect(result.ignored.contains("customer sales 999999999999.9999 GBP (money is not stored in the plan)"), "\(result.ignored)")
        #expect(result.ignored.contains("customer sales -0.50 JPY (money is not stored in the plan)"), "\(result.ignored)")
        #expect(!result.ignored.contains { $0.contains("EUR") }, "1,000,000,000 × 0.0001 and back again is zero")
        #expect(
            result.issues.map(\.message) == [
                "'1234567890123' is not an amount; row skipped", "'1.23456' is not an amount; row skipped",
                "'99999999999999999999' is not a whole number of units; row skipped", "'--1' is not a whole number of units; row skipped",
                "'-' is not an amount; row skipped", "'1.' is not an amount; row skipped",
            ])
    }
}
