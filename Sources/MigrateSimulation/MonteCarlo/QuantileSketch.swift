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

    static func bucket(of value: Double) -> Int {
        // Infinity, NaN and anything above `largest` go to the top bucket; Int(_:) of a non-finite value traps.
        guard value.isFinite, value <= largest else { return bucketCount - 1 }
        let index = Int((log(value) / logGamma).rounded(.up)) - offset
        return min(max(index, 0), bucketCount - 1)
    }

    public mutating func add(_ value: Double) {
        count += 1
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
        if value < Self.smallest {
            zeros += 1
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
    public func quantile(_ p: Double) -> Double {
        guard count > 0 else { return .nan }
        let rank = max(1, UInt64((p * Double(count)).rounded(.up)))
        var estimate: Double
        if rank <= zeros {
            estimate = 0
        } else {
            var seen = zeros
            var found = buckets.count - 1
            for (index, bucketCount) in buckets.enumerated() {
                seen += UInt64(bucketCount)
                if seen >= rank {
                    found = index
                    break
                }
            }
            let exponent = Double(found + Self.offset)
            estimate = 2 * pow(Self.gamma, exponent) / (Self.gamma + 1)
        }
        return min(max(estimate, minimum), maximum)
    }
}
