// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// Offer codes and purchase intents in `AppStoreModel`: purchases that start outside the app's own
/// paywall. The rules are in `AppStoreModel`'s header.
extension AppStoreModel {
  /// What a customer types in the offer code redemption sheet.
  public struct OfferCodeEntry: Hashable, Sendable {
    public var code: String
    public var productID: String
    /// The offer's reference name in App Store Connect: `Transaction.Offer.id` of the redemption.
    public var referenceName: String

    public init(code: String, productID: String, referenceName: String = "offer-code") {
      self.code = code
      self.productID = productID
      self.referenceName = referenceName
    }
  }

  /// Why the App Store refused an offer code. Nothing was redeemed, and the code isn't spent unless
  /// it was before.
  public enum CodeRefusal: Error, Hashable, Sendable {
    /// A one-time-use code redeems once.
    case alreadyRedeemed
    /// No product of the app has this id.
    case unknownProduct
    /// A non-consumable the customer already owns.
    case alreadyOwned
    /// A subscription of a group the customer is subscribed to now.
    case alreadySubscribed
  }

  /// The customer redeems `code` for `productID` in the App Store (or through a redemption URL):
  /// free, recorded as `Transaction.OfferType.code` with `referenceName`, and sent through
  /// `Transaction.updates`, as a purchase made elsewhere.
  @discardableResult
  public func redeem(code: String, for productID: String, referenceName: String = "offer-code")
    -> Result<Record, CodeRefusal>
  {
    let result: Result<Record, CodeRefusal> = withState { state in
      guard !state.spentCodes.contains(code) else { return .failure(.alreadyRedeemed) }
      guard let product = products[productID] else { return .failure(.unknownProduct) }
      switch product.kind {
      case .nonConsumable:
        let owned = state.records.contains {
          $0.productID == productID && $0.ownership == .purchased && isEntitling($0, in: state)
        }
        if owned { return .failure(.alreadyOwned) }
      case .autoRenewable(let group, _, _):
        let subscribed = state.records.contains {
          products[$0.productID]?.group == group && $0.ownership == .purchased
            && isEntitling($0, in: state)
        }
        if subscribed { return .failure(.alreadySubscribed) }
      case .consumable, .nonRenewing:
        break
      }
      state.spentCodes.insert(code)
      let charges = state.charges
      var record = add(product, to: &state, offerID: nil, introductory: false)
      // The code's price is the offer's: the model's codes are free.
      state.charges = charges
      record.offerCode = referenceName
      if let index = state.records.firstIndex(where: { $0.id == record.id }) {
        state.records[index] = record
      }
      return .success(record)
    }
    if case .success(let record) = result { emit(record) }
    return result
  }

  /// What the customer types in the redemption sheet the app presents; nil: they close it without
  /// redeeming anything.
  public var codeInSheet: OfferCodeEntry? {
    get { withState { $0.codeInSheet } }
    set { withState { $0.codeInSheet = newValue } }
  }

  /// A purchase the customer starts on the App Store's product page (a promoted In-App Purchase), or
  /// a win-back offer they pick there (`winBackOffer`): a `PurchaseIntent` for the app, which buys it
  /// or not. Nothing is charged here.
  public func startPurchaseOnAppStore(_ productID: String, winBackOffer: String? = nil) {
    intents.send(StorePurchaseIntent(productID: productID, winBackOfferID: winBackOffer))
  }

  // MARK: - StoreFront

  /// The redemption sheet: the customer redeems `codeInSheet`, if any, and the sheet closes. What is
  /// redeemed arrives through `Transaction.updates`; a refused code changes nothing.
  public func presentOfferCodeRedemption() async throws {
    let entry: OfferCodeEntry? = try withState { state in
      state.calls.append(.offerCodeSheet)
      guard state.isOnline else { throw Self.offline }
      state.prompts += 1
      defer { state.codeInSheet = nil }
      return state.codeInSheet
    }
    if let entry {
      redeem(code: entry.code, for: entry.productID, referenceName: entry.referenceName)
    }
  }

  /// The offer a record carries, as `Transaction.offer` says it.
  static func offer(of record: Record) -> TransactionOffer? {
    if let code = record.offerCode { return TransactionOffer(.code, id: code) }
    if let id = record.winBackOfferID { return TransactionOffer(.winBack, id: id) }
    if let id = record.offerID { return TransactionOffer(.promotional, id: id) }
    return record.isIntroductory ? TransactionOffer(.introductory) : nil
  }
}
