import Foundation

/// A change from the customer's subscription to another plan of its group, for an account screen
/// ("Change plan"): what changes, and when the App Store makes it.
public struct PlanChange<Product: Hashable & Sendable, Feature: Hashable & Sendable>: Hashable,
  Sendable
{
  /// How the App Store ranks the change ("Auto-renewable subscriptions", ranking subscriptions
  /// within a group; "Handling subscriptions billing").
  public enum Kind: String, Hashable, Sendable, Codable {
    /// A higher level of service: it starts at once, and the App Store refunds the unused part of
    /// the current period.
    case upgrade
    /// A lower level of service: it starts at the next renewal; the current plan stays until then.
    case downgrade
    /// The same level: at once when the period is the same, else at the next renewal.
    case crossgrade
  }

  /// When the App Store makes the change.
  public enum Timing: String, Hashable, Sendable, Codable {
    /// At once, charged now, with the unused part of the current period refunded.
    case immediately
    /// At the next renewal: nothing is charged now, and the current plan stays until then.
    case nextRenewal
  }

  /// The plan the customer subscribes to now.
  public var from: Product
  /// The plan they would change to.
  public var to: Product
  public var kind: Kind
  public var timing: Timing
  /// Features `to` has that `from` hasn't.
  public var adds: Set<Feature>
  /// Features `from` has that `to` hasn't: the customer loses them when the change takes effect.
  public var removes: Set<Feature>
  /// Each plan's renewal period (`P1M`, `P1Y`, …), when the plan says it.
  public var fromPeriod: String?
  public var toPeriod: String?
  /// Each plan's regular price, in ten-thousandths of the main storefront's currency.
  public var fromPrice: Int?
  public var toPrice: Int?

  public init(
    from: Product, to: Product, kind: Kind, timing: Timing, adds: Set<Feature>,
    removes: Set<Feature>, fromPeriod: String?, toPeriod: String?, fromPrice: Int?, toPrice: Int?
  ) {
    self.from = from
    self.to = to
    self.kind = kind
    self.timing = timing
    self.adds = adds
    self.removes = removes
    self.fromPeriod = fromPeriod
    self.toPeriod = toPeriod
    self.fromPrice = fromPrice
    self.toPrice = toPrice
  }
}

extension PlanChange: Codable where Product: Codable, Feature: Codable {}

extension CatalogRules {
  public typealias Change = PlanChange<Product, Feature>

  /// How the App Store ranks a change from `current` to `other`, another plan of its group, and when
  /// it makes it: a higher level at once (the unused time refunded), a lower level at the next
  /// renewal, the same level at once for the same period and at the next renewal for another
  /// ("Auto-renewable subscriptions", ranking; "Handling subscriptions billing"). A plan without a
  /// level is at level 1; one without a period is another period, so the change is never said to
  /// charge now when the App Store may wait.
  public func change(from current: Product, to other: Product) -> (
    kind: PlanChange<Product, Feature>.Kind, timing: PlanChange<Product, Feature>.Timing
  ) {
    let level = subscriptionLevels[current] ?? 1
    let otherLevel = subscriptionLevels[other] ?? 1
    if otherLevel < level { return (.upgrade, .immediately) }
    if otherLevel > level { return (.downgrade, .nextRenewal) }
    let period = subscriptionPeriods[current]
    let samePeriod = period != nil && period == subscriptionPeriods[other]
    return (.crossgrade, samePeriod ? .immediately : .nextRenewal)
  }

  /// The plan changes open to a subscriber: for each subscription of their own (a family member
  /// can't change the organizer's, "Supporting Family Sharing in your app"), every other plan of its
  /// group on sale, with what it changes and when. A plan sold only to a tier in place of another is
  /// open to that tier alone, in place of the plan it stands for; a free trial already taken isn't
  /// open again. The paywall sells none of these that adds nothing: this list is for an account
  /// screen, where a subscriber changes period, family sharing or level.
  public func planChanges(for entitlements: Entitlements, tier: Tier?) -> [Change] {
    let legacy = tier.flatMap { legacyPrices[$0] } ?? [:]
    let own = entitlements.activeProducts.subtracting(entitlements.familySharedOnly)
      .filter { subscriptionGroups[$0] != nil }.sorted { $0.rawValue < $1.rawValue }
    var changes: [Change] = []
    for current in own {
      let group = subscriptionGroups[current]
      var seen: Set<Product> = [current]
      for regular in forSale where subscriptionGroups[regular] == group {
        var other = regular
        if case .legacyProduct(let twin)? = legacy[regular]?.charge { other = twin }
        guard !legacyOnly.contains(other) || other != regular, seen.insert(other).inserted,
          !entitlements.takenTrials.contains(other)
        else { continue }
        let (kind, timing) = change(from: current, to: other)
        let features = productFeatures[current] ?? []
        let otherFeatures = productFeatures[other] ?? []
        changes.append(
          Change(
            from: current, to: other, kind: kind, timing: timing,
            adds: otherFeatures.subtracting(features), removes: features.subtracting(otherFeatures),
            fromPeriod: subscriptionPeriods[current], toPeriod: subscriptionPeriods[other],
            fromPrice: prices[current], toPrice: prices[other]))
      }
    }
    return changes
  }
}
