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
