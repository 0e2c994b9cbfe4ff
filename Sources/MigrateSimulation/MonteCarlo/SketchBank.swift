/// One worker's sketches, filled a batch of draws at a time.
///
/// The Monte Carlo adds 98 values a draw to 98 sketches whose counts take 14 KB each: added one by one,
/// every value lands in a different part of 1.4 MB, and waiting for those cache lines was most of the time
/// of a draw. The bank instead keeps the values of the next `batchSize` draws in columns, one per sketch,
/// and counts a whole column into its sketch at once, so the counting runs over one sketch's buckets at a
/// time. Counting is order-free (integer counts, the minimum, the maximum), so the sketches come out the
/// same as adding each value to its own `QuantileSketch`, which `MonteCarloTests` checks.
///
/// Each draw sets one value in every column (`set(_:column:)`) and then calls `endDraw()`. A column made
/// with `signed` feeds two sketches: values ≥ 0 to the first, and the others negated to the second (how
/// `MonteCarlo.signedQuantile` keeps the advantage). A bank belongs to one worker.
final class SketchBank {
    /// Draws held before they are counted: 128 × 8 bytes a column, so the flagship's 97 columns (97 KB)
    /// stay in the cache; 64 and 512 were slower.
    static let batchSize = 128
    /// Doubles from one column to the next: a batch and one cache line more, so that the 97 values a draw
    /// stores are not all a multiple of 4 KB apart (which the processor can take for a clash with its loads).
    static let columnStride = batchSize + 8

    let columns: Int
    /// The number of sketches: one per column, plus one more for each signed column.
    let sketchCount: Int
    /// The sketch of each column, and for a signed column the sketch of its negative values (else -1).
    private let negativeSketch: [Int]
    /// `QuantileSketch.bucketCount`, read once: a static worked out with a logarithm costs a check on every read.
    private let stride = QuantileSketch.bucketCount
    private let table = BucketTable.shared
    private let buckets: UnsafeMutablePointer<UInt32>
    private let zeros: UnsafeMutablePointer<UInt64>
    private let minimum: UnsafeMutablePointer<Double>
    private let maximum: UnsafeMutablePointer<Double>
    /// Column c's values of the draws not yet counted: `pending[c × columnStride ..< c × columnStride + rows]`.
    private let pending: UnsafeMutablePointer<Double>
    private var rows = 0

    /// - Parameters:
    ///   - columns: values set per draw; sketch c is column c's.
    ///   - signed: columns whose negative values go, negated, to a sketch of their own, numbered from
    ///     `columns` in the order given.
    init(columns: Int, signed: [Int] = []) {
        self.columns = columns
        var negative = [Int](repeating: -1, count: columns)
        for (index, column) in signed.enumerated() { negative[column] = columns + index }
        negativeSketch = negative
        sketchCount = columns + signed.count
        buckets = .allocate(capacity: sketchCount * stride)
        buckets.initialize(repeating: 0, count: sketchCount * stride)
        zeros = .allocate(capacity: sketchCount)
        zeros.initialize(repeating: 0, count: sketchCount)
        minimum = .allocate(capacity: sketchCount)
        minimum.initialize(repeating: .infinity, count: sketchCount)
        maximum = .allocate(capacity: sketchCount)
        maximum.initialize(repeating: -.infinity, count: sketchCount)
        pending = .allocate(capacity: columns * Self.columnStride)
        pending.initialize(repeating: 0, count: columns * Self.columnStride)
    }

    deinit {
        buckets.deallocate()
        zeros.deallocate()
        minimum.deallocate()
        maximum.deallocate()
        pending.deallocate()
    }

    /// This draw's value of column `column`.
    @inline(__always)
    func set(_ value: Double, column: Int) {
        pending[column &* Self.columnStride &+ rows] = value
    }

    /// Ends a draw whose every column was set; counts the batch when it is full.
    @inline(__always)
    func endDraw() {
        rows &+= 1
        if rows == Self.batchSize { countPending() }
    }

    /// Sketch `index` as a `QuantileSketch`, with every draw ended so far counted.
    func sketch(_ index: Int) -> QuantileSketch {
        countPending()
        let counts = Array(UnsafeBufferPointer(start: buckets + index * stride, count: stride))
        return QuantileSketch(buckets: counts, zeros: zeros[index], minimum: minimum[index], maximum: maximum[index])
    }

    private func countPending() {
        guard rows > 0 else { return }
        table.entries.withUnsafeBufferPointer { entries in
            for column in 0..<columns {
                let values = UnsafeBufferPointer(start: pending + column * Self.columnStride, count: rows)
                let negative = negativeSketch[column]
                if negative < 0 {
                    count(values, into: column, entries: entries.baseAddress!)
                } else {
                    for value in values {
                        if value >= 0 {
                            count(CollectionOfOne(value), into: column, entries: entries.baseAddress!)
                        } else {
                            count(CollectionOfOne(-value), into: negative, entries: entries.baseAddress!)
                        }
                    }
                }
            }
        }
        rows = 0
    }

    /// Counts `values` into sketch `sketch`, as `QuantileSketch.add(_:table:)` does each.
    @inline(__always)
    private func count<Values: Sequence<Double>>(_ values: Values, into sketch: Int, entries: UnsafePointer<BucketTable.Entry>) {
        var low = minimum[sketch]
        var high = maximum[sketch]
        var zeroCount = zeros[sketch]
        let counts = buckets + sketch * stride
        let firstSlot = table.firstSlot
        for value in values {
            if value < low { low = value }
            if value > high { high = value }
            if value < QuantileSketch.smallest {
                zeroCount &+= 1
            } else if value <= QuantileSketch.largest {
                counts[QuantileSketch.fastBucket(of: value, entries: entries, firstSlot: firstSlot)] &+= 1
            } else {
                counts[QuantileSketch.bucket(of: value)] &+= 1
            }
        }
        minimum[sketch] = low
        maximum[sketch] = high
        zeros[sketch] = zeroCount
    }
}
