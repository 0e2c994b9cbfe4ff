import Foundation

/// An App Store Server Notifications V2 payload as Apple's App Store Server Library decodes it
/// (`ResponseBodyV2DecodedPayload`, "responseBodyV2DecodedPayload"), by the library's property
/// names, so the library's type conforms in one line:
/// `extension ResponseBodyV2DecodedPayload: ServerNotification {}`.
public protocol ServerNotification {
  /// `notificationType` as Apple spells it (`DID_RENEW`), also one this layer has no case for.
  var rawNotificationType: String? { get }
  /// `subtype` as Apple spells it (`GRACE_PERIOD`), when the type has one.
  var rawSubtype: String? { get }
  /// `notificationUUID`: the same for each retry of one notification.
  var notificationUUID: String? { get }
  /// `signedDate`: when the App Store signed it; orders notifications that arrive out of order.
  var signedDate: Date? { get }
}

/// Renewal information as Apple's App Store Server Library decodes it (`JWSRenewalInfoDecodedPayload`),
/// by its property names: `extension JWSRenewalInfoDecodedPayload: ServerRenewalInfo {}`.
public protocol ServerRenewalInfo {
  /// `originalTransactionId`: the subscription's, the same for every renewal and plan change.
  var originalTransactionId: String? { get }
  /// `productId`: the plan in use now.
  var productId: String? { get }
  /// `autoRenewProductId`: the plan the next renewal starts (a pending downgrade or crossgrade).
  var autoRenewProductId: String? { get }
  /// `autoRenewStatus` as Apple encodes it: 1 on, 0 off.
  var rawAutoRenewStatus: Int32? { get }
  /// `isInBillingRetryPeriod`.
  var isInBillingRetryPeriod: Bool? { get }
  /// `gracePeriodExpiresDate`: service continues until then while billing is retried.
  var gracePeriodExpiresDate: Date? { get }
}

/// `notificationType` ("notificationType", App Store Server Notifications V2): the library's
/// `NotificationTypeV2`, its cases and raw values.
public enum ServerNotificationType: String, CaseIterable, Hashable, Sendable, Codable {
  case subscribed = "SUBSCRIBED"
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  case offerRedeemed = "OFFER_REDEEMED"
  case didRenew = "DID_RENEW"
  case expired = "EXPIRED"
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  case priceIncrease = "PRICE_INCREASE"
  case refund = "REFUND"
  case refundDeclined = "REFUND_DECLINED"
  case consumptionRequest = "CONSUMPTION_REQUEST"
  case renewalExtended = "RENEWAL_EXTENDED"
  case revoke = "REVOKE"
  case test = "TEST"
  case renewalExtension = "RENEWAL_EXTENSION"
  case refundReversed = "REFUND_REVERSED"
  case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
  case oneTimeCharge = "ONE_TIME_CHARGE"
}

/// `subtype` ("subtype", App Store Server Notifications V2): the library's `Subtype`, its cases and
/// raw values.
public enum ServerNotificationSubtype: String, CaseIterable, Hashable, Sendable, Codable {
  case initialBuy = "INITIAL_BUY"
  case resubscribe = "RESUBSCRIBE"
  case downgrade = "DOWNGRADE"
  case upgrade = "UPGRADE"
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  case voluntary = "VOLUNTARY"
  case billingRetry = "BILLING_RETRY"
  case priceIncrease = "PRICE_INCREASE"
  case gracePeriod = "GRACE_PERIOD"
  case pending = "PENDING"
  case accepted = "ACCEPTED"
  case billingRecovery = "BILLING_RECOVERY"
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  case summary = "SUMMARY"
  case failure = "FAILURE"
}

/// The renewal information that decides a subscriber, as `JWSRenewalInfoDecodedPayload` names it.
/// Make one only from a payload your server verified (`verifyAndDecodeRenewalInfo`).
public struct VerifiedRenewalInfo: Hashable, Sendable, Codable {
  public var originalTransactionId: String?
  public var productId: String?
  public var autoRenewProductId: String?
  /// `autoRenewStatus`: false once the customer turned auto-renew off; nil when not said.
  public var willAutoRenew: Bool?
  public var isInBillingRetryPeriod: Bool
  public var gracePeriodExpiresDate: Date?

  public init(
    originalTransactionId: String?, productId: String?, autoRenewProductId: String?,
    willAutoRenew: Bool?, isInBillingRetryPeriod: Bool = false, gracePeriodExpiresDate: Date? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.autoRenewProductId = autoRenewProductId
    self.willAutoRenew = willAutoRenew
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
  }

  /// The facts of a verified payload decoded by Apple's App Store Server Library.
  public init(_ payload: some ServerRenewalInfo) {
    self.init(
      originalTransactionId: payload.originalTransactionId, productId: payload.productId,
      autoRenewProductId: payload.autoRenewProductId,
      willAutoRenew: payload.rawAutoRenewStatus.map { $0 == 1 },
      isInBillingRetryPeriod: payload.isInBillingRetryPeriod ?? false,
      gracePeriodExpiresDate: payload.gracePeriodExpiresDate)
  }
}

/// One App Store Server Notification V2, verified: its type, when Apple signed it, and the signed
/// transaction and renewal info it carries, each verified too. Make one only after your server
/// verified the notification (`SignedDataVerifier.verifyAndDecodeNotification(signedPayload:)`) and
/// its `data.signedTransactionInfo` and `data.signedRenewalInfo` with the same verifier.
public struct VerifiedNotification: Hashable, Sendable, Codable {
  /// Nil for a type this layer doesn't know: recorded, so a retry is a duplicate, and ignored.
  public var notificationType: ServerNotificationType?
  public var subtype: ServerNotificationSubtype?
  public var notificationUUID: String
  public var signedDate: Date
  /// The environment of the verifier that accepted it: sandbox and production are kept apart.
  public var environment: StoreEnvironment
  public var transaction: VerifiedTransaction?
  public var renewalInfo: VerifiedRenewalInfo?

  public init(
    notificationType: ServerNotificationType?, subtype: ServerNotificationSubtype? = nil,
    notificationUUID: String, signedDate: Date, environment: StoreEnvironment,
    transaction: VerifiedTransaction? = nil, renewalInfo: VerifiedRenewalInfo? = nil
  ) {
    self.notificationType = notificationType
    self.subtype = subtype
    self.notificationUUID = notificationUUID
    self.signedDate = signedDate
    self.environment = environment
    self.transaction = transaction
    self.renewalInfo = renewalInfo
  }

  /// A notification Apple's App Store Server Library verified and decoded, with the transaction and
  /// renewal info it verified from the notification's data; nil without a `notificationUUID` or a
  /// `signedDate`, which every notification Apple sends has.
  public init?(
    _ payload: some ServerNotification, environment: StoreEnvironment,
    transaction: VerifiedTransaction?, renewalInfo: VerifiedRenewalInfo?
  ) {
    guard let uuid = payload.notificationUUID, let signed = payload.signedDate else { return nil }
    self.init(
      notificationType: payload.rawNotificationType.flatMap(ServerNotificationType.init),
      subtype: payload.rawSubtype.flatMap(ServerNotificationSubtype.init), notificationUUID: uuid,
      signedDate: signed, environment: environment, transaction: transaction,
      renewalInfo: renewalInfo)
  }
}

/// What a server knows of one customer's purchases from the App Store Server Notifications it
/// received: the latest verified transaction and renewal info of each purchase, kept by its
/// `originalTransactionId` and environment. `Codable`: store it with the customer.
///
/// Apple retries a notification until the server answers, so the same one can arrive again, and
/// several can arrive out of order ("Responding to App Store Server Notifications"): a
/// `notificationUUID` already applied is a duplicate, and one signed before the latest applied for
/// the same purchase (`signedDate`) is out of date. Each notification carries the purchase's whole
/// state when it was signed, so the newest one decides.
public struct NotificationLedger: Hashable, Sendable, Codable {
  /// What came of one notification.
  public enum Outcome: String, Hashable, Sendable, Codable {
    /// It changed what the server knows.
    case applied
    /// Its `notificationUUID` was applied before: nothing changed.
    case duplicate
    /// A later notification about the same purchase was applied before it: nothing changed.
    case outOfOrder
    /// A type that changes nothing the customer has (`TEST`, `CONSUMPTION_REQUEST`,
    /// `PRICE_INCREASE`, `REFUND_DECLINED`, one this layer doesn't know), or one without a
    /// purchase.
    case ignored
  }

  /// One purchase as the latest notification about it described it.
  struct Entry: Hashable, Sendable, Codable {
    var environment: StoreEnvironment
    var signedDate: Date
    var transaction: VerifiedTransaction?
    var renewalInfo: VerifiedRenewalInfo?
    /// The subscription ended (`EXPIRED`), or its billing grace period did
    /// (`GRACE_PERIOD_EXPIRED`, `DID_FAIL_TO_RENEW` without `GRACE_PERIOD`).
    var ended = false
    var graceEnded = false
  }

  /// By environment and `originalTransactionId`.
  var entries: [String: Entry] = [:]
  /// Every `notificationUUID` applied or ignored.
  public private(set) var notificationUUIDs: Set<String> = []

  public init() {}

  /// Applies one verified notification: a renewal, a plan change chosen or undone, auto-renew
  /// turned off or on, a renewal that failed (with or without a billing grace period), a grace
  /// period or a subscription that ended, a refund, Family Sharing revoked, an offer redeemed, a
  /// one-time purchase ("App Store Server Notifications V2", `notificationType`).
  public mutating func apply(_ notification: VerifiedNotification) -> Outcome {
    guard notificationUUIDs.insert(notification.notificationUUID).inserted else {
      return .duplicate
    }
    guard let type = notification.notificationType else { return .ignored }
    switch type {
    case .test, .consumptionRequest, .priceIncrease, .refundDeclined, .externalPurchaseToken,
      .renewalExtension:
      return .ignored
    default:
      break
    }
    let transaction = notification.transaction
    guard
      let id = transaction?.originalTransactionId ?? notification.renewalInfo?.originalTransactionId
        ?? transaction?.transactionId
    else { return .ignored }
    let key = notification.environment.rawValue + " " + id
    var entry =
      entries[key]
      ?? Entry(environment: notification.environment, signedDate: notification.signedDate)
    if entries[key] != nil, notification.signedDate < entry.signedDate { return .outOfOrder }
    entry.signedDate = notification.signedDate
    if let transaction { entry.transaction = transaction }
    if let renewal = notification.renewalInfo { entry.renewalInfo = renewal }
    switch type {
    case .expired:
      entry.ended = true
    case .gracePeriodExpired:
      entry.graceEnded = true
    case .didFailToRenew:
      // Without a billing grace period, service stops with the period; with one it continues
      // until `gracePeriodExpiresDate` ("Reducing involuntary subscriber churn").
      entry.graceEnded = notification.subtype != .gracePeriod
    case .didRenew, .subscribed, .offerRedeemed, .renewalExtended, .refundReversed:
      entry.ended = false
      entry.graceEnded = false
    default:
      break
    }
    entries[key] = entry
    return .applied
  }

  /// The customer's transactions in `environment` as a decision reads them at `now`: a subscription
  /// in a billing grace period runs until the grace period's end; one Apple said ended ends when it
  /// said so, whatever its dates.
  public func transactions(in environment: StoreEnvironment, at now: Date) -> [VerifiedTransaction]
  {
    entries.filter { $0.value.environment == environment }.sorted { $0.key < $1.key }.compactMap {
      _, entry in
      guard var transaction = entry.transaction else { return nil }
      if entry.ended {
        transaction.expiresDate = min(transaction.expiresDate ?? entry.signedDate, entry.signedDate)
      } else if !entry.graceEnded, let renewal = entry.renewalInfo,
        renewal.isInBillingRetryPeriod, let grace = renewal.gracePeriodExpiresDate
      {
        transaction.expiresDate = max(transaction.expiresDate ?? grace, grace)
      }
      return transaction
    }
  }

  /// The plan changes waiting for the next renewal in `environment`, by the product in use now: a
  /// downgrade or a crossgrade to another period the customer chose (`DID_CHANGE_RENEWAL_PREF`),
  /// while auto-renew is on.
  public func pendingChanges(in environment: StoreEnvironment) -> [String: String] {
    var changes: [String: String] = [:]
    for entry in entries.values where entry.environment == environment && !entry.ended {
      guard let renewal = entry.renewalInfo, renewal.willAutoRenew != false,
        let current = entry.transaction?.productId ?? renewal.productId,
        let next = renewal.autoRenewProductId, next != current
      else { continue }
      changes[current] = next
    }
    return changes
  }
}
