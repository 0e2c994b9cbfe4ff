/// Remembers where each key was first seen, in twelve bytes a key: a 64-bit fingerprint of its bytes and the
/// line it was on. A list of a million customer ids takes about 14.5 MB with the free slots, where a `[String: Int]`
/// of them takes several times that.
///
/// The keys are spread over `shardCount` open-addressing tables by their fingerprint's top bits, and each table grows
/// on its own: growing copies one shard, never the whole table, so the memory a list's ids take never has to hold two
/// copies of them at once (a single table would, for an instant, each time it grew).
///
/// Two different keys share a fingerprint with a chance of about n²/2⁶⁵ (one in 37 million for a million keys);
/// such a pair would be reported as the same key, which is the safe mistake for a duplicate check (a word too many,
/// never a silent pass).
public struct FirstSeenTable: Sendable {
    /// One open-addressing table with linear probing.
    fileprivate struct Shard: Sendable {
        var fingerprints: [UInt64] = []
        /// The line of each slot; 0 marks an empty slot.
        var lines: [UInt32] = []
        var count = 0
    }

    /// Shards, chosen by a fingerprint's top `shardBits` bits.
    static let shardBits = 8
    static var shardCount: Int { 1 << shardBits }

    private var shards = [Shard](repeating: Shard(), count: FirstSeenTable.shardCount)
    public private(set) var count = 0

    public init() {}

    /// Notes `key` as seen on `line` (from 1); returns the line it was first seen on when it was seen before.
    public mutating func insert<Bytes: Collection<UInt8>>(_ key: Bytes, line: Int) -> Int? {
        insert(fingerprint: Self.fingerprint(key), line: line)
    }

    /// `insert(_:line:)` with the key's `fingerprint(_:)` already taken (by the thread that read the key).
    public mutating func insert(fingerprint: UInt64, line: Int) -> Int? {
        let index = Int(fingerprint >> UInt64(64 - Self.shardBits))
        let first = shards[index].insert(fingerprint, line: line)
        if first == nil { count += 1 }
        return first
    }

    /// FNV-1a over the bytes, then a finalizer (splitmix64's) so that close keys spread over the table.
    public static func fingerprint<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
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

extension FirstSeenTable.Shard {
    mutating func insert(_ fingerprint: UInt64, line: Int) -> Int? {
        if (count + 1) * 8 >= fingerprints.count * 7 { grow() }
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

    /// An eighth larger each time a shard is seven-eighths full, so its slots stay 78–88% used: about 14.5 bytes an
    /// id where a quarter's growth at three-quarters full took 18. A probe runs longer near the top (linear probing
    /// looks at about 30 slots to find a new id's place at 7/8), but the slots are adjacent in memory, and a
    /// million ids still take a small part of the run's time next to deciding them.
    private mutating func grow() {
        let capacity = max(64, fingerprints.count + fingerprints.count / 8)
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

    /// A slot from the fingerprint's bits below the shard's, for any capacity (Lemire's multiply-shift range
    /// reduction).
    @inline(__always)
    private static func slot(_ fingerprint: UInt64, capacity: Int) -> Int {
        Int((fingerprint << UInt64(FirstSeenTable.shardBits)).multipliedFullWidth(by: UInt64(capacity)).high)
    }
}
