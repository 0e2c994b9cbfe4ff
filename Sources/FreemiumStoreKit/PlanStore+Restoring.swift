// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// What a Restore Purchases button and a Redeem Code button do.
extension PlanStore {
  /// Restores purchases. Call only from a Restore Purchases button: it may ask for the password.
  /// Nil when the customer cancelled: show nothing.
  public func restore() async -> RestoreOutcome? {
    do {
      try await storeFront.sync()
    } catch {
      if (error as? StoreFrontError)?.isUserCancellation == true { return nil }
      return .failed
    }
    var appTransaction = await storeFront.appTransaction()
    if !appTransaction.isVerified {
      // A user action: asking to sign in is expected here.
      appTransaction = await storeFront.refreshAppTransaction()
    }
    await read(appTransaction: appTransaction, including: nil)
    // A paid download that keeps features counts as restored, like a purchase.
    if Plan.hasRestorable(state.decision, state.entitlements) { return .restored }
    // Synced, but what says whether the customer bought the paid app is still unknown: that is a
    // restore that failed, never "nothing to restore" to someone who may have paid.
    guard appTransaction.isVerified else { return .failed }
    return .nothingRestored
  }

  /// Shows the App Store's offer code redemption sheet; a user action only (a Redeem Code button).
  /// Reads what the customer owns when it closes, so a redemption unlocks at once. On macOS, present
  /// SwiftUI's `offerCodeRedemption(isPresented:onCompletion:)` instead and call `refresh()` in its
  /// completion. A code redeemed in the App Store needs nothing: it arrives through
  /// `Transaction.updates`, and `state.redeemedCodes` says so.
  public func redeemOfferCode() async -> RedemptionOutcome {
    let before = state.redeemedCodes
    do {
      try await storeFront.presentOfferCodeRedemption()
    } catch {
      let failure = error as? StoreFrontError
      if failure?.isUserCancellation == true { return .nothingRedeemed }
      return .unavailable(failure?.message ?? error.localizedDescription)
    }
    await refresh()
    let redeemed = state.redeemedCodes.filter { before[$0.key] != $0.value }.keys
      .sorted { $0.rawValue < $1.rawValue }
    return redeemed.isEmpty ? .nothingRedeemed : .redeemed(redeemed)
  }
}
