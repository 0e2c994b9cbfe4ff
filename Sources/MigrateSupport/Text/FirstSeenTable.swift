#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// One open-addressing table with linear probing, its slots in memory of its own (`Slots`).
    fileprivate struct Shard: Sendable {
        var slots = Slots(capacity: 0)
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
        if (count + 1) * 8 >= slots.capacity * 7 { grow() }
        // Shared with a copy of the table: this one gets its own before it changes.
        if !isKnownUniquelyReferenced(&slots) { slots = slots.copy() }
        let capacity = slots.capacity
        let fingerprints = slots.fingerprints
        let lines = slots.lines
        var slot = Self.slot(fingerprint, capacity: capacity)
        while lines[slot] != 0 {
            if fingerprints[slot] == fingerprint { return Int(lines[slot]) }
            slot += 1
            if slot == capacity { slot = 0 }
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
        let old = slots
        let capacity = max(64, old.capacity + old.capacity / 8)
        let grown = FirstSeenTable.Slots(capacity: capacity)
        for index in 0..<old.capacity where old.lines[index] != 0 {
            var slot = Self.slot(old.fingerprints[index], capacity: capacity)
            while grown.lines[slot] != 0 {
                slot += 1
                if slot == capacity { slot = 0 }
            }
            grown.fingerprints[slot] = old.fingerprints[index]
            grown.lines[slot] = old.lines[index]
        }
        slots = grown
    }

    /// A slot from the fingerprint's bits below the shard's, for any capacity (Lemire's multiply-shift range
    /// reduction).
    @inline(__always)
    private static func slot(_ fingerprint: UInt64, capacity: Int) -> Int {
        Int((fingerprint << UInt64(FirstSeenTable.shardBits)).multipliedFullWidth(by: UInt64(capacity)).high)
    }
}

extension FirstSeenTable {
    /// A shard's slots: `capacity` fingerprints, then as many lines (0 marks an empty slot), in one anonymous
    /// mapping of their own, given back to the system as a whole when the shard outgrows it.
    ///
    /// Why not two arrays: 256 shards that each grow some thirty times leave the allocator's heap full of freed
    /// arrays too small for the next growth, and a million ids took 23 MB where their slots hold 14.5. A mapping is
    /// zero-filled (every slot empty) without a write, and its pages are the system's again at once.
    final class Slots: @unchecked Sendable {
        let capacity: Int
        let fingerprints: UnsafeMutablePointer<UInt64>
        let lines: UnsafeMutablePointer<UInt32>
        private let base: UnsafeMutableRawPointer?
        private let byteCount: Int
        private let isMapped: Bool

        init(capacity: Int) {
            self.capacity = capacity
            byteCount = max(capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<UInt32>.stride), 1)
            let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) {
                base = mapped
                isMapped = true
            } else {
                // No mapping to be had: the allocator's memory, zeroed, does the same job.
                let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: MemoryLayout<UInt64>.alignment)
                memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
                base = memory
                isMapped = false
            }
            fingerprints = base!.bindMemory(to: UInt64.self, capacity: capacity)
            lines = (base! + capacity * MemoryLayout<UInt64>.stride).bindMemory(to: UInt32.self, capacity: capacity)
        }

        deinit {
            if isMapped { munmap(base, byteCount) } else { base?.deallocate() }
        }

        /// The same slots in memory of their own.
        func copy() -> Slots {
            let copy = Slots(capacity: capacity)
            copy.fingerprints.update(from: fingerprints, count: capacity)
            copy.lines.update(from: lines, count: capacity)
            return copy
        }
    }
}
