// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// One subscription of a group as the App Store renews it (`Product.SubscriptionInfo.Status`): a
/// customer has one for what they bought and one for what a family member shares.
public struct SubscriptionStatus: Hashable, Sendable {
  /// `Product.SubscriptionInfo.RenewalState`.
  public enum State: String, Hashable, Sendable {
    case subscribed
    case expired
    case inBillingRetryPeriod
    case inGracePeriod
    case revoked
  }

  public var state: State
  /// The latest transaction's product (`Status.transaction`): the plan in use now.
  public var productID: String
  /// The latest transaction's `Transaction.id`.
  public var transactionID: UInt64
  /// `Transaction.originalID`: the same for every renewal and plan change in the group.
  public var originalID: UInt64
  public var ownership: TransactionOwnership
  /// When the latest transaction's period ends.
  public var expirationDate: Date?
  public var renewalInfo: SubscriptionRenewalInfo
  /// False when the transaction's or the renewal info's signature did not verify: read nothing
  /// from it.
  public var isVerified: Bool

  public init(
    state: State, productID: String, transactionID: UInt64, originalID: UInt64,
    ownership: TransactionOwnership = .purchased, expirationDate: Date?,
    renewalInfo: SubscriptionRenewalInfo, isVerified: Bool = true
  ) {
    self.state = state
    self.productID = productID
    self.transactionID = transactionID
    self.originalID = originalID
    self.ownership = ownership
    self.expirationDate = expirationDate
    self.renewalInfo = renewalInfo
    self.isVerified = isVerified
  }
}

/// What the App Store will do at the next renewal (`Product.SubscriptionInfo.RenewalInfo`).
public struct SubscriptionRenewalInfo: Hashable, Sendable {
  /// `Product.SubscriptionInfo.RenewalInfo.ExpirationReason`.
  public enum ExpirationReason: String, Hashable, Sendable {
    case autoRenewDisabled
    case billingError
    case didNotConsentToPriceIncrease
    case productUnavailable
    case unknown
  }

  /// `currentProductID`.
  public var currentProductID: String
  /// `willAutoRenew` (the server's `autoRenewStatus`): false once the customer cancelled.
  public var willAutoRenew: Bool
  /// `autoRenewPreference`: the plan the next renewal starts, when the customer chose a downgrade
  /// or a crossgrade to another duration; the current plan otherwise.
  public var autoRenewPreference: String?
  /// `isInBillingRetry`.
  public var isInBillingRetry: Bool
  /// `gracePeriodExpirationDate`: access is kept until then while the App Store retries billing.
  public var gracePeriodExpirationDate: Date?
  /// `expirationReason`, once the subscription expired.
  public var expirationReason: ExpirationReason?
  /// `eligibleWinBackOfferIDs` (iOS 18, macOS 15; empty before them): the win-back offers the
  /// customer may redeem now, best first. Empty while the subscription is active, in billing retry
  /// or in a billing grace period.
  public var eligibleWinBackOfferIDs: [String]

  public init(
    currentProductID: String, willAutoRenew: Bool, autoRenewPreference: String?,
    isInBillingRetry: Bool = false, gracePeriodExpirationDate: Date? = nil,
    expirationReason: ExpirationReason? = nil, eligibleWinBackOfferIDs: [String] = []
  ) {
    self.eligibleWinBackOfferIDs = eligibleWinBackOfferIDs
    self.currentProductID = currentProductID
    self.willAutoRenew = willAutoRenew
    self.autoRenewPreference = autoRenewPreference
    self.isInBillingRetry = isInBillingRetry
    self.gracePeriodExpirationDate = gracePeriodExpirationDate
    self.expirationReason = expirationReason
  }
}
