// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// A day in seconds: how far past a period's end a journey moves the model's clock.
private let day: TimeInterval = 86_400

/// A plan's customers walked through `AppStoreModel`, which enforces Apple's rules: what the plan
/// offers, the App Store sells, once. The journeys are the same for every plan; a plan's generated
/// tests give them its products and customers, one test per guard.
///
/// A journey checks everything it can and throws `JourneyFailure` with every check that failed, so
/// a test that runs it (`try await journeys.offersAreSoldOnce()`) fails with all of them; it needs
/// no test framework, so an app's test target links it whatever framework it uses.
@MainActor
public struct CatalogJourneys<Plan: CatalogPlan> {
  public typealias Store = PlanStore<Plan>
  public typealias Product = Plan.Product

  /// The plan's products as App Store Connect declares them.
  public var products: [AppStoreModel.Product]
  /// The model's clock when a journey starts: after every release of the plan.
  public var start: Date
  /// A customer in no legacy tier, who may buy what the plan sells.
  public var newCustomer: AppTransactionFacts
  /// The platform `newCustomer` runs the app on.
  public var platform: Plan.Platform

  public init(
    products: [AppStoreModel.Product], start: Date, newCustomer: AppTransactionFacts,
    on platform: Plan.Platform
  ) {
    self.products = products
    self.start = start
    self.newCustomer = newCustomer
    self.platform = platform
  }

  /// The App Store selling `products` (the plan's, unless given) to `facts`' customer, set up by
  /// `prepare`; the app launched on `platform` (`newCustomer`'s, unless given).
  public func launch(
    _ facts: AppTransactionFacts?, on platform: Plan.Platform? = nil,
    selling products: [AppStoreModel.Product]? = nil, _ prepare: (AppStoreModel) -> Void = { _ in }
  ) async -> (AppStoreModel, Store) {
    let model = AppStoreModel(
      products: products ?? self.products, appTransaction: facts, now: start)
    prepare(model)
    return (model, await model.launch(Plan.self, on: platform ?? self.platform))
  }

  // MARK: - The engine's customers

  /// A customer of the engine's matrix, with what the engine offers them.
  public struct EngineCustomer: Sendable {
    public var name: String
    public var purchase: OriginalPurchaseFacts<Plan.Platform>
    public var owns: [OwnedProduct]
    public var isVolumePurchase: Bool
    /// The products the engine offers, in its order.
    public var offers: [Product]

    public init(
      name: String, purchase: OriginalPurchaseFacts<Plan.Platform>, owns: [OwnedProduct] = [],
      isVolumePurchase: Bool = false, offers: [Product]
    ) {
      self.name = name
      self.purchase = purchase
      self.owns = owns
      self.isVolumePurchase = isVolumePurchase
      self.offers = offers
    }
  }

  /// The name the App Store gives `platform`, or nil when it names none (iPadOS runs the iOS app).
  static func storePlatform(_ platform: Plan.Platform) -> StorePlatform? {
    StorePlatform.allCases.first { Plan.platform(for: $0) == platform }
  }

  /// Whether the App Store can produce `customer` as the model plays it: a verified app
  /// transaction with its version and date, an original platform StoreKit names, no Volume
  /// Purchase install, and owned products the customer bought, verified, neither revoked nor
  /// expired, no two plans of one group, no free trial (which needs a purchase date). Other
  /// customers are the matrix's alone.
  public static func storeCanProduce(_ customer: EngineCustomer) -> Bool {
    let purchase = customer.purchase
    let rules = Plan.catalogRules
    let products = customer.owns.map { Product(rawValue: $0.productID) }
    let groups = products.compactMap { $0.flatMap { rules.subscriptionGroups[$0] } }
    return purchase.verification == .verified && purchase.originalAppVersion != nil
      && purchase.originalPurchaseDate != nil && !customer.isVolumePurchase
      && (purchase.originalPlatform.map { storePlatform($0) != nil } ?? true)
      && Set(groups).count == groups.count
      && zip(customer.owns, products).allSatisfy { owned, product in
        owned.ownership == .purchased && owned.isVerified && !owned.isRevoked && !owned.isExpired
          && (product.map { rules.trials[$0] == nil } ?? true)
      }
  }

  /// The engine's customers through the store reading the App Store model selling `products`, at
  /// `start`: the store offers what the engine offers, in its order, and may sell exactly that.
  /// Customers the App Store can't produce (`storeCanProduce`) are left out; at least one must
  /// remain.
  public static func checkStoreAgrees(
    with customers: [EngineCustomer], selling products: [AppStoreModel.Product], at start: Date
  ) async throws {
    var check = JourneyChecks("the store offers and sells what the engine offers")
    let producible = customers.filter(storeCanProduce)
    check.expect(!producible.isEmpty, "no customer of \(customers.count) the App Store can produce")
    let rules = Plan.catalogRules
    for customer in producible {
      let purchase = customer.purchase
      let facts = AppTransactionFacts(
        appTransactionID: "agreement", originalAppVersion: purchase.originalAppVersion ?? "",
        originalPurchaseDate: purchase.originalPurchaseDate ?? start,
        environment: purchase.environment,
        originalPlatform: purchase.originalPlatform.flatMap(storePlatform),
        isRevoked: purchase.isRevoked)
      let model = AppStoreModel(products: products, appTransaction: facts, now: start)
      for owned in customer.owns { model.purchaseElsewhere(owned.productID) }
      let store = Store(
        platform: purchase.platform, storeFront: model, cache: InMemoryPurchaseCache(),
        now: { start })
      await store.refresh()
      let offered = store.upsell.offers.map(\.product)
      check.expect(
        offered == customer.offers,
        "\(customer.name): offered \(offered.map(\.rawValue)), the engine \(customer.offers.map(\.rawValue))"
      )
      for product in products.compactMap({ Product(rawValue: $0.id) })
      where !rules.consumables.contains(product) {
        let sells = store.mayBuy(product)
        check.expect(
          sells == customer.offers.contains(product),
          "\(customer.name): \(product.rawValue) \(sells ? "may" : "may not") be bought")
      }
    }
    try check.finish()
  }

  // MARK: - A new customer

  /// A new customer buys every offer in turn: the App Store sells each, and charges none twice.
  public func offersAreSoldOnce() async throws {
    var check = JourneyChecks("everything offered is sold once")
    let (model, store) = await launch(newCustomer)
    var bought: [Product] = []
    while let offer = store.upsell.offers.first, bought.count < products.count {
      let outcome = await store.purchase(offer.product)
      check.expect(outcome == .purchased(offer.product), "\(offer.product.rawValue): \(outcome)")
      bought.append(offer.product)
    }
    check.expect(!bought.isEmpty, "nothing was offered to a new customer")
    let charged = model.charges.map(\.productID)
    check.expect(Set(charged).count == charged.count, "charged twice: \(charged)")
    try check.finish()
  }

  /// App Review's fresh sandbox account, in the plan's tier for testers, buys `product` at that
  /// tier's legacy price, signed by the app's server.
  public func sandboxTesterBuys(_ product: Product) async throws {
    var check = JourneyChecks("a sandbox tester buys the testers' legacy price")
    var tester = newCustomer
    tester.environment = .sandbox
    let (model, store) = await launch(tester)
    // The app's server, signing whatever the store asks for; the App Store takes only its signatures.
    store.offerSigner = model.offerSigner()
    check.expect(
      store.upsell.offers.contains { $0.product == product && $0.legacyCharge != nil },
      "\(product.rawValue) is not offered at a legacy price: \(store.upsell.offers)")
    check.expect(
      await store.purchase(product) == .purchased(product), "\(product.rawValue) not sold")
    try check.finish()
  }

  // MARK: - Paid-app buyers

  /// A legacy buyer in `cohort` is refused `product`, which overlaps their tier, and charged nothing.
  public func legacyBuyerRefused(
    _ product: Product, buyer: AppTransactionFacts, on platform: Plan.Platform,
    cohort: PlanCohort<Plan.PlanTier>
  ) async throws {
    var check = JourneyChecks("a legacy buyer is refused what overlaps their tier")
    let (model, store) = await launch(buyer, on: platform)
    check.expect(store.decision.cohort == cohort, "cohort \(store.decision.cohort), not \(cohort)")
    check.expect(!store.mayBuy(product), "\(product.rawValue) may be bought")
    let refused = await store.purchase(product)
    let withheld = store.upsell.withheld[product].map { Store.Outcome.refused(.withheld($0)) }
    check.expect(
      refused == withheld, "\(product.rawValue): \(refused), not \(String(describing: withheld))")
    check.expect(model.charges.isEmpty, "charged: \(model.charges)")
    try check.finish()
  }

  /// A paid-app buyer who never subscribed buys every legacy price offered, `product` among them;
  /// a legacy product is sold to its tier and to nobody else.
  public func paidAppBuyerBuysLegacyPrices(
    including product: Product, buyer: AppTransactionFacts, on platform: Plan.Platform
  ) async throws {
    var check = JourneyChecks("a paid-app buyer buys every legacy price offered")
    let (model, store) = await launch(buyer, on: platform)
    let legacy = store.upsell.offers.filter { $0.legacyCharge != nil }.map(\.product)
    check.expect(legacy.contains(product), "\(product.rawValue) is not offered at a legacy price")
    for offered in legacy {
      check.expect(
        await store.purchase(offered) == .purchased(offered), "\(offered.rawValue) not sold")
    }
    let charged = model.charges.map(\.productID)
    check.expect(charged == legacy.map(\.rawValue), "charged \(charged)")
    let (_, newcomer) = await launch(newCustomer)
    check.expect(!newcomer.mayBuy(product), "a new customer may buy \(product.rawValue)")
    try check.finish()
  }

  /// A paid-app buyer who subscribed before (refunded since, so no introductory offer by that
  /// alone) gets `product`'s introductory offer, signed eligibility and all.
  public func legacyPriceAsIntroductoryOffer(
    _ product: Product, buyer: AppTransactionFacts, on platform: Plan.Platform
  ) async throws {
    var check = JourneyChecks("a paid-app buyer who subscribed before gets the introductory offer")
    let (model, store) = await launch(buyer, on: platform) { model in
      _ = model.purchaseElsewhere(product.rawValue)
      model.refund(product.rawValue)
    }
    store.offerSigner = model.offerSigner()
    let offered = store.upsell.offers.first { $0.product == product }
    check.expect(
      offered?.legacyCharge == .introductoryOffer,
      "\(product.rawValue): \(String(describing: offered?.legacyCharge))")
    check.expect(
      await store.purchase(product) == .purchased(product), "\(product.rawValue) not sold")
    check.expect(model.charges.last?.isIntroductory == true, "the signed eligibility was not used")
    try check.finish()
  }

  /// A legacy subscriber who subscribed at the regular price and let it lapse (a former
  /// subscriber, whom the App Store lets have a promotional offer) is offered `product` again at
  /// the legacy price, promotional offer `offerID`.
  public func lapsedLegacySubscriberPaysTheLegacyPrice(
    _ product: Product, offerID: String, buyer: AppTransactionFacts, on platform: Plan.Platform
  ) async throws {
    var check = JourneyChecks("a lapsed legacy subscriber pays the legacy price")
    let (model, store) = await launch(buyer, on: platform) { model in
      _ = model.purchaseElsewhere(product.rawValue)
      model.cancel(product.rawValue)
      model.now = (model.records.last?.expirationDate ?? model.now).addingTimeInterval(day)
    }
    store.offerSigner = model.offerSigner()
    check.expect(!store.entitlements.activeProducts.contains(product), "still subscribed")
    let offer = try check.require(
      store.upsell.offers.first { $0.product == product }, "not offered")
    check.expect(
      offer.legacyCharge == .promotionalOffer(id: offerID),
      "\(product.rawValue): \(String(describing: offer.legacyCharge))")
    check.expect(
      await store.purchase(product) == .purchased(product), "\(product.rawValue) not sold")
    let offers = model.charges.map(\.offerID)
    check.expect(offers == [nil, offerID], "charged with offers \(offers)")
    try check.finish()
  }

  // MARK: - Subscribers

  /// A subscriber to `subscription` buys `lifetime`, and is told the subscription keeps renewing:
  /// the App Store doesn't end it, the customer cancels it in Settings.
  public func subscriberBuysLifetime(_ subscription: Product, lifetime: Product) async throws {
    var check = JourneyChecks("a subscriber buys Lifetime")
    let (model, store) = await launch(newCustomer)
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not subscribed")
    let offer = store.upsell.offers.first { $0.product == lifetime }
    check.expect(
      offer?.keepsRenewing == [subscription],
      "\(lifetime.rawValue) keeps renewing \(String(describing: offer?.keepsRenewing))")
    check.expect(
      await store.purchase(lifetime) == .purchased(lifetime), "\(lifetime.rawValue) not sold")
    let entitled = await model.currentEntitlements().map(\.productID)
    check.expect(entitled.contains(subscription.rawValue), "the subscription ended: \(entitled)")
    try check.finish()
  }

  /// A subscriber to `subscription` switches to `other`, another plan of the group.
  public func subscriberSwitchesPlans(_ subscription: Product, to other: Product) async throws {
    var check = JourneyChecks("a subscriber switches to another plan of the group")
    let (_, store) = await launch(newCustomer)
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not subscribed")
    let offer = store.upsell.offers.first { $0.product == other }
    check.expect(
      offer?.switchesFrom == subscription,
      "\(other.rawValue) switches from \(String(describing: offer?.switchesFrom))")
    check.expect(await store.purchase(other) == .purchased(other), "\(other.rawValue) not sold")
    try check.finish()
  }

  /// A plan of the group that adds nothing to `subscription` is a switch, not an upgrade: not
  /// offered, and refused if bought.
  public func subscriberSwitchIsNoUpgrade(_ subscription: Product, to other: Product) async throws {
    var check = JourneyChecks("a plan of the group that adds nothing is no upgrade")
    let (_, store) = await launch(newCustomer)
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not subscribed")
    check.expect(!store.upsell.offers.contains { $0.product == other }, "\(other.rawValue) offered")
    let reason = Plan.Withheld.switchAddsNothing(from: subscription)
    let withheld = store.upsell.withheld[other]
    check.expect(withheld == reason, "\(other.rawValue) withheld: \(String(describing: withheld))")
    let refused = await store.purchase(other)
    check.expect(refused == .refused(.withheld(reason)), "\(other.rawValue): \(refused)")
    try check.finish()
  }

  /// A subscriber to `subscription` changes to `other` on the account screen, charged once: at the
  /// next renewal (another period or a lower level, nothing charged now) when `atNextRenewal`, else
  /// at once (a higher level, or the same period; the App Store refunds the unused time).
  public func subscriberChangesPlan(
    _ subscription: Product, to other: Product, atNextRenewal: Bool
  ) async throws {
    var check = JourneyChecks("a subscriber changes plan on the account screen")
    let (model, store) = await launch(newCustomer)
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not subscribed")
    let renewal = try check.require(model.records.last?.expirationDate, "no renewal date")
    let option = try check.require(store.planOptions().first { $0.change.to == other }, "no option")
    check.expect(option.status == .open, "the option is \(option.status)")
    if atNextRenewal {
      check.expect(
        option.change.timing == .nextRenewal && option.takesEffect == renewal,
        "takes effect \(option.change.timing), \(String(describing: option.takesEffect))")
      let scheduled = await store.changePlan(to: other)
      check.expect(scheduled == .scheduled(other, from: renewal), "\(scheduled)")
      check.expect(model.charges.map(\.productID) == [subscription.rawValue], "charged now")
      let status = store.planOptions().first { $0.change.to == other }?.status
      check.expect(status == .pending(renewal), "the option is \(String(describing: status))")
      check.expect(!store.mayBuy(other), "\(other.rawValue) may be bought while scheduled")
      let again = await store.changePlan(to: other)
      let switched = Store.Outcome.refused(.alreadySwitched(.init(product: other, date: renewal)))
      check.expect(again == switched, "asked again: \(again)")
      model.now = renewal.addingTimeInterval(day)
      await store.refresh()
    } else {
      check.expect(option.change.timing == .immediately, "takes effect \(option.change.timing)")
      let changed = await store.changePlan(to: other)
      check.expect(changed == .purchased(other), "\(changed)")
    }
    check.expect(store.entitlements.activeProducts.contains(other), "\(other.rawValue) not active")
    let charged = model.charges.map(\.productID)
    check.expect(charged == [subscription.rawValue, other.rawValue], "charged \(charged)")
    try check.finish()
  }

  /// Subscribes to `product`, then lets it lapse: auto-renew off, a day past the period's end.
  func lapse(
    _ product: Product, _ model: AppStoreModel, _ store: Store, _ check: inout JourneyChecks
  ) async throws {
    check.expect(await store.purchase(product) == .purchased(product), "not subscribed")
    check.expect(
      !store.upsell.offers.contains { $0.product == product }, "offered while subscribed")
    model.cancel(product.rawValue)
    model.now = try check.require(model.records.last?.expirationDate, "no expiry")
      .addingTimeInterval(day)
    await store.refresh()
    check.expect(!store.entitlements.activeProducts.contains(product), "active after it lapsed")
  }

  /// A lapsed subscriber to `subscription` is offered it again, at the price first offered, and
  /// charged once more.
  public func lapsedSubscriberOfferedAgain(_ subscription: Product) async throws {
    var check = JourneyChecks("a lapsed subscriber is offered the subscription again")
    let (model, store) = await launch(newCustomer)
    let price = store.upsell.offers.first { $0.product == subscription }?.legacyCharge
    try await lapse(subscription, model, store, &check)
    let offer = try check.require(
      store.upsell.offers.first { $0.product == subscription }, "not offered")
    check.expect(offer.legacyCharge == price, "\(String(describing: offer.legacyCharge))")
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not sold again")
    check.expect(await store.purchase(subscription) != .purchased(subscription), "sold twice")
    let charged = model.charges.map(\.productID)
    check.expect(charged == [subscription.rawValue, subscription.rawValue], "charged \(charged)")
    try check.finish()
  }

  /// A new customer, the App Store listing a win-back offer for `subscription` (iOS 18 and later).
  func launchWithWinBack(_ subscription: Product) async -> (AppStoreModel, Store) {
    let listed = products.map { product in
      var product = product
      if product.id == subscription.rawValue {
        product.winBackOffers = [AppStoreModel.WinBackOffer(id: "win-back", displayPrice: "$0.01")]
      }
      return product
    }
    return await launch(newCustomer, selling: listed)
  }

  /// A lapsed subscriber to `subscription` is offered, and charged, the win-back price.
  public func lapsedSubscriberWinBack(_ subscription: Product) async throws {
    var check = JourneyChecks("a lapsed subscriber is offered the win-back price")
    let (model, store) = await launchWithWinBack(subscription)
    try await lapse(subscription, model, store, &check)
    let offer = try check.require(
      store.upsell.offers.first { $0.product == subscription }, "not offered")
    let offered = try await store.offeredProducts()
    let product = try check.require(offered.first { $0.id == subscription.rawValue }, "not listed")
    check.expect(
      product.winBackOfferID == "win-back", "\(String(describing: product.winBackOfferID))")
    check.expect(
      offer.displayPrice(in: product) == "$0.01", "shown \(offer.displayPrice(in: product))")
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not sold")
    let offers = model.charges.map(\.winBackOfferID)
    check.expect(offers == [nil, "win-back"], "charged with win-back offers \(offers)")
    check.expect(store.entitlements.activeProducts.contains(subscription), "not active")
    try check.finish()
  }

  /// A new customer and an active subscriber to `subscription` see and pay the regular price, and
  /// the App Store refuses the win-back offer to an active subscriber, charging nothing.
  public func winBackOnlyForLapsed(_ subscription: Product) async throws {
    var check = JourneyChecks("a new customer and an active subscriber pay the regular price")
    let (model, store) = await launchWithWinBack(subscription)
    let offered = try await store.offeredProducts()
    check.expect(offered.allSatisfy { $0.winBackOfferID == nil }, "a win-back offer for a newcomer")
    let product = try check.require(offered.first { $0.id == subscription.rawValue }, "not listed")
    check.expect(
      product.winBackPrices["win-back"] == "$0.01", "StoreKit lists the offer, whoever asks")
    let offer = try check.require(
      store.upsell.offers.first { $0.product == subscription }, "not offered")
    check.expect(offer.displayPrice(in: product) == product.displayPrice, "not the regular price")
    check.expect(await store.purchase(subscription) == .purchased(subscription), "not sold")
    let after = try await store.offeredProducts()
    check.expect(after.allSatisfy { $0.winBackOfferID == nil }, "a win-back offer for a subscriber")
    do {
      _ = try await model.purchase(productID: subscription.rawValue, offer: .winBack("win-back"))
      check.expect(false, "the App Store sold a win-back offer to an active subscriber")
    } catch {
      check.expect(error is StoreFrontError, "\(error)")
    }
    let offers = model.charges.map(\.winBackOfferID)
    check.expect(offers == [nil], "charged with win-back offers \(offers)")
    try check.finish()
  }

  // MARK: - Family Sharing, offer codes, passes

  /// A family member gets `shared` through Family Sharing when the plan `entitles` it, until
  /// sharing stops; the purchase is the organizer's, so nothing offers to switch or asks to cancel
  /// it, and an offer of what it covers says the customer has it through Family Sharing.
  public func familyMember(shared: Product, entitles: Bool) async throws {
    var check = JourneyChecks("a family member gets what is shared, as the plan says")
    let (model, store) = await launch(newCustomer)
    check.expect(model.shareFromFamily(shared.rawValue), "the App Store didn't share it")
    try await model.settle()
    let active = store.entitlements.activeProducts.contains(shared)
    check.expect(active == entitles, "shared product active: \(active)")
    check.expect(store.planOptions().isEmpty, "plan options for the organizer's purchase")
    let sharedFeatures = Plan.catalogRules.productFeatures[shared] ?? []
    for offer in store.upsell.offers
    where entitles
      && !(Plan.catalogRules.productFeatures[offer.product] ?? []).isDisjoint(with: sharedFeatures)
    {
      check.expect(
        offer.sharedByFamily == [shared], "\(offer.product.rawValue): \(offer.sharedByFamily)")
      check.expect(
        offer.familySharing?.message.contains("through Family Sharing") == true,
        "\(offer.product.rawValue) doesn't say it is had through Family Sharing")
    }
    check.expect(store.upsell.offers.allSatisfy { $0.switchesFrom != shared }, "offers a switch")
    check.expect(
      store.upsell.offers.allSatisfy { !$0.keepsRenewing.contains(shared) }, "asks to cancel it")
    check.expect(
      !store.upsell.withheld.values.contains(.switchAddsNothing(from: shared)),
      "withheld as a switch")
    model.stopFamilySharing(shared.rawValue)
    try await model.settle()
    check.expect(
      !store.entitlements.activeProducts.contains(shared), "active after sharing stopped")
    try check.finish()
  }

  /// A code for `product` redeemed in the App Store, outside the app, arrives through
  /// `Transaction.updates`: its features are granted, the code is said, `product` isn't offered
  /// again, and a one-time code redeems once.
  public func offerCodeRedeemed(_ product: Product) async throws {
    var check = JourneyChecks("a code redeemed in the App Store grants its features")
    let (model, store) = await launch(newCustomer)
    let redeemed: AppStoreModel.Record
    switch model.redeem(code: "ONE-TIME-1", for: product.rawValue) {
    case .success(let record): redeemed = record
    case .failure(let refusal): throw check.fail("the App Store refused the code: \(refusal)")
    }
    try await model.settle()
    check.expect(
      store.entitlements.activeProducts.contains(product), "\(product.rawValue) not active")
    let code = store.state.redeemedCodes[product]
    check.expect(
      code?.transactionID == redeemed.id, "the code isn't said: \(String(describing: code))")
    let features = Set(store.entitlements.features.keys)
    let granted = (Plan.catalogRules.productFeatures[product] ?? []).isSubset(of: features)
    check.expect(granted, "features not granted: \(features)")
    check.expect(!store.upsell.offers.contains { $0.product == product }, "offered again")
    let again = model.redeem(code: "ONE-TIME-1", for: product.rawValue)
    check.expect(again == .failure(.alreadyRedeemed), "redeemed twice: \(again)")
    check.expect(model.charges.isEmpty, "charged: \(model.charges)")
    try check.finish()
  }

  /// An organizer's redeemed `product` reaches the family only if it is family-shareable
  /// (`shareable`) and the plan entitles what Family Sharing brings; the code is the organizer's.
  public func offerCodeSharedWithFamily(_ product: Product, shareable: Bool) async throws {
    var check = JourneyChecks("an organizer's redeemed product reaches the family if shareable")
    let (model, store) = await launch(newCustomer)
    check.expect(model.shareFromFamily(product.rawValue) == shareable, "shared: \(!shareable)")
    let reaches = shareable && Plan.catalogRules.familySharingEntitles
    try await model.settle()
    let active = store.entitlements.activeProducts.contains(product)
    check.expect(active == reaches, "the member's product active: \(active)")
    check.expect(store.state.redeemedCodes.isEmpty, "the organizer's code, not the member's")
    try check.finish()
  }

  /// A pass bought while one runs starts where it ends: no day is lost, offline too.
  public func passExtended(_ pass: Product) async throws {
    var check = JourneyChecks("a pass bought while one runs starts where it ends")
    let (model, store) = await launch(newCustomer)
    let period = try check.require(Plan.catalogRules.passes[pass], "\(pass.rawValue) is no pass")
    check.expect(await store.purchase(pass) == .purchased(pass), "not sold")
    let first = try check.require(Self.end(of: period, from: start), "no end to \(period)")
    // Halfway through, the customer buys it again: the App Store sells it, and charges again.
    model.now = start.addingTimeInterval(first.timeIntervalSince(start) / 2)
    await store.refresh()
    let extends = store.upsell.offers.first { $0.product == pass }?.extendsPass
    check.expect(extends == true, "the pass isn't offered as an extension")
    check.expect(await store.purchase(pass) == .purchased(pass), "not sold again")
    let charged = model.charges.map(\.productID)
    check.expect(charged == [pass.rawValue, pass.rawValue], "charged \(charged)")
    let second = try check.require(Self.end(of: period, from: first), "no end to \(period)")
    model.isOnline = false
    model.now = second.addingTimeInterval(-60)
    await store.refresh()
    check.expect(
      store.entitlements.activeProducts.contains(pass), "the second pass restarted the clock")
    model.now = second
    await store.refresh()
    check.expect(
      !store.entitlements.activeProducts.contains(pass), "active after both passes ended")
    try check.finish()
  }

  /// When a pass of `period` bought at `start` ends: the layer's rule.
  static func end(of period: DateComponents, from start: Date) -> Date? {
    CatalogRules<Plan.Product, Plan.PlanFeature, Plan.PlanTier, Plan.Platform>.end(
      of: period, from: start)
  }
}
