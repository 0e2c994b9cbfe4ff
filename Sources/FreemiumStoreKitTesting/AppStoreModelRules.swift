// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// The rules `AppStoreModel`'s header lists, with the Apple page for each.
extension AppStoreModel {
  /// More lifecycle events than any test needs between two instants: a bound, so a zero-length
  /// period can't spin forever.
  static let maximumEvents = 100_000

  // MARK: - Offers

  /// A win-back offer set up in App Store Connect for an auto-renewable subscription.
  public struct WinBackOffer: Hashable, Sendable {
    /// The offer identifier (`Product.SubscriptionOffer.id`).
    public var id: String
    public var displayPrice: String
    /// How many periods it prices, the purchase's included; the regular price follows.
    public var periods: Int

    public init(id: String, displayPrice: String, periods: Int = 1) {
      self.id = id
      self.displayPrice = displayPrice
      self.periods = periods
    }
  }

  /// The win-back offers the customer may redeem now, best first: the lapsed subscription's
  /// product's, once the customer's own subscription in `group` expired; none while it is active,
  /// in billing retry or a grace period, refunded, or never was. Each offer redeems once.
  func eligibleWinBackOffers(in group: String, state: State) -> [WinBackOffer] {
    guard let index = renewalIndex(group, .purchased, in: state),
      state.renewals[index].expirationReason != nil,
      let lapsed = latest(of: state.renewals[index], in: state), lapsed.revocationDate == nil,
      let product = products[lapsed.productID]
    else { return [] }
    return product.winBackOffers.filter { !state.redeemedWinBacks.contains($0.id) }
  }

  /// A signed discount: made by the app's server for this product, this offer and this account.
  /// A promotional offer must also be declared for the product and go to a customer with a
  /// subscription history in its group. Returns whether the introductory offer applies: nil when
  /// the history decides. Nothing is charged when it throws.
  func check(_ offer: SignedOffer, for product: Product, in state: State) throws -> Bool? {
    let claims = state.signatures[offer.compactJWS]
    let signedForThis =
      claims?.kind == offer.kind && claims?.productID == product.id
      && claims?.appAccountToken == state.appAccountToken
    switch offer.kind {
    case .promotional(let id):
      guard let group = product.group, product.promotionalOffers.contains(id) else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")
      }
      guard signedForThis else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferSignature")
      }
      guard state.records.contains(where: { products[$0.productID]?.group == group }) else {
        throw StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")
      }
      return nil
    case .introductory:
      guard product.group != nil, product.hasIntroductoryOffer else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")
      }
      guard signedForThis, let claims else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferSignature")
      }
      return claims.allowIntroductoryOffer
    case .winBack(let id):
      // No signature: the App Store decides who is eligible.
      guard let group = product.group, product.winBackOffers.contains(where: { $0.id == id }) else {
        throw StoreFrontError(isOfferRejected: true, message: "invalidOfferIdentifier")
      }
      guard eligibleWinBackOffers(in: group, state: state).contains(where: { $0.id == id }) else {
        throw StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")
      }
      return nil
    }
  }

  // MARK: - Owning

  /// What buying `product` again returns without a charge: a non-consumable the customer owns, or
  /// the subscription already active, whose auto-renew turns back on and whose pending plan change
  /// is dropped.
  func alreadyOwned(_ product: Product, in state: inout State) -> Record? {
    switch product.kind {
    case .nonConsumable:
      return state.records.last {
        $0.productID == product.id && $0.ownership == .purchased && isEntitling($0, in: state)
      }
    case .autoRenewable(let group, _, _):
      let current = state.records.last {
        $0.productID == product.id && $0.ownership == .purchased && isEntitling($0, in: state)
      }
      if let current, let index = renewalIndex(group, .purchased, in: state) {
        let wasChanged = state.renewals[index].preference != product.id
        let wasOff = !state.renewals[index].willAutoRenew
        state.renewals[index].willAutoRenew = true
        state.renewals[index].preference = product.id
        if wasChanged { notify(.didChangeRenewalPref, about: current, in: &state) }
        if wasOff { notify(.didChangeRenewalStatus, .autoRenewEnabled, about: current, in: &state) }
      }
      return current
    case .consumable, .nonRenewing:
      return nil
    }
  }

  func isEntitling(_ record: Record, in state: State) -> Bool {
    guard let product = products[record.productID], record.revocationDate == nil, !record.isUpgraded
    else { return false }
    switch product.kind {
    case .consumable: return false
    case .nonConsumable, .nonRenewing: return true
    case .autoRenewable(let group, _, _):
      guard record.purchaseDate <= state.now else { return false }
      if (record.expirationDate ?? .distantFuture) > state.now { return true }
      // Lapsed: only the latest transaction, in its billing grace period, still entitles.
      guard let index = renewalIndex(group, record.ownership, in: state),
        latest(of: state.renewals[index], in: state)?.id == record.id
      else { return false }
      return gracePeriodEnd(of: state.renewals[index], in: state).map { state.now < $0 } ?? false
    }
  }

  // MARK: - Buying

  /// Charges for `product` and records its transaction, applying the group's rules. A deferred
  /// plan change records nothing: it returns the current transaction.
  func add(
    _ product: Product, to state: inout State, offerID: String?, introductory: Bool? = nil,
    ownership: TransactionOwnership = .purchased, winBackOfferID: String? = nil
  ) -> Record {
    state.nextID += 1
    var record = Record(
      id: state.nextID, originalID: state.nextID, productID: product.id, ownership: ownership,
      purchaseDate: state.now, expirationDate: nil, revocationDate: nil, isFinished: false,
      isUpgraded: false, offerID: offerID, isIntroductory: false)
    if case .autoRenewable(let group, let level, let period) = product.kind {
      let hadHistory = state.records.contains { products[$0.productID]?.group == group }
      record.isIntroductory =
        product.hasIntroductoryOffer && (introductory ?? (!hadHistory && offerID == nil))
      if let index = renewalIndex(group, ownership, in: state) {
        let renewal = state.renewals[index]
        record.originalID = renewal.originalID
        if let current = latest(of: renewal, in: state), isEntitling(current, in: state),
          let currentIndex = state.records.firstIndex(of: current),
          case .autoRenewable(_, let currentLevel, let currentPeriod)? =
            products[current.productID]?.kind
        {
          if level > currentLevel || (level == currentLevel && period != currentPeriod) {
            // A downgrade, or a crossgrade to another duration: nothing now; the next renewal.
            state.nextID -= 1
            state.renewals[index].preference = product.id
            state.renewals[index].willAutoRenew = true
            if ownership == .purchased {
              notify(.didChangeRenewalPref, .downgrade, about: current, in: &state)
            }
            return current
          }
          // An upgrade, or a crossgrade of the same duration: at once, ending the current one.
          state.records[currentIndex].isUpgraded = true
        }
        state.renewals[index] = Renewal(
          group: group, ownership: ownership, originalID: renewal.originalID, preference: product.id
        )
      } else {
        state.renewals.append(
          Renewal(group: group, ownership: ownership, originalID: record.id, preference: product.id)
        )
      }
      record.expirationDate = state.now.addingTimeInterval(period)
      if let winBack = product.winBackOffers.first(where: { $0.id == winBackOfferID }),
        let index = renewalIndex(group, ownership, in: state)
      {
        record.winBackOfferID = winBack.id
        state.redeemedWinBacks.insert(winBack.id)
        state.renewals[index].winBackOfferID = winBack.id
        state.renewals[index].winBackRenewalsLeft = winBack.periods - 1
      }
    }
    if ownership == .purchased {
      state.charges.append(
        Charge(
          productID: product.id, offerID: offerID, isIntroductory: record.isIntroductory,
          winBackOfferID: record.winBackOfferID))
    }
    state.records.append(record)
    if ownership == .purchased {
      if let group = product.group {
        let upgraded = state.records.contains {
          $0.isUpgraded && products[$0.productID]?.group == group
            && $0.originalID == record.originalID
        }
        let earlier = state.records.contains {
          $0.id != record.id && products[$0.productID]?.group == group && $0.ownership == .purchased
        }
        if upgraded {
          notify(.didChangeRenewalPref, .upgrade, about: record, in: &state)
        } else if winBackOfferID != nil || offerID != nil {
          notify(.offerRedeemed, earlier ? .resubscribe : .initialBuy, about: record, in: &state)
        } else {
          notify(.subscribed, earlier ? .resubscribe : .initialBuy, about: record, in: &state)
        }
      } else {
        notify(.oneTimeCharge, about: record, in: &state)
      }
    }
    return record
  }

  // MARK: - The lifecycle

  /// Runs every renewal, billing retry end and lapse due up to `date`, in order, then sends the
  /// renewals through `Transaction.updates` and wakes what waited on the clock until then.
  func advance(to date: Date) {
    let (renewed, woken): ([Record], [CheckedContinuation<Void, any Error>]) = withState { state in
      var renewed: [Record] = []
      for _ in 0..<Self.maximumEvents {
        guard let (index, due) = nextEvent(before: date, in: state) else { break }
        state.now = max(state.now, due)
        if let record = runEvent(at: index, in: &state) { renewed.append(record) }
      }
      state.now = max(state.now, date)
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers[id] = nil }
      return (renewed, due.sorted { $0.key < $1.key }.map(\.value.continuation))
    }
    for record in renewed { emit(record) }
    for continuation in woken { continuation.resume() }
  }

  // MARK: - The clock

  /// Waits until the model's clock reaches `deadline`: a store launched on the model
  /// (`launch(_:on:)`) asks the App Store again when a test moves the clock on, not in real time.
  public func sleep(until deadline: Date) async throws {
    let id = withState { state in
      state.nextSleeper += 1
      return state.nextSleeper
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready: Bool? = withState { state in
          if Task.isCancelled { return nil }
          if deadline <= state.now { return true }
          state.sleepers[id] = (deadline, continuation)
          return false
        }
        switch ready {
        case nil: continuation.resume(throwing: CancellationError())
        case true?: continuation.resume()
        case false?: break
        }
      }
    } onCancel: {
      let sleeper = withState { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// The earliest renewal or end of billing retry due by `date`.
  private func nextEvent(before date: Date, in state: State) -> (Int, Date)? {
    var next: (Int, Date)?
    for index in state.renewals.indices {
      let renewal = state.renewals[index]
      guard renewal.expirationReason == nil, let current = latest(of: renewal, in: state),
        current.revocationDate == nil
      else { continue }
      let due =
        renewal.retryStarted.map { $0.addingTimeInterval(Self.billingRetryDuration) }
        ?? current.expirationDate ?? .distantFuture
      if due <= date, due < (next?.1 ?? .distantFuture) { next = (index, due) }
    }
    return next
  }

  /// At the period's end: renews, lapses when auto-renew is off, or goes into billing retry when
  /// the payment fails; at the end of billing retry: lapses.
  private func runEvent(at index: Int, in state: inout State) -> Record? {
    let renewal = state.renewals[index]
    if renewal.retryStarted != nil {
      state.renewals[index].expirationReason = .billingError
      if renewal.ownership == .purchased, let current = latest(of: renewal, in: state) {
        notify(.expired, .billingRetry, about: current, in: &state)
      }
      return nil
    }
    guard renewal.willAutoRenew else {
      state.renewals[index].expirationReason = .autoRenewDisabled
      if renewal.ownership == .purchased, let current = latest(of: renewal, in: state) {
        notify(.expired, .voluntary, about: current, in: &state)
      }
      return nil
    }
    // The organizer pays for a shared subscription, never the member.
    if state.paymentFails, renewal.ownership == .purchased {
      state.renewals[index].retryStarted = state.now
      if let current = latest(of: state.renewals[index], in: state) {
        notify(
          .didFailToRenew, state.gracePeriod != nil ? .gracePeriod : nil, about: current, in: &state
        )
      }
      return nil
    }
    return renew(at: index, from: state.now, in: &state)
  }

  /// A renewal of the preferred plan, starting at `start`: charged, recorded, unfinished.
  func renew(at index: Int, from start: Date, in state: inout State) -> Record? {
    let renewal = state.renewals[index]
    guard let product = products[renewal.preference], let period = product.period else {
      return nil
    }
    state.nextID += 1
    var record = Record(
      id: state.nextID, originalID: renewal.originalID, productID: product.id,
      ownership: renewal.ownership, purchaseDate: start,
      expirationDate: start.addingTimeInterval(period), revocationDate: nil, isFinished: false,
      isUpgraded: false, offerID: nil, isIntroductory: false)
    // A win-back offer of several periods prices the renewals it covers.
    if renewal.winBackRenewalsLeft > 0 {
      record.winBackOfferID = renewal.winBackOfferID
      state.renewals[index].winBackRenewalsLeft -= 1
    }
    if renewal.ownership == .purchased {
      state.charges.append(
        Charge(
          productID: product.id, offerID: nil, isIntroductory: false, isRenewal: true,
          winBackOfferID: record.winBackOfferID))
    }
    state.records.append(record)
    if renewal.ownership == .purchased {
      notify(.didRenew, about: record, in: &state)
    }
    return record
  }

  // MARK: - Status

  func renewalIndex(_ group: String, _ ownership: TransactionOwnership, in state: State) -> Int? {
    state.renewals.firstIndex { $0.group == group && $0.ownership == ownership }
  }

  /// The subscription's newest transaction: what its status reports.
  func latest(of renewal: Renewal, in state: State) -> Record? {
    state.records.last { $0.originalID == renewal.originalID && $0.ownership == renewal.ownership }
  }

  func gracePeriodEnd(of renewal: Renewal, in state: State) -> Date? {
    guard renewal.expirationReason == nil, let started = renewal.retryStarted,
      let grace = state.gracePeriod
    else { return nil }
    return started.addingTimeInterval(grace)
  }

  func status(of index: Int, in state: State) -> SubscriptionStatus? {
    let renewal = state.renewals[index]
    guard let current = latest(of: renewal, in: state) else { return nil }
    let graceEnd = gracePeriodEnd(of: renewal, in: state)
    let inRetry = renewal.retryStarted != nil && renewal.expirationReason == nil
    let subscriptionState: SubscriptionStatus.State
    if current.revocationDate != nil {
      subscriptionState = .revoked
    } else if renewal.expirationReason != nil {
      subscriptionState = .expired
    } else if inRetry {
      subscriptionState =
        graceEnd.map { state.now < $0 } == true ? .inGracePeriod : .inBillingRetryPeriod
    } else {
      subscriptionState = .subscribed
    }
    return SubscriptionStatus(
      state: subscriptionState, productID: current.productID, transactionID: current.id,
      originalID: renewal.originalID, ownership: renewal.ownership,
      expirationDate: current.expirationDate,
      renewalInfo: SubscriptionRenewalInfo(
        currentProductID: current.productID, willAutoRenew: renewal.willAutoRenew,
        autoRenewPreference: renewal.preference, isInBillingRetry: inRetry,
        gracePeriodExpirationDate: graceEnd, expirationReason: renewal.expirationReason,
        eligibleWinBackOfferIDs: renewal.ownership == .purchased
          ? eligibleWinBackOffers(in: renewal.group, state: state).map(\.id) : []))
  }
}
