// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// Plan changes on an account screen: another period, family or individual, another level of the
/// group. The paywall never sells a plan that adds no feature (`switchAddsNothing`); here a
/// subscriber changes plan, and the App Store makes the change by its rules ("Auto-renewable
/// subscriptions", ranking; "Handling subscriptions billing"): an upgrade at once with the unused
/// time refunded, a downgrade or a crossgrade to another period at the next renewal.
extension PlanStore where Plan: CatalogPlan {
  /// A plan the subscriber may change to, and where the change stands.
  public struct PlanOption: Hashable, Sendable {
    /// Where the change stands.
    public enum Status: Hashable, Sendable {
      /// Open: choosing it asks the App Store for the change, which makes it at `change.timing`.
      case open
      /// Already chosen: the App Store starts it at the next renewal, on this date (nil when it
      /// didn't say). Never offered again while it waits.
      case pending(Date?)
      /// The plan in use now, while a change away from it is pending: choosing it undoes the
      /// change, and the plan renews as before.
      case keepsCurrent
    }

    /// What the change changes and when the App Store makes it. For `keepsCurrent`, the plan in
    /// use to itself.
    public var change: PlanChange<Plan.Product, Plan.PlanFeature>
    public var status: Status
    /// When it would take effect: now for an immediate change, else the current period's end (nil
    /// when the App Store didn't say).
    public var takesEffect: Date?

    public init(
      change: PlanChange<Plan.Product, Plan.PlanFeature>, status: Status, takesEffect: Date?
    ) {
      self.change = change
      self.status = status
      self.takesEffect = takesEffect
    }
  }

  /// The plans the subscriber may change to, for an account screen, in the plan's order: none until
  /// what the customer owns is known, and none for a family member's shared subscription (the
  /// organizer's). A change waiting for the next renewal is listed as pending with its date, and
  /// the plan in use beside it, to undo it.
  public func planOptions() -> [PlanOption] {
    guard knowsOwnership else { return [] }
    let now = self.now()
    var options: [PlanOption] = []
    for change in Plan.catalogRules.planChanges(for: state.entitlements, tier: state.decision.tier)
    {
      let renewal = state.renewalDates[change.from]
      if let pending = state.pendingChanges[change.from] {
        if pending.product == change.to {
          options.append(
            PlanOption(change: change, status: .pending(pending.date), takesEffect: pending.date))
          continue
        }
      }
      let takesEffect = change.timing == .immediately ? now : renewal
      options.append(PlanOption(change: change, status: .open, takesEffect: takesEffect))
    }
    // The plan in use, to undo a pending change: it renews as before.
    for (current, pending) in state.pendingChanges.sorted(by: { $0.key.rawValue < $1.key.rawValue })
    where options.contains(where: { $0.change.from == current }) {
      let stay = PlanChange<Plan.Product, Plan.PlanFeature>(
        from: current, to: current, kind: .crossgrade, timing: .immediately, adds: [],
        removes: [], fromPeriod: Plan.catalogRules.subscriptionPeriods[current],
        toPeriod: Plan.catalogRules.subscriptionPeriods[current],
        fromPrice: Plan.catalogRules.prices[current], toPrice: Plan.catalogRules.prices[current])
      options.append(PlanOption(change: stay, status: .keepsCurrent, takesEffect: pending.date))
    }
    return options
  }

  /// Changes the subscriber's plan to `product`, one of `planOptions()`, through StoreKit
  /// (`Product.purchase`, as Apple's subscription management does): `.purchased` for a change made
  /// at once, `.scheduled` with its date for one at the next renewal (nothing charged now), `.kept`
  /// when choosing the plan in use undid a pending change. A pending change is refused
  /// (`alreadySwitched`), and a plan not open to the customer is `notOffered`. A user action: may ask
  /// the customer to sign in.
  public func changePlan(to product: Plan.Product) async -> Outcome {
    await refresh()
    if !knowsOwnership {
      await read(appTransaction: await storeFront.refreshAppTransaction(), including: nil)
    }
    guard knowsOwnership else { return .refused(.ownershipUnknown) }
    guard let option = planOptions().first(where: { $0.change.to == product }) else {
      return .refused(.notOffered)
    }
    if case .pending = option.status, let change = pendingChange(to: product) {
      return .refused(.alreadySwitched(change))
    }
    let attempt: PurchaseAttempt
    do {
      attempt = try await storeFront.purchase(productID: product.rawValue, offer: nil)
    } catch {
      let failure = error as? StoreFrontError
      if failure?.isUserCancellation == true { return .cancelled }
      return .failed(failure?.message ?? error.localizedDescription)
    }
    let outcome = await complete(attempt, for: product)
    if option.status == .keepsCurrent, outcome == .purchased(product) { return .kept(product) }
    return outcome
  }
}
