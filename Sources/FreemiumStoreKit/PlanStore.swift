import Foundation

#if canImport(Combine)
  import Combine
#endif

#if canImport(StoreKit)
  import StoreKit
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
  /// Where the facts that decide the cohort come from.
  public enum Proof: Hashable, Sendable {
    /// Nothing has been read yet, or the App Store couldn't be reached and nothing verified is kept.
    case unknown
    /// The App Store verified them while this process runs.
    case verified
    /// The App Store's signature didn't verify; `policies.verificationFailure` decides.
    case verificationFailed
    /// The App Store couldn't be reached; what it verified `daysAgo` days ago decides.
    case lastVerified(daysAgo: Int)
  }

  /// A plan change the App Store starts at the next renewal: a downgrade, or another duration in
  /// the same group (`RenewalInfo.autoRenewPreference`). Until then the current plan stays.
  public struct PendingChange: Hashable, Sendable {
    /// The plan the next renewal starts.
    public var product: Plan.Product
    /// When: the current period's end (`Status.transaction`'s `expirationDate`); nil when the App
    /// Store didn't say.
    public var date: Date?

    public init(product: Plan.Product, date: Date?) {
      self.product = product
      self.date = date
    }
  }

  /// A product the customer holds through an offer code they redeemed (`Transaction.OfferType.code`),
  /// in the app's redemption sheet, in the App Store or through a redemption URL.
  public struct RedeemedCode: Hashable, Sendable {
    /// The offer's reference name in App Store Connect (`Transaction.Offer.id`), if the App Store
    /// said it.
    public var referenceName: String?
    /// The App Store's id for the redemption (`Transaction.id`).
    public var transactionID: UInt64

    public init(referenceName: String?, transactionID: UInt64) {
      self.referenceName = referenceName
      self.transactionID = transactionID
    }
  }

  /// A legacy tier granted on the app's own evidence while the App Store can't be reached at a first
  /// launch (`policies.provisionalGrant`). It ends at `ends`, or the moment the App Store answers.
  public struct ProvisionalGrant: Hashable, Sendable {
    /// When the window began: the first grant on this device, remembered in the purchase cache.
    public var started: Date
    /// When it ends, whatever the App Store says meanwhile.
    public var ends: Date

    public init(started: Date, ends: Date) {
      self.started = started
      self.ends = ends
    }
  }

  /// What the store knows about the customer now.
  public struct State: Hashable, Sendable {
    public var purchase: Plan.Purchase
    public var decision: Plan.Decision
    public var entitlements: Plan.Entitlements
    public var proof: Proof
    /// False until the first refresh has finished.
    public var isLoaded: Bool
    /// The plan changes waiting for the next renewal, by the plan in use now: for "Yearly from
    /// 12 March". Empty when none is pending or the subscription status couldn't be read.
    public var pendingChanges: [Plan.Product: PendingChange]
    /// The products the customer holds now through an offer code they redeemed themselves, for
    /// "Thanks for redeeming your code". A redemption grants as a purchase does: this only says
    /// where it came from. A refunded redemption leaves it; a subscription's renewal after the
    /// code's period is a purchase again.
    public var redeemedCodes: [Plan.Product: RedeemedCode]
    /// Set while the plan's provisional tier is granted on the app's own evidence: `entitlements`
    /// include it, `decision` is still the undecided one (`noProof`), and nothing is sold.
    public var provisionalGrant: ProvisionalGrant?

    public init(
      purchase: Plan.Purchase, decision: Plan.Decision, entitlements: Plan.Entitlements,
      proof: Proof, isLoaded: Bool, pendingChanges: [Plan.Product: PendingChange] = [:],
      redeemedCodes: [Plan.Product: RedeemedCode] = [:], provisionalGrant: ProvisionalGrant? = nil
    ) {
      self.purchase = purchase
      self.decision = decision
      self.entitlements = entitlements
      self.proof = proof
      self.isLoaded = isLoaded
      self.pendingChanges = pendingChanges
      self.redeemedCodes = redeemedCodes
      self.provisionalGrant = provisionalGrant
    }

    /// Nothing read yet: a new customer with nothing, proof unknown.
    public init(platform: Plan.Platform) {
      let unread = Plan.unread(on: platform)
      self.init(
        purchase: unread.purchase, decision: unread.decision, entitlements: unread.entitlements,
        proof: .unknown, isLoaded: false)
    }
  }

  /// Why a purchase was not started. Nothing was charged.
  public enum Refusal: Hashable, Sendable {
    /// What the customer owns couldn't be read, so buying could charge twice.
    case ownershipUnknown
    /// The upsell withholds it from this customer, for this reason.
    case withheld(Plan.Withheld)
    /// The customer already switched to it: the next renewal starts it, on the change's date.
    case alreadySwitched(PendingChange)
    /// Not on sale to this customer.
    case notOffered
    /// The legacy price needs a discount signed by the app's server (a promotional offer, or the
    /// introductory offer's eligibility), and none was signed.
    case offerNotSigned
    /// The App Store refused the signed promotional offer (`Product.PurchaseError.ineligibleForOffer`
    /// and the invalid-offer errors), or a win-back offer picked on the App Store isn't listed for
    /// this customer: the offer's price was not charged, and neither was the full one.
    case offerRejected
  }

  /// Whether a product may be bought now, and how.
  public enum Preparation: Hashable, Sendable {
    /// Buy it; with the promotional offer its legacy price needs, when one does.
    case ready(offer: SignedOffer?)
    /// Don't: nothing may be charged, for this reason.
    case refused(Refusal)
  }

  /// The outcome of a purchase. The app's plan words what to tell the customer (`message`).
  public enum Outcome: Hashable, Sendable {
    /// Bought, verified, unlocked and finished.
    case purchased(Plan.Product)
    /// A downgrade or a change of duration in the same group: nothing was charged now, and the
    /// App Store starts it at the next renewal, on `from` (nil when it didn't say when). The
    /// current plan stays until then.
    case scheduled(Plan.Product, from: Date?)
    /// Waiting for approval (Ask to Buy): it unlocks through `Transaction.updates`.
    case pending
    /// The customer cancelled: show nothing.
    case cancelled
    /// Not started, so nothing was charged.
    case refused(Refusal)
    /// The App Store's answer didn't verify: neither unlocked nor finished, so it comes back.
    case unverified
    /// A consumable that the app hasn't delivered yet: not finished, so it comes back.
    case awaitingDelivery(Plan.Product)
    /// The App Store couldn't complete it.
    case failed(String)
  }

  /// What came of the offer code redemption sheet.
  public enum RedemptionOutcome: Hashable, Sendable {
    /// Redeemed: the products the customer got through it, unlocked. Thank them.
    case redeemed([Plan.Product])
    /// The sheet closed and nothing new was redeemed: show nothing.
    case nothingRedeemed
    /// The sheet couldn't be shown here (macOS: SwiftUI's `offerCodeRedemption`; tvOS, watchOS: the
    /// App Store), or it failed, for this reason.
    case unavailable(String)
  }

  /// A purchase the customer started on the App Store (`PurchaseIntent`), and what came of it.
  public struct PurchaseIntentOutcome: Hashable, Sendable {
    /// The product the intent asked for; nil when this build's plan doesn't know it.
    public var product: Plan.Product?
    public var outcome: Outcome

    public init(product: Plan.Product?, outcome: Outcome) {
      self.product = product
      self.outcome = outcome
    }
  }

  /// The three outcomes of a Restore Purchases tap, each with its own message.
  public enum RestoreOutcome: String, CaseIterable, Sendable {
    case failed
    case nothingRestored
    case restored
  }

  /// A consumable to deliver. `transactionID` is the App Store's id for this purchase: the same
  /// each time it is sent again. The store hands each id over at most once, whatever overlaps
  /// (a refresh, `Transaction.updates`, a relaunch): it keeps the ids delivered in its cache. Only a
  /// crash between your hook's return and that save can bring one back, so an app whose credit must
  /// be exact records the id with what it credits, in the same write.
  public struct ConsumableDelivery: Hashable, Sendable {
    public var product: Plan.Product
    public var transactionID: UInt64

    public init(product: Plan.Product, transactionID: UInt64) {
      self.product = product
      self.transactionID = transactionID
    }
  }

  /// What the store knows now.
  public private(set) var state: State {
    willSet {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
    }
  }

  /// The last purchase the customer started on the App Store (`PurchaseIntent`), bought or refused by
  /// the same rules as the paywall's: show its `outcome`'s message. Nil until one arrives.
  public private(set) var lastPurchaseIntent: PurchaseIntentOutcome? {
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
  private let platform: Plan.Platform
  private let storeFront: any StoreFront
  private let cache: any PurchaseCacheStore
  private let now: @Sendable () -> Date
  /// The facts the App Store verified while this process runs.
  private var verifiedInProcess: VerifiedPurchaseRecord?
  /// The newest verified app transaction as the App Store signed it, for the offer signer's server.
  private var appTransactionJWS: String?
  private var latestRead = 0
  private var appliedRead = 0
  private var listener: Task<Void, Never>?
  private var intentListener: Task<Void, Never>?
  /// The next time the store asks the App Store again, while the original purchase is unknown.
  private var recheck: Task<Void, Never>?
  private var recheckCount = 0
  /// Consumables being delivered now, by transaction id: `Transaction.updates`,
  /// `Transaction.unfinished` and a purchase's result may hand the same one over at once, and the
  /// later ones wait for the first delivery's answer.
  private var deliveries: [UInt64: Task<Bool, Never>] = [:]
  /// The consumables delivered, in this process and before it (read from the cache once).
  private lazy var delivered = DeliveredConsumables.decode(cache.loadDelivered())

  public init(
    platform: Plan.Platform,
    storeFront: any StoreFront,
    cache: any PurchaseCacheStore,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.state = State(platform: platform)
    self.platform = platform
    self.storeFront = storeFront
    self.cache = cache
    self.now = now
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
  private func scheduleRecheck() {
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
    recheck = Task { [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(max(0, delay) * 1_000_000_000))
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

  /// Delivers the consumables the App Store still holds unfinished (`Transaction.unfinished`):
  /// bought before `deliverConsumable` was set, or when it returned false. `refresh()` calls it,
  /// and so does setting `deliverConsumable`. Never prompts.
  public func deliverUnfinishedConsumables() async {
    guard deliverConsumable != nil, !Plan.consumables.isEmpty else { return }
    for transaction in await storeFront.unfinishedTransactions() {
      guard let product = Plan.Product(rawValue: transaction.productID),
        Plan.consumables.contains(product)
      else { continue }
      await deliver(transaction, as: product)
    }
  }

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

  /// Buys `product`: reads what is owned first and refuses what would charge twice; on a verified
  /// purchase unlocks it and only then finishes the transaction.
  public func purchase(_ product: Plan.Product) async -> Outcome {
    await purchase(product, chosenWinBack: nil)
  }

  /// `chosenWinBack`: the win-back offer the customer picked on the App Store (a purchase intent's).
  private func purchase(_ product: Plan.Product, chosenWinBack: String?) async -> Outcome {
    let signed: SignedOffer?
    switch await prepare(product, chosenWinBack: chosenWinBack) {
    case .refused(let refusal): return .refused(refusal)
    case .ready(let offer): signed = offer
    }
    let attempt: PurchaseAttempt
    do {
      attempt = try await storeFront.purchase(productID: product.rawValue, offer: signed)
    } catch {
      let failure = error as? StoreFrontError
      if failure?.isUserCancellation == true { return .cancelled }
      // Said as a refusal, so the app explains the price and never retries at the full one.
      if signed != nil, failure?.isOfferRejected == true { return .refused(.offerRejected) }
      return .failed(failure?.message ?? error.localizedDescription)
    }
    return await complete(attempt, for: product)
  }

  /// Whether `product` may be bought now, with the signed promotional offer its legacy price needs:
  /// what `purchase(_:)` asks first, and what to ask before buying any other way (SwiftUI's
  /// `PurchaseAction`, a StoreKit view). Reads what is owned first; may ask the customer to sign in.
  public func prepareToBuy(_ product: Plan.Product) async -> Preparation {
    await prepare(product, chosenWinBack: nil)
  }

  /// A win-back offer the customer picked on the App Store is charged only when the App Store lists
  /// it for them, whatever the plan's price (it is the price they accepted); otherwise nothing is.
  private func prepare(_ product: Plan.Product, chosenWinBack: String?) async -> Preparation {
    await refresh()
    if !knowsOwnership {
      // Buying is a user action, so asking to sign in is fine; without knowing what the customer
      // owns, a purchase could charge twice.
      await read(appTransaction: await storeFront.refreshAppTransaction(), including: nil)
    }
    guard knowsOwnership else { return .refused(.ownershipUnknown) }
    if Plan.consumables.contains(product) {
      return Plan.sells(product) ? .ready(offer: nil) : .refused(.notOffered)
    }
    if let change = pendingChange(to: product) { return .refused(.alreadySwitched(change)) }
    let kind: SignedOffer.Kind
    switch Plan.terms(of: product, in: upsell) {
    case .notOffered: return .refused(.notOffered)
    case .withheld(let reason): return .refused(.withheld(reason))
    case .offered(let signing):
      if let chosen = chosenWinBack {
        let listed = await winBackOffer(for: product, prices: nil, chosen: chosen)
        return listed.map { .ready(offer: .winBack($0)) } ?? .refused(.offerRejected)
      }
      guard let signing else {
        return .ready(offer: await winBackOffer(for: product, prices: nil).map(SignedOffer.winBack))
      }
      kind = signing
    }
    // The server learns who asks from the signed app transaction, never from the app's word.
    let request = OfferRequest(
      kind: kind, productID: product.rawValue, appTransactionJWS: appTransactionJWS)
    guard let signer = offerSigner, let jws = try? await signer.compactJWS(for: request)
    else { return .refused(.offerNotSigned) }
    return .ready(offer: SignedOffer(kind, compactJWS: jws))
  }

  /// Takes a purchase made outside `purchase(_:)`, such as with SwiftUI's `PurchaseAction`: Apple
  /// returns it to the caller only (it never comes through `Transaction.updates`), so hand it over
  /// here. A verified purchase is unlocked, and only then finished; it is taken whatever the offers
  /// said, because the App Store has charged for it.
  public func complete(_ attempt: PurchaseAttempt, for product: Plan.Product) async -> Outcome {
    let isConsumable = Plan.consumables.contains(product)
    switch attempt {
    case .userCancelled:
      return .cancelled
    case .pending:
      return .pending
    case .success(let transaction):
      // Unverified: neither unlocked nor finished, so the App Store delivers it again.
      guard transaction.isVerified else { return .unverified }
      if isConsumable {
        // Delivered and finished there, once, whoever else hands it over meanwhile.
        guard await deliver(transaction, as: product) else { return .awaitingDelivery(product) }
        return .purchased(product)
      }
      await read(appTransaction: nil, including: transaction)
      await transaction.finish()
      // A downgrade or another duration waits for the renewal: the App Store charged nothing and
      // answered with the current plan's transaction, or says the product is the one pending.
      let change = pendingChange(to: product)
      if transaction.productID != product.rawValue || change != nil {
        return .scheduled(product, from: change?.date ?? transaction.expirationDate)
      }
      return .purchased(product)
    }
  }

  /// The App Store products for the current offers, in offer order, for their display prices:
  /// each with the win-back offer this customer is charged (`winBackOfferID`), if any.
  public func offeredProducts() async throws -> [StoreProduct] {
    let offered = Plan.offeredProducts(in: upsell)
    let products = try await storeFront.products(for: offered.map(\.rawValue))
    var result: [StoreProduct] = []
    for product in offered {
      guard var storeProduct = products.first(where: { $0.id == product.rawValue }) else {
        continue
      }
      // A product without win-back offers (every product before iOS 18) needs no status read.
      if !storeProduct.winBackPrices.isEmpty,
        case .offered(signing: nil) = Plan.terms(of: product, in: upsell)
      {
        storeProduct.winBackOfferID = await winBackOffer(
          for: product, prices: storeProduct.winBackPrices)
      }
      result.append(storeProduct)
    }
    return result
  }

  /// The win-back offer `product` is bought with: the best the App Store lists for this customer in
  /// the customer's own subscription status (`RenewalInfo.eligibleWinBackOfferIDs`, best first) among
  /// the product's own (`prices`; read when nil), or `chosen` if it is one of them. None when the
  /// status can't be read or doesn't verify: the regular price, never one the App Store wouldn't
  /// charge.
  private func winBackOffer(
    for product: Plan.Product, prices: [String: String]?, chosen: String? = nil
  ) async -> String? {
    let statuses = (try? await storeFront.subscriptionStatuses(for: product.rawValue)) ?? []
    // Only what the App Store lists for this customer: `winBackOffers` lists every offer, to anyone.
    let eligible = statuses.filter { $0.isVerified && $0.ownership == .purchased }
      .flatMap(\.renewalInfo.eligibleWinBackOfferIDs)
    guard !eligible.isEmpty else { return nil }
    var known = prices
    if known == nil {
      known = try? await storeFront.products(for: [product.rawValue]).first?.winBackPrices
    }
    let listed = eligible.filter { known?[$0] != nil }
    guard let chosen else { return listed.first }
    return listed.contains(chosen) ? chosen : nil
  }

  // MARK: - Reading the App Store

  /// Whether what the customer owns was read from the App Store. A refunded download is a proven
  /// new customer; an original purchase that can't be verified (`noProof`) still has its
  /// transactions read, and the upsell withholds only what a legacy tier could own.
  private var knowsOwnership: Bool {
    state.isLoaded && state.proof != .unknown
  }

  /// A purchase started on the App Store: bought as the paywall buys, so a product overlapping what
  /// the customer owns is refused, for its reason, and nothing is charged.
  private func handle(_ intent: StorePurchaseIntent) async {
    guard let product = Plan.Product(rawValue: intent.productID) else {
      lastPurchaseIntent = PurchaseIntentOutcome(product: nil, outcome: .refused(.notOffered))
      return
    }
    let outcome = await purchase(product, chosenWinBack: intent.winBackOfferID)
    lastPurchaseIntent = PurchaseIntentOutcome(product: product, outcome: outcome)
  }

  private func handleUpdate(_ transaction: StoreTransaction) async {
    // A product this build doesn't know (added after it shipped) is never finished here: it may
    // be a consumable nobody delivered, and the App Store sends it again to a build that knows it.
    guard let product = Plan.Product(rawValue: transaction.productID) else { return }
    guard Plan.consumables.contains(product) else {
      await read(appTransaction: nil, including: nil)
      // Finish only what verified and is now unlocked; an unverified one comes back.
      if transaction.isVerified { await transaction.finish() }
      return
    }
    await deliver(transaction, as: product)
  }

  /// Delivers one verified consumable through `deliverConsumable` at most once per transaction id,
  /// and finishes it only once the app says it was delivered; otherwise it stays unfinished and
  /// comes back. True when it is delivered, now or before.
  @discardableResult
  private func deliver(_ transaction: StoreTransaction, as product: Plan.Product) async -> Bool {
    guard transaction.isVerified else { return false }
    if let running = deliveries[transaction.id] { return await running.value }
    let delivery = Task { @MainActor [weak self] in
      await self?.deliverOnce(transaction, as: product) ?? false
    }
    deliveries[transaction.id] = delivery
    let delivered = await delivery.value
    deliveries[transaction.id] = nil
    return delivered
  }

  private func deliverOnce(_ transaction: StoreTransaction, as product: Plan.Product) async -> Bool
  {
    // Delivered before (a relaunch, or the App Store sending it again before it was finished):
    // finish it without crediting again.
    if !delivered.contains(transaction.id) {
      let delivery = ConsumableDelivery(product: product, transactionID: transaction.id)
      guard let deliver = deliverConsumable, await deliver(delivery) else { return false }
      delivered.insert(transaction.id)
      if let data = delivered.encoded() { cache.saveDelivered(data) }
    }
    await transaction.finish()
    return true
  }

  private func read(appTransaction given: AppTransactionRead?, including extra: StoreTransaction?)
    async
  {
    latestRead += 1
    let ticket = latestRead
    let appTransaction: AppTransactionRead
    if let given {
      appTransaction = given
    } else {
      appTransaction = await storeFront.appTransaction()
    }
    var transactions = await storeFront.currentEntitlements()
    if let extra { transactions.append(extra) }
    let pending = await readPendingChanges(of: transactions)
    // Reads overlap at each await: an older answer must never land after a newer one.
    guard ticket > appliedRead else { return }
    appliedRead = ticket
    apply(appTransaction, transactions, pending: pending)
  }

  /// The plan changes waiting for the next renewal, from the status of each group the customer
  /// subscribes to with their own Apple Account (a family member can't change the organizer's).
  /// Never prompts. A status that throws or doesn't verify adds nothing: unknown is treated as
  /// nothing pending, as before the store read it, so it never locks anyone out or blocks a purchase.
  private func readPendingChanges(of transactions: [StoreTransaction]) async
    -> [Plan.Product: PendingChange]
  {
    let subscriptions = Set(
      transactions.filter {
        $0.isVerified && !$0.isRevoked && $0.ownership == .purchased && $0.expirationDate != nil
      }.map(\.productID))
    var changes: [Plan.Product: PendingChange] = [:]
    var groups: Set<UInt64> = []
    // One read per group: a status lists the group's subscriptions, so a product it already named
    // needs no second read.
    var covered: Set<String> = []
    for productID in subscriptions.sorted() where !covered.contains(productID) {
      guard let statuses = try? await storeFront.subscriptionStatuses(for: productID) else {
        continue
      }
      covered.formUnion(statuses.map(\.productID))
      for status in statuses
      where status.isVerified && status.ownership == .purchased
        && groups.insert(status.originalID).inserted
      {
        let info = status.renewalInfo
        guard status.state != .expired, status.state != .revoked, info.willAutoRenew,
          let next = info.autoRenewPreference.flatMap(Plan.Product.init(rawValue:)),
          let current = Plan.Product(rawValue: status.productID), next != current
        else { continue }
        changes[current] = PendingChange(product: next, date: status.expirationDate)
      }
    }
    return changes
  }

  private func apply(
    _ appTransaction: AppTransactionRead, _ transactions: [StoreTransaction],
    pending: [Plan.Product: PendingChange]
  ) {
    let now = self.now()
    let purchase: Plan.Purchase
    var kept: VerifiedPurchaseRecord?
    let proof: Proof
    switch appTransaction {
    case .verified(let facts):
      // What the cache may extend later: verified, unrevoked, and not used up like a consumable.
      let verifiedProducts = Set(
        transactions.filter { $0.isVerified && !$0.isRevoked }.map(\.productID)
          .filter { Plan.Product(rawValue: $0).map { !Plan.consumables.contains($0) } ?? false })
      let record = VerifiedPurchaseRecord(facts, products: verifiedProducts, verifiedAt: now)
      verifiedInProcess = record
      appTransactionJWS = facts.jwsRepresentation ?? appTransactionJWS
      if let data = record.encoded() { cache.save(data) }
      purchase = Plan.purchase(from: facts, on: platform, verification: .verified)
      proof = .verified
    case .unverified(let claimed):
      // What the payload claims is never read. What was verified before decides, as the policy
      // allows, for the same Apple Account only: a record of another account's app transaction is
      // not this customer's (an id that can't be read, from an older SDK, can't be compared).
      kept = (verifiedInProcess ?? cachedRecord(now: now)).flatMap { record in
        let ids = [record.appTransactionID, claimed.appTransactionID]
        return ids.contains("") || ids[0] == ids[1] ? record : nil
      }
      let facts = kept?.facts
      let age = facts == nil ? nil : kept.map { $0.age(at: now) }
      purchase = Plan.purchase(
        from: facts, on: platform, verification: .failed(lastVerifiedDaysAgo: age))
      proof = .verificationFailed
    case .unavailable:
      if let record = verifiedInProcess, let facts = record.facts {
        // Verified while this process runs: still the App Store's answer.
        kept = record
        purchase = Plan.purchase(from: facts, on: platform, verification: .verified)
        proof = .verified
      } else if let record = cachedRecord(now: now), let facts = record.facts {
        kept = record
        let age = record.age(at: now)
        purchase = Plan.purchase(
          from: facts, on: platform, verification: .unreachable(lastVerifiedDaysAgo: age))
        proof = .lastVerified(daysAgo: age)
      } else {
        purchase = Plan.purchase(
          from: nil, on: platform, verification: .unreachable(lastVerifiedDaysAgo: nil))
        proof = .unknown
      }
    }
    // Verified transactions count; an unverified one only extends what was verified before.
    let extendable = Set(kept?.products ?? [])
    var owned: [OwnedProduct] = []
    for transaction in transactions
    where transaction.isVerified || extendable.contains(transaction.productID) {
      owned.append(
        OwnedProduct(
          productID: transaction.productID,
          ownership: transaction.ownership,
          isRevoked: transaction.isRevoked,
          isVerified: transaction.isVerified,
          purchaseDate: transaction.purchaseDate))
    }
    // Trials are judged at the later of the clock and the newest date the App Store signed a
    // verified transaction: a clock set back doesn't lengthen a trial past what Apple has seen.
    let signed = transactions.filter(\.isVerified).compactMap(\.signedDate)
    let trustedNow = signed.reduce(now) { max($0, $1) }
    let decision = Plan.decide(purchase)
    var entitlements = Plan.resolve(purchase, decision: decision, owned: owned, now: trustedNow)
    let provisional = proof == .unknown ? provisionalGrant(now: now) : nil
    if provisional != nil {
      entitlements = Plan.provisionalEntitlements(purchase, owned: owned, now: trustedNow)
    }
    // Redeemed by the customer themselves: a family member's shared copy is the organizer's code.
    var redeemed: [Plan.Product: RedeemedCode] = [:]
    for transaction in transactions
    where transaction.isVerified && !transaction.isRevoked && transaction.ownership == .purchased {
      guard let offer = transaction.offer, offer.kind == .code,
        let product = Plan.Product(rawValue: transaction.productID)
      else { continue }
      redeemed[product] = RedeemedCode(referenceName: offer.id, transactionID: transaction.id)
    }
    state = State(
      purchase: purchase,
      decision: decision,
      entitlements: entitlements,
      proof: proof,
      isLoaded: true,
      pendingChanges: pending,
      redeemedCodes: redeemed,
      provisionalGrant: provisional)
    scheduleRecheck()
  }

  /// The provisional grant while nothing verified decides: only when the plan sets one, the app's
  /// evidence says yes, and this device's window is open. The first grant starts the window; each
  /// later look remembers the time, so a clock set back never reopens it.
  private func provisionalGrant(now: Date) -> ProvisionalGrant? {
    guard let days = Plan.provisionalGrantDays else { return nil }
    let saved = ProvisionalGrantWindow.decode(cache.loadProvisionalWindow())
    let started = saved.map { Date(timeIntervalSince1970: $0.startedAt) } ?? now
    let seen = max(now, saved.map { Date(timeIntervalSince1970: $0.latestSeen) } ?? now)
    let window = ProvisionalGrantWindow(startedAt: started, latestSeen: seen)
    if saved != nil, window != saved, let data = window.encoded() {
      cache.saveProvisionalWindow(data)
    }
    guard window.isOpen(at: now, days: days) else { return nil }
    guard let evidence = provisionalEvidence, evidence() else { return nil }
    if saved == nil, let data = window.encoded() { cache.saveProvisionalWindow(data) }
    return ProvisionalGrant(started: started, ends: window.end(days: days))
  }

  private func cachedRecord(now: Date) -> VerifiedPurchaseRecord? {
    cache.load().flatMap { VerifiedPurchaseRecord.decode($0, now: now) }
  }
}

#if canImport(Combine)
  extension PlanStore: ObservableObject {}
#endif

#if canImport(StoreKit)
  extension PlanStore {
    /// The options to buy `product` with SwiftUI's `PurchaseAction` (or to return from a StoreKit
    /// view's `inAppPurchaseOptions`): nil when it must not be bought now, or when a legacy price's
    /// offer couldn't be signed.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func purchaseOptions(for product: Plan.Product) async -> AppStoreFront.PurchaseOptions? {
      guard case .ready(let offer) = await prepareToBuy(product) else { return nil }
      guard offer?.kind.winBackOfferID != nil else {
        return try? AppStoreFront.purchaseOptions(offer: offer)
      }
      // A win-back offer is the product's own `SubscriptionOffer`.
      guard let storeProduct = try? await StoreKit.Product.products(for: [product.rawValue]).first
      else { return nil }
      return try? AppStoreFront.purchaseOptions(offer: offer, for: storeProduct)
    }

    /// Takes what SwiftUI's `PurchaseAction` returned for `product`: unlocked, then finished.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func complete(
      _ result: StoreKit.Product.PurchaseResult, for product: StoreKit.Product
    ) async -> Outcome {
      await complete(Result.success(result), for: product)
    }

    /// Takes what a StoreKit view's `onInAppPurchaseCompletion` reports: unlocked, then finished.
    /// A product this build's plan doesn't know is left unfinished, for a build that knows it.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func complete(
      _ result: Result<StoreKit.Product.PurchaseResult, any Error>, for product: StoreKit.Product
    ) async -> Outcome {
      guard let id = Plan.Product(rawValue: product.id) else {
        return .failed(StoreFrontError.notInStorefront)
      }
      do {
        return await complete(try AppStoreFront.attempt(from: result), for: id)
      } catch {
        let failure = error as? StoreFrontError
        if failure?.isUserCancellation == true { return .cancelled }
        return .failed(failure?.message ?? error.localizedDescription)
      }
    }
  }
#endif
