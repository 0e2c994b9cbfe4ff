// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// What a test needs to walk a customer through `AppStoreModel`: a store launched against it, and a
/// wait, bounded, until what the model sent through `Transaction.updates` and
/// `PurchaseIntent.intents` has been handled. For tests only.
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

  /// Returns once every listener has handled everything the model sent it so far through
  /// `Transaction.updates` (a renewal, a refund, an approval, Family Sharing, a redeemed code) and
  /// `PurchaseIntent.intents`: a store launched on the model has then applied it. No call returns
  /// these. Nothing is polled: a listener has handled an element once it asks for the next one, as
  /// a `for await` loop does when its body returns, and this returns as the last listener asks.
  /// What a store schedules on the model's clock runs when the test moves the clock on
  /// (`advance(by:)`), not here.
  ///
  /// - Parameter limit: how long to wait before giving up, so a listener that stopped or hangs fails
  ///   the test instead of holding it. Only time in which the main actor, where the store handles
  ///   what it gets, was free to run counts: another test holding it doesn't fail this one.
  /// - Throws: `Unsettled` when something sent is still not handled after `limit`.
  public func settle(within limit: Duration = .seconds(5)) async throws {
    let (updates, intents) = (self.updates, self.intents)
    let settled = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        // Handling an intent may send an update, and the other way round: until both are idle at once.
        repeat {
          await updates.untilIdle()
          await intents.untilIdle()
        } while !Task.isCancelled && !(updates.isIdle && intents.isIdle)
        return !Task.isCancelled
      }
      group.addTask {
        await Self.mainActorTime(limit)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    guard !settled else { return }
    throw Unsettled(limit: limit, updates: updates.unhandled, intents: intents.unhandled)
  }

  /// Returns once `limit` has passed in steps that each end with a turn on the main actor, so time
  /// in which something else held the main actor (another test in the process) isn't counted; or
  /// once the task is cancelled.
  static func mainActorTime(_ limit: Duration) async {
    for _ in 0..<100 {
      do { try await Task.sleep(for: limit / 100) } catch { return }
      await MainActor.run {}
    }
  }

  /// What `settle(within:)` found still not handled when it gave up.
  public struct Unsettled: Error, Hashable, CustomStringConvertible {
    public var limit: Duration
    /// Transactions sent through `Transaction.updates` and not handled yet, over every listener.
    public var updates: Int
    /// Purchase intents sent and not handled yet, over every listener.
    public var intents: Int

    public init(limit: Duration, updates: Int, intents: Int) {
      self.limit = limit
      self.updates = updates
      self.intents = intents
    }

    public var description: String {
      "after \(limit), \(updates) transaction(s) sent through Transaction.updates and \(intents) "
        + "purchase intent(s) were still not handled: a store's listener stopped, or hangs"
    }
  }
}
