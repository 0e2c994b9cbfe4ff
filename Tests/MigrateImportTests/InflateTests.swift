import Foundation
import MigrateImport
import Testing

@Suite("Import: DEFLATE and gzip", .timeLimit(.minutes(20)))
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

@Suite("Import: decompressed-size limit", .timeLimit(.minutes(20)))
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
    /// Pads the current byte with zeros.
    mutating func align() { while used > 0 { bit(0) } }
    mutating func raw(_ bytes: [UInt8]) {
        align()
        buffer += bytes
    }
    mutating func code(_ value: Int, _ count: Int) { for index in (0..<count).reversed() { bit(value >> index) } }
    func bytes() -> [UInt8] { used > 0 ? buffer + [current] : buffer }
}

/// What a DEFLATE encoder chose: a byte, or a copy of earlier output.
private enum Token {
    case literal(UInt8)
    case copy(length: Int, distance: Int)
}

/// What inflating `tokens` must give, copied a byte at a time (the obviously right way, overlaps included).
private func expand(_ tokens: [Token], after start: [UInt8] = []) -> [UInt8] {
    var output = start
    for token in tokens {
        switch token {
        case .literal(let byte): output.append(byte)
        case .copy(let length, let distance): for _ in 0..<length { output.append(output[output.count - distance]) }
        }
    }
    return output
}

/// Writes DEFLATE blocks from tokens, with the fixed code or any code lengths (a dynamic block), as RFC 1951 says.
private struct BlockWriter {
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let fixedLiterals = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }

    /// Canonical codes for code lengths (RFC 1951 3.2.2).
    static func codes(_ lengths: [Int]) -> [Int] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }

    var writer = BitWriter()

    mutating func fixed(_ tokens: [Token], final: Bool) {
        writer.write(final ? 1 : 0, 1)
        writer.write(1, 2)
        symbols(tokens, literals: Self.fixedLiterals, distances: [Int](repeating: 5, count: 30))
    }

    /// A dynamic block whose code-length code gives each of its 19 symbols 5 bits (so symbol `s` is written as `s`).
    mutating func dynamic(_ tokens: [Token], literals: [Int], distances: [Int], final: Bool) {
        writer.write(final ? 1 : 0, 1)
        writer.write(2, 2)
        writer.write(literals.count - 257, 5)
        writer.write(distances.count - 1, 5)
        writer.write(19 - 4, 4)
        for _ in 0..<19 { writer.write(5, 3) }
        for length in literals + distances { writer.code(length, 5) }
        symbols(tokens, literals: literals, distances: distances)
    }

    mutating func stored(_ bytes: [UInt8], final: Bool) {
        writer.write(final ? 1 : 0, 1)
        writer.write(0, 2)
        writer.align()
        let count = bytes.count
        writer.raw([UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)] + bytes)
    }

    private mutating func symbols(_ tokens: [Token], literals: [Int], distances: [Int]) {
        let literalCodes = Self.codes(literals)
        let distanceCodes = Self.codes(distances)
        for token in tokens {
            switch token {
            case .literal(let byte):
                writer.code(literalCodes[Int(byte)], literals[Int(byte)])
            case .copy(let length, let distance):
                let index = Self.lengthBase.lastIndex { $0 <= length }!
                writer.code(literalCodes[257 + index], literals[257 + index])
                writer.write(length - Self.lengthBase[index], Self.lengthExtra[index])
                let code = Self.distanceBase.lastIndex { $0 <= distance }!
                writer.code(distanceCodes[code], distances[code])
                writer.write(distance - Self.distanceBase[code], Self.distanceExtra[code])
            }
        }
        writer.code(literalCodes[256], literals[256])
    }
}

/// Seeded tokens: literals from a small alphabet, copies of every length and of distances from 1 to as far as the output
/// (or 32 KiB) reaches, short overlapping ones often.
private func randomTokens(count: Int, seed: UInt64, produced start: Int = 0) -> [Token] {
    var state = seed
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    var tokens: [Token] = []
    var produced = start
    for _ in 0..<count {
        if produced == 0 || next(3) == 0 {
            tokens.append(.literal(UInt8(97 + next(26))))
            produced += 1
        } else {
            let length = next(4) == 0 ? 258 : 3 + next(256)
            let reach = min(produced, 32_768)
            let distance = next(3) == 0 ? 1 + next(min(reach, 9)) : next(5) == 0 ? reach : 1 + next(reach)
            tokens.append(.copy(length: length, distance: distance))
            produced += length
        }
    }
    return tokens
}

/// Literal/length code lengths with codes of 11 to 15 bits (past the decoder's 10-bit table) and distance code lengths with
/// codes of 9 to 15 bits (past its 8-bit table); neither code is complete, which inflate allows.
private let longLiterals: [Int] = (0..<286).map { symbol in
    switch symbol {
    case 97..<102: 11 + (symbol - 97)  // a to e: 11 to 15 bits
    case 0..<128: 8
    case 256: 9
    case 257...: 10
    default: 9
    }
}
private let longDistances: [Int] = (0..<30).map { $0 < 10 ? 5 : $0 < 20 ? 9 + ($0 - 10) % 7 : 15 }

private func gzipMember(_ deflate: [UInt8], of plain: [UInt8]) -> [UInt8] {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in plain { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    crc ^= 0xFFFF_FFFF
    let size = UInt32(truncatingIfNeeded: plain.count)
    return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflate + [crc, size].flatMap { value in (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}

@Suite("Import: DEFLATE decoded by table", .timeLimit(.minutes(20)))
struct InflateTableTests {
    @Test("Fixed-Huffman blocks: every length and distance code, overlapping copies (distance below length)", arguments: [1, 2, 3] as [UInt64])
    func fixedBlocks(seed: UInt64) throws {
        var tokens: [Token] = [.literal(120)]
        // Distances 1 to 9 with lengths past them: the copy reads bytes it has just written.
        for distance in 1...9 { tokens += [.literal(UInt8(48 + distance)), .copy(length: 3 + distance * 17, distance: distance)] }
        tokens += randomTokens(count: 3_000, seed: seed, produced: expand(tokens).count)
        var writer = BlockWriter()
        writer.fixed(tokens, final: true)
        #expect(try Inflate.inflate(writer.writer.bytes()) == expand(tokens))
    }

    @Test("Dynamic blocks with codes longer than the lookup tables (second-level tables), across the 32 KiB window")
    func dynamicLongCodes() throws {
        // Mostly a to e (the 11- to 15-bit codes) and distances of the 9- to 15-bit codes.
        var tokens: [Token] = (0..<2_000).map { .literal(UInt8(97 + $0 % 5)) }
        var produced = tokens.count
        for index in 0..<4_000 {
            tokens.append(.literal(UInt8(97 + index * 7 % 5)))
            let distance = [1, 600, 1_500, 3_000, 5_000, 9_000, 20_000, 32_768][index % 8]
            tokens.append(.copy(length: 3 + index % 256, distance: min(distance, produced + 1)))
            produced += 4 + index % 256
        }
        var writer = BlockWriter()
        writer.dynamic(tokens, literals: longLiterals, distances: longDistances, final: true)
        let expected = expand(tokens)
        #expect(expected.count > 300_000)
        #expect(try Inflate.inflate(writer.writer.bytes()) == expected)
    }

    @Test("Stored, fixed and dynamic blocks in one stream: a stored block after Huffman bits starts at the next byte")
    func mixedBlocks() throws {
        let first = randomTokens(count: 500, seed: 7)
        let stored = Array("stored bytes, as they are\t\n".utf8) + (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var expected = expand(first) + stored
        let second = randomTokens(count: 500, seed: 8, produced: expected.count)
        expected = expand(second, after: expected)
        var writer = BlockWriter()
        writer.fixed(first, final: false)
        writer.stored(Array(stored[..<65_535]), final: false)
        writer.stored(Array(stored[65_535...]), final: false)
        writer.stored([], final: false)
        writer.dynamic(second, literals: longLiterals, distances: longDistances, final: false)
        writer.fixed([.copy(length: 258, distance: 32_768), .literal(0)], final: true)
        expected = expand([.copy(length: 258, distance: 32_768), .literal(0)], after: expected)
        let deflate = writer.writer.bytes()
        #expect(try Inflate.inflate(deflate) == expected)
        // The same as a gzip member, twice, with zeros after: concatenated members are one stream.
        let member = gzipMember(deflate, of: expected)
        #expect(try Inflate.gunzip(member + member + [0, 0, 0]) == expected + expected)
        var pieces: [Int] = []
        var joined: [UInt8] = []
        try Inflate.gunzip(member) { piece, _ in
            pieces.append(piece.count)
            joined += piece
            return true
        }
        #expect(joined == expected && pieces.allSatisfy { $0 <= (64 << 10) + 258 } && pieces.count >= expected.count >> 16)
    }

    @Test("Every truncation of a gzip member is an error, never a trap or a short result")
    func truncated() throws {
        var writer = BlockWriter()
        let tokens = randomTokens(count: 60, seed: 3)
        writer.fixed(tokens, final: false)
        writer.stored(Array("abc".utf8), final: false)
        writer.dynamic(
            randomTokens(count: 40, seed: 4, produced: expand(tokens).count + 3), literals: longLiterals, distances: longDistances, final: true)
        let deflate = writer.writer.bytes()
        let plain = try Inflate.inflate(deflate)
        let member = gzipMember(deflate, of: plain)
        #expect(try Inflate.gunzip(member) == plain)
        for count in 0..<member.count {
            #expect(throws: InflateError.self, "\(count) of \(member.count) bytes") { try Inflate.gunzip(Array(member[..<count])) }
        }
        for count in 0..<deflate.count - 1 {
            do {
                _ = try Inflate.inflate(Array(deflate[..<count]))
                Issue.record("\(count) of \(deflate.count) bytes inflated")
            } catch {
                #expect(error.message.contains("truncated") || error.message.contains("invalid"), "\(error)")
            }
        }
    }

    @Test("The checksum (CRC-32, eight bytes a step) and the size are checked, at every length and alignment")
    func checksum() throws {
        // The check value of CRC-32: "123456789" is 0xCBF43926.
        let digits = Array("123456789".utf8)
        let known = storedGzip(digits)
        #expect(Array(known[known.count - 8..<known.count - 4]) == [0x26, 0x39, 0xF4, 0xCB])
        #expect(try Inflate.gunzip(known) == digits)
        for count in 0..<80 {
            let data = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            #expect(try Inflate.gunzip(storedGzip(data, blockSize: max(1, count / 3))) == data)
        }
        for offset in [8, 7, 6, 5] {  // each CRC byte
            var damaged = known
            damaged[damaged.count - offset] ^= 0x01
            #expect {
                try Inflate.gunzip(damaged)
            } throws: { error in
                (error as? InflateError)?.message == "the gzip checksum does not match; the file is damaged"
            }
        }
        var wrongSize = known
        wrongSize[wrongSize.count - 4] ^= 0x01
        #expect {
            try Inflate.gunzip(wrongSize)
        } throws: { error in
            (error as? InflateError)?.message == "the gzip size does not match; the file is damaged"
        }
    }

    @Test("Bad data: an invalid code, a distance before the start, a bad block type, an over-subscribed code")
    func badData() throws {
        func message(_ bytes: [UInt8]) -> String? {
            do {
                _ = try Inflate.inflate(bytes)
                return nil
            } catch {
                return error.message
            }
        }
        var writer = BlockWriter()
        writer.fixed([.literal(1), .copy(length: 3, distance: 2)], final: true)
        #expect(message(writer.writer.bytes()) == "a distance reaches before the start of the data")
        var invalid = BitWriter()
        invalid.write(1, 1)
        invalid.write(1, 2)
        invalid.code(0b1100_0110, 8)  // length symbol 286: in the fixed code, but no stream may use it
        #expect(message(invalid.bytes() + [0, 0]) == "an invalid length code")
        var distance = BitWriter()
        distance.write(1, 1)
        distance.write(1, 2)
        distance.code(0b0011_0000, 8)  // literal 0
        distance.code(0b000_0001, 7)  // length symbol 257 (3)
        distance.code(0b11110, 5)  // distance symbol 30: no code
        #expect(message(distance.bytes() + [0, 0]) == "an invalid Huffman code")
        #expect(message([0b111]) == "an invalid DEFLATE block type")
        var over = BitWriter()
        over.write(1, 1)
        over.write(2, 2)
        over.write(0, 5)
        over.write(0, 5)
        over.write(0, 4)
        for _ in 0..<4 { over.write(1, 3) }  // four 1-bit codes
        #expect(message(over.bytes() + [0, 0]) == "an over-subscribed Huffman code")
    }

    @Test("The size limit: exactly the output passes, a byte less stops with isTooLarge, whatever the block type")
    func limit() throws {
        var writer = BlockWriter()
        let tokens = randomTokens(count: 2_000, seed: 9)
        writer.fixed(tokens, final: false)
        writer.stored(Array("stored".utf8), final: false)
        writer.dynamic([.copy(length: 258, distance: 1)], literals: longLiterals, distances: longDistances, final: true)
        let deflate = writer.writer.bytes()
        let expected = expand([.copy(length: 258, distance: 1)], after: expand(tokens) + Array("stored".utf8))
        #expect(try Inflate.inflate(deflate, limit: expected.count) == expected)
        for limit in [expected.count - 1, expected.count - 258, expected.count - 259, expand(tokens).count, 100_000, 1, 0] {
            do {
                _ = try Inflate.inflate(deflate, limit: limit)
                Issue.record("expected the limit \(limit) to stop it")
            } catch {
                #expect(error.isTooLarge && error.message == "the data decompresses to more than \(limit) bytes")
            }
        }
        // What is handed on before the error is the output's start, never past the limit.
        let member = gzipMember(deflate, of: expected)
        var handed: [UInt8] = []
        #expect(throws: InflateError.self) {
            try Inflate.gunzip(member, limit: 100_000) { piece, _ in
                handed += piece
                return true
            }
        }
        #expect(handed.count <= 100_000 && handed == Array(expected.prefix(handed.count)))
    }
}
