import Foundation
import Testing

@testable import FreemiumStoreKit

@Suite("Store front values", .timeLimit(.minutes(20)))
struct StoreFrontTests {
    @Test("StoreKit's names: the platforms AppStore.Platform declares, the environments AppStore.Environment does")
    func names() {
        #expect(StorePlatform.allCases.map(\.rawValue) == ["iOS", "macOS", "tvOS", "visionOS"])
        #expect(StoreEnvironment.allCases.map(\.rawValue) == ["production", "sandbox", "xcode"])
        #expect(TransactionOwnership(rawValue: "familyShared") == .familyShared)
    }

    @Test("A transaction defaults to purchased, verified and unrevoked; finishing runs what it was given")
    func transactionDefaults() async {
        final class Box: @unchecked Sendable { var finished = 0 }
        let box = Box()
        let transaction = StoreTransaction(productID: "p", id: 7, finish: { box.finished += 1 })
        #expect(transaction.ownership == .purchased && transaction.isVerified && !transaction.isRevoked)
        await transaction.finish()
        #expect(box.finished == 1)
    }

    @Test("The layer's version is a semantic version")
    func version() {
        let parts = StoreLayer.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }
}
