import Foundation
import MigrateImport
import Testing

@Suite("Import: DEFLATE and gzip")
struct InflateTests {
    @Test("Stored, fixed-Huffman and dynamic-Huffman blocks", arguments: ["deflate-stored.bin", "deflate-fixed.bin", "deflate-dynamic.bin"])
    func blocks(name: String) throws {
        #expect(try Inflate.inflate(try fixture(name)) == (try fixture("deflate-plain.bin")))
    }

    @Test("gzip: a real report, concatenated members, and damage detected")
    func gzip() throws {
        let plain = try fixture("sales/summary-28-columns.txt")
        let compressed = try fixture("sales/summary-28-columns.txt.gz")
        #expect(Inflate.isGzip(compressed) && !Inflate.isGzip(plain))
        #expect(try Inflate.gunzip(compressed) == plain)
        #expect(try Inflate.gunzip(try fixture("two-members.gz")) == Array("first\nsecond\n".utf8))
        var damaged = compressed
        damaged[damaged.count - 6] ^= 0xFF  // inside the CRC
        #expect(throws: InflateError.self) { try Inflate.gunzip(damaged) }
        #expect(throws: InflateError.self) { try Inflate.gunzip(Array(compressed.prefix(100))) }
        #expect(throws: InflateError.self) { try Inflate.inflate([0xFF, 0xFF]) }
    }
}

@Suite("Import: decompressed-size limit")
struct InflateLimitTests {
    @Test("gunzip stops as soon as the output passes the limit; the sales importer says so with the limit")
    func limit() throws {
        let plain = try fixture("sales/summary-28-columns.txt")
        let compressed = try fixture("sales/summary-28-columns.txt.gz")
        #expect(try Inflate.gunzip(compressed, limit: plain.count) == plain)
        do {
            _ = try Inflate.gunzip(compressed, limit: plain.count - 1)
            Issue.record("expected the limit to stop it")
        } catch {
            #expect(error.isTooLarge)
        }
        #expect(throws: ImportError.self) { try SalesReportImporter.read(compressed, file: "r.txt.gz", limit: 100) }
        do {
            _ = try SalesReportImporter.read(compressed, file: "r.txt.gz", limit: 100)
        } catch {
            #expect(error.description.contains("larger than 100 bytes"), "\(error.description)")
            #expect(error.description.contains("r.txt.gz"), "\(error.description)")
        }
        do {
            _ = try SalesReportImporter.read(plain, file: "r.txt", limit: 100)
            Issue.record("expected the limit to refuse the plain file")
        } catch {
            #expect(error.description.contains("larger than 100 bytes"), "\(error.description)")
        }
    }

    @Test("A real bomb: 64 MiB of zeros in a few kilobytes is refused under a 1 MiB limit without inflating it all")
    func bomb() throws {
        // A raw DEFLATE stream: one fixed-Huffman block of a literal 0 then length-258, distance-1 copies.
        var writer = BitWriter()
        writer.write(1, 1)  // final block
        writer.write(1, 2)  // fixed Huffman
        writer.code(0b0011_0000, 8)  // literal 0 (code 0x30, 8 bits)
        for _ in 0..<(64 << 20) / 258 {
            writer.code(0b1100_0101, 8)  // length symbol 285 = 258 (code 0xC5, 8 bits)
            writer.code(0, 5)  // distance symbol 0 = 1
        }
        writer.code(0, 7)  // end of block (symbol 256, 7 zero bits)
        let stream = writer.bytes()
        #expect(stream.count < 2 << 20)
        do {
            _ = try Inflate.inflate(stream, limit: 1 << 20)
            Issue.record("expected the limit to stop it")
        } catch {
            #expect(error.isTooLarge)
        }
    }
}

/// Writes DEFLATE bits: plain values least-significant bit first, Huffman codes most-significant first.
private struct BitWriter {
    var buffer: [UInt8] = []
    var current: UInt8 = 0
    var used = 0

    mutating func bit(_ value: Int) {
        current |= UInt8(value & 1) << used
        used += 1
        if used == 8 {
            buffer.append(current)
            current = 0
            used = 0
        }
    }

    mutating func write(_ value: Int, _ count: Int) { for index in 0..<count { bit(value >> index) } }
    mutating func code(_ value: Int, _ count: Int) { for index in (0..<count).reversed() { bit(value >> index) } }
    func bytes() -> [UInt8] { used > 0 ? buffer + [current] : buffer }
}
