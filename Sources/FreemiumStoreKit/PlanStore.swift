import Foundation

#if canImport(Combine)
  import Combine
#endif

/// The app's store: what the customer may use and buy, read from the App Store without prompting,
/// observable by SwiftUI. `migrate generate` names it for the app's plan
/// (`typealias FreemiumStore = PlanStore<FreemiumPlan>`).
///
/// - It never prompts at launch. `refresh()` reads `AppTransaction.shared` and
///   `Transaction.currentEntitlements`; only `restore()` uses `AppStore.sync()`, and only a user
///   action (Restore, a purchase) may call `AppTransaction.refresh()`.
/// - It verifies before it reads: an unverified app transaction's environment, version and dates
///   are never used, and an unverified transaction never creates a grant.
/// - `AppTransaction.shared` throwing (offline, nobody signed in) is unknown, not unverified: the
///   facts verified earlier keep deciding, from this process or from the cache for the plan's
///   `keepWhileUnreachableDays`.
/// - It trusts membership in `currentEntitlements`, so a subscriber in a billing grace period
///   keeps access whatever the device clock says.
/// - `purchase(_:)` reads what is owned first and refuses to charge twice; it unlocks, and only
///   then finishes.
/// - It reads the subscription status of the customer's own subscriptions
///   (`Product.SubscriptionInfo.status`), so a plan change waiting for the next renewal
///   (`RenewalInfo.autoRenewPreference`) is never sold again. A status that can't be read is no
///   pending change: nothing is locked or refused for it.
/// - It listens to `Transaction.updates` from the moment it is created until it goes away, and so
///   to `PurchaseIntent.intents`: a purchase started on the App Store goes through the same
///   never-charge-twice gate as the paywall's.
/// - A lapsed subscriber buying a product the plan sells at its regular price gets the best win-back
///   offer the App Store lists for them (`RenewalInfo.eligibleWinBackOfferIDs`, iOS 18 and macOS 15),
///   shown by `offeredProducts()` and charged by `purchase(_:)`; nobody else sees one, and before
///   iOS 18 everyone sees and pays the regular price. A legacy price stays the legacy price.
/// - It tells an offer code's redemption from a purchase (`Transaction.OfferType.code`), wherever
///   the customer redeemed it, so the app can thank them (`State.redeemedCodes`).
@MainActor
public final class PlanStore<Plan: StorePlan> {
  /// What the store knows now.
  public internal(set) var state: State {
    willSet {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
    }
  }

  /// The last purchase the customer started on the App Store (`PurchaseIntent`), bought or refused by
  /// the same rules as the paywall's: show its `outcome`'s message. Nil until one arrives.
  public internal(set) var lastPurchaseIntent: PurchaseIntentOutcome? {
    willSet {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
    }
  }

  /// Signs promotional offers on the app's server; legacy subscription prices need it.
  public var offerSigner: (any OfferSigner)?

  /// Delivers a consumable; return true once delivered. Called at most once per `transactionID`
  /// that it accepted; a consumable is finished only then, and one it refused (false) comes back.
  /// Setting it delivers what waited for it (`deliverUnfinishedConsumables()`), without a relaunch.
  public var deliverConsumable: (@MainActor (ConsumableDelivery) async -> Bool)? {
    didSet {
      guard deliverConsumable != nil else { return }
      Task { [weak self] in await self?.deliverUnfinishedConsumables() }
    }
  }

  /// Whether the app's own local data proves a paid install: data only the paid app could have
  /// written, such as a file or Keychain item of its paid era. Asked only while
  /// `isCheckingOriginalPurchase` and only when the plan sets `policies.provisionalGrant`; true then
  /// grants the plan's provisional tier for its days, counted from the first grant on this device.
  /// Set it before the first `refresh()`. Nil (the default) grants nothing: the purchase is checked.
  public var provisionalEvidence: (@MainActor () -> Bool)?

  /// The platform the app runs on.
  let platform: Plan.Platform
  let storeFront: any StoreFront
  let cache: any PurchaseCacheStore
  /// The store's clock: the device's in the app, the App Store model's in tests.
  let clock: any StoreClock
  /// The facts the App Store verified while this process runs.
  var verifiedInProcess: VerifiedPurchaseRecord?
  /// The newest verified app transaction as the App Store signed it, for the offer signer's server.
  var appTransactionJWS: String?
  var latestRead = 0
  var appliedRead = 0
  var listener: Task<Void, Never>?
  var intentListener: Task<Void, Never>?
  /// The next time the store asks the App Store again, while the original purchase is unknown.
  var recheck: Task<Void, Never>?
  var recheckCount = 0
  /// Consumables being delivered now, by transaction id: `Transaction.updates`,
  /// `Transaction.unfinished` and a purchase's result may hand the same one over at once, and the
  /// later ones wait for the first delivery's answer.
  var deliveries: [UInt64: Task<Bool, Never>] = [:]
  /// The consumables delivered, in this process and before it (read from the cache once).
  lazy var delivered = DeliveredConsumables.decode(cache.loadDelivered())

  /// - Parameter clock: the time now and waiting: the device's (the default) in the app; the App
  ///   Store model in tests, whose `advance(by:)` runs what the store scheduled.
  public init(
    platform: Plan.Platform,
    storeFront: any StoreFront,
    cache: any PurchaseCacheStore,
    clock: any StoreClock = DeviceClock()
  ) {
    self.state = State(platform: platform)
    self.platform = platform
    self.storeFront = storeFront
    self.cache = cache
    self.clock = clock
    let updates = storeFront.transactionUpdates()
    listener = Task { [weak self] in
      for await transaction in updates {
        await self?.handleUpdate(transaction)
      }
    }
    let intents = storeFront.purchaseIntents()
    intentListener = Task { [weak self] in
      for await intent in intents {
        await self?.handle(intent)
      }
    }
  }

  /// A store whose time now is `now`, waiting in real time.
  public convenience init(
    platform: Plan.Platform,
    storeFront: any StoreFront,
    cache: any PurchaseCacheStore,
    now: @escaping @Sendable () -> Date
  ) {
    self.init(
      platform: platform, storeFront: storeFront, cache: cache, clock: FunctionClock(read: now))
  }

  /// The time now on the store's clock.
  func now() -> Date { clock.now }

  deinit {
    listener?.cancel()
    intentListener?.cancel()
    recheck?.cancel()
  }

  /// True while the customer can't be decided yet: the App Store couldn't be reached and nothing it
  /// verified is kept, as at a paid-era buyer's first launch of the free build offline
  /// (`AppTransaction.shared` may need the network). Meanwhile nothing a legacy tier may own is
  /// granted or sold (the plan's `noProof` rule): show that the purchase is being checked, such as
  /// "Checking your purchase with the App Store…". The store asks again on its own
  /// (`recheckDelays`), so the customer is recognised as soon as the App Store answers. A plan's
  /// `policies.provisionalGrant` may grant its tier meanwhile (`provisionalEvidence`,
  /// `State.provisionalGrant`); nothing is sold then either.
  public var isCheckingOriginalPurchase: Bool {
    state.isLoaded && state.proof == .unknown
  }

  /// The seconds the store waits before each new attempt while `isCheckingOriginalPurchase`; the
  /// last repeats. StoreKit sends no event when `AppTransaction.shared` becomes reachable, and
  /// `refresh()` at each return to the foreground also asks.
  public var recheckDelays: [TimeInterval] = [5, 15, 60, 300]

  /// Asks the App Store again after the next delay while the original purchase is unknown; stops
  /// once it is known.
  func scheduleRecheck() {
    guard state.proof == .unknown else {
      recheck?.cancel()
      recheck = nil
      recheckCount = 0
      return
    }
    guard recheck == nil, let last = recheckDelays.last else { return }
    var delay = recheckCount < recheckDelays.count ? recheckDelays[recheckCount] : last
    // A provisional grant ends on time, not at the next attempt after its end.
    if let ends = state.provisionalGrant?.ends {
      delay = min(delay, max(0, ends.timeIntervalSince(now())))
    }
    recheckCount += 1
    let deadline = now().addingTimeInterval(max(0, delay))
    recheck = Task { [weak self, clock] in
      try? await clock.sleep(until: deadline)
      guard !Task.isCancelled else { return }
      self?.recheck = nil
      await self?.refresh()
    }
  }

  /// What the customer may use.
  public var entitlements: Plan.Entitlements { state.entitlements }

  /// The customer's cohort and the rule that decided it.
  public var decision: Plan.Decision { state.decision }

  /// The offers to show now: none until what the customer owns is known, so a paywall never shows
  /// a price for something already paid for.
  public var upsell: Plan.Upsell {
    guard knowsOwnership else { return Plan.noOffers }
    let upsell = Plan.upsell(for: state.entitlements, decision: state.decision)
    // A plan the customer already switched to is theirs at the next renewal: never sold again.
    let switched = Set(state.pendingChanges.values.map(\.product))
    return switched.isEmpty ? upsell : Plan.upsell(upsell, without: switched)
  }

  /// The change waiting for the next renewal that starts `product`, if the customer made one.
  public func pendingChange(to product: Plan.Product) -> PendingChange? {
    state.pendingChanges.values.first { $0.product == product }
  }

  /// Whether buying `product` now is right. False until what the customer owns is known, and
  /// false for a bundle overlapping what is owned, so nobody is charged twice.
  public func mayBuy(_ product: Plan.Product) -> Bool {
    guard knowsOwnership else { return false }
    if Plan.consumables.contains(product) { return Plan.sells(product) }
    if pendingChange(to: product) != nil { return false }
    return Plan.mayBuy(product, entitlements: state.entitlements, decision: state.decision)
  }

  /// Re-reads the app transaction and current entitlements, without prompting. Call at launch and
  /// whenever the app comes to the foreground. An older answer never replaces a newer one.
  public func refresh() async {
    await read(appTransaction: nil, including: nil)
    await deliverUnfinishedConsumables()
  }
}

#if canImport(Combine)
  extension PlanStore: ObservableObject {}
#endif
