import Foundation
import Testing

@testable import FreemiumStoreKit

/// A server that follows App Store Server Notifications V2: each type that changes what a customer has, once, applied
/// to what the server knows, and the decision after it; a retry applied once; an older notification after a newer one
/// changing nothing.
@Suite("App Store Server Notifications", .timeLimit(.minutes(20)))
struct NotificationLedgerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400
    static let app = VerifiedAppTransaction(
        originalApplicationVersion: "2", originalPurchaseDate: CohortRulesTests.day("2021-06-01"), originalPlatform: "iOS")

    /// The monthly subscription's transaction: bought at `start`, the period ending `days` later.
    static func monthly(_ product: String = "monthly", bought: Date = start, days: Double = 30, revoked: Date? = nil, shared: Bool = false)
        -> VerifiedTransaction
    {
        VerifiedTransaction(
            productId: product, inAppOwnershipType: shared ? "FAMILY_SHARED" : "PURCHASED", purchaseDate: bought,
            expiresDate: bought.addingTimeInterval(days * day), revocationDate: revoked, transactionId: "t-\(bought.timeIntervalSince1970)",
            originalTransactionId: "o-1")
    }

    static func renewal(
        _ product: String = "monthly", next: String? = nil, autoRenew: Bool = true, retry: Bool = false, grace: Date? = nil
    ) -> VerifiedRenewalInfo {
        VerifiedRenewalInfo(
            originalTransactionId: "o-1", productId: product, autoRenewProductId: next ?? product, willAutoRenew: autoRenew,
            isInBillingRetryPeriod: retry, gracePeriodExpiresDate: grace)
    }

    static func notification(
        _ type: ServerNotificationType, _ subtype: ServerNotificationSubtype? = nil, uuid: String, signed: Date,
        transaction: VerifiedTransaction? = monthly(), renewal: VerifiedRenewalInfo? = renewal(),
        environment: StoreEnvironment = .sandbox
    ) -> VerifiedNotification {
        VerifiedNotification(
            notificationType: type, subtype: subtype, notificationUUID: uuid, signedDate: signed, environment: environment,
            transaction: transaction, renewalInfo: renewal)
    }

    /// The ledger after a subscription began: `SUBSCRIBED` / `INITIAL_BUY`.
    static func subscribed() -> NotificationLedger {
        var ledger = NotificationLedger()
        _ = ledger.apply(notification(.subscribed, .initialBuy, uuid: "u-0", signed: start))
        return ledger
    }

    static func active(_ ledger: NotificationLedger, at now: Date, environment: StoreEnvironment = .sandbox) -> Set<String> {
        Set(
            SubscriptionPlan.decideOnServer(app: app, ledger: ledger, environment: environment, platform: .iOS, now: now)
                .entitlements.activeProducts.map(\.rawValue))
    }

    @Test("DID_RENEW extends the subscription past its old period")
    func didRenew() {
        var ledger = Self.subscribed()
        let later = Self.start.addingTimeInterval(31 * Self.day)
        #expect(Self.active(ledger, at: later).isEmpty)
        let renewed = Self.monthly(bought: Self.start.addingTimeInterval(30 * Self.day))
        #expect(ledger.apply(Self.notification(.didRenew, uuid: "u-1", signed: later, transaction: renewed)) == .applied)
        #expect(Self.active(ledger, at: later) == ["monthly"])
    }

    @Test("DID_CHANGE_RENEWAL_PREF: a downgrade or crossgrade waits for the renewal; an upgrade starts at once")
    func didChangeRenewalPref() {
        var ledger = Self.subscribed()
        let signed = Self.start.addingTimeInterval(Self.day)
        _ = ledger.apply(
            Self.notification(.didChangeRenewalPref, .downgrade, uuid: "u-1", signed: signed, renewal: Self.renewal(next: "yearly")))
        #expect(ledger.pendingChanges(in: .sandbox) == ["monthly": "yearly"])
        #expect(Self.active(ledger, at: signed) == ["monthly"])
        // Chosen again: the pending change is gone.
        _ = ledger.apply(Self.notification(.didChangeRenewalPref, uuid: "u-2", signed: signed.addingTimeInterval(60)))
        #expect(ledger.pendingChanges(in: .sandbox).isEmpty)
        let upgraded = Self.monthly("yearly", bought: signed.addingTimeInterval(120), days: 365)
        _ = ledger.apply(
            Self.notification(
                .didChangeRenewalPref, .upgrade, uuid: "u-3", signed: signed.addingTimeInterval(120), transaction: upgraded,
                renewal: Self.renewal("yearly")))
        #expect(Self.active(ledger, at: signed.addingTimeInterval(200)) == ["yearly"])
    }

    @Test("DID_CHANGE_RENEWAL_STATUS: auto-renew off keeps the period, and no pending change is said")
    func didChangeRenewalStatus() {
        var ledger = Self.subscribed()
        let signed = Self.start.addingTimeInterval(Self.day)
        _ = ledger.apply(
            Self.notification(
                .didChangeRenewalStatus, .autoRenewDisabled, uuid: "u-1", signed: signed,
                renewal: Self.renewal(next: "yearly", autoRenew: false)))
        #expect(ledger.pendingChanges(in: .sandbox).isEmpty)
        #expect(Self.active(ledger, at: signed) == ["monthly"])
        #expect(Self.active(ledger, at: Self.start.addingTimeInterval(30 * Self.day)).isEmpty)
    }

    @Test("DID_FAIL_TO_RENEW with GRACE_PERIOD keeps service until the grace period ends; without it, service stops")
    func didFailToRenew() {
        let due = Self.start.addingTimeInterval(30 * Self.day)
        let graceEnd = due.addingTimeInterval(16 * Self.day)
        var grace = Self.subscribed()
        _ = grace.apply(
            Self.notification(.didFailToRenew, .gracePeriod, uuid: "u-1", signed: due, renewal: Self.renewal(retry: true, grace: graceEnd)))
        #expect(Self.active(grace, at: due.addingTimeInterval(Self.day)) == ["monthly"])
        #expect(Self.active(grace, at: graceEnd).isEmpty)
        var noGrace = Self.subscribed()
        _ = noGrace.apply(Self.notification(.didFailToRenew, uuid: "u-1", signed: due, renewal: Self.renewal(retry: true)))
        #expect(Self.active(noGrace, at: due.addingTimeInterval(Self.day)).isEmpty)
    }

    @Test("GRACE_PERIOD_EXPIRED ends service at once, whatever the grace date said")
    func gracePeriodExpired() {
        let due = Self.start.addingTimeInterval(30 * Self.day)
        var ledger = Self.subscribed()
        let renewal = Self.renewal(retry: true, grace: due.addingTimeInterval(16 * Self.day))
        _ = ledger.apply(Self.notification(.didFailToRenew, .gracePeriod, uuid: "u-1", signed: due, renewal: renewal))
        _ = ledger.apply(Self.notification(.gracePeriodExpired, uuid: "u-2", signed: due.addingTimeInterval(Self.day), renewal: renewal))
        #expect(Self.active(ledger, at: due.addingTimeInterval(2 * Self.day)).isEmpty)
    }

    @Test("EXPIRED ends the subscription when Apple says so")
    func expired() {
        var ledger = Self.subscribed()
        let signed = Self.start.addingTimeInterval(10 * Self.day)
        _ = ledger.apply(Self.notification(.expired, .voluntary, uuid: "u-1", signed: signed))
        #expect(Self.active(ledger, at: signed.addingTimeInterval(1)).isEmpty)
    }

    @Test("REFUND and REVOKE take the purchase away; REFUND_REVERSED gives it back")
    func refundAndRevoke() {
        let signed = Self.start.addingTimeInterval(Self.day)
        var refunded = Self.subscribed()
        _ = refunded.apply(Self.notification(.refund, uuid: "u-1", signed: signed, transaction: Self.monthly(revoked: signed)))
        #expect(Self.active(refunded, at: signed).isEmpty)
        _ = refunded.apply(Self.notification(.refundReversed, uuid: "u-2", signed: signed.addingTimeInterval(60)))
        #expect(Self.active(refunded, at: signed.addingTimeInterval(120)) == ["monthly"])
        var member = NotificationLedger()
        _ = member.apply(Self.notification(.subscribed, uuid: "u-0", signed: Self.start, transaction: Self.monthly(shared: true)))
        #expect(Self.active(member, at: signed) == ["monthly"])
        _ = member.apply(
            Self.notification(.revoke, uuid: "u-1", signed: signed, transaction: Self.monthly(revoked: signed, shared: true)))
        #expect(Self.active(member, at: signed).isEmpty)
    }

    @Test("OFFER_REDEEMED and ONE_TIME_CHARGE add what was bought")
    func offerRedeemedAndOneTimeCharge() {
        var ledger = NotificationLedger()
        _ = ledger.apply(Self.notification(.offerRedeemed, .initialBuy, uuid: "u-1", signed: Self.start))
        let lifetime = VerifiedTransaction(productId: "lifetime", purchaseDate: Self.start, transactionId: "t-9", originalTransactionId: "t-9")
        #expect(ledger.apply(Self.notification(.oneTimeCharge, uuid: "u-2", signed: Self.start, transaction: lifetime, renewal: nil)) == .applied)
        #expect(Self.active(ledger, at: Self.start.addingTimeInterval(Self.day)) == ["monthly", "lifetime"])
    }

    @Test("A notification delivered twice is applied once")
    func duplicate() {
        var ledger = Self.subscribed()
        let signed = Self.start.addingTimeInterval(Self.day)
        let refund = Self.notification(.refund, uuid: "u-1", signed: signed, transaction: Self.monthly(revoked: signed))
        #expect(ledger.apply(refund) == .applied)
        #expect(ledger.apply(refund) == .duplicate, "a retry was applied, and acted on, twice")
        _ = ledger.apply(Self.notification(.refundReversed, uuid: "u-2", signed: signed.addingTimeInterval(60)))
        #expect(ledger.apply(refund) == .duplicate)
        #expect(Self.active(ledger, at: signed.addingTimeInterval(120)) == ["monthly"], "the retried refund was applied again")
    }

    @Test("An older notification arriving after a newer one changes nothing")
    func outOfOrder() {
        var ledger = Self.subscribed()
        let renewedAt = Self.start.addingTimeInterval(30 * Self.day)
        let renewed = Self.monthly(bought: renewedAt)
        let failed = Self.notification(.didFailToRenew, uuid: "u-1", signed: renewedAt.addingTimeInterval(-60), renewal: Self.renewal(retry: true))
        #expect(ledger.apply(Self.notification(.didRenew, uuid: "u-2", signed: renewedAt, transaction: renewed)) == .applied)
        #expect(ledger.apply(failed) == .outOfOrder)
        #expect(Self.active(ledger, at: renewedAt.addingTimeInterval(Self.day)) == ["monthly"])
    }

    @Test("Sandbox and production are kept apart; a test notification and an unknown type change nothing")
    func environmentsAndIgnored() {
        var ledger = Self.subscribed()
        #expect(Self.active(ledger, at: Self.start, environment: .production).isEmpty)
        #expect(ledger.apply(Self.notification(.test, uuid: "u-t", signed: Self.start)) == .ignored)
        let unknown = VerifiedNotification(
            notificationType: nil, notificationUUID: "u-x", signedDate: Self.start, environment: .sandbox)
        #expect(ledger.apply(unknown) == .ignored)
        #expect(ledger.apply(unknown) == .duplicate)
        let data = try? JSONEncoder().encode(ledger)
        #expect(data.flatMap { try? JSONDecoder().decode(NotificationLedger.self, from: $0) } == ledger)
    }
}
