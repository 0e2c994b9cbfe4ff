// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// Reading the App Store: the app transaction, what the customer owns, pending plan changes, and
/// the verified facts kept for when it can't be reached.
extension PlanStore {
  /// Whether what the customer owns was read from the App Store. A refunded download is a proven
  /// new customer; an original purchase that can't be verified (`noProof`) still has its
  /// transactions read, and the upsell withholds only what a legacy tier could own.
  var knowsOwnership: Bool {
    state.isLoaded && state.proof != .unknown
  }

  func read(appTransaction given: AppTransactionRead?, including extra: StoreTransaction?)
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
    // A pass bought while one ran starts where that one ends: its expiry needs every purchase,
    // and current entitlements hold the latest only.
    let passIDs = Set(Plan.passes.map(\.rawValue))
    if !passIDs.isEmpty {
      var known = Set(transactions.map(\.id))
      for transaction in await storeFront.transactionHistory(for: passIDs)
      where known.insert(transaction.id).inserted {
        transactions.append(transaction)
      }
    }
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
  func readPendingChanges(of transactions: [StoreTransaction]) async
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

  func apply(
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
    var renewalDates: [Plan.Product: Date] = [:]
    for transaction in transactions
    where transaction.isVerified && !transaction.isRevoked && transaction.ownership == .purchased {
      guard let end = transaction.expirationDate,
        let product = Plan.Product(rawValue: transaction.productID)
      else { continue }
      renewalDates[product] = end
    }
    state = State(
      purchase: purchase,
      decision: decision,
      entitlements: entitlements,
      proof: proof,
      isLoaded: true,
      pendingChanges: pending,
      redeemedCodes: redeemed,
      provisionalGrant: provisional,
      renewalDates: renewalDates)
    scheduleRecheck()
  }

  /// The provisional grant while nothing verified decides: only when the plan sets one, the app's
  /// evidence says yes, and this device's window is open. The first grant starts the window; each
  /// later look remembers the time, so a clock set back never reopens it.
  func provisionalGrant(now: Date) -> ProvisionalGrant? {
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

  func cachedRecord(now: Date) -> VerifiedPurchaseRecord? {
    cache.load().flatMap { VerifiedPurchaseRecord.decode($0, now: now) }
  }
}
