import Foundation

extension CatalogRules {
  /// What the rules read in the customer's transactions: what they may use, and why each
  /// transaction counts or doesn't.
  public struct Resolution: Hashable, Sendable {
    public var entitlements: Entitlements
    /// Transactions that don't entitle, in the order read, by raw product id.
    public var ignored: [Ignored]
    /// What was noticed about transactions that do, in the order read.
    public var notes: [Noted]

    public struct Ignored: Hashable, Sendable {
      public var productID: String
      public var reason: IgnoreReason
    }

    public struct Noted: Hashable, Sendable {
      public var product: Product
      public var note: EntitlementNote
    }
  }

  /// What a customer may use: free features on `platform`, what `tier` keeps, and what the
  /// transactions that count grant.
  ///
  /// - Parameters:
  ///   - kept: when the original purchase didn't verify, the age of the last verified result and
  ///     how many days one may stand in (`CohortRules.daysKept(for:)`); nil when it verified.
  ///   - now: the moment trials and passes are judged at, never the device clock alone; nil ends
  ///     every trial and keeps every pass.
  public func resolve(
    tier: Tier?, freeOn platform: Platform?, purchases: [OwnedProduct],
    kept: (age: Int?, limit: Int?)?, now: Date?
  ) -> Resolution {
    var features: [Feature: [Grant]] = [:]
    func grant(_ feature: Feature, _ reason: Grant) {
      if !(features[feature]?.contains(reason) ?? false) {
        features[feature, default: []].append(reason)
      }
    }
    if let platform {
      for feature in freeFeatures[platform] ?? [] { grant(feature, .free) }
    }
    if let tier {
      for feature in tierFeatures[tier] ?? [] { grant(feature, .tier(tier)) }
    }
    var active: Set<Product> = []
    var bought: Set<Product> = []
    var takenTrials: Set<Product> = []
    var ignored: [Resolution.Ignored] = []
    var notes: [Resolution.Noted] = []
    let periods = passPeriods(of: purchases)
    for (index, owned) in purchases.enumerated() {
      guard let product = Product(rawValue: owned.productID), productGrants[product] != nil else {
        ignored.append(.init(productID: owned.productID, reason: .unknownProduct))
        continue
      }
      // A trial once started is taken, running or ended; one refunded may be started again.
      if trials[product] != nil && !owned.isRevoked { takenTrials.insert(product) }
      let passPeriod = periods[index]
      switch reasonToIgnore(owned, product: product, passPeriod: passPeriod, kept: kept, now: now) {
      case .some(let reason):
        ignored.append(.init(productID: owned.productID, reason: reason))
      case .none:
        if owned.ownership == .familyShared && !familyShareable.contains(product) {
          notes.append(.init(product: product, note: .sharedThoughNotShareable))
        }
        if !owned.isVerified {
          notes.append(.init(product: product, note: .keptUnverified(age: kept?.age)))
        }
        if let period = trials[product], let start = owned.purchaseDate,
          let end = Self.end(of: period, from: start)
        {
          notes.append(.init(product: product, note: .trialRunning(start: start, end: end)))
        }
        if passes[product] != nil {
          notes.append(
            .init(product: product, note: .pass(start: passPeriod?.start, end: passPeriod?.end)))
        }
        active.insert(product)
        if owned.ownership != .familyShared { bought.insert(product) }
      }
    }
    for product in active.sorted(by: { $0.rawValue < $1.rawValue }) {
      for feature in productGrants[product] ?? [] { grant(feature, .product(product)) }
      for inner in (productContents[product] ?? []).sorted(by: { $0.rawValue < $1.rawValue }) {
        for feature in productGrants[inner] ?? [] { grant(feature, .bundle(product, via: inner)) }
      }
    }
    let entitlements = Entitlements(
      features: features, activeProducts: active, takenTrials: takenTrials,
      familySharedOnly: active.subtracting(bought))
    return Resolution(entitlements: entitlements, ignored: ignored, notes: notes)
  }

  /// Each pass purchase's period, by its index in `purchases`. Apple sells a non-renewing
  /// subscription again while one runs and leaves the duration to the app ("Non-renewing
  /// subscriptions": the app computes the expiration): a pass bought while one of the same product
  /// runs starts where that one ends, so no paid day is lost. A refunded pass removes its own period
  /// only: the passes after it start earlier. One whose purchase date is unknown has none (kept).
  public func passPeriods(of purchases: [OwnedProduct]) -> [Int: (start: Date, end: Date)] {
    var byProduct: [Product: [(index: Int, bought: Date)]] = [:]
    for (index, owned) in purchases.enumerated() where !owned.isRevoked {
      guard let product = Product(rawValue: owned.productID), passes[product] != nil,
        let bought = owned.purchaseDate
      else { continue }
      byProduct[product, default: []].append((index, bought))
    }
    var periods: [Int: (start: Date, end: Date)] = [:]
    for (product, bought) in byProduct {
      guard let period = passes[product] else { continue }
      var runningEnd: Date?
      for purchase in bought.sorted(by: { ($0.bought, $0.index) < ($1.bought, $1.index) }) {
        let start = max(purchase.bought, runningEnd ?? purchase.bought)
        guard let end = Self.end(of: period, from: start) else { continue }
        periods[purchase.index] = (start, end)
        runningEnd = end
      }
    }
    return periods
  }

  /// Why `owned` doesn't entitle, or nil when it does. `passPeriod`: its period when it is a pass
  /// (`passPeriods(of:)`).
  func reasonToIgnore(
    _ owned: OwnedProduct, product: Product, passPeriod: (start: Date, end: Date)?,
    kept: (age: Int?, limit: Int?)?, now: Date?
  ) -> IgnoreReason? {
    if consumables.contains(product) { return .consumable }
    if owned.isRevoked { return .revoked }
    if owned.isExpired { return .expired }
    if let period = trials[product] {
      // A trial is free: unless a verified purchase date and a trusted now say it is running, it
      // has ended, and no one who paid loses anything.
      guard owned.isVerified else { return .trialUnverified }
      guard let start = owned.purchaseDate, let end = Self.end(of: period, from: start) else {
        return .trialStartUnknown
      }
      guard let now else { return .trialTimeUnknown }
      if now >= end { return .trialEnded(end) }
    }
    // A paid pass ends only when its dates say so: unknown dates keep it, so no payer is locked out.
    if passes[product] != nil, let now, let end = passPeriod?.end, now >= end {
      return .passEnded(end)
    }
    if owned.ownership == .familyShared && !familySharingEntitles { return .familySharingIgnored }
    if !owned.isVerified {
      // A failed signature is not proof of cracking: a recent verified result stands in, if allowed.
      guard let age = kept?.age, let limit = kept?.limit, age <= limit else {
        return .unverified(limit: kept?.limit)
      }
    }
    return nil
  }
}
