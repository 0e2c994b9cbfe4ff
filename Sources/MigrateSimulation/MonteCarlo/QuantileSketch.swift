import Foundation

/// Streaming percentiles in fixed memory: a log-bucketed histogram (the DDSketch idea) with exact
/// counts, minimum and maximum.
///
/// A value x ≥ `smallest` falls in bucket ⌈log_γ x⌉ and is reported as 2γ^i/(γ+1), so every
/// percentile is within a relative error of (γ−1)/(γ+1) ≈ 0.5% of a value the data actually holds
/// at that rank (γ = 1.01). Values below `smallest` (one cent) count as 0; values above `largest`
/// land in the top bucket. Reported values are clamped to the exact minimum and maximum, so a
/// distribution of one repeated value is reported exactly. Counts are integers, so merging sketches
/// in any order gives the same result: the Monte Carlo output does not depend on the thread count.
public struct QuantileSketch: Sendable, Hashable {
    public static let gamma = 1.01
    public static let smallest = 0.01
    public static let largest = 1e13
    static let logGamma = log(gamma)
    static let offset = Int((log(smallest) / logGamma).rounded(.up))
    /// Buckets from one cent to ten trillion: 3,473 of them, 14 KB of counts.
    public static let bucketCount = Int((log(largest) / logGamma).rounded(.up)) - offset + 1

    /// Bucket counts for values ≥ `smallest`.
    var buckets: [UInt32]
    var zeros: UInt64 = 0
    public private(set) var count: UInt64 = 0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity

    public init() {
        buckets = [UInt32](repeating: 0, count: Self.bucketCount)
    }

    /// A sketch of counts kept elsewhere (`SketchBank`): the count is the zeros plus every bucket.
    init(buckets: [UInt32], zeros: UInt64, minimum: Double, maximum: Double) {
        self.buckets = buckets
        self.zeros = zeros
        self.count = buckets.reduce(zeros) { $0 + UInt64($1) }
        self.minimum = minimum
        self.maximum = maximum
    }

    static func bucket(of value: Double) -> Int {
        // Infinity, NaN and anything above `largest` go to the top bucket; Int(_:) of a non-finite value traps.
        guard value.isFinite, value <= largest else { return bucketCount - 1 }
        let index = Int((log(value) / logGamma).rounded(.up)) - offset
        return min(max(index, 0), bucketCount - 1)
    }

    /// `bucket(of:)` without a logarithm, for values from `smallest` to `largest`: the same answer, read
    /// from `BucketTable`. The Monte Carlo adds 98 values a draw, and the logarithm was a fifth of its time.
    @inline(__always)
    static func fastBucket(of value: Double, in table: BucketTable) -> Int {
        table.entries.withUnsafeBufferPointer { fastBucket(of: value, entries: $0.baseAddress!, firstSlot: table.firstSlot) }
    }

    /// `fastBucket(of:in:)` with the table's entries as a pointer, for a loop that holds them (`SketchBank`).
    @inline(__always)
    static func fastBucket(of value: Double, entries: UnsafePointer<BucketTable.Entry>, firstSlot: Int) -> Int {
        let entry = entries[Int(truncatingIfNeeded: value.bitPattern >> BucketTable.shift) &- firstSlot]
        return value >= entry.boundary ? entry.bucket &+ 1 : entry.bucket
    }

    public mutating func add(_ value: Double) {
        add(value, table: BucketTable.shared)
    }

    /// `add(_:)` with the bucket table passed in, so a loop over many values reads the shared table once.
    @inline(__always)
    public mutating func add(_ value: Double, table: BucketTable) {
        count += 1
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
        if value < Self.smallest {
            zeros += 1
        } else if value <= Self.largest {
            buckets[Self.fastBucket(of: value, in: table)] &+= 1
        } else {
            buckets[Self.bucket(of: value)] &+= 1
        }
    }

    public mutating func merge(_ other: QuantileSketch) {
        count += other.count
        zeros += other.zeros
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
        for index in buckets.indices { buckets[index] &+= other.buckets[index] }
    }

    /// The value at the nearest rank ⌈p·n⌉ (p from 0 to 1), within the relative error above.
    public func quantile(_ p: Double) -> Double { quantiles([p])[0] }

    /// `quantile(_:)` at each probability, from one pass over the buckets: a summary asks for three at
    /// every month of every sketch, and scanning 3,473 buckets for each was most of a short simulation.
    public func quantiles(_ probabilities: [Double]) -> [Double] {
        guard count > 0 else { return probabilities.map { _ in .nan } }
        let ranks = probabilities.map { max(1, UInt64(($0 * Double(count)).rounded(.up))) }
        var found = [Int](repeating: buckets.count - 1, count: ranks.count)
        // The ranks past the zeros, smallest first: each is found at the first bucket where the running
        // count reaches it.
        let pending = ranks.indices.filter { ranks[$0] > zeros }.sorted { ranks[$0] < ranks[$1] }
        var next = 0
        buckets.withUnsafeBufferPointer { buckets in
            var seen = zeros
            var index = 0
            while next < pending.count && index < buckets.count {
                seen += UInt64(buckets[index])
                while next < pending.count && seen >= ranks[pending[next]] {
                    found[pending[next]] = index
                    next += 1
                }
                index += 1
            }
        }
        return ranks.indices.map { position in
            let estimate = ranks[position] <= zeros ? 0 : 2 * pow(Self.gamma, Double(found[position] + Self.offset)) / (Self.gamma + 1)
            return min(max(estimate, minimum), maximum)
        }
    }
}

/// `QuantileSketch.bucket(of:)` as a table. Positive doubles order like their bit patterns, so the top
/// bits (exponent and the first 7 bits of the mantissa) cut each power of two into 128 slots of at most
/// 0.8% each: narrower than a bucket (1%), so a slot holds at most one bucket boundary. Each slot keeps
/// the bucket of its first value and the first value of the next bucket, found by bisecting on the bit
/// patterns with `bucket(of:)` itself — so the table answers exactly as the logarithm does, and
/// `QuantileSketchTests` checks it value by value at every boundary.
public struct BucketTable: Sendable {
    static let shift: UInt64 = 45
    public struct Entry: Sendable {
        var bucket: Int
        /// The smallest value in the slot that is in `bucket + 1`; infinity when the whole slot is in `bucket`.
        var boundary: Double
    }

    let firstSlot: Int
    let entries: [Entry]

    public static let shared = BucketTable()

    init() {
        let first = Int(QuantileSketch.smallest.bitPattern >> Self.shift)
        let last = Int(QuantileSketch.largest.bitPattern >> Self.shift)
        var entries: [Entry] = []
        entries.reserveCapacity(last - first + 1)
        for slot in first...last {
            let low = UInt64(slot) << Self.shift
            let high = (UInt64(slot + 1) << Self.shift) - 1
            // Only values from `smallest` to `largest` are ever looked up.
            let start = max(low, QuantileSketch.smallest.bitPattern)
            let end = min(high, QuantileSketch.largest.bitPattern)
            let bucket = QuantileSketch.bucket(of: Double(bitPattern: start))
            var boundary = Double.infinity
            if QuantileSketch.bucket(of: Double(bitPattern: end)) != bucket {
                var below = start
                var above = end  // bucket(below) == bucket, bucket(above) != bucket
                while above - below > 1 {
                    let middle = below + (above - below) / 2
                    if QuantileSketch.bucket(of: Double(bitPattern: middle)) == bucket { below = middle } else { above = middle }
                }
                boundary = Double(bitPattern: above)
            }
            entries.append(Entry(bucket: bucket, boundary: boundary))
        }
        firstSlot = first
        self.entries = entries
    }
}
