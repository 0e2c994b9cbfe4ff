import Foundation
import Testing

@testable import FreemiumStoreKit

/// The cache of verified facts: it only extends what the App Store verified, and a record edited or
/// damaged in any way is ignored rather than trusted or crashed on.
@Suite("Purchase cache", .timeLimit(.minutes(20)))
struct PurchaseCacheTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let facts = AppTransactionFacts(
        appTransactionID: "705", originalAppVersion: "1.4", originalPurchaseDate: Date(timeIntervalSince1970: 1_300_000_000),
        environment: .production, originalPlatform: .macOS, isRevoked: false)

    static func record(_ edit: (inout VerifiedPurchaseRecord) -> Void = { _ in }) -> VerifiedPurchaseRecord {
        var record = VerifiedPurchaseRecord(facts, products: ["b", "a"], verifiedAt: now.addingTimeInterval(-86_400 * 3))
        edit(&record)
        return record
    }

    @Test("A record round-trips: the same facts, products sorted, its age in whole days")
    func roundTrip() throws {
        let record = Self.record()
        let data = try #require(record.encoded())
        let decoded = try #require(VerifiedPurchaseRecord.decode(data, now: Self.now))
        #expect(decoded == record)
        #expect(decoded.facts == Self.facts)
        #expect(decoded.products == ["a", "b"])
        #expect(decoded.age(at: Self.now) == 3)
        // Sorted keys: the same record is always the same bytes.
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(#"{"appTransactionID":"705","environment":"production""#))
    }

    static let damaged: [(String, @Sendable (inout VerifiedPurchaseRecord) -> Void)] = [
        ("verified in the future", { $0.verifiedAt = now.timeIntervalSince1970 + 60 }),
        ("verified before 1970", { $0.verifiedAt = -1 }),
        ("purchase date out of range", { $0.originalPurchaseDate = 1e12 }),
        ("an unknown environment", { $0.environment = "production2" }),
        ("an unknown platform", { $0.originalPlatform = "iPadOS" }),
        ("a string too long", { $0.originalAppVersion = String(repeating: "9", count: 257) }),
        ("a platform too long", { $0.originalPlatform = String(repeating: "i", count: 257) }),
        ("too many products", { $0.products = (0...1_000).map(String.init) }),
    ]

    @Test("A damaged or edited record is ignored", arguments: damaged.indices)
    func damagedRecordIgnored(index: Int) throws {
        let (name, edit) = Self.damaged[index]
        let data = try #require(Self.record(edit).encoded(), "\(name)")
        #expect(VerifiedPurchaseRecord.decode(data, now: Self.now) == nil, "\(name)")
    }

    @Test(
        "Bytes that aren't a record are ignored, without crashing",
        arguments: [
            "", "{}", "null", "[]", #"{"appTransactionID":1}"#, String(repeating: " ", count: 65_537),
            // Numbers JSONEncoder never writes, edited in: out of Double's range.
            #"{"appTransactionID":"1","environment":"production","isRevoked":false,"originalAppVersion":"1","originalPurchaseDate":0,"products":[],"verifiedAt":1e999}"#,
        ])
    func garbageIgnored(text: String) {
        #expect(VerifiedPurchaseRecord.decode(Data(text.utf8), now: Self.now) == nil)
    }

    @Test("The in-memory store keeps, replaces and clears one record")
    func inMemoryStore() {
        let cache = InMemoryPurchaseCache()
        #expect(cache.load() == nil)
        cache.save(Data("one".utf8))
        cache.save(Data("two".utf8))
        #expect(cache.load() == Data("two".utf8))
        cache.clear()
        #expect(cache.load() == nil)
    }

    @Test("Delivered consumables: kept apart from the record, bounded to the newest, and nothing when damaged")
    func deliveredConsumables() throws {
        var delivered = DeliveredConsumables()
        for id in 1...UInt64(DeliveredConsumables.maximumIDs + 5) { delivered.insert(id) }
        delivered.insert(9)  // already there: not moved, not doubled
        #expect(delivered.ids.count == DeliveredConsumables.maximumIDs)
        #expect(!delivered.contains(5) && delivered.contains(6) && delivered.contains(UInt64(DeliveredConsumables.maximumIDs + 5)))
        let cache = InMemoryPurchaseCache()
        cache.saveDelivered(try #require(delivered.encoded()))
        cache.clear()  // forgetting the verified facts keeps what was delivered
        #expect(DeliveredConsumables.decode(cache.loadDelivered()) == delivered)
        for damaged in [Data("{".utf8), Data(#"{"ids":["x"]}"#.utf8), Data(count: VerifiedPurchaseRecord.maximumBytes + 1)] {
            #expect(DeliveredConsumables.decode(damaged).ids.isEmpty)
        }
    }
}
