// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// Buying: the never-charge-twice gate, the signed prices, and taking what the App Store answered.
extension PlanStore {
  /// Buys `product`: reads what is owned first and refuses what would charge twice; on a verified
  /// purchase unlocks it and only then finishes the transaction.
  public func purchase(_ product: Plan.Product) async -> Outcome {
    await purchase(product, chosenWinBack: nil)
  }

  /// `chosenWinBack`: the win-back offer the customer picked on the App Store (a purchase intent's).
  func purchase(_ product: Plan.Product, chosenWinBack: String?) async -> Outcome {
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
  func prepare(_ product: Plan.Product, chosenWinBack: String?) async -> Preparation {
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
  func winBackOffer(
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

  /// A purchase started on the App Store: bought as the paywall buys, so a product overlapping what
  /// the customer owns is refused, for its reason, and nothing is charged.
  func handle(_ intent: StorePurchaseIntent) async {
    guard let product = Plan.Product(rawValue: intent.productID) else {
      lastPurchaseIntent = PurchaseIntentOutcome(product: nil, outcome: .refused(.notOffered))
      return
    }
    let outcome = await purchase(product, chosenWinBack: intent.winBackOfferID)
    lastPurchaseIntent = PurchaseIntentOutcome(product: product, outcome: outcome)
  }
}
