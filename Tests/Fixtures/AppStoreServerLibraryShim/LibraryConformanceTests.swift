import AppStoreServerLibrary
import Foundation
import Testing
import Tilt
import TiltServer

// What SERVER.md tells an integrator to write: one line per type of Apple's library.
extension AppTransaction: ServerAppTransaction {}
extension JWSTransactionDecodedPayload: ServerTransaction {}
extension ResponseBodyV2DecodedPayload: ServerNotification {}
extension JWSRenewalInfoDecodedPayload: ServerRenewalInfo {}

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

  @Test("A notification and its renewal info, conformed in one line each, are applied as the facts they carry")
  func notificationFromLibrary() {
    let signed = Date(timeIntervalSince1970: 1_900_000_000)
    let product = ProductID.allCases[0].rawValue
    let payload = ResponseBodyV2DecodedPayload(
      rawNotificationType: "DID_FAIL_TO_RENEW", rawSubtype: "GRACE_PERIOD", notificationUUID: "uuid-1",
      data: AppStoreServerLibrary.Data(rawEnvironment: "Sandbox", bundleId: ServerDecisions.bundleID), version: "2.0", signedDate: signed)
    let renewal = JWSRenewalInfoDecodedPayload(
      originalTransactionId: "o-1", autoRenewProductId: product, productId: product, rawAutoRenewStatus: 1,
      isInBillingRetryPeriod: true, gracePeriodExpiresDate: signed.addingTimeInterval(86_400))
    let transaction = JWSTransactionDecodedPayload(
      originalTransactionId: "o-1", transactionId: "t-1", productId: product, purchaseDate: signed.addingTimeInterval(-86_400),
      expiresDate: signed)
    let notification = VerifiedNotification(
      payload, environment: ServerDecisions.environment(payload.data?.rawEnvironment),
      transaction: VerifiedTransaction(transaction), renewalInfo: VerifiedRenewalInfo(renewal))
    #expect(notification?.notificationType == .didFailToRenew && notification?.subtype == .gracePeriod)
    #expect(notification?.environment == .sandbox)
    #expect(notification?.transaction?.originalTransactionId == "o-1")
    #expect(notification?.renewalInfo?.willAutoRenew == true)
    #expect(notification?.renewalInfo?.gracePeriodExpiresDate == signed.addingTimeInterval(86_400))
  }
}
