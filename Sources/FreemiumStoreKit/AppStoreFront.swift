// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

#if canImport(StoreKit)
  import Foundation
  import StoreKit

  #if canImport(UIKit) && !os(watchOS) && !os(macOS)
    import UIKit
  #endif

  /// The real App Store behind `StoreFront`: StoreKit 2, verified before anything is read.
  ///
  /// StoreKit's types are qualified (`StoreKit.Product`, `StoreKit.Transaction`,
  /// `StoreKit.AppStore`…), so an app type with one of those names doesn't break this file.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  public struct AppStoreFront: StoreFront {
    #if canImport(UIKit) && !os(watchOS) && !os(macOS)
      /// The scene whose window shows the App Store's confirmation sheet: StoreKit's
      /// `purchase(confirmIn:options:)` (iOS 17, tvOS 17, visionOS 1). Needed on visionOS, where
      /// `purchase(options:)` isn't available; without it, buy there with SwiftUI's `PurchaseAction`
      /// and hand its result to the store. Return the scene the customer is looking at.
      public var confirmationScene: (@MainActor @Sendable () -> UIScene?)?

      /// The scene provider of every `AppStoreFront` made without one, such as the generated
      /// `FreemiumStore.shared`'s: set it once at launch.
      @MainActor public static var defaultConfirmationScene: (@MainActor @Sendable () -> UIScene?)?

      public init(confirmationScene: (@MainActor @Sendable () -> UIScene?)? = nil) {
        self.confirmationScene = confirmationScene
      }

      @MainActor private func scene() -> UIScene? {
        (confirmationScene ?? Self.defaultConfirmationScene)?()
      }
    #else
      public init() {}
    #endif

    public func appTransaction() async -> AppTransactionRead {
      do {
        return Self.read(try await StoreKit.AppTransaction.shared)
      } catch {
        // Offline or nobody signed in: unknown, not unverified.
        return .unavailable
      }
    }

    public func refreshAppTransaction() async -> AppTransactionRead {
      do {
        return Self.read(try await StoreKit.AppTransaction.refresh())
      } catch {
        return .unavailable
      }
    }

    public func currentEntitlements() async -> [StoreTransaction] {
      var transactions: [StoreTransaction] = []
      for await result in StoreKit.Transaction.currentEntitlements {
        transactions.append(Self.transaction(result))
      }
      return transactions
    }

    public func transactionHistory(for productIDs: Set<String>) async -> [StoreTransaction] {
      guard !productIDs.isEmpty else { return [] }
      var transactions: [StoreTransaction] = []
      for await result in StoreKit.Transaction.all {
        let transaction = Self.transaction(result)
        if productIDs.contains(transaction.productID) { transactions.append(transaction) }
      }
      return transactions
    }

    public func unfinishedTransactions() async -> [StoreTransaction] {
      var transactions: [StoreTransaction] = []
      for await result in StoreKit.Transaction.unfinished {
        transactions.append(Self.transaction(result))
      }
      return transactions
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
      AsyncStream { continuation in
        let task = Task {
          for await result in StoreKit.Transaction.updates {
            continuation.yield(Self.transaction(result))
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }

    public func sync() async throws {
      do {
        try await StoreKit.AppStore.sync()
      } catch {
        throw Self.storeFrontError(error)
      }
    }

    public func products(for identifiers: [String]) async throws -> [StoreProduct] {
      do {
        return try await StoreKit.Product.products(for: identifiers).map { product in
          var offerPrices: [String: String] = [:]
          for offer in product.subscription?.promotionalOffers ?? [] {
            if let id = offer.id { offerPrices[id] = offer.displayPrice }
          }
          return StoreProduct(
            id: product.id, displayName: product.displayName, displayPrice: product.displayPrice,
            offerPrices: offerPrices,
            introductoryPrice: product.subscription?.introductoryOffer?.displayPrice,
            winBackPrices: Self.winBackPrices(of: product))
        }
      } catch {
        throw Self.storeFrontError(error)
      }
    }

    public func purchase(productID: String, offer: SignedOffer?) async throws
      -> PurchaseAttempt
    {
      let result: StoreKit.Product.PurchaseResult
      do {
        guard let product = try await StoreKit.Product.products(for: [productID]).first else {
          throw StoreFrontError(message: StoreFrontError.notInStorefront)
        }
        result = try await buy(
          product, options: try Self.purchaseOptions(offer: offer, for: product))
      } catch {
        throw Self.storeFrontError(error)
      }
      return try Self.attempt(from: result)
    }

    public func subscriptionStatuses(for productID: String) async throws -> [SubscriptionStatus] {
      let statuses: [StoreKit.Product.SubscriptionInfo.Status]
      do {
        // `Product.SubscriptionInfo.status(for:)` takes a group id but needs iOS 17; a product of
        // the group answers the same from iOS 15.
        guard let product = try await StoreKit.Product.products(for: [productID]).first else {
          throw StoreFrontError(message: StoreFrontError.notInStorefront)
        }
        statuses = try await product.subscription?.status ?? []
      } catch {
        throw Self.storeFrontError(error)
      }
      return statuses.map(Self.status)
    }

    /// `AppStore.presentOfferCodeRedeemSheet(in:)` in `confirmationScene`'s window scene (iOS 16,
    /// visionOS). Elsewhere, and without a window scene, it throws: on macOS show SwiftUI's
    /// `offerCodeRedemption(isPresented:onCompletion:)` (macOS 15) instead. What is redeemed arrives
    /// through `Transaction.updates`, wherever the customer redeemed it.
    public func presentOfferCodeRedemption() async throws {
      #if canImport(UIKit) && !os(watchOS) && !os(macOS) && !os(tvOS)
        guard let scene = await scene() as? UIWindowScene else {
          throw StoreFrontError(message: StoreFrontError.offerCodesUnavailable)
        }
        do {
          try await StoreKit.AppStore.presentOfferCodeRedeemSheet(in: scene)
        } catch {
          throw Self.storeFrontError(error)
        }
      #else
        throw StoreFrontError(message: StoreFrontError.offerCodesUnavailable)
      #endif
    }

    /// `PurchaseIntent.intents` from iOS 16.4 and macOS 14.4 (StoreKit has none on tvOS, watchOS
    /// or visionOS): a promoted In-App Purchase the customer started on the App Store.
    public func purchaseIntents() -> AsyncStream<StorePurchaseIntent> {
      #if !os(tvOS) && !os(watchOS) && !os(visionOS)
        // From iOS 18 and macOS 15 an intent may carry the win-back offer the customer picked
        // (`PurchaseIntent.offer`).
        if #available(iOS 18.0, macOS 15.0, *) {
          return Self.intents {
            StorePurchaseIntent(productID: $0.product.id, winBackOfferID: $0.offer?.id)
          }
        }
        if #available(iOS 16.4, macOS 14.4, *) {
          return Self.intents { StorePurchaseIntent(productID: $0.product.id) }
        }
      #endif
      return AsyncStream { $0.finish() }
    }

    #if !os(tvOS) && !os(watchOS) && !os(visionOS)
      /// `PurchaseIntent.intents`, each read by `read`.
      @available(iOS 16.4, macOS 14.4, *)
      private static func intents(
        _ read: @escaping @Sendable (StoreKit.PurchaseIntent) -> StorePurchaseIntent
      ) -> AsyncStream<StorePurchaseIntent> {
        AsyncStream { continuation in
          let task = Task {
            for await intent in StoreKit.PurchaseIntent.intents {
              continuation.yield(read(intent))
            }
            continuation.finish()
          }
          continuation.onTermination = { _ in task.cancel() }
        }
      }
    #endif

    private static func status(_ status: StoreKit.Product.SubscriptionInfo.Status)
      -> SubscriptionStatus
    {
      // Read from either payload whatever it says; `isVerified` tells the store to trust neither.
      let (transaction, transactionVerified): (StoreKit.Transaction, Bool)
      switch status.transaction {
      case .verified(let value): (transaction, transactionVerified) = (value, true)
      case .unverified(let value, _): (transaction, transactionVerified) = (value, false)
      }
      let (info, infoVerified): (StoreKit.Product.SubscriptionInfo.RenewalInfo, Bool)
      switch status.renewalInfo {
      case .verified(let value): (info, infoVerified) = (value, true)
      case .unverified(let value, _): (info, infoVerified) = (value, false)
      }
      let state: SubscriptionStatus.State
      switch status.state {
      case .subscribed: state = .subscribed
      case .inGracePeriod: state = .inGracePeriod
      case .inBillingRetryPeriod: state = .inBillingRetryPeriod
      case .revoked: state = .revoked
      default: state = .expired
      }
      return SubscriptionStatus(
        state: state, productID: transaction.productID, transactionID: transaction.id,
        originalID: transaction.originalID,
        ownership: transaction.ownershipType == .familyShared ? .familyShared : .purchased,
        expirationDate: transaction.expirationDate,
        renewalInfo: SubscriptionRenewalInfo(
          currentProductID: info.currentProductID, willAutoRenew: info.willAutoRenew,
          autoRenewPreference: info.autoRenewPreference, isInBillingRetry: info.isInBillingRetry,
          gracePeriodExpirationDate: info.gracePeriodExpirationDate,
          expirationReason: info.expirationReason.map(expirationReason),
          eligibleWinBackOfferIDs: eligibleWinBackOfferIDs(info)),
        isVerified: transactionVerified && infoVerified)
    }

    /// `RenewalInfo.eligibleWinBackOfferIDs` from iOS 18 and macOS 15; before them none, so the
    /// customer sees and pays the regular price.
    private static func eligibleWinBackOfferIDs(
      _ info: StoreKit.Product.SubscriptionInfo.RenewalInfo
    ) -> [String] {
      if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return info.eligibleWinBackOfferIDs
      }
      return []
    }

    /// `SubscriptionInfo.winBackOffers`' prices from iOS 18 and macOS 15; before them none.
    private static func winBackPrices(of product: StoreKit.Product) -> [String: String] {
      var prices: [String: String] = [:]
      if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        for offer in product.subscription?.winBackOffers ?? [] {
          if let id = offer.id { prices[id] = offer.displayPrice }
        }
      }
      return prices
    }

    private static func expirationReason(
      _ reason: StoreKit.Product.SubscriptionInfo.RenewalInfo.ExpirationReason
    ) -> SubscriptionRenewalInfo.ExpirationReason {
      switch reason {
      case .autoRenewDisabled: .autoRenewDisabled
      case .billingError: .billingError
      case .didNotConsentToPriceIncrease: .didNotConsentToPriceIncrease
      case .productUnavailable: .productUnavailable
      default: .unknown
      }
    }

    // MARK: - Purchases the app makes itself

    /// What `purchaseOptions(offer:)` gives: the options of one purchase.
    public typealias PurchaseOptions = Set<StoreKit.Product.PurchaseOption>

    /// The options that charge `offer`'s price: pass them to SwiftUI's `PurchaseAction`, or return
    /// them from a StoreKit view's `inAppPurchaseOptions`. Empty for the usual price. A win-back
    /// offer needs the product it is for: `purchaseOptions(offer:for:)`.
    public static func purchaseOptions(offer: SignedOffer?) throws -> PurchaseOptions {
      switch offer?.kind {
      case nil: return []
      case .promotional(let id)?:
        return Set(try promotionalOffer(id, compactJWS: offer?.compactJWS ?? ""))
      case .introductory?: return [try introductoryOffer(compactJWS: offer?.compactJWS ?? "")]
      case .winBack?:
        throw StoreFrontError(
          isOfferRejected: true, message: StoreFrontError.winBackOfferUnavailable)
      }
    }

    /// The options that charge `offer`'s price for `product`, a win-back offer included: StoreKit
    /// takes the win-back offer as the product's own `Product.SubscriptionOffer`
    /// (`Product.PurchaseOption.winBackOffer(_:)`, iOS 18 and macOS 15). One the product no longer
    /// lists, or an older system, throws an offer rejection, so nothing is charged rather than the
    /// regular price for a win-back price shown.
    public static func purchaseOptions(offer: SignedOffer?, for product: StoreKit.Product) throws
      -> PurchaseOptions
    {
      guard case .winBack(let id)? = offer?.kind else { return try purchaseOptions(offer: offer) }
      if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
        let winBack = product.subscription?.winBackOffers.first(where: { $0.id == id })
      {
        return [.winBackOffer(winBack)]
      }
      throw StoreFrontError(isOfferRejected: true, message: StoreFrontError.winBackOfferUnavailable)
    }

    /// A purchase the app made itself, read as the store reads its own: the result of SwiftUI's
    /// `PurchaseAction` or of `Product.purchase`. Apple returns these to the caller and doesn't
    /// send them through `Transaction.updates`, so hand them to the store, which unlocks and
    /// finishes them.
    public static func attempt(from result: StoreKit.Product.PurchaseResult) throws
      -> PurchaseAttempt
    {
      switch result {
      case .success(let verification):
        return .success(transaction(verification))
      case .pending:
        return .pending
      case .userCancelled:
        return .userCancelled
      @unknown default:
        // A result this SDK doesn't know: nothing is unlocked or finished.
        throw StoreFrontError(message: StoreFrontError.unknownResult)
      }
    }

    /// The same for a StoreKit view's `onInAppPurchaseCompletion`, whose result may be an error.
    public static func attempt(
      from result: Result<StoreKit.Product.PurchaseResult, any Error>
    ) throws -> PurchaseAttempt {
      switch result {
      case .success(let result): return try attempt(from: result)
      case .failure(let error): throw storeFrontError(error)
      }
    }

    // MARK: - Reading StoreKit's answers

    /// Keeps the verification with the payload: the store never reads an unverified one.
    private static func read(_ result: StoreKit.VerificationResult<StoreKit.AppTransaction>)
      -> AppTransactionRead
    {
      switch result {
      case .verified(let transaction):
        var facts = facts(of: transaction)
        facts.jwsRepresentation = result.jwsRepresentation
        return .verified(facts)
      case .unverified(let transaction, _):
        return .unverified(claimed: facts(of: transaction))
      }
    }

    private static func facts(of transaction: StoreKit.AppTransaction) -> AppTransactionFacts {
      AppTransactionFacts(
        appTransactionID: appTransactionID(of: transaction),
        originalAppVersion: transaction.originalAppVersion,
        originalPurchaseDate: transaction.originalPurchaseDate,
        environment: environment(transaction.environment),
        originalPlatform: originalPlatform(of: transaction),
        isRevoked: isRevoked(transaction))
    }

    private static func transaction(_ result: StoreKit.VerificationResult<StoreKit.Transaction>)
      -> StoreTransaction
    {
      // The store counts an unverified one only for a product verified before, and never
      // finishes it.
      let (transaction, isVerified): (StoreKit.Transaction, Bool)
      switch result {
      case .verified(let value): (transaction, isVerified) = (value, true)
      case .unverified(let value, _): (transaction, isVerified) = (value, false)
      }
      return StoreTransaction(
        productID: transaction.productID,
        id: transaction.id,
        ownership: transaction.ownershipType == .familyShared ? .familyShared : .purchased,
        isRevoked: transaction.revocationDate != nil,
        isVerified: isVerified,
        expirationDate: transaction.expirationDate,
        purchaseDate: transaction.purchaseDate,
        signedDate: result.signedDate,
        offer: offer(of: transaction),
        finish: { if isVerified { await transaction.finish() } })
    }

    /// `Transaction.offer` from iOS 17.2 and macOS 14.2; before them, `offerType` and `offerID`.
    private static func offer(of transaction: StoreKit.Transaction) -> TransactionOffer? {
      if #available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *) {
        return transaction.offer.map { TransactionOffer(offerKind($0.type), id: $0.id) }
      }
      return transaction.offerType.map { TransactionOffer(offerKind($0), id: transaction.offerID) }
    }

    private static func offerKind(_ type: StoreKit.Transaction.OfferType) -> TransactionOffer.Kind {
      switch type {
      case .introductory: .introductory
      case .promotional: .promotional
      case .code: .code
      case .winBack: .winBack
      default: .other
      }
    }

    private static func environment(_ environment: StoreKit.AppStore.Environment)
      -> StoreEnvironment
    {
      switch environment {
      case .production: return .production
      case .xcode: return .xcode
      default: return .sandbox
      }
    }

    /// `appTransactionID` is back-deployed to iOS 16 and macOS 13 by the 18.4 SDKs (Xcode 16.3,
    /// Swift 6.1).
    private static func appTransactionID(of transaction: StoreKit.AppTransaction) -> String {
      #if compiler(>=6.1)
        return transaction.appTransactionID
      #else
        return ""
      #endif
    }

    /// `originalPlatform` from iOS 18.4 and macOS 15.4; below them, the back-deployed
    /// `originalPlatformStringRepresentation` (Xcode 16.3 or later). With an older Xcode the
    /// platform stays unknown and the plan's rules for an unknown platform decide.
    private static func originalPlatform(of transaction: StoreKit.AppTransaction) -> StorePlatform?
    {
      #if compiler(>=6.1)
        if #available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
          switch transaction.originalPlatform {
          case .iOS: return .iOS
          case .macOS: return .macOS
          case .tvOS: return .tvOS
          case .visionOS: return .visionOS
          default: return nil
          }
        }
        return platform(named: transaction.originalPlatformStringRepresentation)
      #else
        return nil
      #endif
    }

    /// The names `originalPlatformStringRepresentation` uses.
    private static func platform(named name: String) -> StorePlatform? {
      StorePlatform(rawValue: name)
    }

    /// `AppTransaction.revocationDate` is back-deployed to iOS 16 and macOS 13 by the 27 SDKs,
    /// which are the first to declare it. The check follows the SDK, not the compiler (a newer
    /// Swift can build against an older SDK): StoreKit's module version, 816 from the 27 SDKs and
    /// lower before. Apple doesn't document module versions; this one is the SDK's own
    /// (`-user-module-version` in StoreKit's interface). With an older SDK a refunded paid download
    /// can't be seen on the device, and the customer keeps the tier.
    private static func isRevoked(_ transaction: StoreKit.AppTransaction) -> Bool {
      #if canImport(StoreKit, _version: 816)
        return transaction.revocationDate != nil
      #else
        return false
      #endif
    }

    /// `purchase(confirmIn:options:)` in `confirmationScene` where StoreKit has it (iOS 17, tvOS
    /// 17, visionOS), else `purchase(options:)`. visionOS has only the first: without a scene,
    /// buy there with SwiftUI's `PurchaseAction` and hand the result to the store.
    private func buy(
      _ product: StoreKit.Product, options: Set<StoreKit.Product.PurchaseOption>
    ) async throws -> StoreKit.Product.PurchaseResult {
      #if canImport(UIKit) && !os(watchOS) && !os(macOS)
        if #available(iOS 17.0, tvOS 17.0, visionOS 1.0, *),
          let scene = await scene()
        {
          return try await product.purchase(confirmIn: scene, options: options)
        }
      #endif
      #if os(visionOS)
        throw StoreFrontError(message: StoreFrontError.visionOSNeedsScene)
      #else
        return try await product.purchase(options: options)
      #endif
    }

    /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`, back-deployed to iOS 15 by the
    /// 26 SDKs (Xcode 26, Swift 6.2).
    private static func promotionalOffer(_ id: String, compactJWS: String) throws
      -> [StoreKit.Product.PurchaseOption]
    {
      #if compiler(>=6.2)
        return StoreKit.Product.PurchaseOption.promotionalOffer(id, compactJWS: compactJWS)
      #else
        throw StoreFrontError(message: StoreFrontError.offersNeedNewerSDK)
      #endif
    }

    /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`, back-deployed to iOS 15
    /// by the 18.4 SDKs (Xcode 16.3, Swift 6.1).
    private static func introductoryOffer(compactJWS: String) throws
      -> StoreKit.Product.PurchaseOption
    {
      #if compiler(>=6.1)
        return StoreKit.Product.PurchaseOption.introductoryOfferEligibility(compactJWS: compactJWS)
      #else
        throw StoreFrontError(message: StoreFrontError.introductoryOffersNeedNewerSDK)
      #endif
    }

    private static func storeFrontError(_ error: any Error) -> StoreFrontError {
      if let error = error as? StoreFrontError { return error }
      if let error = error as? StoreKit.StoreKitError, case .userCancelled = error {
        return StoreFrontError(isUserCancellation: true, message: error.localizedDescription)
      }
      if let error = error as? StoreKit.Product.PurchaseError, isOfferRejection(error) {
        return StoreFrontError(isOfferRejected: true, message: error.localizedDescription)
      }
      return StoreFrontError(message: error.localizedDescription)
    }

    /// The `Product.PurchaseError`s that refuse a promotional offer: nothing was charged.
    private static func isOfferRejection(_ error: StoreKit.Product.PurchaseError) -> Bool {
      switch error {
      case .ineligibleForOffer, .invalidOfferIdentifier, .invalidOfferPrice, .invalidOfferSignature,
        .missingOfferParameters:
        return true
      default:
        return false
      }
    }
  }
#endif
