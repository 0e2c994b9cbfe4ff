// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// A day in seconds, as the journeys move through a subscription's period.
private let day: TimeInterval = 86_400

/// The journeys of App Store Server Notifications V2 that change what a customer has: each
/// notification signed with Apple's documented fields, verified, decoded and applied to what the
/// server knows of the customer (`NotificationLedger`), then decided by the suite's `has`. Each
/// throws `JourneyFailure` with every check that failed.
extension ServerNotificationJourney {
  /// What the server gives at `now` in the sandbox, from what `ledger` holds.
  func has(_ product: String, _ ledger: NotificationLedger, at now: Date) throws -> Bool {
    try has(product, ledger, at: now, environment: .sandbox)
  }

  /// A subscriber as `SUBSCRIBED` (`INITIAL_BUY`) leaves them, in `environment`.
  func subscribed(
    environment: String = "Sandbox", _ check: inout JourneyChecks
  ) throws -> NotificationLedger {
    var ledger = NotificationLedger()
    let outcome = try receive(
      notification(
        "SUBSCRIBED", "INITIAL_BUY", uuid: "subscribed-\(environment)", signed: Self.start,
        transaction: transaction(environment: environment),
        renewal: renewal(environment: environment), environment: environment), into: &ledger)
    check.expect(outcome == .applied, "SUBSCRIBED in \(environment): \(outcome)")
    return ledger
  }

  /// A payload the App Store didn't sign is refused before anything is decided.
  public func checkForgedRefused() throws {
    var check = JourneyChecks("a payload the App Store didn't sign is refused")
    let forged =
      TestSigner.base64URL("{}") + "." + TestSigner.base64URL(#"{"notificationType":"REFUND"}"#)
      + ".x"
    var ledger = NotificationLedger()
    do {
      let outcome = try receive(forged, into: &ledger)
      check.expect(false, "a forged REFUND was received: \(outcome)")
    } catch {
      check.expect(error is TestSigner.Unverified, "refused as \(error), not as unverified")
    }
    try check.finish()
  }

  /// `SUBSCRIBED` and `DID_RENEW`, in both environments, each kept to its own.
  public func checkSubscribedAndRenewed() throws {
    var check = JourneyChecks("SUBSCRIBED and DID_RENEW, each environment kept to its own")
    for environment in ["Sandbox", "Production"] {
      var ledger = try subscribed(environment: environment, &check)
      let store = StoreEnvironment(serverName: environment)
      let other: StoreEnvironment = store == .sandbox ? .production : .sandbox
      let subscription = Self.subscription
      check.expect(
        try has(subscription, ledger, at: Self.start, environment: store),
        "not subscribed in \(environment)")
      check.expect(
        try !has(subscription, ledger, at: Self.start, environment: other),
        "\(environment)'s subscription counted in \(other)")
      let renewedAt = Self.start.addingTimeInterval(30 * day)
      check.expect(
        try !has(subscription, ledger, at: renewedAt.addingTimeInterval(day), environment: store),
        "subscribed past the period's end with no renewal, in \(environment)")
      _ = try receive(
        notification(
          "DID_RENEW", uuid: "renew-\(environment)", signed: renewedAt,
          transaction: transaction(bought: renewedAt, environment: environment),
          renewal: renewal(environment: environment), environment: environment), into: &ledger)
      check.expect(
        try has(subscription, ledger, at: renewedAt.addingTimeInterval(day), environment: store),
        "not subscribed after DID_RENEW, in \(environment)")
    }
    try check.finish()
  }

  /// `DID_CHANGE_RENEWAL_PREF`: a change to `other` for the next renewal is pending; the plan in
  /// use stays.
  public func checkRenewalPreferenceChanged() throws {
    var check = JourneyChecks("DID_CHANGE_RENEWAL_PREF is pending; the plan in use stays")
    let other = try check.require(Self.other, "no other plan of the group to change to")
    var ledger = try subscribed(&check)
    let signed = Self.start.addingTimeInterval(day)
    _ = try receive(
      notification(
        "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", uuid: "pref", signed: signed,
        transaction: transaction(), renewal: renewal(next: other)), into: &ledger)
    let pending = ledger.pendingChanges(in: .sandbox)
    check.expect(pending == [Self.subscription: other], "pending: \(pending)")
    check.expect(try has(Self.subscription, ledger, at: signed), "the plan in use was taken away")
    try check.finish()
  }

  /// `DID_CHANGE_RENEWAL_STATUS`: auto-renew off keeps the period to its end.
  public func checkAutoRenewTurnedOff() throws {
    var check = JourneyChecks("DID_CHANGE_RENEWAL_STATUS keeps the period to its end")
    var ledger = try subscribed(&check)
    _ = try receive(
      notification(
        "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", uuid: "status",
        signed: Self.start.addingTimeInterval(day), transaction: transaction(),
        renewal: renewal(autoRenew: false)), into: &ledger)
    check.expect(
      try has(Self.subscription, ledger, at: Self.start.addingTimeInterval(29 * day)),
      "taken away before the period ends")
    check.expect(
      try !has(Self.subscription, ledger, at: Self.start.addingTimeInterval(30 * day)),
      "kept past the period's end")
    try check.finish()
  }

  /// `DID_FAIL_TO_RENEW`: with `GRACE_PERIOD`, service until the grace period ends, then
  /// `GRACE_PERIOD_EXPIRED` takes it away; without one, none.
  public func checkFailedRenewal() throws {
    var check = JourneyChecks("DID_FAIL_TO_RENEW keeps service through a grace period only")
    let due = Self.start.addingTimeInterval(30 * day)
    let graceEnd = due.addingTimeInterval(16 * day)
    var grace = try subscribed(&check)
    _ = try receive(
      notification(
        "DID_FAIL_TO_RENEW", "GRACE_PERIOD", uuid: "fail-grace", signed: due,
        transaction: transaction(), renewal: renewal(retry: true, grace: graceEnd)), into: &grace)
    check.expect(
      try has(Self.subscription, grace, at: due.addingTimeInterval(day)),
      "no service in the grace period")
    _ = try receive(
      notification(
        "GRACE_PERIOD_EXPIRED", uuid: "grace-expired", signed: due.addingTimeInterval(2 * day),
        transaction: transaction(), renewal: renewal(retry: true, grace: graceEnd)), into: &grace)
    check.expect(
      try !has(Self.subscription, grace, at: due.addingTimeInterval(3 * day)),
      "service after GRACE_PERIOD_EXPIRED")
    var none = try subscribed(&check)
    _ = try receive(
      notification(
        "DID_FAIL_TO_RENEW", uuid: "fail", signed: due, transaction: transaction(),
        renewal: renewal(retry: true)), into: &none)
    check.expect(
      try !has(Self.subscription, none, at: due.addingTimeInterval(day)),
      "service in billing retry without a grace period")
    try check.finish()
  }

  /// `EXPIRED`, `REFUND` and `REVOKE` take the subscription away; a family member has it while it
  /// is shared only if the plan entitles what Family Sharing brings.
  public func checkExpiredRefundedRevoked() throws {
    var check = JourneyChecks("EXPIRED, REFUND and REVOKE take the subscription away")
    let signed = Self.start.addingTimeInterval(day)
    var expired = try subscribed(&check)
    _ = try receive(
      notification(
        "EXPIRED", "VOLUNTARY", uuid: "expired", signed: signed, transaction: transaction()),
      into: &expired)
    check.expect(
      try !has(Self.subscription, expired, at: signed.addingTimeInterval(1)), "kept after EXPIRED")
    var refunded = try subscribed(&check)
    _ = try receive(
      notification(
        "REFUND", uuid: "refund", signed: signed, transaction: transaction(revoked: signed)),
      into: &refunded)
    check.expect(try !has(Self.subscription, refunded, at: signed), "kept after REFUND")
    var member = NotificationLedger()
    _ = try receive(
      notification(
        "SUBSCRIBED", uuid: "shared", signed: Self.start, transaction: transaction(shared: true)),
      into: &member)
    let shared = try has(Self.subscription, member, at: signed)
    check.expect(shared == Self.familySharingEntitles, "a family member has it: \(shared)")
    _ = try receive(
      notification(
        "REVOKE", uuid: "revoke", signed: signed,
        transaction: transaction(revoked: signed, shared: true)), into: &member)
    check.expect(try !has(Self.subscription, member, at: signed), "kept after REVOKE")
    try check.finish()
  }

  /// `OFFER_REDEEMED` and `ONE_TIME_CHARGE` add what was bought.
  public func checkOfferRedeemedAndOneTimeCharge() throws {
    var check = JourneyChecks("OFFER_REDEEMED and ONE_TIME_CHARGE add what was bought")
    let later = Self.start.addingTimeInterval(day)
    var ledger = NotificationLedger()
    _ = try receive(
      notification(
        "OFFER_REDEEMED", "INITIAL_BUY", uuid: "offer", signed: Self.start,
        transaction: transaction()), into: &ledger)
    check.expect(try has(Self.subscription, ledger, at: later), "not added by OFFER_REDEEMED")
    if let oneTime = Self.oneTime {
      let bought = try transaction(oneTime, days: nil, original: "2000000001")
      let outcome = try receive(
        notification("ONE_TIME_CHARGE", uuid: "one-time", signed: Self.start, transaction: bought),
        into: &ledger)
      check.expect(outcome == .applied, "ONE_TIME_CHARGE: \(outcome)")
      check.expect(try has(oneTime, ledger, at: later), "not added by ONE_TIME_CHARGE")
    }
    try check.finish()
  }

  /// A retried notification is applied once; an older one after a newer changes nothing.
  public func checkRetriedAndOutOfOrder() throws {
    var check = JourneyChecks("a retried notification is applied once, an older one not at all")
    var ledger = try subscribed(&check)
    let renewedAt = Self.start.addingTimeInterval(30 * day)
    let renew = try notification(
      "DID_RENEW", uuid: "renew", signed: renewedAt, transaction: transaction(bought: renewedAt),
      renewal: renewal())
    let first = try receive(renew, into: &ledger)
    check.expect(first == .applied, "DID_RENEW: \(first)")
    let again = try receive(renew, into: &ledger)
    check.expect(again == .duplicate, "DID_RENEW again: \(again)")
    let failedEarlier = try notification(
      "DID_FAIL_TO_RENEW", uuid: "failed-earlier", signed: renewedAt.addingTimeInterval(-60),
      transaction: transaction(), renewal: renewal(retry: true))
    let late = try receive(failedEarlier, into: &ledger)
    check.expect(late == .outOfOrder, "an earlier DID_FAIL_TO_RENEW: \(late)")
    check.expect(
      try has(Self.subscription, ledger, at: renewedAt.addingTimeInterval(day)),
      "taken away by an earlier notification")
    try check.finish()
  }
}
