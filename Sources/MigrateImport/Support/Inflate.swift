/// Why compressed data could not be read.
public struct InflateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Byte offset in the compressed input where the problem was found.
    public var offset: Int
    /// The data decompresses to more than the limit it was read with.
    public var isTooLarge = false

    public var description: String { "\(message) (at byte \(offset))" }
}

/// A small DEFLATE (RFC 1951) and gzip (RFC 1952) decoder.
///
/// Foundation on Linux has no gzip API to rely on, and shelling out to `gzip` would make the binary
/// depend on it; sales reports are small, so a straightforward decoder is fast enough.
public enum Inflate {
    /// True when the bytes start with the gzip magic number.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Decompresses a gzip file: every member (concatenated gzip files are one stream), CRC checked.
    /// Stops with `isTooLarge` as soon as the output would pass `limit` bytes, so a small file that
    /// expands to gigabytes is refused before it is held in memory.
    public static func gunzip(_ bytes: [UInt8], limit: Int = .max) throws(InflateError) -> [UInt8] {
        var output: [UInt8] = []
        try gunzip(bytes, limit: limit) { chunk, _ in
            output += chunk
            return true
        }
        return output
    }

    /// Decompresses a gzip file as a stream: `consume` gets the output in pieces of at most
    /// `chunkSize` bytes, in order, with how many compressed bytes have been read (for progress),
    /// and returns false to stop early (then nothing more is checked). Memory held is the 32 KiB
    /// DEFLATE window and one piece, whatever the data inflates to; `limit` caps the bytes produced.
    public static func gunzip(
        _ bytes: [UInt8], limit: Int = .max, consume: @escaping (ArraySlice<UInt8>, _ inputOffset: Int) -> Bool
    ) throws(InflateError) {
        var produced = 0
        var position = 0
        repeat {
            guard bytes.count - position >= 18 else { throw InflateError(message: "the gzip file is truncated", offset: bytes.count) }
            guard bytes[position] == 0x1F, bytes[position + 1] == 0x8B else {
                throw InflateError(message: "not a gzip file (wrong magic number)", offset: position)
            }
            guard bytes[position + 2] == 8 else {
                throw InflateError(message: "unknown gzip compression method \(bytes[position + 2])", offset: position + 2)
            }
            let flags = bytes[position + 3]
            var index = position + 10
            func need(_ count: Int) throws(InflateError) {
                if index + count > bytes.count { throw InflateError(message: "the gzip header is truncated", offset: bytes.count) }
            }
            if flags & 0x04 != 0 {  // FEXTRA
                try need(2)
                let length = Int(bytes[index]) | Int(bytes[index + 1]) << 8
                index += 2
                try need(length)
                index += length
            }
            for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
                while index < bytes.count && bytes[index] != 0 { index += 1 }
                try need(1)
                index += 1
            }
            if flags & 0x02 != 0 { index += 2 }  // FHCRC
            var crc = CRC32()
            var inflater = Inflater(bytes, start: index, limit: limit - produced) { chunk, offset in
                crc.update(chunk)
                return consume(chunk, offset)
            }
            try inflater.run()
            if inflater.stopped { return }
            let memberSize = inflater.produced
            produced += memberSize
            index = inflater.endOfStream
            guard index + 8 <= bytes.count else { throw InflateError(message: "the gzip file is truncated (no trailer)", offset: bytes.count) }
            let expectedCRC = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
            let expectedSize =
                UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
            guard crc.value == expectedCRC else {
                throw InflateError(message: "the gzip checksum does not match; the file is damaged", offset: index)
            }
            guard UInt32(truncatingIfNeeded: memberSize) == expectedSize else {
                throw InflateError(message: "the gzip size does not match; the file is damaged", offset: index + 4)
            }
            position = index + 8
            // Some tools pad with zeros after the last member.
        } while position < bytes.count && bytes[position...].contains(where: { $0 != 0 })
    }

    /// Decompresses a raw DEFLATE stream.
    public static func inflate(_ bytes: [UInt8], limit: Int = .max) throws(InflateError) -> [UInt8] {
        var output: [UInt8] = []
        var inflater = Inflater(bytes, start: 0, limit: limit) { chunk, _ in
            output += chunk
            return true
        }
        try inflater.run()
        return output
    }

    /// The most output bytes handed on at once: large enough that the per-piece cost vanishes,
    /// small enough that memory stays flat.
    static let chunkSize = 64 << 10
}

/// CRC-32 as gzip uses it (polynomial 0xEDB88320).
struct CRC32 {
    static let table: [UInt32] = (0..<256).map { value in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes seen so far.
    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: ArraySlice<UInt8>) {
        var crc = state
        bytes.withUnsafeBufferPointer { bytes in
            Self.table.withUnsafeBufferPointer { table in
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        state = crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes[...])
        return crc.value
    }
}

/// A canonical Huffman code, decoded bit by bit with per-length counts (as in zlib's puff.c).
private struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    init(lengths: [Int]) throws(InflateError) {
        symbols = [Int](repeating: 0, count: lengths.count)
        for length in lengths { counts[length] += 1 }
        var left = 1
        for length in 1..<16 {
            left = left * 2 - counts[length]
            if left < 0 { throw InflateError(message: "an over-subscribed Huffman code", offset: 0) }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }
}

/// Inflates into a window that holds the last 32 KiB (the farthest a DEFLATE distance reaches)
/// plus one piece; each full piece goes to `consume`, so memory does not grow with the output.
private struct Inflater {
    let input: [UInt8]
    var position: Int
    var bitBuffer = 0
    var bitCount = 0
    /// The output not yet handed on, after the window's older bytes that were.
    var output: [UInt8] = []
    /// How many bytes at the start of `output` were handed on already (kept for back-references).
    var handedOn = 0
    /// Bytes produced so far, in all.
    var produced = 0
    /// The most bytes the stream may produce.
    let limit: Int
    let consume: (ArraySlice<UInt8>, Int) -> Bool
    /// `consume` asked to stop.
    var stopped = false

    static let window = 32 << 10

    init(_ input: [UInt8], start: Int, limit: Int, consume: @escaping (ArraySlice<UInt8>, Int) -> Bool) {
        self.input = input
        self.position = start
        self.limit = limit
        self.consume = consume
        output.reserveCapacity(Self.window + Inflate.chunkSize + 258)
    }

    /// Throws before `count` more bytes would take the output past the limit.
    mutating func reserve(_ count: Int) throws(InflateError) {
        guard count <= limit - produced else {
            var error = fail("the data decompresses to more than \(limit) bytes")
            error.isTooLarge = true
            throw error
        }
        produced += count
    }

    /// Hands on a full piece, and drops what no distance can reach any more.
    mutating func flushIfFull() {
        guard output.count - handedOn >= Inflate.chunkSize else { return }
        flush()
    }

    mutating func flush() {
        guard !stopped, output.count > handedOn else { return }
        if !consume(output[handedOn...], position) { stopped = true }
        handedOn = output.count
        if output.count > Self.window {
            output.removeFirst(output.count - Self.window)
            handedOn = output.count
        }
    }

    /// The byte after the last one the stream used.
    var endOfStream: Int { position }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let fixedLiterals = try! Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    static let fixedDistances = try! Huffman(lengths: [Int](repeating: 5, count: 30))

    func fail(_ message: String) -> InflateError { InflateError(message: message, offset: position) }

    mutating func bits(_ count: Int) throws(InflateError) -> Int {
        while bitCount < count {
            guard position < input.count else { throw fail("the compressed data is truncated") }
            bitBuffer |= Int(input[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    mutating func decode(_ code: Huffman) throws(InflateError) -> Int {
        var value = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - count < first { return code.symbols[index + (value - first)] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw fail("an invalid Huffman code")
    }

    mutating func run() throws(InflateError) {
        var last = false
        while !last && !stopped {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(Self.fixedLiterals, Self.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try codes(literals, distances)
            default: throw fail("an invalid DEFLATE block type")
            }
        }
        flush()
    }

    mutating func stored() throws(InflateError) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw fail("the compressed data is truncated") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw fail("a stored block's length check does not match") }
        position += 4
        guard position + length <= input.count else { throw fail("the compressed data is truncated") }
        try reserve(length)
        output += input[position..<position + length]
        position += length
        flushIfFull()
    }

    mutating func dynamicTables() throws(InflateError) -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw fail("too many Huffman codes") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount { codeLengths[order[index]] = try bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw fail("a repeat with no previous length") }
                lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw fail("code lengths overrun the table") }
        guard lengths[256] != 0 else { throw fail("no end-of-block code") }
        return (try Huffman(lengths: Array(lengths[0..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }

    mutating func codes(_ literals: Huffman, _ distances: Huffman) throws(InflateError) {
        while !stopped {
            flushIfFull()
            let symbol = try decode(literals)
            if symbol < 256 {
                try reserve(1)
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw fail("an invalid length code") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < 30 else { throw fail("an invalid distance code") }
                let distance = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
                // The window keeps the last 32 KiB, as far as a distance code reaches.
                guard distance <= output.count else { throw fail("a distance reaches before the start of the data") }
                try reserve(length)
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }
}
