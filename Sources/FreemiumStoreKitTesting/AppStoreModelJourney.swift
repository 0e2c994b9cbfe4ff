// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// What a test needs to walk a customer through `AppStoreModel`: a store launched against it, and a
/// bounded wait for what arrives through `Transaction.updates`. For tests only.
extension AppStoreModel {
  /// A store as the app makes one at launch against this model, on the model's clock (what it
  /// schedules happens when the test moves the clock on), refreshed.
  @MainActor
  public func launch<Plan: StorePlan>(
    _ plan: Plan.Type, on platform: Plan.Platform,
    cache: any PurchaseCacheStore = InMemoryPurchaseCache()
  ) async -> PlanStore<Plan> {
    let store = PlanStore<Plan>(platform: platform, storeFront: self, cache: cache, clock: self)
    await store.refresh()
    return store
  }

  /// Waits up to two seconds for `condition`, checking every 10 ms: for what the App Store sends
  /// through `Transaction.updates` or a purchase intent, which no call returns.
  @MainActor
  public static func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<200 where !condition() {
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
  }
}
