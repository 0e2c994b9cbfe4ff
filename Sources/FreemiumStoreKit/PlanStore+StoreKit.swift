// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

#if canImport(StoreKit)
  import StoreKit

  extension PlanStore {
    /// The options to buy `product` with SwiftUI's `PurchaseAction` (or to return from a StoreKit
    /// view's `inAppPurchaseOptions`): nil when it must not be bought now, or when a legacy price's
    /// offer couldn't be signed.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func purchaseOptions(for product: Plan.Product) async -> AppStoreFront.PurchaseOptions? {
      guard case .ready(let offer) = await prepareToBuy(product) else { return nil }
      guard offer?.kind.winBackOfferID != nil else {
        return try? AppStoreFront.purchaseOptions(offer: offer)
      }
      // A win-back offer is the product's own `SubscriptionOffer`.
      guard let storeProduct = try? await StoreKit.Product.products(for: [product.rawValue]).first
      else { return nil }
      return try? AppStoreFront.purchaseOptions(offer: offer, for: storeProduct)
    }

    /// Takes what SwiftUI's `PurchaseAction` returned for `product`: unlocked, then finished.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func complete(
      _ result: StoreKit.Product.PurchaseResult, for product: StoreKit.Product
    ) async -> Outcome {
      await complete(Result.success(result), for: product)
    }

    /// Takes what a StoreKit view's `onInAppPurchaseCompletion` reports: unlocked, then finished.
    /// A product this build's plan doesn't know is left unfinished, for a build that knows it.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func complete(
      _ result: Result<StoreKit.Product.PurchaseResult, any Error>, for product: StoreKit.Product
    ) async -> Outcome {
      guard let id = Plan.Product(rawValue: product.id) else {
        return .failed(StoreFrontError.notInStorefront)
      }
      do {
        return await complete(try AppStoreFront.attempt(from: result), for: id)
      } catch {
        let failure = error as? StoreFrontError
        if failure?.isUserCancellation == true { return .cancelled }
        return .failed(failure?.message ?? error.localizedDescription)
      }
    }
  }
#endif
