import Foundation
import Testing

@testable import MigrateSimulation

@Suite("Quantile sketch: values past its range", .timeLimit(.minutes(20)))
struct QuantileLimitTests {
    @Test("1e308, infinity and NaN land in the top bucket instead of trapping on the bucket index")
    func huge() {
        var sketch = QuantileSketch()
        for value in [1e308, .infinity, .nan, 5, 1e13, 1e14] { sketch.add(value) }
        #expect(sketch.count == 6)
        #expect(QuantileSketch.bucket(of: .infinity) == QuantileSketch.bucketCount - 1)
        #expect(QuantileSketch.bucket(of: .nan) == QuantileSketch.bucketCount - 1)
        #expect(QuantileSketch.bucket(of: 1e308) == QuantileSketch.bucketCount - 1)
        _ = sketch.quantile(0.5)
        _ = sketch.quantile(1)
    }
}
