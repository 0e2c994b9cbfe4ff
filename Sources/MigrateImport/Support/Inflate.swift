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
/// depend on it. Sales reports reach hundreds of megabytes, so it decodes as zlib's inflate_fast does:
/// Huffman codes by table lookup, 64 bits of input at a time, back-references copied eight bytes a step.
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
            let inflater = Inflater(bytes, start: index, limit: limit - produced) { chunk, offset in
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
        let inflater = Inflater(bytes, start: 0, limit: limit) { chunk, _ in
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

/// CRC-32 as gzip uses it (polynomial 0xEDB88320), eight bytes a step (slice-by-8).
struct CRC32 {
    /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for value in 0..<256 {
            var crc = UInt32(value)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            tables[value] = crc
        }
        for value in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[(slice - 1) * 256 + value]
                tables[slice * 256 + value] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes seen so far.
    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: ArraySlice<UInt8>) {
        var crc = state
        bytes.withUnsafeBufferPointer { bytes in
            Self.tables.withUnsafeBufferPointer { table in
                guard var pointer = bytes.baseAddress else { return }
                var count = bytes.count
                while count >= 8 {
                    let word = UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self).littleEndian
                    let low = UInt32(truncatingIfNeeded: word) ^ crc
                    let high = UInt32(truncatingIfNeeded: word >> 32)
                    crc =
                        table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                        ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                        ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                        ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                    pointer += 8
                    count -= 8
                }
                for index in 0..<count { crc = table[Int((crc ^ UInt32(pointer[index])) & 0xFF)] ^ (crc >> 8) }
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

/// A canonical Huffman code as lookup tables, as zlib's inflate_fast and libdeflate decode: the next
/// `primaryBits` bits of input (least-significant first, so codes bit-reversed) index an entry that holds the
/// symbol and its code length; a code longer than that points into a subtable indexed by the bits after them.
///
/// An entry (`UInt32`): bits 0–4 the code's length in bits (the primary bits for a subtable pointer), bits 5–7 its
/// kind, bits 8–15 how many extra bits follow (a length or distance) or the subtable's index bits, bits 16–31 the
/// value: a literal byte, a length or distance base, or a subtable's first entry.
struct HuffmanTable {
    static let literal: UInt32 = 0 << 5
    static let length: UInt32 = 1 << 5
    static let endOfBlock: UInt32 = 2 << 5
    static let subtable: UInt32 = 3 << 5
    /// No code: bits that no symbol's code starts with (an incomplete code).
    static let invalid: UInt32 = 4 << 5
    /// Length symbols 286 and 287, which the fixed code has but no stream may use.
    static let invalidLength: UInt32 = 5 << 5
    static let kindMask: UInt32 = 7 << 5

    var entries: [UInt32]
    let primaryBits: Int

    /// - Parameter symbol: the entry (without the code length) for each symbol.
    init(lengths: [Int], primaryBits: Int, symbol: (Int) -> UInt32) throws(InflateError) {
        self.primaryBits = primaryBits
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1..<16 {
            left = left * 2 - counts[length]
            if left < 0 { throw InflateError(message: "an over-subscribed Huffman code", offset: 0) }
        }
        // The first canonical code of each length.
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        // Bits that no code starts with need all 15 bits read before they are known bad, as a bit-by-bit decoder reads them.
        let invalidEntry = Self.invalid | 15
        let primarySize = 1 << primaryBits
        entries = [UInt32](repeating: invalidEntry, count: primarySize)
        var codes = [(reversed: Int, length: Int, symbol: Int)]()
        codes.reserveCapacity(lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            var reversed = 0
            var value = next[length]
            next[length] += 1
            for _ in 0..<length {
                reversed = reversed << 1 | value & 1
                value >>= 1
            }
            codes.append((reversed, length, symbol))
        }
        // Subtables: one per primary index that longer codes start with, wide enough for the longest of them.
        var subtableBits = [Int](repeating: 0, count: primarySize)
        for code in codes where code.length > primaryBits {
            let prefix = code.reversed & (primarySize - 1)
            subtableBits[prefix] = max(subtableBits[prefix], code.length - primaryBits)
        }
        for prefix in 0..<primarySize where subtableBits[prefix] > 0 {
            entries[prefix] = Self.subtable | UInt32(primaryBits) | UInt32(subtableBits[prefix]) << 8 | UInt32(entries.count) << 16
            entries += [UInt32](repeating: invalidEntry, count: 1 << subtableBits[prefix])
        }
        for code in codes {
            let entry = symbol(code.symbol) | UInt32(code.length)
            if code.length <= primaryBits {
                var index = code.reversed
                while index < primarySize {
                    entries[index] = entry
                    index += 1 << code.length
                }
            } else {
                let pointer = entries[code.reversed & (primarySize - 1)]
                let start = Int(pointer >> 16)
                let size = 1 << Int((pointer >> 8) & 0xFF)
                var index = code.reversed >> primaryBits
                while index < size {
                    entries[start + index] = entry
                    index += 1 << (code.length - primaryBits)
                }
            }
        }
    }

    static let lengthBase: [UInt32] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [UInt32] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [UInt32] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt32] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static let literalBits = 10
    static let distanceBits = 8

    /// The literal/length code: bytes, end of block, lengths.
    static func literals(_ lengths: [Int]) throws(InflateError) -> HuffmanTable {
        try HuffmanTable(lengths: lengths, primaryBits: literalBits) { symbol in
            switch symbol {
            case 0..<256: literal | UInt32(symbol) << 16
            case 256: endOfBlock
            case 257..<286: length | lengthExtra[symbol - 257] << 8 | lengthBase[symbol - 257] << 16
            default: invalidLength
            }
        }
    }

    /// The distance code (symbols 30 and 31 never have a code: at most 30 lengths are read).
    static func distances(_ lengths: [Int]) throws(InflateError) -> HuffmanTable {
        try HuffmanTable(lengths: lengths, primaryBits: distanceBits) { symbol in
            length | distanceExtra[symbol] << 8 | distanceBase[symbol] << 16
        }
    }

    static let fixedLiterals = try! literals((0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    static let fixedDistances = try! distances([Int](repeating: 5, count: 30))
}

/// Inflates into a buffer that holds the last 32 KiB (the farthest a DEFLATE distance reaches) plus one piece;
/// each full piece goes to `consume`, then the last 32 KiB move to the front, so memory does not grow with the
/// output. Bits are read 64 at a time, codes decoded by table, back-references copied eight bytes a step.
private final class Inflater {
    let input: [UInt8]
    /// The next input byte to load into `bitBuffer`.
    var position: Int
    /// Input bits loaded and not used yet, the next in the lowest bit. Bits above `bitCount` may hold the next input
    /// bytes again (the 8-byte refill loads them early), or zeros past the end.
    var bitBuffer: UInt64 = 0
    var bitCount = 0
    /// The window and the output not yet handed on: `window[0..<out]`, of which `window[handedOn..<out]` is new.
    let window: UnsafeMutablePointer<UInt8>
    var out = 0
    var handedOn = 0
    /// Bytes of output that moved out of the front of `window`.
    var discarded = 0
    /// The most bytes the stream may produce.
    let limit: Int
    let consume: (ArraySlice<UInt8>, Int) -> Bool
    /// `consume` asked to stop.
    var stopped = false

    static let windowSize = 32 << 10
    /// Room for a whole piece after the window, the longest copy (258) past it, and eight bytes a copy may overrun.
    static let capacity = windowSize + Inflate.chunkSize + 258 + 16

    init(_ input: [UInt8], start: Int, limit: Int, consume: @escaping (ArraySlice<UInt8>, Int) -> Bool) {
        self.input = input
        self.position = start
        self.limit = limit
        self.consume = consume
        window = .allocate(capacity: Self.capacity)
        window.initialize(repeating: 0, count: Self.capacity)
    }

    deinit { window.deallocate() }

    /// Bytes produced so far, in all.
    var produced: Int { discarded + out }

    /// The byte after the last one the stream used (whole bytes loaded early are given back).
    var endOfStream: Int { position - bitCount >> 3 }

    func fail(_ message: String) -> InflateError { InflateError(message: message, offset: endOfStream) }

    func tooLarge() -> InflateError {
        var error = fail("the data decompresses to more than \(limit) bytes")
        error.isTooLarge = true
        return error
    }

    /// Hands on the new output, and keeps only what a distance can reach.
    func flush() {
        guard !stopped, out > handedOn else { return }
        let piece = Array(UnsafeBufferPointer(start: window + handedOn, count: out - handedOn))
        if !consume(piece[...], endOfStream) { stopped = true }
        handedOn = out
        if out > Self.windowSize {
            (window).update(from: window + (out - Self.windowSize), count: Self.windowSize)
            discarded += out - Self.windowSize
            out = Self.windowSize
            handedOn = out
        }
    }

    /// The next `count` bits (at most 32), least-significant first: for block headers, which are not hot.
    func bits(_ count: Int) throws(InflateError) -> Int {
        while bitCount < count {
            guard position < input.count else { throw fail("the compressed data is truncated") }
            bitBuffer |= UInt64(input[position]) &<< UInt64(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(truncatingIfNeeded: bitBuffer & ((1 &<< UInt64(count)) &- 1))
        bitBuffer &>>= UInt64(count)
        bitCount -= count
        return value
    }

    /// One symbol of a code, for the code-length code of a dynamic block's header.
    func decode(_ table: HuffmanTable) throws(InflateError) -> Int {
        while bitCount < 15 && position < input.count {
            bitBuffer |= UInt64(input[position]) &<< UInt64(bitCount)
            position += 1
            bitCount += 8
        }
        var entry = table.entries[Int(truncatingIfNeeded: bitBuffer) & ((1 << table.primaryBits) - 1)]
        if entry & HuffmanTable.kindMask == HuffmanTable.subtable {
            let index = Int(truncatingIfNeeded: bitBuffer >> UInt64(table.primaryBits)) & ((1 << Int((entry >> 8) & 0xFF)) - 1)
            entry = table.entries[Int(entry >> 16) + index]
        }
        let length = Int(entry & 31)
        guard length <= bitCount else { throw fail("the compressed data is truncated") }
        guard entry & HuffmanTable.kindMask != HuffmanTable.invalid else { throw fail("an invalid Huffman code") }
        bitBuffer &>>= UInt64(length)
        bitCount -= length
        return Int(entry >> 16)
    }

    func run() throws(InflateError) {
        var last = false
        while !last && !stopped {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(HuffmanTable.fixedLiterals, HuffmanTable.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try codes(literals, distances)
            default: throw fail("an invalid DEFLATE block type")
            }
        }
        flush()
    }

    func stored() throws(InflateError) {
        // The rest of the current byte is dropped; whole bytes loaded early are read again from the input.
        position = endOfStream
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw fail("the compressed data is truncated") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw fail("a stored block's length check does not match") }
        position += 4
        guard position + length <= input.count else { throw fail("the compressed data is truncated") }
        guard length <= limit - produced else { throw tooLarge() }
        var remaining = length
        input.withUnsafeBufferPointer { input in
            while remaining > 0 && !stopped {
                if out - handedOn >= Inflate.chunkSize { flush() }
                let count = min(remaining, handedOn + Inflate.chunkSize - out)
                (window + out).update(from: input.baseAddress! + position, count: count)
                out += count
                position += count
                remaining -= count
            }
        }
        position += remaining  // skipped when consume asked to stop
        if out - handedOn >= Inflate.chunkSize { flush() }
    }

    static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    func dynamicTables() throws(InflateError) -> (HuffmanTable, HuffmanTable) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw fail("too many Huffman codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount { codeLengths[Self.order[index]] = try bits(3) }
        let lengthCode = try HuffmanTable(lengths: codeLengths, primaryBits: 7) { UInt32($0) << 16 }
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount + 138)
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw fail("a repeat with no previous length") }
                lengths += repeatElement(previous, count: 3 + (try bits(2)))
            case 17: lengths += repeatElement(0, count: 3 + (try bits(3)))
            default: lengths += repeatElement(0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw fail("code lengths overrun the table") }
        guard lengths[256] != 0 else { throw fail("no end-of-block code") }
        return (try HuffmanTable.literals(Array(lengths[0..<literalCount])), try HuffmanTable.distances(Array(lengths[literalCount...])))
    }

    /// Why `decodeCodes` stopped.
    enum Outcome {
        case endOfBlock, stopped, truncated, invalidCode, invalidLength, distanceTooFar, tooLarge
    }

    func codes(_ literals: HuffmanTable, _ distances: HuffmanTable) throws(InflateError) {
        let outcome = input.withUnsafeBufferPointer { input in
            literals.entries.withUnsafeBufferPointer { literalEntries in
                distances.entries.withUnsafeBufferPointer { distanceEntries in
                    decodeCodes(input, literalEntries.baseAddress!, distanceEntries.baseAddress!)
                }
            }
        }
        switch outcome {
        case .endOfBlock, .stopped: return
        case .truncated: throw fail("the compressed data is truncated")
        case .invalidCode: throw fail("an invalid Huffman code")
        case .invalidLength: throw fail("an invalid length code")
        case .distanceTooFar: throw fail("a distance reaches before the start of the data")
        case .tooLarge: throw tooLarge()
        }
    }

    /// The hot loop: the state lives in locals (a class's stored properties would be checked for exclusive access
    /// at every use) and goes back to the properties before anything else runs.
    func decodeCodes(_ input: UnsafeBufferPointer<UInt8>, _ literals: UnsafePointer<UInt32>, _ distances: UnsafePointer<UInt32>) -> Outcome {
        let bytes = input.baseAddress!
        let count = input.count
        let window = self.window
        var bitBuffer = self.bitBuffer
        var bitCount = self.bitCount
        var position = self.position
        var out = self.out
        var flushAt = handedOn + Inflate.chunkSize
        // The window position past which the output passes the limit (never further than the buffer reaches).
        var limitAt = out + min(limit - produced, Self.capacity)
        defer {
            self.bitBuffer = bitBuffer
            self.bitCount = bitCount
            self.position = position
            self.out = out
        }
        let literalMask = UInt64(1 << HuffmanTable.literalBits - 1)
        let distanceMask = UInt64(1 << HuffmanTable.distanceBits - 1)
        while true {
            if out >= flushAt {
                self.bitBuffer = bitBuffer
                self.bitCount = bitCount
                self.position = position
                self.out = out
                flush()
                if stopped { return .stopped }
                out = self.out
                flushAt = handedOn + Inflate.chunkSize
                limitAt = out + min(limit - produced, Self.capacity)
            }
            // Refill to at least 56 bits: enough for a length code, its extra bits, a distance code and its extra bits.
            if position + 8 <= count {
                bitBuffer |= UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self).littleEndian &<< UInt64(bitCount)
                position += (63 - bitCount) >> 3
                bitCount |= 56
            } else {
                while bitCount <= 56 && position < count {
                    bitBuffer |= UInt64(bytes[position]) &<< UInt64(bitCount)
                    position += 1
                    bitCount += 8
                }
            }
            var entry = literals[Int(truncatingIfNeeded: bitBuffer & literalMask)]
            if entry & HuffmanTable.kindMask == HuffmanTable.subtable {
                let index = Int(truncatingIfNeeded: bitBuffer &>> UInt64(HuffmanTable.literalBits)) & (1 << Int((entry >> 8) & 0xFF) - 1)
                entry = literals[Int(entry >> 16) + index]
            }
            var length = Int(entry & 31)
            guard length <= bitCount else { return .truncated }
            let kind = entry & HuffmanTable.kindMask
            if kind == HuffmanTable.literal {
                bitBuffer &>>= UInt64(length)
                bitCount -= length
                guard out < limitAt else { return .tooLarge }
                window[out] = UInt8(truncatingIfNeeded: entry >> 16)
                out += 1
                continue
            }
            guard kind == HuffmanTable.length else {
                if kind == HuffmanTable.endOfBlock {
                    bitBuffer &>>= UInt64(length)
                    bitCount -= length
                    return .endOfBlock
                }
                return kind == HuffmanTable.invalidLength ? .invalidLength : .invalidCode
            }
            bitBuffer &>>= UInt64(length)
            bitCount -= length
            var extra = Int((entry >> 8) & 0xFF)
            guard extra <= bitCount else { return .truncated }
            let copyLength = Int(entry >> 16) + Int(truncatingIfNeeded: bitBuffer & (1 &<< UInt64(extra) &- 1))
            bitBuffer &>>= UInt64(extra)
            bitCount -= extra

            entry = distances[Int(truncatingIfNeeded: bitBuffer & distanceMask)]
            if entry & HuffmanTable.kindMask == HuffmanTable.subtable {
                let index = Int(truncatingIfNeeded: bitBuffer &>> UInt64(HuffmanTable.distanceBits)) & (1 << Int((entry >> 8) & 0xFF) - 1)
                entry = distances[Int(entry >> 16) + index]
            }
            length = Int(entry & 31)
            guard length <= bitCount else { return .truncated }
            guard entry & HuffmanTable.kindMask == HuffmanTable.length else { return .invalidCode }
            bitBuffer &>>= UInt64(length)
            bitCount -= length
            extra = Int((entry >> 8) & 0xFF)
            guard extra <= bitCount else { return .truncated }
            let distance = Int(entry >> 16) + Int(truncatingIfNeeded: bitBuffer & (1 &<< UInt64(extra) &- 1))
            bitBuffer &>>= UInt64(extra)
            bitCount -= extra

            // The window keeps the last 32 KiB, as far as a distance code reaches.
            guard distance <= out else { return .distanceTooFar }
            guard copyLength <= limitAt - out else { return .tooLarge }
            var target = window + out
            var source = target - distance
            let end = target + copyLength
            if distance >= 8 {
                // Eight bytes a step, each from at least eight bytes back: already written even when the copy overlaps
                // itself. The last step may write up to 7 bytes past the end, into room the buffer keeps for it.
                repeat {
                    UnsafeMutableRawPointer(target).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    target += 8
                    source += 8
                } while target < end
            } else if distance == 1 {
                target.update(repeating: source.pointee, count: copyLength)
            } else {
                repeat {
                    target.pointee = source.pointee
                    target += 1
                    source += 1
                } while target < end
            }
            out += copyLength
        }
    }
}
