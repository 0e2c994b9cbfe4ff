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

    @Test(
        "Apple's environment names, in receipts and signed payloads, in any case; anything else is nil",
        arguments: [
            ("Production", StoreEnvironment.production), ("ProductionVPP", .production), ("Sandbox", .sandbox),
            ("ProductionSandbox", .sandbox), ("ProductionVPPSandbox", .sandbox), ("sandbox", .sandbox), ("Xcode", .xcode),
            ("LocalTesting", .xcode), ("TestFlight", nil), ("", nil),
        ] as [(String, StoreEnvironment?)])
    func appleNames(name: String, environment: StoreEnvironment?) {
        #expect(StoreEnvironment(appleName: name) == environment)
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

    @Test(
        "Family Sharing shares a non-consumable and an auto-renewable subscription, never a consumable nor a pass",
        arguments: [(InAppPurchaseType.consumable, false), (.nonConsumable, true), (.nonRenewable, false), (.autoRenewable, true)])
    func familySharedTypes(type: InAppPurchaseType, shared: Bool) {
        // "Supporting Family Sharing in your app": the types a product marked shareable reaches the family in.
        #expect(type.isSharedByFamily == shared)
    }

    @Test("The layer's version is a semantic version")
    func version() {
        let parts = StoreLayer.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }
}
