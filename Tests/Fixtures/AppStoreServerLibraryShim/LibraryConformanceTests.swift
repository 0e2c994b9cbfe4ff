import AppStoreServerLibrary
import Foundation
import Testing
import Tilt
import TiltServer

// What SERVER.md tells an integrator to write: one line per type of Apple's library.
extension AppTransaction: ServerAppTransaction {}
extension JWSTransactionDecodedPayload: ServerTransaction {}

@Suite("Apple's App Store Server Library", .timeLimit(.minutes(20)))
struct LibraryConformanceTests {
  @Test("The library's payloads, conformed in one line each, decide as the facts they carry")
  func decidesLikeItsFacts() {
    let bought = Date(timeIntervalSince1970: 1_300_000_000)
    let now = Date(timeIntervalSince1970: 1_900_000_000)
    let product = ProductID.allCases[0].rawValue
    for environment in [AppStoreEnvironment.production, .sandbox] {
      let app = AppTransaction(
        receiptType: environment, bundleId: ServerDecisions.bundleID, originalPurchaseDate: bought,
        originalApplicationVersion: "1.0", appTransactionId: "705000000001", originalPlatform: .iOS)
      let owned = JWSTransactionDecodedPayload(
        productId: product, purchaseDate: bought, rawInAppOwnershipType: "FAMILY_SHARED", revocationDate: now)
      let fromLibrary = ServerDecisions.decide(
        app: app, transactions: [owned, JWSTransactionDecodedPayload()], environment: ServerDecisions.environment(environment.rawValue),
        now: now)
      let facts = ServerDecisions.decide(
        app: VerifiedAppTransaction(
          originalApplicationVersion: "1.0", originalPurchaseDate: bought, originalPlatform: "iOS",
          appTransactionId: "705000000001", bundleId: ServerDecisions.bundleID),
        transactions: [
          VerifiedTransaction(productId: product, inAppOwnershipType: "FAMILY_SHARED", purchaseDate: bought, revocationDate: now)
        ],
        environment: ServerDecisions.environment(environment.rawValue), now: now)
      #expect(fromLibrary == facts)
      #expect(fromLibrary.purchase.environment == (environment == .sandbox ? .sandbox : .production))
      #expect(fromLibrary.purchase.originalPlatform == .iOS)
    }
  }
}
