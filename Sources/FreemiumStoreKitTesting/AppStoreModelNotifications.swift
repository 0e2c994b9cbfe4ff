// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// App Store Server Notifications V2 in `AppStoreModel`: what Apple posts to the app's server for each
/// event of the customer's own purchases, verified and decoded, in order (`serverNotifications`), for a
/// test to feed a server's `NotificationLedger` ("App Store Server Notifications V2", `notificationType`
/// and `subtype`): SUBSCRIBED (INITIAL_BUY, RESUBSCRIBE), DID_CHANGE_RENEWAL_PREF (UPGRADE,
/// DOWNGRADE, or none when the customer returns to the plan in use), DID_CHANGE_RENEWAL_STATUS,
/// DID_RENEW, DID_FAIL_TO_RENEW (GRACE_PERIOD with a billing grace period), EXPIRED (VOLUNTARY,
/// BILLING_RETRY), REFUND, REVOKE, OFFER_REDEEMED (a promotional or win-back offer), ONE_TIME_CHARGE.
/// Not modelled: GRACE_PERIOD_EXPIRED (the grace period ends without an event of its own here), the
/// BILLING_RECOVERY subtype, OFFER_REDEEMED for offer codes (posted as a purchase), and what Apple posts
/// about a family member's shared copy other than REVOKE.
extension AppStoreModel {
  /// The notifications Apple posted for this customer, oldest first; each `notificationUUID` once.
  public var serverNotifications: [VerifiedNotification] { withState { $0.notifications } }

  /// Posts a notification about `record`, with the renewal info of its subscription, if any.
  func notify(
    _ type: ServerNotificationType, _ subtype: ServerNotificationSubtype? = nil,
    about record: Record,
    in state: inout State
  ) {
    var renewalInfo: VerifiedRenewalInfo?
    if let group = products[record.productID]?.group,
      let index = renewalIndex(group, record.ownership, in: state)
    {
      let renewal = state.renewals[index]
      renewalInfo = VerifiedRenewalInfo(
        originalTransactionId: String(renewal.originalID), productId: record.productID,
        autoRenewProductId: renewal.preference, willAutoRenew: renewal.willAutoRenew,
        isInBillingRetryPeriod: renewal.retryStarted != nil && renewal.expirationReason == nil,
        gracePeriodExpiresDate: gracePeriodEnd(of: renewal, in: state))
    }
    let transaction = VerifiedTransaction(
      productId: record.productID,
      inAppOwnershipType: record.ownership == .familyShared ? "FAMILY_SHARED" : "PURCHASED",
      purchaseDate: record.purchaseDate, expiresDate: record.expirationDate,
      revocationDate: record.revocationDate, transactionId: String(record.id),
      originalTransactionId: String(record.originalID))
    state.notifications.append(
      VerifiedNotification(
        notificationType: type, subtype: subtype,
        notificationUUID: "model-notification-\(state.notifications.count + 1)",
        signedDate: state.now, environment: state.appTransaction?.environment ?? .production,
        transaction: transaction, renewalInfo: renewalInfo))
  }
}
