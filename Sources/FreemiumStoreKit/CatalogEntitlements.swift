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
    for owned in purchases {
      guard let product = Product(rawValue: owned.productID), productGrants[product] != nil else {
        ignored.append(.init(productID: owned.productID, reason: .unknownProduct))
        continue
      }
      // A trial once started is taken, running or ended; one refunded may be started again.
      if trials[product] != nil && !owned.isRevoked { takenTrials.insert(product) }
      switch reasonToIgnore(owned, product: product, kept: kept, now: now) {
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
        if let period = passes[product] {
          let end = owned.purchaseDate.flatMap { Self.end(of: period, from: $0) }
          notes.append(.init(product: product, note: .pass(start: owned.purchaseDate, end: end)))
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

  /// Why `owned` doesn't entitle, or nil when it does.
  func reasonToIgnore(
    _ owned: OwnedProduct, product: Product, kept: (age: Int?, limit: Int?)?, now: Date?
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
    if let period = passes[product], let now, let start = owned.purchaseDate,
      let end = Self.end(of: period, from: start), now >= end
    {
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
