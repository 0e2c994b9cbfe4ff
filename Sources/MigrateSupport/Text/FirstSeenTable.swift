/// Remembers where each key was first seen, in twelve bytes a key: a 64-bit fingerprint of its bytes and the
/// line it was on. A list of a million customer ids takes about 16 MB, where a `[String: Int]` of them takes several
/// times that.
///
/// Two different keys share a fingerprint with a chance of about n²/2⁶⁵ (one in 37 million for a million keys);
/// such a pair would be reported as the same key, which is the safe mistake for a duplicate check (a word too many,
/// never a silent pass).
public struct FirstSeenTable: Sendable {
    private var fingerprints: [UInt64] = []
    /// The line of each slot; 0 marks an empty slot.
    private var lines: [UInt32] = []
    public private(set) var count = 0

    public init() {}

    /// Notes `key` as seen on `line` (from 1); returns the line it was first seen on when it was seen before.
    public mutating func insert<Bytes: Collection<UInt8>>(_ key: Bytes, line: Int) -> Int? {
        if (count + 1) * 4 >= fingerprints.count * 3 { grow() }
        let fingerprint = Self.fingerprint(key)
        var slot = Self.slot(fingerprint, capacity: fingerprints.count)
        while lines[slot] != 0 {
            if fingerprints[slot] == fingerprint { return Int(lines[slot]) }
            slot += 1
            if slot == fingerprints.count { slot = 0 }
        }
        fingerprints[slot] = fingerprint
        lines[slot] = UInt32(clamping: max(1, line))
        count += 1
        return nil
    }

    private mutating func grow() {
        let capacity = max(1_024, fingerprints.count + fingerprints.count / 2)
        let oldFingerprints = fingerprints
        let oldLines = lines
        fingerprints = [UInt64](repeating: 0, count: capacity)
        lines = [UInt32](repeating: 0, count: capacity)
        for index in oldLines.indices where oldLines[index] != 0 {
            var slot = Self.slot(oldFingerprints[index], capacity: capacity)
            while lines[slot] != 0 {
                slot += 1
                if slot == capacity { slot = 0 }
            }
            fingerprints[slot] = oldFingerprints[index]
            lines[slot] = oldLines[index]
        }
    }

    /// A slot from the fingerprint's high bits, for any capacity (Lemire's multiply-shift range reduction).
    @inline(__always)
    private static func slot(_ fingerprint: UInt64, capacity: Int) -> Int {
        Int(fingerprint.multipliedFullWidth(by: UInt64(capacity)).high)
    }

    /// FNV-1a over the bytes, then a finalizer (splitmix64's) so that close keys spread over the table.
    static func fingerprint<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return hash
    }
}
