import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import Testing

@testable import MigrateSimulation

/// Simulation grows with the catalog, not its square: the cohort preview folds a cohort's many per-offer states; the revenue model sums offers once
/// a draw; the sketch finds buckets without a logarithm, exactly as with one.
@Suite("Catalog scale: folded preview, offers summed once, bucket table", .timeLimit(.minutes(20)))
struct SimulationScaleTests {
    /// One paid release and one free one; `count` products, each granting its own feature, so a new free
    /// user is offered all of them (and a paid buyer all but the first, which the paid app included).
    static func plan(products count: Int) throws -> MigrationPlan {
        let products = (0..<count).map { index in
            #"{ "id": "com.example.many.p\#(index)", "name": "P\#(index)", "type": "nonConsumable", "price": "\#(index % 5).99", "grants": ["f\#(index)"] }"#
        }
        let features = (0..<count).map { #"{ "id": "f\#($0)" }"# }
        return try decode(
            """
            { "app": { "name": "Many", "bundleID": "com.example.many", "platforms": ["iOS"] },
              "features": [\(features.joined(separator: ", "))],
              "releases": [
                { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["f0"] },
                { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free", "includes": [] } ],
              "products": [\(products.joined(separator: ", "))],
              "simulation": { "assumptions": { "paidDownloadsPerMonth": 1000 } } }
            """)
    }

    @Test(
        "A cohort shown more offers than CohortPreview.foldedAbove gets one row for owning any of them; perOffer lists each",
        arguments: [CohortPreview.foldedAbove, CohortPreview.foldedAbove + 2])
    func folding(count: Int) throws {
        let scenario = try PreparedScenario.prepare(try Self.plan(products: count), scenario: nil)
        let rows = CohortPreview.rows(for: scenario)
        let newUsers = rows.filter { $0.cohort == "new free users" }
        let base = try #require(newUsers.first)
        #expect(base.owns.isEmpty && base.folded == nil)
        #expect(base.offers.count == count)
        if count <= CohortPreview.foldedAbove {
            #expect(newUsers.count == 1 + count)
            #expect(newUsers.allSatisfy { $0.folded == nil })
        } else {
            #expect(newUsers.count == 2)
            let folded = try #require(newUsers.last?.folded)
            #expect(folded.kind == .offers)
            #expect(folded.choices.map(\.productID) == base.offers.map(\.productID))
            // Its size is the offers' buyers added up, and it keeps what the cohort keeps without them.
            let sizes = folded.choices.compactMap(\.size)
            #expect(sizes.count == count)
            #expect(close(newUsers.last!.size!, sizes.reduce(0, +)))
            #expect(newUsers.last!.entitlements == base.entitlements)
            #expect(newUsers.last!.offers.isEmpty)
        }
        // With perOffer every state is a row of its own, whatever the count.
        let detailed = CohortPreview.rows(for: scenario, perOffer: true).filter { $0.cohort == "new free users" }
        #expect(detailed.count == 1 + count)
        #expect(detailed.dropFirst().map { $0.owns } == base.offers.map { [$0.productID] })
        #expect(detailed.allSatisfy { $0.folded == nil })
    }

    @Test("Summing each cohort's offers once a draw gives what summing them every month gave", arguments: [1, 7, 300])
    func offersSummedOnce(count: Int) throws {
        var scenario = try PreparedScenario.prepare(try Self.plan(products: count), scenario: nil)
        // Prices off the plan's, so the price response (an exp per offer) matters too.
        for cohort in scenario.model.cohorts.indices {
            for offer in scenario.model.cohorts[cohort].offers.indices { scenario.model.cohorts[cohort].offers[offer].price *= 1.1 }
        }
        var values = scenario.medians
        values.priceElasticity = 1.3
        values.taxInPrice = 0.1
        let series = RevenueSeries.evaluate(scenario.model, values: values)
        // Month by month and offer by offer, as the model is written in its documentation.
        let model = scenario.model
        let legacyBuyers = model.legacyBuyers(values)
        let decay = pow(0.5, 1 / values.burstHalfLifeMonths)
        var excess = values.launchMultiple - values.lastingMultiple
        for month in 0..<model.months {
            let downloads = values.paidDownloadsPerMonth * (values.lastingMultiple + excess) * model.season[month]
            excess *= decay
            var gross = 0.0
            for cohort in model.cohorts {
                let buyers: Double
                switch cohort.kind {
                case .newCustomers: buyers = downloads * cohort.share * values.conversion
                case .legacy: buyers = month == 0 ? legacyBuyers * cohort.share * values.legacyUpgradeRate : 0
                }
                for offer in cohort.offers { gross += buyers * offer.weight * offer.priceResponse(elasticity: values.priceElasticity) * offer.price }
            }
            let expected = gross * (1 - model.commission.rate) * (1 - values.refundRate) * (1 - values.taxInPrice)
            #expect(close(series.freemium[month], expected, tolerance: 1e-12), "month \(month + 1)")
        }
        #expect(model.cohorts.contains { $0.offers.count >= count - 1 })
    }

    @Test("The bucket table gives bucket(of:) exactly: at every bucket boundary, a value either side, and seeded values")
    func bucketTable() {
        let table = BucketTable.shared
        var checked = 0
        func expectSame(_ value: Double) {
            guard value >= QuantileSketch.smallest, value <= QuantileSketch.largest else { return }
            checked += 1
            let fast = QuantileSketch.fastBucket(of: value, in: table)
            let slow = QuantileSketch.bucket(of: value)
            if fast != slow { Issue.record("\(value): table \(fast), logarithm \(slow)") }
        }
        for entry in table.entries where entry.boundary.isFinite {
            expectSame(entry.boundary)
            expectSame(entry.boundary.nextDown)
            expectSame(entry.boundary.nextUp)
        }
        for exponent in -2...13 {
            let power = pow(10.0, Double(exponent))
            for value in [power, power.nextDown, power.nextUp] { expectSame(value) }
        }
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<200_000 {
            // Log-uniform over the sketch's range.
            expectSame(QuantileSketch.smallest * pow(QuantileSketch.largest / QuantileSketch.smallest, generator.nextUnit()))
        }
        #expect(checked > 200_000 + 3 * (QuantileSketch.bucketCount - 2))
        // Adding through the table and through the logarithm fills the same buckets.
        var viaTable = QuantileSketch()
        var viaLog = [UInt32](repeating: 0, count: QuantileSketch.bucketCount)
        for value in [0.0, 0.004, 0.01, 1, 2.5, 99.99, 1e6, 1e13, 2e13, .infinity, .nan] {
            viaTable.add(value, table: table)
            if !(value < QuantileSketch.smallest) { viaLog[QuantileSketch.bucket(of: value)] += 1 }
        }
        #expect(viaTable.buckets == viaLog)
        #expect(viaTable.zeros == 2)
    }
}
