// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// A model of the App Store for tests: a `StoreFront` that sells, renews, refuses, refunds and
/// redelivers as the App Store does, so a store proven against it is proven against Apple's rules,
/// not against what each test says. Drive your own paywall tests with it. Its clock is the test's:
/// `advance(by:)` runs every renewal, billing retry and lapse due in between, so a year of monthly
/// renewals takes milliseconds.
///
/// The rules, each with the Apple page it comes from:
///
/// - **Promotional offers**: only for a customer with a subscription history in the product's
///   group, with an offer id the product declares, and a signature the app's server made for this
///   product, this offer and this `appAccountToken` (the model's `offerSigner`); otherwise nothing
///   is charged and the purchase throws `isOfferRejected` (`ineligibleForOffer`,
///   `invalidOfferIdentifier`, `invalidOfferSignature`). App Store Connect API
///   `SubscriptionPromotionalOffer` ("eligible existing or former subscribers"); "Implementing
///   promotional offers in your app"; "Generating JWS to sign App Store requests";
///   `Product.PurchaseError`.
/// - **Introductory offers**: once per subscription group; only a customer who never subscribed in
///   the group gets one. `Product.SubscriptionInfo.isEligibleForIntroOffer`. A purchase with a
///   signed eligibility (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`) gets it
///   when the signature says `allowIntroductoryOffer` true and pays the regular price when it says
///   false, whatever the history ("Generating JWS to sign App Store requests"); a signature made for
///   another product is refused. Apple doesn't say what the option does for a product without an
///   introductory offer: the model refuses and charges nothing, rather than charge the full price
///   to a customer promised a lower one.
/// - **Win-back offers** (iOS 18, macOS 15): only for a customer whose own subscription in the
///   group lapsed: expired, so not active, not in billing retry or a billing grace period, and not
///   refunded ("Supporting win-back offers in your app": a churned subscription;
///   `RenewalInfo.eligibleWinBackOfferIDs`, which says billing retry and grace periods aren't
///   eligible). `SubscriptionInfo.winBackOffers` lists every offer set up, whoever asks; the renewal
///   info lists those the customer may redeem, best first, from the offers of the lapsed
///   subscription's product. A purchase with any other win-back offer throws `isOfferRejected` and
///   charges nothing: an offer the product doesn't declare (`invalidOfferIdentifier`), or one the
///   customer isn't eligible for (`ineligibleForOffer`; `Product.PurchaseError`). Apple doesn't
///   say what a purchase with an ineligible win-back offer does: the model refuses rather than
///   charge a price the app didn't show. The offer's price holds for its `periods` (the purchase
///   and the renewals after it), then the regular price; each such transaction's `Transaction.offer`
///   is `.winBack` with the offer's id. App Store Connect's eligibility criteria ("Set up win-back
///   offers": paid duration, time since the lapse, wait between offers) aren't modelled beyond the
///   strictest wait: each offer redeems once per customer.
/// - **Subscription groups**: one active subscription per group, one `originalID` for all its
///   renewals and plan changes. A higher level starts at once, charged now, and the old transaction
///   is marked `isUpgraded`; a lower level, or another duration at the same level, charges nothing
///   now and creates no transaction: it becomes the renewal preference
///   (`Product.SubscriptionInfo.RenewalInfo.autoRenewPreference`) and the next renewal starts it;
///   the same duration at the same level starts at once. "Auto-renewable subscriptions" (ranking,
///   upgrades, downgrades, crossgrades). Apple doesn't say what `purchase` returns for a deferred
///   change: the model returns the current plan's transaction, so a layer that takes the result for
///   the new plan is wrong.
/// - **Renewals**: at each period's end, while auto-renew is on, the App Store charges again and
///   sends a new transaction (same `originalID`, the next `expirationDate`) through
///   `Transaction.updates`. "Auto-renewable subscriptions"; `Transaction.updates`.
/// - **Cancellation**: turning auto-renew off (`cancel(_:)`) keeps the subscription active until its
///   period ends; then it lapses (`expirationReason` `autoRenewDisabled`). "Auto-renewable
///   subscriptions"; `RenewalInfo.willAutoRenew`. Apple doesn't say what buying the active plan
///   again does: the model charges nothing, returns it and turns auto-renew back on (what the
///   subscription management page does), and clears a pending plan change.
/// - **Billing retry and grace period**: a renewal the payment method can't pay
///   (`paymentFails`) puts the subscription in billing retry (`isInBillingRetry`) for up to 60 days.
///   With a billing grace period (`billingGracePeriod`, set in App Store Connect: 3, 16 or 28 days)
///   service continues until `gracePeriodExpirationDate`, and the transaction stays in current
///   entitlements; after it, or without one, it doesn't. A recovered payment (`recoverPayment`)
///   renews: within the grace period from the old period's end, so no paid day is lost; later from
///   the day of recovery. Retry that ends unpaid lapses (`billingError`). "Reducing involuntary
///   subscriber churn" ("Enable billing grace period"); `RenewalInfo.gracePeriodExpirationDate`.
/// - **Buying again**: a non-consumable the customer owns isn't charged again; the existing
///   transaction comes back. In-App Purchase, non-consumables. A non-renewing subscription is sold
///   again while one runs, charged each time, with no expiration date: Apple leaves the duration,
///   and where a new period starts, to the app ("Non-renewing subscriptions"). Current
///   entitlements hold its latest transaction only; `Transaction.all` (`transactionHistory(for:)`)
///   holds every purchase, refunded ones included, read from the device, offline too.
/// - **Plan changes**: the customer changes plan in the app through `Product.purchase`, as on the
///   subscription management page (`AppStore.showManageSubscriptions(in:)`); choosing the plan in
///   use while a change waits undoes the change. "Handling subscriptions billing".
/// - **Lifetime and subscriptions**: buying a non-consumable doesn't end a subscription; it renews
///   until the customer cancels it. "Auto-renewable subscriptions".
/// - **Current entitlements**: the latest transaction of each non-consumable, non-renewing
///   subscription and active auto-renewable subscription, family-shared ones included; never a
///   consumable, a revoked or upgraded transaction, or a lapsed subscription outside a billing
///   grace period. `Transaction.currentEntitlements`; `RenewalInfo.gracePeriodExpirationDate`.
/// - **Subscription status**: per group, one status for what the customer bought and one for what
///   the family shares, each with its state and renewal info. `Product.SubscriptionInfo.Status`.
/// - **Updates**: Ask to Buy approvals, renewals, refunds, Family Sharing changes, purchases on
///   other devices and, at each launch, the unfinished transactions arrive through
///   `Transaction.updates`; a purchase made here comes back only as its result.
///   `Transaction.updates`.
/// - **Unfinished**: a transaction stays in `Transaction.unfinished` until `finish()`.
/// - **Family Sharing**: a family member gets only a product marked family-shareable, and only a
///   non-consumable or an auto-renewable subscription (the types "Supporting Family Sharing in your
///   app" lists; a consumable or non-renewing subscription marked shareable isn't shared), as
///   `familyShared`; a shared subscription renews with the organizer's and is never charged to the
///   member; when sharing stops the transaction is revoked and sent through `updates`.
/// - **Refunds**: a refunded transaction gets a `revocationDate` and leaves current entitlements; a
///   refunded subscription stops renewing. A refunded paid download sets the app transaction's.
///   `Transaction.revocationDate`, `AppTransaction.revocationDate`.
/// - **Ask to Buy**: the purchase is `.pending`; nothing is charged or owned until a parent approves,
///   then the transaction arrives through `updates`. Asking again for a product already waiting
///   adds no request: approval charges once. "Ask to Buy" (`Product.PurchaseResult.pending`);
///   Apple states the consolidation on its developer forums, not in the documentation.
/// - **Prompts**: `AppStore.sync()` and `AppTransaction.refresh()` ask the customer to sign in, and
///   the customer may cancel; `AppTransaction.shared` never asks. `AppStore.sync()`.
/// - **Offer codes**: a code is redeemed for one product of any type, in the app's redemption sheet
///   (`presentOfferCodeRedemption()`) or in the App Store (`redeem(code:for:)`); either way the
///   transaction (`Transaction.OfferType.code`, the offer's reference name as its id) arrives through
///   `Transaction.updates` and entitles the customer as a purchase does. A one-time-use code redeems
///   once; the second redemption is refused. A redeemed non-consumable or auto-renewable subscription
///   reaches a family member only when the product is family-shareable (Family Sharing's rule).
///   "Supporting offer codes in your app"; "Set up offer codes"; `Transaction.OfferType.code`. The
///   model's codes are free, and two cases Apple leaves to App Store Connect's eligibility or doesn't
///   describe are refused without spending the code: a non-consumable the customer owns, and a
///   subscription of a group the customer is subscribed to now.
/// - **Purchase intents**: a purchase started on the App Store's product page (a promoted In-App
///   Purchase) reaches the app as a `PurchaseIntent`, for the app to buy; nothing is charged until
///   it does (`PurchaseIntent.intents`).
/// - **Offline**: the app transaction is unavailable (it throws), products and purchases fail.
///   Apple doesn't say what `currentEntitlements` answers offline: the model answers from the
///   device, so no payer is locked out.
public final class AppStoreModel: StoreFront, StoreClock, @unchecked Sendable {
  /// A product as App Store Connect declares it.
  public struct Product: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
      case consumable
      case nonConsumable
      case nonRenewing
      /// `level` 1 is the highest level of service; `period` is one renewal, in seconds.
      case autoRenewable(group: String, level: Int, period: TimeInterval)

      /// The In-App Purchase type.
      public var type: InAppPurchaseType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewing: .nonRenewable
        case .autoRenewable: .autoRenewable
        }
      }
    }

    public var id: String
    public var kind: Kind
    public var displayName: String
    public var displayPrice: String
    /// Marked shareable in App Store Connect. Only non-consumables and auto-renewable
    /// subscriptions are shared whatever this says.
    public var isFamilyShareable: Bool
    /// The promotional offer ids declared for it.
    public var promotionalOffers: Set<String>
    public var hasIntroductoryOffer: Bool
    /// The win-back offers set up for it in App Store Connect, best first.
    public var winBackOffers: [WinBackOffer]

    public init(
      id: String, kind: Kind, displayName: String? = nil, displayPrice: String = "$0.99",
      isFamilyShareable: Bool = false, promotionalOffers: Set<String> = [],
      hasIntroductoryOffer: Bool = false, winBackOffers: [WinBackOffer] = []
    ) {
      self.winBackOffers = winBackOffers
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

    var period: TimeInterval? {
      if case .autoRenewable(_, _, let period) = kind { return period }
      return nil
    }
  }

  /// One transaction the App Store holds for the customer.
  public struct Record: Hashable, Sendable {
    public var id: UInt64
    /// `Transaction.originalID`: for a subscription, the same for every renewal and plan change
    /// in its group.
    public var originalID: UInt64
    public var productID: String
    public var ownership: TransactionOwnership
    public var purchaseDate: Date
    /// For an auto-renewable subscription: when this period ends.
    public var expirationDate: Date?
    public var revocationDate: Date?
    public var isFinished: Bool
    /// Replaced at once by a higher level of the same group.
    public var isUpgraded: Bool
    /// The promotional offer it was bought with.
    public var offerID: String?
    /// Bought with the group's introductory offer.
    public var isIntroductory: Bool
    /// Redeemed with an offer code: the offer's reference name.
    public var offerCode: String? = nil
    /// Bought, or renewed, at this win-back offer's price.
    public var winBackOfferID: String? = nil
  }

  /// What the customer paid for, in order: the product and the offer, if any.
  public struct Charge: Hashable, Sendable {
    public var productID: String
    public var offerID: String?
    public var isIntroductory: Bool
    /// An automatic renewal, not a purchase.
    public var isRenewal = false
    /// Charged at this win-back offer's price.
    public var winBackOfferID: String? = nil
  }

  /// The App Store's renewal state of one subscription group, for the customer's own subscription
  /// or for the one a family member shares.
  struct Renewal: Hashable, Sendable {
    var group: String
    var ownership: TransactionOwnership
    var originalID: UInt64
    var willAutoRenew = true
    /// The plan the next renewal starts.
    var preference: String
    /// When the renewal that couldn't be paid was due: billing retry began then.
    var retryStarted: Date?
    var expirationReason: SubscriptionRenewalInfo.ExpirationReason?
    /// The win-back offer the subscription restarted with, and how many renewals it still prices.
    var winBackOfferID: String?
    var winBackRenewalsLeft = 0
  }

  /// A call the app made to the App Store, for tests that check what was asked and in which order.
  public enum Call: Hashable, Sendable {
    /// `AppTransaction.shared`.
    case appTransaction
    /// `AppTransaction.refresh()`: may ask the customer to sign in.
    case refreshAppTransaction
    /// `Transaction.currentEntitlements`.
    case currentEntitlements
    /// `Transaction.all`, for these products.
    case transactionHistory
    /// `Transaction.unfinished`.
    case unfinished
    /// `AppStore.sync()`: may ask for the password.
    case sync
    /// `Product.SubscriptionInfo.status` of this product's group.
    case status(String)
    /// `Product.purchase(options:)` of this product.
    case purchase(String)
    /// The offer code redemption sheet.
    case offerCodeSheet
  }

  /// What an offer signature was made for: what the model's `offerSigner` was asked to sign.
  public struct SignedClaims: Hashable, Sendable {
    public var kind: SignedOffer.Kind
    public var productID: String
    public var appAccountToken: UUID?
    /// For an introductory offer's eligibility: the `allowIntroductoryOffer` claim.
    public var allowIntroductoryOffer: Bool

    public init(
      kind: SignedOffer.Kind, productID: String, appAccountToken: UUID? = nil,
      allowIntroductoryOffer: Bool = true
    ) {
      self.kind = kind
      self.productID = productID
      self.appAccountToken = appAccountToken
      self.allowIntroductoryOffer = allowIntroductoryOffer
    }
  }

  struct State {
    var now: Date
    var isOnline = true
    var appTransaction: AppTransactionFacts?
    var appTransactionVerifies = true
    var askToBuy = false
    var cancelsPrompts = false
    var paymentFails = false
    var gracePeriod: TimeInterval?
    var appAccountToken: UUID?
    var records: [Record] = []
    var renewals: [Renewal] = []
    var pending: [String] = []
    var charges: [Charge] = []
    var signatures: [String: SignedClaims] = [:]
    var prompts = 0
    var calls: [Call] = []
    /// Tasks waiting on the model's clock (`sleep(until:)`), by id.
    var sleepers: [Int: (deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = [:]
    var nextSleeper = 0
    var nextID: UInt64 = 1_000
    /// One-time-use offer codes already redeemed.
    var spentCodes: Set<String> = []
    /// Win-back offers the customer redeemed: each one once.
    var redeemedWinBacks: Set<String> = []
    /// What the customer types in the redemption sheet.
    var codeInSheet: OfferCodeEntry?
    /// App Store Server Notifications posted, oldest first.
    var notifications: [VerifiedNotification] = []
  }

  /// How long the App Store retries a failed renewal: up to 60 days ("Reducing involuntary
  /// subscriber churn").
  public static let billingRetryDuration: TimeInterval = 60 * 86_400

  public let products: [String: Product]
  /// What the model sends through `Transaction.updates`, and what each listener handled.
  let updates = ModelStream<StoreTransaction>()
  /// What the model sends through `PurchaseIntent.intents`, and what each listener handled.
  let intents = ModelStream<StorePurchaseIntent>()
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

  func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  // MARK: - Driving the model

  /// The model's clock. Setting a later time runs the lifecycle up to it, as `advance(by:)` does;
  /// the clock never goes back, as the App Store's doesn't (set the device's clock in the store).
  public var now: Date {
    get { withState { $0.now } }
    set { advance(to: newValue) }
  }

  /// Moves the clock on by `interval`: every renewal, billing retry and lapse due meanwhile happens,
  /// in order, and each renewal's transaction is sent through `Transaction.updates`.
  public func advance(by interval: TimeInterval) {
    advance(to: now.addingTimeInterval(interval))
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

  /// True: the customer's payment method can't pay renewals, which go into billing retry.
  public var paymentFails: Bool {
    get { withState { $0.paymentFails } }
    set { withState { $0.paymentFails = newValue } }
  }

  /// The billing grace period turned on in App Store Connect (3, 16 or 28 days); nil: off.
  public var billingGracePeriod: TimeInterval? {
    get { withState { $0.gracePeriod } }
    set { withState { $0.gracePeriod = newValue } }
  }

  /// The `appAccountToken` the app's purchases carry. `StoreFront.purchase` passes none, so nil.
  public var appAccountToken: UUID? {
    get { withState { $0.appAccountToken } }
    set { withState { $0.appAccountToken = newValue } }
  }

  /// Every transaction the App Store holds for the customer.
  public var records: [Record] { withState { $0.records } }
  /// What the customer was charged for, in order.
  public var charges: [Charge] { withState { $0.charges } }
  /// How many times the customer was asked to sign in.
  public var prompts: Int { withState { $0.prompts } }
  /// The calls the app made, in order.
  public var calls: [Call] { withState { $0.calls } }
  /// Purchases waiting for a parent's approval.
  public var pendingApprovals: [String] { withState { $0.pending } }

  /// Whether the customer had a subscription in `group`, now or before: what promotional offers
  /// need, and what ends introductory-offer eligibility.
  public func hasSubscriptionHistory(in group: String) -> Bool {
    withState { state in state.records.contains { products[$0.productID]?.group == group } }
  }

  /// The app's server as the model knows it: it signs what it is asked for, and the model accepts
  /// only the signatures it made, for what they were made for.
  ///
  /// - Parameter allowsIntroductoryOffer: the `allowIntroductoryOffer` claim the server signs for
  ///   an introductory offer's eligibility.
  public func offerSigner(
    allowsIntroductoryOffer: @escaping @Sendable (OfferRequest) -> Bool = { _ in true }
  ) -> some OfferSigner {
    ModelOfferSigner(model: self, allowsIntroductoryOffer: allowsIntroductoryOffer)
  }

  /// A signature the app's server made for `claims`, as its compact JWS.
  public func sign(_ claims: SignedClaims) -> String {
    withState { state in
      let jws = "model-signature-\(state.signatures.count + 1)"
      state.signatures[jws] = claims
      return jws
    }
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
  /// `Transaction.updates`; a refunded subscription stops renewing.
  public func refund(_ productID: String) {
    let record: Record? = withState { state in
      guard let index = state.records.lastIndex(where: { $0.productID == productID }) else {
        return nil
      }
      state.records[index].revocationDate = state.now
      notify(.refund, about: state.records[index], in: &state)
      return state.records[index]
    }
    if let record { emit(record) }
  }

  /// Apple refunds one transaction, by its id (an earlier pass, say): it is revoked and sent through
  /// `Transaction.updates`.
  public func refund(transactionID: UInt64) {
    let record: Record? = withState { state in
      guard let index = state.records.firstIndex(where: { $0.id == transactionID }) else {
        return nil
      }
      state.records[index].revocationDate = state.now
      notify(.refund, about: state.records[index], in: &state)
      return state.records[index]
    }
    if let record { emit(record) }
  }

  /// Apple refunds the paid download itself: `AppTransaction.revocationDate` is set.
  public func refundApp() {
    withState { state in state.appTransaction?.isRevoked = true }
  }

  /// The customer turns auto-renew off for the subscription of `productID`'s group (in Settings, or
  /// the subscription management page): it stays active until its period ends, then lapses.
  public func cancel(_ productID: String) {
    guard let group = products[productID]?.group else { return }
    withState { state in
      guard
        let index = state.renewals.firstIndex(where: {
          $0.group == group && $0.ownership == .purchased
        })
      else { return }
      state.renewals[index].willAutoRenew = false
      if let current = latest(of: state.renewals[index], in: state) {
        notify(.didChangeRenewalStatus, .autoRenewDisabled, about: current, in: &state)
      }
    }
  }

  /// The customer's payment goes through again: a subscription in billing retry renews at once
  /// (from the old period's end within the grace period, from now after it) and is sent through
  /// `Transaction.updates`. Payments succeed from now on.
  public func recoverPayment() {
    let renewed: [Record] = withState { state in
      state.paymentFails = false
      var renewed: [Record] = []
      for index in state.renewals.indices {
        guard let started = state.renewals[index].retryStarted else { continue }
        let inGrace = state.gracePeriod.map { state.now < started.addingTimeInterval($0) } ?? false
        state.renewals[index].retryStarted = nil
        if let record = renew(at: index, from: inGrace ? started : state.now, in: &state) {
          renewed.append(record)
        }
      }
      return renewed
    }
    for record in renewed { emit(record) }
  }

  /// A family organizer's purchase reaches this customer through Family Sharing, if the product
  /// is marked family-shareable and is of a type Apple shares; it arrives through
  /// `Transaction.updates`. False when it can't be shared.
  @discardableResult
  public func shareFromFamily(_ productID: String) -> Bool {
    guard let product = products[productID], Self.isShared(product) else { return false }
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
        notify(.revoke, about: state.records[index], in: &state)
        revoked.append(state.records[index])
      }
      return revoked
    }
    for record in revoked { emit(record) }
  }

  /// The app launches again: the unfinished transactions are sent through `Transaction.updates`.
  public func relaunch() {
    for record in withState({ state in state.records.filter { !$0.isFinished } }) { emit(record) }
  }

  // MARK: - StoreFront

  public func appTransaction() async -> AppTransactionRead {
    withState { state in
      state.calls.append(.appTransaction)
      return Self.read(state)
    }
  }

  public func refreshAppTransaction() async -> AppTransactionRead {
    withState { state in
      state.calls.append(.refreshAppTransaction)
      state.prompts += 1
      // `AppTransaction.refresh()` throws when the customer cancels signing in.
      return state.cancelsPrompts ? .unavailable : Self.read(state)
    }
  }

  public func currentEntitlements() async -> [StoreTransaction] {
    let records: [Record] = withState { state in
      state.calls.append(.currentEntitlements)
      var latest: [String: Record] = [:]
      for record in state.records where isEntitling(record, in: state) {
        latest[record.productID] = record
      }
      return latest.values.sorted { $0.id < $1.id }
    }
    return records.map(transaction)
  }

  /// Every transaction of `productIDs`, refunded ones included, from the device: offline too.
  public func transactionHistory(for productIDs: Set<String>) async -> [StoreTransaction] {
    withState { state in
      state.calls.append(.transactionHistory)
      return state.records.filter { productIDs.contains($0.productID) }
    }
    .map(transaction)
  }

  public func unfinishedTransactions() async -> [StoreTransaction] {
    withState { state in
      state.calls.append(.unfinished)
      return state.records.filter { !$0.isFinished }
    }
    .map(transaction)
  }

  public func sync() async throws {
    try withState { state in
      state.calls.append(.sync)
      guard state.isOnline else { throw Self.offline }
      state.prompts += 1
      if state.cancelsPrompts {
        throw StoreFrontError(isUserCancellation: true, message: "The customer cancelled.")
      }
    }
  }

  public func products(for identifiers: [String]) async throws -> [StoreProduct] {
    guard isOnline else { throw Self.offline }
    // Every win-back offer set up, whoever asks (`SubscriptionInfo.winBackOffers`); the renewal
    // info says which this customer may redeem.
    return identifiers.compactMap { products[$0] }.map { product in
      var winBackPrices: [String: String] = [:]
      for offer in product.winBackOffers { winBackPrices[offer.id] = offer.displayPrice }
      return StoreProduct(
        id: product.id, displayName: product.displayName, displayPrice: product.displayPrice,
        winBackPrices: winBackPrices)
    }
  }

  public func subscriptionStatuses(for productID: String) async throws -> [SubscriptionStatus] {
    guard isOnline else { throw Self.offline }
    guard let group = products[productID]?.group else { return [] }
    return withState { state in
      state.calls.append(.status(productID))
      return state.renewals.indices.filter { state.renewals[$0].group == group }
        .compactMap { status(of: $0, in: state) }
    }
  }

  public func purchase(productID: String, offer: SignedOffer?) async throws
    -> PurchaseAttempt
  {
    let record: Record? = try withState { state in
      state.calls.append(.purchase(productID))
      guard state.isOnline else { throw Self.offline }
      guard let product = products[productID] else {
        throw StoreFrontError(message: StoreFrontError.notInStorefront)
      }
      let introductory = try offer.map { try check($0, for: product, in: state) } ?? nil
      if let owned = alreadyOwned(product, in: &state) { return owned }
      if state.askToBuy {
        // One request per product: asking again while it waits adds nothing.
        if !state.pending.contains(productID) { state.pending.append(productID) }
        return nil
      }
      return add(
        product, to: &state, offerID: offer?.offerID, introductory: introductory,
        winBackOfferID: offer?.kind.winBackOfferID)
    }
    guard let record else { return .pending }
    return .success(transaction(record))
  }

  // MARK: - Helpers

  static let offline = StoreFrontError(message: "The App Store can't be reached.")

  private static func read(_ state: State) -> AppTransactionRead {
    guard state.isOnline, let facts = state.appTransaction else { return .unavailable }
    return state.appTransactionVerifies ? .verified(facts) : .unverified(claimed: facts)
  }

  /// Shared when marked shareable and of a type Family Sharing shares (`InAppPurchaseType`).
  static func isShared(_ product: Product) -> Bool {
    product.isFamilyShareable && product.kind.type.isSharedByFamily
  }

  func transaction(_ record: Record) -> StoreTransaction {
    StoreTransaction(
      productID: record.productID, id: record.id, ownership: record.ownership,
      isRevoked: record.revocationDate != nil, isVerified: true,
      expirationDate: record.expirationDate, purchaseDate: record.purchaseDate,
      signedDate: withState { $0.now }, offer: Self.offer(of: record),
      finish: { [weak self] in
        self?.withState { state in
          if let index = state.records.firstIndex(where: { $0.id == record.id }) {
            state.records[index].isFinished = true
          }
        }
      })
  }

  func emit(_ record: Record) {
    updates.send(transaction(record))
  }
}

/// The model's stand-in for the app's server: signs each request and tells the model what it
/// signed, so a signature is good only for the product, offer and account it was made for.
struct ModelOfferSigner: OfferSigner {
  let model: AppStoreModel
  let allowsIntroductoryOffer: @Sendable (OfferRequest) -> Bool

  func compactJWS(for request: OfferRequest) async throws -> String {
    model.sign(
      .init(
        kind: request.kind, productID: request.productID, appAccountToken: model.appAccountToken,
        allowIntroductoryOffer: allowsIntroductoryOffer(request)))
  }
}
