// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// A model of the App Store for tests: a `StoreFront` that sells, refuses, refunds and redelivers
/// as the App Store does, so a store proven against it is proven against Apple's rules, not against
/// what each test says. Drive your own paywall tests with it.
///
/// The rules, each with the Apple page it comes from:
///
/// - **Promotional offers**: only for a customer with a subscription history in the product's
///   group, with an offer id the product declares, and signed; otherwise nothing is charged and the
///   purchase throws `isOfferRejected` (`ineligibleForOffer`, `invalidOfferIdentifier`,
///   `invalidOfferSignature`). App Store Connect API `SubscriptionPromotionalOffer` ("eligible
///   existing or former subscribers"); "Implementing promotional offers in your app";
///   `Product.PurchaseError`.
/// - **Introductory offers**: once per subscription group; only a customer who never subscribed in
///   the group gets one. `Product.SubscriptionInfo.isEligibleForIntroOffer`. A purchase with a
///   signed eligibility (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`) gets it
///   whatever the history, as the server decided; the model reads any non-empty signature as
///   `allowIntroductoryOffer` true ("Generating JWS to sign App Store requests"). Apple doesn't say
///   what the option does for a product without an introductory offer: the model refuses and charges
///   nothing, rather than charge the full price to a customer promised a lower one.
/// - **Subscription groups**: one active subscription per group. A higher level starts at once and
///   ends the old one (`isUpgraded`); a lower level, or another duration at the same level, starts
///   at the next renewal; the same duration at the same level starts at once. "Auto-renewable
///   subscriptions" (ranking, upgrades, downgrades, crossgrades).
/// - **Buying again**: a non-consumable the customer owns isn't charged again; the existing
///   transaction comes back. In-App Purchase, non-consumables. Apple doesn't say what buying the
///   active subscription again does: the model charges nothing and returns it.
/// - **Lifetime and subscriptions**: buying a non-consumable doesn't end a subscription; it renews
///   until the customer cancels it. "Auto-renewable subscriptions".
/// - **Current entitlements**: the latest transaction of each non-consumable, non-renewing
///   subscription and active auto-renewable subscription, family-shared ones included; never a
///   consumable, a revoked or upgraded transaction, or a lapsed subscription outside a billing
///   grace period. `Transaction.currentEntitlements`; `RenewalInfo.gracePeriodExpirationDate`.
/// - **Updates**: Ask to Buy approvals, refunds, Family Sharing changes, purchases on other devices
///   and, at each launch, the unfinished transactions arrive through `Transaction.updates`; a
///   purchase made here comes back only as its result. `Transaction.updates`.
/// - **Unfinished**: a transaction stays in `Transaction.unfinished` until `finish()`.
/// - **Family Sharing**: a family member gets only family-shareable products, as `familyShared`;
///   when sharing stops the transaction is revoked and sent through `updates`. "Supporting Family
///   Sharing in your app".
/// - **Refunds**: a refunded transaction gets a `revocationDate` and leaves current entitlements; a
///   refunded paid download sets the app transaction's. `Transaction.revocationDate`,
///   `AppTransaction.revocationDate`.
/// - **Ask to Buy**: the purchase is `.pending`; nothing is charged or owned until a parent approves,
///   then the transaction arrives through `updates`. `Product.PurchaseResult.pending`.
/// - **Prompts**: `AppStore.sync()` and `AppTransaction.refresh()` ask the customer to sign in, and
///   the customer may cancel; `AppTransaction.shared` never asks. `AppStore.sync()`.
/// - **Offline**: the app transaction is unavailable (it throws), products and purchases fail.
///   Apple doesn't say what `currentEntitlements` answers offline: the model answers from the
///   device, so no payer is locked out.
public final class AppStoreModel: StoreFront, @unchecked Sendable {
  /// A product as App Store Connect declares it.
  public struct Product: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
      case consumable
      case nonConsumable
      case nonRenewing
      /// `level` 1 is the highest level of service; `period` is one renewal, in seconds.
      case autoRenewable(group: String, level: Int, period: TimeInterval)
    }

    public var id: String
    public var kind: Kind
    public var displayName: String
    public var displayPrice: String
    public var isFamilyShareable: Bool
    /// The promotional offer ids declared for it.
    public var promotionalOffers: Set<String>
    public var hasIntroductoryOffer: Bool

    public init(
      id: String, kind: Kind, displayName: String? = nil, displayPrice: String = "$0.99",
      isFamilyShareable: Bool = false, promotionalOffers: Set<String> = [],
      hasIntroductoryOffer: Bool = false
    ) {
      self.id = id
      self.kind = kind
      self.displayName = displayName ?? id
      self.displayPrice = displayPrice
      self.isFamilyShareable = isFamilyShareable
      self.promotionalOffers = promotionalOffers
      self.hasIntroductoryOffer = hasIntroductoryOffer
    }

    var group: String? {
      if case .autoRenewable(let group, _, _) = kind { return group }
      return nil
    }
  }

  /// One transaction the App Store holds for the customer.
  public struct Record: Hashable, Sendable {
    public var id: UInt64
    public var productID: String
    public var ownership: TransactionOwnership
    public var purchaseDate: Date
    /// For an auto-renewable subscription: when the current period ends.
    public var expirationDate: Date?
    public var revocationDate: Date?
    public var isFinished: Bool
    /// Replaced at once by a higher level of the same group.
    public var isUpgraded: Bool
    /// The promotional offer it was bought with.
    public var offerID: String?
    /// Bought with the group's introductory offer.
    public var isIntroductory: Bool
    /// A renewal failed and the billing grace period keeps the service on.
    public var isInGracePeriod: Bool
  }

  /// What the customer paid for, in order: the product and the offer, if any.
  public struct Charge: Hashable, Sendable {
    public var productID: String
    public var offerID: String?
    public var isIntroductory: Bool
  }

  private struct State {
    var now: Date
    var isOnline = true
    var appTransaction: AppTransactionFacts?
    var appTransactionVerifies = true
    var askToBuy = false
    var cancelsPrompts = false
    var records: [Record] = []
    var pending: [String] = []
    var charges: [Charge] = []
    var prompts = 0
    var calls: [String] = []
    var nextID: UInt64 = 1_000
    var listeners: [Int: AsyncStream<StoreTransaction>.Continuation] = [:]
    var nextListener = 0
  }

  public let products: [String: Product]
  private let lock = NSLock()
  private var state: State

  /// - Parameters:
  ///   - appTransaction: the customer's app transaction; nil when nobody is signed in.
  public init(products: [Product], appTransaction: AppTransactionFacts?, now: Date = Date()) {
    var byID: [String: Product] = [:]
    for product in products { byID[product.id] = product }
    self.products = byID
    state = State(now: now, appTransaction: appTransaction)
  }

  private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  // MARK: - Driving the model

  /// The model's clock: subscriptions expire by it.
  public var now: Date {
    get { withState { $0.now } }
    set { withState { $0.now = newValue } }
  }

  /// False: the App Store can't be reached.
  public var isOnline: Bool {
    get { withState { $0.isOnline } }
    set { withState { $0.isOnline = newValue } }
  }

  /// True: the app transaction's signature doesn't verify.
  public var appTransactionFailsVerification: Bool {
    get { withState { !$0.appTransactionVerifies } }
    set { withState { $0.appTransactionVerifies = !newValue } }
  }

  /// True: every purchase needs a parent's approval (Ask to Buy).
  public var asksToBuy: Bool {
    get { withState { $0.askToBuy } }
    set { withState { $0.askToBuy = newValue } }
  }

  /// True: the customer cancels the sign-in prompts of `sync()`.
  public var cancelsPrompts: Bool {
    get { withState { $0.cancelsPrompts } }
    set { withState { $0.cancelsPrompts = newValue } }
  }

  /// Every transaction the App Store holds for the customer.
  public var records: [Record] { withState { $0.records } }
  /// What the customer was charged for, in order.
  public var charges: [Charge] { withState { $0.charges } }
  /// How many times the customer was asked to sign in.
  public var prompts: Int { withState { $0.prompts } }
  /// The calls the app made, in order (`purchase ID`, `sync`, …).
  public var calls: [String] { withState { $0.calls } }
  /// Purchases waiting for a parent's approval.
  public var pendingApprovals: [String] { withState { $0.pending } }

  /// Whether the customer had a subscription in `group`, now or before: what promotional offers
  /// need, and what ends introductory-offer eligibility.
  public func hasSubscriptionHistory(in group: String) -> Bool {
    withState { state in state.records.contains { products[$0.productID]?.group == group } }
  }

  /// A purchase made outside the app (another device, the App Store, an offer code): it arrives
  /// through `Transaction.updates`.
  @discardableResult
  public func purchaseElsewhere(_ productID: String) -> Record? {
    guard let product = products[productID] else { return nil }
    let record = withState { state in add(product, to: &state, offerID: nil) }
    emit(record)
    return record
  }

  /// A parent approves an Ask to Buy request: the purchase is charged and arrives through
  /// `Transaction.updates`, never as the purchase's result.
  @discardableResult
  public func approve(_ productID: String) -> Record? {
    let record: Record? = withState { state in
      guard let index = state.pending.firstIndex(of: productID), let product = products[productID]
      else { return nil }
      state.pending.remove(at: index)
      return add(product, to: &state, offerID: nil)
    }
    if let record { emit(record) }
    return record
  }

  /// A parent declines an Ask to Buy request: nothing is charged or sent.
  public func decline(_ productID: String) {
    withState { state in state.pending.removeAll { $0 == productID } }
  }

  /// Apple refunds the newest transaction for `productID`: it is revoked and sent through
  /// `Transaction.updates`.
  public func refund(_ productID: String) {
    let record: Record? = withState { state in
      guard let index = state.records.lastIndex(where: { $0.productID == productID }) else {
        return nil
      }
      state.records[index].revocationDate = state.now
      return state.records[index]
    }
    if let record { emit(record) }
  }

  /// Apple refunds the paid download itself: `AppTransaction.revocationDate` is set.
  public func refundApp() {
    withState { state in state.appTransaction?.isRevoked = true }
  }

  /// A family organizer's purchase reaches this customer through Family Sharing, if the product
  /// is family-shareable; it arrives through `Transaction.updates`. False when it can't be shared.
  @discardableResult
  public func shareFromFamily(_ productID: String) -> Bool {
    guard let product = products[productID], product.isFamilyShareable else { return false }
    let record = withState { state in
      add(product, to: &state, offerID: nil, ownership: .familyShared)
    }
    emit(record)
    return true
  }

  /// Family Sharing stops (the organizer stops sharing, or the customer leaves the family): the
  /// shared transaction is revoked and sent through `Transaction.updates`.
  public func stopFamilySharing(_ productID: String) {
    let revoked: [Record] = withState { state in
      var revoked: [Record] = []
      for index in state.records.indices
      where state.records[index].productID == productID
        && state.records[index].ownership == .familyShared
        && state.records[index].revocationDate == nil
      {
        state.records[index].revocationDate = state.now
        revoked.append(state.records[index])
      }
      return revoked
    }
    for record in revoked { emit(record) }
  }

  /// A renewal fails: with a billing grace period the subscription keeps its service until the
  /// grace period ends; without one it is in billing retry and no longer entitles.
  public func failRenewal(_ productID: String, gracePeriod: Bool) {
    withState { state in
      guard let index = state.records.lastIndex(where: { $0.productID == productID }) else {
        return
      }
      state.records[index].expirationDate = state.now
      state.records[index].isInGracePeriod = gracePeriod
    }
  }

  /// The app launches again: the unfinished transactions are sent through `Transaction.updates`.
  public func relaunch() {
    for record in withState({ state in state.records.filter { !$0.isFinished } }) { emit(record) }
  }

  // MARK: - StoreFront

  public func appTransaction() async -> AppTransactionRead {
    withState { state in
      state.calls.append("appTransaction")
      return Self.read(state)
    }
  }

  public func refreshAppTransaction() async -> AppTransactionRead {
    withState { state in
      state.calls.append("refreshAppTransaction")
      state.prompts += 1
      // `AppTransaction.refresh()` throws when the customer cancels signing in.
      return state.cancelsPrompts ? .unavailable : Self.read(state)
    }
  }

  public func currentEntitlements() async -> [StoreTransaction] {
    let records: [Record] = withState { state in
      state.calls.append("currentEntitlements")
      var latest: [String: Record] = [:]
      for record in state.records where isEntitling(record, at: state.now) {
        latest[record.productID] = record
      }
      return latest.values.sorted { $0.id < $1.id }
    }
    return records.map(transaction)
  }

  public func unfinishedTransactions() async -> [StoreTransaction] {
    withState { state in
      state.calls.append("unfinished")
      return state.records.filter { !$0.isFinished }
    }
    .map(transaction)
  }

  public func transactionUpdates() -> AsyncStream<StoreTransaction> {
    let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
    let id = withState { state in
      defer { state.nextListener += 1 }
      state.listeners[state.nextListener] = continuation
      return state.nextListener
    }
    continuation.onTermination = { [weak self] _ in self?.withState { $0.listeners[id] = nil } }
    return stream
  }

  public func sync() async throws {
    try withState { state in
      state.calls.append("sync")
      guard state.isOnline else { throw Self.offline }
      state.prompts += 1
      if state.cancelsPrompts {
        throw StoreFrontError(isUserCancellation: true, message: "The customer cancelled.")
      }
    }
  }

  public func products(for identifiers: [String]) async throws -> [StoreProduct] {
    guard isOnline else { throw Self.offline }
    return identifiers.compactMap { products[$0] }.map {
      StoreProduct(id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice)
    }
  }

  public func purchase(productID: String, offer: SignedOffer?) async throws
    -> PurchaseAttempt
  {
    let record: Record? = try withState { state in
      state.calls.append("purchase \(productID)")
      guard state.isOnline else { throw Self.offline }
      guard let product = products[productID] else {
        throw StoreFrontError(message: StoreFrontError.notInStorefront)
      }
      if let offer { try check(offer, for: product, in: state) }
      if let owned = alreadyOwned(product, in: state) { return owned }
      if state.askToBuy {
        state.pending.append(productID)
        return nil
      }
      return add(
        product, to: &state, offerID: offer?.offerID,
        grantsIntroductory: offer?.kind == .introductory)
    }
    guard let record else { return .pending }
    return .success(transaction(record))
  }

  // MARK: - The rules

  static let offline = StoreFrontError(message: "The App Store can't be reached.")

  private static func read(_ state: State) -> AppTransactionRead {
    guard state.isOnline, let facts = state.appTransaction else { return .unavailable }
    return state.appTransactionVerifies ? .verified(facts) : .unverified(claimed: facts)
  }

  /// A signed discount. A promotional offer: declared for this product, signed, and for a customer
  /// with a subscription history in its group. An introductory offer's eligibility: signed, for a
  /// subscription that has one. Nothing is charged when it is refused.
  private func check(_ offer: SignedOffer, for product: Product, in state: State) throws {
    switch offer.kind {
    case .promotional(let id):
      guard let group = product.group, product.promotionalOffers.contains(id) else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")
      }
      guard !offer.compactJWS.isEmpty else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferSignature")
      }
      guard state.records.contains(where: { products[$0.productID]?.group == group }) else {
        throw StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")
      }
    case .introductory:
      guard product.group != nil, product.hasIntroductoryOffer else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")
      }
      guard !offer.compactJWS.isEmpty else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferSignature")
      }
    }
  }

  /// What buying `product` again returns without a charge: a non-consumable the customer owns,
  /// or the subscription already active.
  private func alreadyOwned(_ product: Product, in state: State) -> Record? {
    switch product.kind {
    case .nonConsumable, .autoRenewable:
      return state.records.last {
        $0.productID == product.id && $0.ownership == .purchased && isEntitling($0, at: state.now)
      }
    case .consumable, .nonRenewing:
      return nil
    }
  }

  private func isEntitling(_ record: Record, at now: Date) -> Bool {
    guard let product = products[record.productID], record.revocationDate == nil, !record.isUpgraded
    else { return false }
    switch product.kind {
    case .consumable: return false
    case .nonConsumable, .nonRenewing: return true
    case .autoRenewable:
      guard record.purchaseDate <= now else { return false }
      return record.isInGracePeriod || (record.expirationDate ?? .distantFuture) > now
    }
  }

  /// Charges for `product` and records its transaction, applying the group's rules.
  private func add(
    _ product: Product, to state: inout State, offerID: String?, grantsIntroductory: Bool = false,
    ownership: TransactionOwnership = .purchased
  ) -> Record {
    state.nextID += 1
    var record = Record(
      id: state.nextID, productID: product.id, ownership: ownership, purchaseDate: state.now,
      expirationDate: nil, revocationDate: nil, isFinished: false, isUpgraded: false,
      offerID: offerID, isIntroductory: false, isInGracePeriod: false)
    if case .autoRenewable(let group, let level, let period) = product.kind {
      let history = state.records.filter { record in
        products[record.productID]?.group == group
      }
      record.isIntroductory =
        product.hasIntroductoryOffer && (grantsIntroductory || (history.isEmpty && offerID == nil))
      var starts = state.now
      let now = state.now
      if let current = history.last(where: {
        $0.revocationDate == nil && !$0.isUpgraded
          && ($0.isInGracePeriod || ($0.expirationDate ?? .distantFuture) > now)
      }), let index = state.records.firstIndex(of: current),
        case .autoRenewable(_, let currentLevel, let currentPeriod)? =
          products[current.productID]?.kind
      {
        if level < currentLevel || (level == currentLevel && period == currentPeriod) {
          // An upgrade, or a crossgrade of the same duration: at once, ending the current one.
          state.records[index].isUpgraded = true
        } else {
          // A downgrade, or a crossgrade to another duration: at the next renewal.
          starts = current.expirationDate ?? now
        }
      }
      record.purchaseDate = starts
      record.expirationDate = starts.addingTimeInterval(period)
    }
    if ownership == .purchased {
      state.charges.append(
        Charge(productID: product.id, offerID: offerID, isIntroductory: record.isIntroductory))
    }
    state.records.append(record)
    return record
  }

  private func transaction(_ record: Record) -> StoreTransaction {
    StoreTransaction(
      productID: record.productID, id: record.id, ownership: record.ownership,
      isRevoked: record.revocationDate != nil, isVerified: true,
      expirationDate: record.expirationDate, purchaseDate: record.purchaseDate,
      signedDate: withState { $0.now },
      finish: { [weak self] in
        self?.withState { state in
          if let index = state.records.firstIndex(where: { $0.id == record.id }) {
            state.records[index].isFinished = true
          }
        }
      })
  }

  private func emit(_ record: Record) {
    let transaction = transaction(record)
    for listener in withState({ Array($0.listeners.values) }) { listener.yield(transaction) }
  }
}
