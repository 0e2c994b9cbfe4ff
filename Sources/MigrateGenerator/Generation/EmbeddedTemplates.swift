// swift-format-ignore-file
// Generated from Templates/ by the EmbeddedTemplatesTests test; do not edit.
// Re-record after changing a template: MIGRATE_RECORD=1 swift test --filter EmbeddedTemplates

enum EmbeddedTemplates {
  static let all: [String: String] = [
    "csv/TEST_MATRIX": #"""
number,case,platform,original_platform,environment,original_version,original_purchase_date,verification,owns,cohort,rule,features,offers,shows_restore
{{#tests}}
{{number}},{{csv.name}},{{platform}},{{csv.originalPlatform}},{{environment}},{{csv.version}},{{csv.date}},{{csv.verification}},{{csv.owns}},{{csv.cohort}},{{rule}},{{csv.features}},{{csv.offers}},{{showsRestore}}
{{/tests}}

"""#,
    "docs/ENTITLEMENTS": #"""
# Entitlements: {{app.name}}

Generated from `{{source}}`. Each cohort keeps what its tier grants; purchases add what products grant.

## How cohorts are decided

| platform | rule | why |
|---|---|---|
{{#rules}}
| {{platform}} | {{rule}} | {{reason}} |
{{/rules}}

## Cohorts × features

{{#featureColumns}}
| cohort | {{featureHeader}} |
|---|{{featureAlignment}}
{{#cohortRows}}
| {{title}} | {{cellsText}} |
{{/cohortRows}}

✓ kept or free without buying; — must be bought.
{{/featureColumns}}
{{^featureColumns}}
| cohort | kept or free without buying |
|---|---|
{{#cohortRows}}
| {{title}} | {{featuresText}} |
{{/cohortRows}}
{{/featureColumns}}

## Products × features

{{#featureColumns}}
| product | price | for sale | {{featureHeader}} |
|---|--:|:-:|{{featureAlignment}}
{{#productRows}}
| `{{id}}` {{name}} | {{price}} | {{forSale}} | {{cellsText}} |
{{/productRows}}
{{/featureColumns}}
{{^featureColumns}}
| product | price | for sale | features |
|---|--:|:-:|---|
{{#productRows}}
| `{{id}}` {{name}} | {{price}} | {{forSale}} | {{featuresText}} |
{{/productRows}}
{{/featureColumns}}

## Cohorts × offers

What the upsell shows, cheapest useful first, and what it withholds so no one pays twice.

| cohort | owns | offered | withheld |
|---|---|---|---|
{{#offerRows}}
| {{cohort}} | {{owns}} | {{offered}} | {{withheld}} |
{{/offerRows}}

"""#,
    "docs/INTEGRATION": #"""
# Integrating the StoreKit layer: {{app.name}}

Generated from `{{source}}`. This page says where each generated file goes, what to call and when, and
what the app still has to provide.

## Files and targets

| file | target | what it is |
|---|---|---|
| `{{module}}/OriginalPurchase.swift` | app | The cutoff: who bought the paid app, decided from the app transaction. |
| `{{module}}/Entitlements.swift` | app | Features, products and what each cohort keeps. |
| `{{module}}/Upsell.swift` | app | Offers that never charge twice, Restore outcomes. |
| `{{module}}/StoreFront.swift` | app | The protocol the store talks to: the App Store in the app, a fake in tests. |
| `{{module}}/PurchaseCache.swift` | app | The last verified facts, in the Keychain, so a payer isn't locked out offline. |
| `{{module}}/FreemiumStore.swift` | app | The store your views observe: refresh, purchase, restore. |
| `{{module}}/AppStoreFront.swift` | app | StoreKit 2 behind `StoreFront`, and `FreemiumStore.shared`. |
| `{{module}}Tests/{{module}}Tests.swift` | unit tests | The cutoff and offers for every boundary of the plan. |
| `{{module}}Tests/StoreTests.swift` | unit tests | The StoreKit layer against a fake App Store: offline, forged caches, purchases, restore. |
| `Products.storekit` | project (scheme) | The products, for StoreKit testing in Xcode: Edit Scheme → Run → Options → StoreKit Configuration. |

Add the `{{module}}` files to the app target (or to a local Swift package the app depends on) and the
`{{module}}Tests` files to its unit-test target; the tests `@testable import {{module}}`, so use that
module name or generate with `--module YourApp`. Or generate with `--package`: the output folder is then a
Swift package (`Package.swift`, `Sources/{{module}}`, `Tests/{{module}}Tests`) that `swift test` runs and
Xcode adds with File › Add Package Dependencies › Add Local. If an earlier version of migrate generated
`StoreKitEntitlements.swift`, `migrate generate --prune` removes it: `FreemiumStore` and `AppStoreFront`
replace it.

## Requirements

- Deployment target: iOS 16, iPadOS 16, macOS 13, tvOS 16, watchOS 9 or visionOS 1 (the first with
  `AppTransaction`).
- Xcode 16 or later (Swift 6 or Swift 5 language mode, complete concurrency checking is fine).
- Xcode 16.3 or later to read `appTransactionID` and the original platform of a universal purchase
  below iOS 18.4 and macOS 15.4 (`originalPlatformStringRepresentation`, back-deployed). With an older
  Xcode the original platform is unknown and the plan's rule for that case decides.
- Xcode 26 or later for legacy subscription prices (`Product.PurchaseOption.promotionalOffer(_:compactJWS:)`,
  back-deployed to iOS 15).
- Xcode 27 or later to see a refunded paid download (`AppTransaction.revocationDate`, back-deployed to
  iOS 16). Until then a refunded download counts as bought.

## At launch and on foreground

`FreemiumStore.shared` starts listening to `Transaction.updates` when it is first used, as Apple asks, so
purchases approved later (Ask to Buy), made on other devices, or refunded are not missed. Use it from the
`App` and refresh at launch and whenever the app comes to the foreground. `refresh()` never prompts: it
reads `AppTransaction.shared` and `Transaction.currentEntitlements` only.

```swift
import SwiftUI

@main
struct {{appTypeName}}App: App {
  @StateObject private var store = FreemiumStore.shared
  @Environment(\.scenePhase) private var scenePhase

  var body: some Scene {
    WindowGroup {
      ContentView()
        .environmentObject(store)
        .task { await store.refresh() }
    }
    .onChange(of: scenePhase) { phase in
      if phase == .active { Task { await store.refresh() } }
    }
  }
}
```

Offline, or with nobody signed in, `AppTransaction.shared` throws. That is unknown, not unverified: the
facts the App Store verified earlier in this run keep deciding, and on a new launch those in the Keychain
do for {{policies.keepWhileUnreachableDays}} days. A signature that doesn't verify is different:
`policies.verificationFailure` ({{policies.verificationFailureText}}) decides.

## Gating a feature

```swift
struct ContentView: View {
  @EnvironmentObject private var store: FreemiumStore

  var body: some View {
{{#firstFeature}}
    if store.entitlements.contains(.{{case}}) {
      Text("{{name}}")
    } else {
      PaywallView()
    }
{{/firstFeature}}
  }
}
```

## The paywall

Show `store.upsell.offers`: cheapest useful first, never a bundle that would charge again for something
owned. Buy with `purchase(_:)`: it reads what the customer owns first, refuses what would charge twice,
unlocks a verified purchase and only then finishes it. Every outcome has a message, or none when the
customer cancelled.

```swift
struct PaywallView: View {
  @EnvironmentObject private var store: FreemiumStore
  @State private var prices: [String: String] = [:]
  @State private var message: String?

  var body: some View {
    List {
      ForEach(store.upsell.offers, id: \.product) { offer in
        Button {
          Task { message = await store.purchase(offer.product).message }
        } label: {
          let price = offer.legacyPrice ?? prices[offer.product.rawValue] ?? ""
          Text("\(offer.product.rawValue) \(price)")
        }
        .disabled(!store.mayBuy(offer.product))
      }
      if store.upsell.showsRestore {
        Button("Restore Purchases") {
          Task {
            if let outcome = await store.restore() { message = outcome.message }
          }
        }
      }
      if let message { Text(message) }
    }
    .task {
      let products = (try? await store.offeredProducts()) ?? []
      prices = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0.displayPrice) })
    }
  }
}
```

What the layer says (`StoreMessage`; reword or localize it there):

| `StoreMessage` | text |
|---|---|
{{#purchaseMessageRows}}
| `{{key}}` | {{text}} |
{{/purchaseMessageRows}}

## Restore Purchases

App Review requires a Restore Purchases control; hide it when `store.upsell.showsRestore` is false
(everything is unlocked). `restore()` is the only place that calls `AppStore.sync()`, which may ask for the
password, and, when the app transaction couldn't be read, `AppTransaction.refresh()`. It returns
`.restored`, `.nothingRestored` or `.failed`, each with its message, and nil when the customer cancelled:
show nothing then.

## What the app provides

{{#anyPromotionalOffers}}
- **A promotional offer signer.** Legacy subscription prices are promotional offers. Your server signs each
  one with your In-App Purchase key (App Store Connect → Users and Access → Integrations → In-App
  Purchase); never put that key in the app. Set `FreemiumStore.shared.offerSigner` at launch to a type
  conforming to `PromotionalOfferSigner` that asks your server for the compact JWS. Without it, a legacy
  price is refused (`offerNotSigned`) rather than charged in full. When the App Store refuses the signed
  offer (`Product.PurchaseError.ineligibleForOffer`, or an offer identifier, price or signature that doesn't
  match App Store Connect), the purchase is refused (`offerRejected`): nothing was charged, and the app must
  not retry at the full price. Check the offer in App Store Connect and the key your server signs with.
{{/anyPromotionalOffers}}
{{#storeTests.hasConsumable}}
- **Delivery of consumables.** Set `FreemiumStore.shared.deliverConsumable` to a closure that credits the
  purchase (to your server, or durable storage) and returns true. A consumable is finished only after it
  returns true; otherwise the App Store delivers the transaction again. Store the delivery's
  `transactionID` with the credit, in the same write, and return true without crediting when it is
  already there: a crash between crediting and finishing sends the same transaction again.
{{/storeTests.hasConsumable}}
- **Products in App Store Connect** with the ids in `Products.storekit`.
- **A Restore Purchases button**, shown while `store.upsell.showsRestore` is true.

## Trying each cohort

In Xcode's StoreKit testing (`Products.storekit`), the sandbox and TestFlight, Apple reports the original
version as "1.0" and a fixed purchase date for everyone, so the real cutoff can't be tried there. The
layer decides those environments by `policies.nonProduction`: every tester is {{nonProductionText}}.
To see another cohort in the app, set `policies.nonProduction` to that tier and generate again.

To try the real cutoff, play the App Store with a `StoreFront` of your own, as
`{{module}}Tests/StoreTests.swift` does with `FakeStoreFront`. Save this as
`{{module}}Tests/TryTheStore.swift` and run `swift test --filter TryTheStore` (or ⌘U in Xcode): a customer
{{#storeTests.hasLegacy}}from `TEST_MATRIX.md` ({{storeTests.legacy.name}}) {{/storeTests.hasLegacy}}launches, buys the first
offer, restores, and launches again offline. No StoreKit is needed: without it `AppStoreFront` compiles
away and everything else runs, on Linux too.

```swift
import Foundation
import Testing

@testable import {{module}}

@MainActor
@Test func tryTheStore() async {
  let fake = FakeStoreFront()
  let cache = InMemoryPurchaseCache()
  let customer = AppTransactionFacts(
    appTransactionID: "tester",
    originalAppVersion: {{storeTests.trial.version}},
    originalPurchaseDate: {{storeTests.trial.date}})
  fake.change { $0.appTransactions = [(.verified(customer), 0)] }

  let store = FreemiumStore(platform: .{{storeTests.trial.platform}}, storeFront: fake, cache: cache)
  await store.refresh()
  print("cohort:", store.decision.cohort)
  print("unlocked:", store.entitlements.features.keys.map(\.rawValue).sorted())
  print("offers:", store.upsell.offers.map(\.product.rawValue))

  if let offer = store.upsell.offers.first {
    let bought = StoreTransaction(productID: offer.product.rawValue)
    fake.change { $0.purchaseResult = .success(bought) }
    let outcome = await store.purchase(offer.product)
    print("purchase:", outcome, "-", outcome.message ?? "")
  }
  if let restored = await store.restore() {
    print("restore:", restored, "-", restored.message)
  }

  // Launch again with the App Store out of reach: the verified facts in the cache decide.
  fake.change { $0.appTransactions = [(.unavailable, 0)] }
  let relaunched = FreemiumStore(
    platform: .{{storeTests.trial.platform}}, storeFront: fake, cache: cache)
  await relaunched.refresh()
  print("offline:", relaunched.decision.cohort, relaunched.state.proof)
  print("offline unlocked:", relaunched.entitlements.features.keys.map(\.rawValue).sorted())
}
```

"""#,
    "docs/TEST_MATRIX": #"""
# Test matrix: {{app.name}}

Generated from `{{source}}`: {{testCount}} customers at every boundary of the plan, with the outcome
migrate expects. The sandbox and TestFlight always report original version "1.0", so the cohort can
only be tried by injecting these values (see `FreemiumTests`); purchases can be tried with
`Products.storekit` in Xcode.
{{#pairwiseLeftOut}}

The plan has more than {{pairwiseLeftOut}}, so these cases leave out the pairwise rows that
`migrate matrix` gives on its own (every pair of platform, environment, version and product state).
{{/pairwiseLeftOut}}

| # | case | platform | environment | original version | purchased | owns | cohort | features | offers | restore |
|--:|---|---|---|---|---|---|---|---|---|---|
{{#tests}}
| {{number}} | {{name}} | {{platformText}} | {{environment}} | {{versionText}} | {{dateText}} | {{ownsText}} | {{cohortText}} | {{featuresText}} | {{offersText}} | {{restoreText}} |
{{/tests}}

"""#,
    "package/Package": #"""
// swift-tools-version:6.0
// Generated by migrate from {{source}} (migrate generate --package); its checksum is in
// .migrate-generated.json. Add this folder to Xcode with File > Add Package Dependencies > Add Local.
import PackageDescription

let package = Package(
  name: "{{module}}",
  platforms: [{{packagePlatforms}}],
  products: [
    .library(name: "{{module}}", targets: ["{{module}}"])
  ],
  targets: [
    .target(name: "{{module}}"),
    .testTarget(name: "{{module}}Tests", dependencies: ["{{module}}"]),
  ]
)

"""#,
    "partials/storekit-localizations": #"""
"localizations" : [
  {
    "description" : {{name}},
    "displayName" : {{name}},
    "locale" : "en_US"
  }
],

"""#,
    "storekit/Products": #"""
{{#storekit}}
{
  "identifier" : {{identifier}},
  "nonRenewingSubscriptions" : [
{{#nonRenewing}}
    {
      "displayPrice" : {{price}},
      "familyShareable" : {{familyShareable}},
      "internalID" : {{internalID}},
      {{> partials/storekit-localizations}}
      "productID" : {{productID}},
      "referenceName" : {{name}},
      "type" : "NonRenewingSubscription"
    }{{comma}}
{{/nonRenewing}}
{{^nonRenewing}}

{{/nonRenewing}}
  ],
  "products" : [
{{#products}}
    {
      "displayPrice" : {{price}},
      "familyShareable" : {{familyShareable}},
      "internalID" : {{internalID}},
      {{> partials/storekit-localizations}}
      "productID" : {{productID}},
      "referenceName" : {{name}},
      "type" : {{type}}
    }{{comma}}
{{/products}}
{{^products}}

{{/products}}
  ],
  "settings" : {
    "_failTransactionsEnabled" : false,
    "_locale" : "en_US",
    "_storefront" : "USA",
    "_storeKitErrors" : [

    ]
  },
  "subscriptionGroups" : [
{{#groups}}
    {
      "id" : {{id}},
      "localizations" : [

      ],
      "name" : {{name}},
      "subscriptions" : [
{{#subscriptions}}
        {
          "adHocOffers" : [
{{#promotionalOffers}}
            {
              "displayPrice" : {{price}},
              "internalID" : {{internalID}},
              "offerID" : {{offerID}},
              "paymentMode" : "payUpFront",
              "referenceName" : {{name}},
              "subscriptionPeriod" : {{period}}
            }{{comma}}
{{/promotionalOffers}}
{{^promotionalOffers}}

{{/promotionalOffers}}
          ],
          "codeOffers" : [

          ],
          "displayPrice" : {{price}},
          "familyShareable" : {{familyShareable}},
          "groupNumber" : {{level}},
          "internalID" : {{internalID}},
          "introductoryOffer" : null,
          {{> partials/storekit-localizations}}
          "productID" : {{productID}},
          "recurringSubscriptionPeriod" : {{period}},
          "referenceName" : {{name}},
          "subscriptionGroupID" : {{groupID}},
          "type" : "RecurringSubscription"
        }{{comma}}
{{/subscriptions}}
      ]
    }{{comma}}
{{/groups}}
{{^groups}}

{{/groups}}
  ],
  "version" : {
    "major" : 3,
    "minor" : 0
  }
}
{{/storekit}}

"""#,
    "swift/AppStoreFront": #"""
#if canImport(StoreKit)
  import Foundation
  import StoreKit

  /// The real App Store behind `StoreFront`: StoreKit 2, verified before anything is read.
  ///
  /// StoreKit's types are qualified (`StoreKit.Product`, `StoreKit.Transaction`,
  /// `StoreKit.AppStore`…), so an app type with one of those names doesn't break this file.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  {{access}}struct AppStoreFront: StoreFront {
{{#isPublic}}
    {{access}}init() {}

{{/isPublic}}
    {{access}}func appTransaction() async -> AppTransactionRead {
      do {
        return Self.read(try await StoreKit.AppTransaction.shared)
      } catch {
        // Offline or nobody signed in: unknown, not unverified.
        return .unavailable
      }
    }

    {{access}}func refreshAppTransaction() async -> AppTransactionRead {
      do {
        return Self.read(try await StoreKit.AppTransaction.refresh())
      } catch {
        return .unavailable
      }
    }

    {{access}}func currentEntitlements() async -> [StoreTransaction] {
      var transactions: [StoreTransaction] = []
      for await result in StoreKit.Transaction.currentEntitlements {
        transactions.append(Self.transaction(result))
      }
      return transactions
    }

    {{access}}func transactionUpdates() -> AsyncStream<StoreTransaction> {
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

    {{access}}func sync() async throws {
      do {
        try await StoreKit.AppStore.sync()
      } catch {
        throw Self.storeFrontError(error)
      }
    }

    {{access}}func products(for identifiers: [String]) async throws -> [StoreProduct] {
      do {
        return try await StoreKit.Product.products(for: identifiers).map {
          StoreProduct(id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice)
        }
      } catch {
        throw Self.storeFrontError(error)
      }
    }

    {{access}}func purchase(productID: String, offer: SignedPromotionalOffer?) async throws
      -> PurchaseAttempt
    {
      let result: StoreKit.Product.PurchaseResult
      do {
        guard let product = try await StoreKit.Product.products(for: [productID]).first else {
          throw StoreFrontError(message: StoreMessage.notInStorefront)
        }
        var options: Set<StoreKit.Product.PurchaseOption> = []
        if let offer {
          options.formUnion(try Self.promotionalOffer(offer))
        }
        result = try await Self.buy(product, options: options)
      } catch {
        throw Self.storeFrontError(error)
      }
      switch result {
      case .success(let verification):
        return .success(Self.transaction(verification))
      case .pending:
        return .pending
      case .userCancelled:
        return .userCancelled
      @unknown default:
        // A result this SDK doesn't know: nothing is unlocked or finished.
        throw StoreFrontError(message: StoreMessage.unknownResult)
      }
    }

    // MARK: - Reading StoreKit's answers

    /// Keeps the verification with the payload: `FreemiumStore` reads an unverified one never.
    private static func read(_ result: StoreKit.VerificationResult<StoreKit.AppTransaction>)
      -> AppTransactionRead
    {
      switch result {
      case .verified(let transaction):
        return .verified(facts(of: transaction))
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
      // `FreemiumStore` counts an unverified one only for a product verified before, and never
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
        finish: { if isVerified { await transaction.finish() } })
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
    private static func originalPlatform(of transaction: StoreKit.AppTransaction) -> AppPlatform? {
      #if compiler(>=6.1)
        if #available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
          switch transaction.originalPlatform {
{{#platforms}}
{{#storeKitPlatform}}
          case .{{storeKitPlatform}}: return .{{case}}
{{/storeKitPlatform}}
{{/platforms}}
          default: return nil
          }
        }
        return platform(named: transaction.originalPlatformStringRepresentation)
      #else
        return nil
      #endif
    }

    /// The names `originalPlatformStringRepresentation` uses.
    private static func platform(named name: String) -> AppPlatform? {
      switch name {
{{#platforms}}
{{#storeKitPlatform}}
      case "{{storeKitPlatform}}": return .{{case}}
{{/storeKitPlatform}}
{{/platforms}}
      default: return nil
      }
    }

    /// `AppTransaction.revocationDate` is back-deployed to iOS 16 and macOS 13 by the 27 SDKs
    /// (Xcode 27, Swift 6.4). With an older Xcode a refunded paid download can't be seen on the
    /// device.
    private static func isRevoked(_ transaction: StoreKit.AppTransaction) -> Bool {
      #if compiler(>=6.4)
        return transaction.revocationDate != nil
      #else
        return false
      #endif
    }

    /// `Product.purchase(options:)`. visionOS buys through `purchase(confirmIn:options:)`, which
    /// needs the scene to show the sheet in: there, buy with SwiftUI's `PurchaseAction` instead.
    private static func buy(
      _ product: StoreKit.Product, options: Set<StoreKit.Product.PurchaseOption>
    ) async throws -> StoreKit.Product.PurchaseResult {
      #if os(visionOS)
        throw StoreFrontError(message: StoreMessage.visionOSNeedsScene)
      #else
        return try await product.purchase(options: options)
      #endif
    }

    /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`, back-deployed to iOS 15 by the
    /// 26 SDKs (Xcode 26, Swift 6.2).
    private static func promotionalOffer(_ offer: SignedPromotionalOffer) throws
      -> [StoreKit.Product.PurchaseOption]
    {
      #if compiler(>=6.2)
        return StoreKit.Product.PurchaseOption.promotionalOffer(
          offer.offerID, compactJWS: offer.compactJWS)
      #else
        throw StoreFrontError(message: StoreMessage.offersNeedNewerSDK)
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

  extension FreemiumStore {
    /// The app's one store, listening to `Transaction.updates` from first use. Read it early,
    /// at launch, and call `refresh()` there and whenever the app comes to the foreground.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    {{access}}static let shared = FreemiumStore(
      platform: .running, storeFront: AppStoreFront(), cache: KeychainPurchaseCache())
  }
#endif

extension AppPlatform {
  /// The platform this binary was built for. An iPad runs the iOS binary and its purchases carry
  /// iOS build numbers, so it counts as {{runningPlatforms.iOS}}.
  {{access}}static var running: AppPlatform {
    #if os(macOS)
      return .{{runningPlatforms.macOS}}
    #elseif os(tvOS)
      return .{{runningPlatforms.tvOS}}
    #elseif os(watchOS)
      return .{{runningPlatforms.watchOS}}
    #elseif os(visionOS)
      return .{{runningPlatforms.visionOS}}
    #else
      return .{{runningPlatforms.iOS}}
    #endif
  }
}

"""#,
    "swift/Entitlements": #"""
import Foundation

/// Everything a customer can be entitled to.
{{access}}enum Feature: String, CaseIterable, Sendable {
{{#features}}
  /// {{name}}
  case {{case}} = {{literal}}
{{/features}}
}

/// Every product in {{source}}, sold now or in the past: retired products keep entitling.
{{access}}enum ProductID: String, CaseIterable, Sendable {
{{#products}}
  /// {{name}}{{^forSale}} (no longer sold){{/forSale}}
  case {{case}} = {{literal}}
{{/products}}
}

/// One transaction, as `Transaction.currentEntitlements` or a test describes it.
{{access}}struct OwnedProduct: Hashable, Sendable {
  {{access}}enum Ownership: String, Hashable, Sendable {
    case purchased
    case familyShared
  }

  /// The raw product id, which may be one this app version doesn't know.
  {{access}}var productID: String
  {{access}}var ownership: Ownership
  /// Refunded or revoked: `Transaction.revocationDate` is set.
  {{access}}var isRevoked: Bool
  /// An expired subscription.
  {{access}}var isExpired: Bool
  /// False when the transaction's signature did not verify.
  {{access}}var isVerified: Bool
  /// `Transaction.purchaseDate`, from a verified transaction: when a trial's time began.
  {{access}}var purchaseDate: Date?

  {{access}}init(
    productID: String,
    ownership: Ownership = .purchased,
    isRevoked: Bool = false,
    isExpired: Bool = false,
    isVerified: Bool = true,
    purchaseDate: Date? = nil
  ) {
    self.productID = productID
    self.ownership = ownership
    self.isRevoked = isRevoked
    self.isExpired = isExpired
    self.isVerified = isVerified
    self.purchaseDate = purchaseDate
  }
}

/// Why a customer has a feature.
{{access}}enum GrantReason: Hashable, Sendable {
  case free
  case tier(LegacyTier)
  case product(ProductID)
  case bundle(ProductID, via: ProductID)

  /// Lent by a running free trial rather than owned: the customer may still buy it for good.
  {{access}}var isTrial: Bool {
    switch self {
    case .product(let product), .bundle(let product, _): return Catalog.trials[product] != nil
    case .free, .tier: return false
    }
  }
}

/// What a customer is entitled to, with every reason.
{{access}}struct Entitlements: Hashable, Sendable {
  {{access}}var features: [Feature: [GrantReason]]
  /// Products whose transactions count.
  {{access}}var activeProducts: Set<ProductID>
  /// Free trials the customer has started, running or ended: never offered again.
  {{access}}var takenTrials: Set<ProductID> = []

  {{access}}func contains(_ feature: Feature) -> Bool {
    features[feature] != nil
  }
}

/// The tables {{source}} defines.
{{access}}enum Catalog {
  /// What each tier keeps.
  static let tierFeatures: [LegacyTier: Set<Feature>] = [{{^hasTiers}}:]{{/hasTiers}}
{{#tiers}}
    .{{case}}: [{{grantsList}}]{{comma}}
{{/tiers}}
{{#hasTiers}}
  ]
{{/hasTiers}}

  /// What each product grants by itself.
  static let productGrants: [ProductID: [Feature]] = [
{{#products}}
    .{{case}}: [{{grantsList}}]{{comma}}
{{/products}}
  ]

  /// What each product contains, through bundles of bundles.
  static let productContents: [ProductID: [ProductID]] = [
{{#products}}
    .{{case}}: [{{contentsList}}]{{comma}}
{{/products}}
  ]

  /// Each product's features, including those of what it contains.
  static let productFeatures: [ProductID: Set<Feature>] = [
{{#products}}
    .{{case}}: [{{effectiveFeaturesList}}]{{comma}}
{{/products}}
  ]

  /// What the newest release on each platform makes free to everyone.
  static let freeFeatures: [AppPlatform: Set<Feature>] = [
{{#freeFeatures}}
    .{{platform}}: [{{featuresList}}]{{comma}}
{{/freeFeatures}}
  ]

  static let consumables: Set<ProductID> = [{{consumablesList}}]
  /// Free trials: each grants for this long after its verified purchase date, then no more.
  static let trials: [ProductID: DateComponents] = [{{^hasTrials}}:]{{/hasTrials}}
{{#trials}}
    // {{spoken}}
    .{{case}}: DateComponents(year: {{years}}, month: {{months}}, day: {{days}}){{comma}}
{{/trials}}
{{#hasTrials}}
  ]
{{/hasTrials}}

  /// When a trial bought at `start` ends, on the Gregorian calendar in UTC; nil when it can't be told.
  static func trialEnd(from start: Date, lasting period: DateComponents) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(byAdding: period, to: start)
  }
  static let familyShareable: Set<ProductID> = [{{familyShareableList}}]
  /// `policies.familySharing`.
  static let familySharingEntitles = {{policies.familySharingEntitles}}
}

/// Turns a cohort decision and transactions into features.
{{access}}enum EntitlementResolver {
  /// - Parameter now: the moment trials are judged at, never the device clock alone (see
  ///   `FreemiumStore`); nil ends every trial.
  {{access}}static func resolve(
    _ purchase: OriginalPurchase, decision: CohortDecision, purchases: [OwnedProduct],
    now: Date? = nil
  ) -> Entitlements {
    var features: [Feature: [GrantReason]] = [:]
    func grant(_ feature: Feature, _ reason: GrantReason) {
      if !(features[feature]?.contains(reason) ?? false) {
        features[feature, default: []].append(reason)
      }
    }
    if let platform = Grandfathering.track(for: purchase.platform) {
      for feature in Catalog.freeFeatures[platform] ?? [] { grant(feature, .free) }
    }
    if case .legacy(let tier) = decision.cohort {
      for feature in Catalog.tierFeatures[tier] ?? [] { grant(feature, .tier(tier)) }
    }
    let kept = Grandfathering.daysKept(for: purchase.verification)

    var active: Set<ProductID> = []
    var takenTrials: Set<ProductID> = []
    for owned in purchases {
      guard let product = ProductID(rawValue: owned.productID) else { continue }
      if Catalog.consumables.contains(product) || owned.isRevoked || owned.isExpired { continue }
      if let period = Catalog.trials[product] {
        takenTrials.insert(product)
        // A trial is free: unless a verified purchase date and a trusted now say it is running, it
        // has ended, and no one who paid loses anything.
        guard owned.isVerified, let now, let start = owned.purchaseDate,
          let end = Catalog.trialEnd(from: start, lasting: period), now < end
        else { continue }
      }
      if owned.ownership == .familyShared && !Catalog.familySharingEntitles { continue }
      if !owned.isVerified {
        // A failed signature is not proof of cracking; keep a recent verified result if allowed.
        guard let age = kept?.age, let days = kept?.limit, age <= days else { continue }
      }
      active.insert(product)
    }
    for product in active {
      for feature in Catalog.productGrants[product] ?? [] { grant(feature, .product(product)) }
      for inner in Catalog.productContents[product] ?? [] {
        for feature in Catalog.productGrants[inner] ?? [] {
          grant(feature, .bundle(product, via: inner))
        }
      }
    }
    return Entitlements(features: features, activeProducts: active, takenTrials: takenTrials)
  }
}

"""#,
    "swift/FreemiumStore": #"""
import Foundation

#if canImport(Combine)
  import Combine
#endif

/// Where the facts that decide the cohort come from.
{{access}}enum Proof: Hashable, Sendable {
  /// Nothing has been read yet, or the App Store couldn't be reached and nothing verified is kept.
  case unknown
  /// The App Store verified them while this process runs.
  case verified
  /// The App Store's signature didn't verify; `policies.verificationFailure` decides.
  case verificationFailed
  /// The App Store couldn't be reached; what it verified `daysAgo` days ago decides.
  case lastVerified(daysAgo: Int)
}

/// What the store knows about the customer now.
{{access}}struct StoreState: Hashable, Sendable {
  {{access}}var purchase: OriginalPurchase
  {{access}}var decision: CohortDecision
  {{access}}var entitlements: Entitlements
  {{access}}var proof: Proof
  /// False until the first refresh has finished.
  {{access}}var isLoaded: Bool
}

/// Why a purchase was not started. Nothing was charged.
{{access}}enum PurchaseRefusal: Hashable, Sendable {
  /// What the customer owns couldn't be read, so buying could charge twice.
  case ownershipUnknown
  /// The upsell withholds it from this customer, for this reason.
  case withheld(WithholdReason)
  /// Not on sale to this customer.
  case notOffered
  /// The legacy price needs a promotional offer signed by the app's server, and none was signed.
  case offerNotSigned
  /// The App Store refused the signed promotional offer (`Product.PurchaseError.ineligibleForOffer`
  /// and the invalid-offer errors): the legacy price was not charged, and neither was the full one.
  case offerRejected
}

/// The outcome of a purchase, each with what to tell the customer.
{{access}}enum PurchaseOutcome: Hashable, Sendable {
  /// Bought, verified, unlocked and finished.
  case purchased(ProductID)
  /// Waiting for approval (Ask to Buy): it unlocks through `Transaction.updates`.
  case pending
  /// The customer cancelled: show nothing.
  case cancelled
  /// Not started, so nothing was charged.
  case refused(PurchaseRefusal)
  /// The App Store's answer didn't verify: neither unlocked nor finished, so it comes back.
  case unverified
  /// A consumable that the app hasn't delivered yet: not finished, so it comes back.
  case awaitingDelivery(ProductID)
  /// The App Store couldn't complete it.
  case failed(String)

  /// What to show, or nil for nothing.
  {{access}}var message: String? {
    switch self {
    case .purchased: return StoreMessage.purchased
    case .pending: return StoreMessage.pending
    case .cancelled: return nil
    case .refused(.ownershipUnknown): return StoreMessage.ownershipUnknown
    case .refused(.withheld(.addsNothing)): return StoreMessage.addsNothing
    case .refused(.withheld(.requires)): return StoreMessage.requires
    case .refused(.withheld(.wouldChargeTwice)): return StoreMessage.wouldChargeTwice
    case .refused(.withheld(.trialTaken)): return StoreMessage.trialTaken
    case .refused(.notOffered): return StoreMessage.notOffered
    case .refused(.offerNotSigned): return StoreMessage.offerNotSigned
    case .refused(.offerRejected): return StoreMessage.offerRejected
    case .unverified: return StoreMessage.unverified
    case .awaitingDelivery: return StoreMessage.awaitingDelivery
    case .failed(let reason): return StoreMessage.failedPrefix + reason
    }
  }
}

/// A consumable to deliver. `transactionID` is the App Store's id for this purchase: the same each
/// time it is sent again (after a crash between delivering and finishing, or on another device),
/// so record it with what you credit, in the same write, and credit each id once.
{{access}}struct ConsumableDelivery: Hashable, Sendable {
  {{access}}var product: ProductID
  {{access}}var transactionID: UInt64
{{#isPublic}}

  {{access}}init(product: ProductID, transactionID: UInt64) {
    self.product = product
    self.transactionID = transactionID
  }
{{/isPublic}}
}

/// What the StoreKit layer tells the customer: one place to reword or localize.
{{access}}enum StoreMessage {
{{#purchaseMessageRows}}
  {{{declaration}}}
{{/purchaseMessageRows}}
}

/// The app's store: what the customer may use and buy, read from the App Store without prompting,
/// observable by SwiftUI.
///
/// - It never prompts at launch. `refresh()` reads `AppTransaction.shared` and
///   `Transaction.currentEntitlements`; only `restore()` uses `AppStore.sync()`, and only a user
///   action (Restore, a purchase) may call `AppTransaction.refresh()`.
/// - It verifies before it reads: an unverified app transaction's environment, version and dates
///   are never used, and an unverified transaction never creates a grant.
/// - `AppTransaction.shared` throwing (offline, nobody signed in) is unknown, not unverified: the
///   facts verified earlier keep deciding, from this process or from the cache for
///   {{policies.keepWhileUnreachableDays}} days.
/// - It trusts membership in `currentEntitlements`, so a subscriber in a billing grace period
///   keeps access whatever the device clock says.
/// - `purchase(_:)` reads what is owned first and refuses to charge twice; it unlocks, and only
///   then finishes.
/// - It listens to `Transaction.updates` from the moment it is created until it goes away.
@MainActor
{{access}}final class FreemiumStore {
  /// What the store knows now.
  {{access}}private(set) var state: StoreState {
    willSet {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
    }
  }

  /// Signs promotional offers on the app's server; legacy subscription prices need it.
  {{access}}var offerSigner: (any PromotionalOfferSigner)?

  /// Delivers a consumable; return true once delivered, or when its `transactionID` was delivered
  /// before (return true then without crediting again). A consumable is finished only then.
  {{access}}var deliverConsumable: (@MainActor (ConsumableDelivery) async -> Bool)?

  private let storeFront: any StoreFront
  private let cache: any PurchaseCacheStore
  private let now: @Sendable () -> Date
  /// The facts the App Store verified while this process runs.
  private var verifiedInProcess: VerifiedPurchaseRecord?
  private var latestRead = 0
  private var appliedRead = 0
  private var listener: Task<Void, Never>?

  {{access}}init(
    platform: AppPlatform,
    storeFront: any StoreFront,
    cache: any PurchaseCacheStore,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.state = StoreState(platform: platform)
    self.storeFront = storeFront
    self.cache = cache
    self.now = now
    let updates = storeFront.transactionUpdates()
    listener = Task { [weak self] in
      for await transaction in updates {
        await self?.handleUpdate(transaction)
      }
    }
  }

  deinit {
    listener?.cancel()
  }

  /// What the customer may use.
  {{access}}var entitlements: Entitlements { state.entitlements }

  /// The customer's cohort and the rule that decided it.
  {{access}}var decision: CohortDecision { state.decision }

  /// The offers to show now: none until what the customer owns is known, so a paywall never shows
  /// a price for something already paid for.
  {{access}}var upsell: UpsellResult {
    guard knowsOwnership else { return UpsellResult(offers: [], withheld: [:], showsRestore: true) }
    return UpsellPolicy.offers(for: state.entitlements, cohort: state.decision.cohort)
  }

  /// Whether buying `product` now is right. False until what the customer owns is known, and
  /// false for a bundle overlapping what is owned, so nobody is charged twice.
  {{access}}func mayBuy(_ product: ProductID) -> Bool {
    guard knowsOwnership else { return false }
    if Catalog.consumables.contains(product) { return UpsellPolicy.forSale.contains(product) }
    return UpsellPolicy.mayBuy(
      product, entitlements: state.entitlements, cohort: state.decision.cohort)
  }

  /// Re-reads the app transaction and current entitlements, without prompting. Call at launch and
  /// whenever the app comes to the foreground. An older answer never replaces a newer one.
  {{access}}func refresh() async {
    await read(appTransaction: nil, including: nil)
  }

  /// Restores purchases. Call only from a Restore Purchases button: it may ask for the password.
  /// Nil when the customer cancelled: show nothing.
  {{access}}func restore() async -> RestoreOutcome? {
    do {
      try await storeFront.sync()
    } catch {
      if (error as? StoreFrontError)?.isUserCancellation == true { return nil }
      return .failed
    }
    var appTransaction = await storeFront.appTransaction()
    if !appTransaction.isVerified {
      // A user action: asking to sign in is expected here.
      appTransaction = await storeFront.refreshAppTransaction()
    }
    await read(appTransaction: appTransaction, including: nil)
    // A paid download that keeps features counts as restored, like a purchase.
    if case .legacy(let tier) = state.decision.cohort, !(Catalog.tierFeatures[tier] ?? []).isEmpty {
      return .restored
    }
    return state.entitlements.activeProducts.isEmpty ? .nothingRestored : .restored
  }

  /// Buys `product`: reads what is owned first and refuses what would charge twice; on a verified
  /// purchase unlocks it and only then finishes the transaction.
  {{access}}func purchase(_ product: ProductID) async -> PurchaseOutcome {
    await refresh()
    if !knowsOwnership {
      // Buying is a user action, so asking to sign in is fine; without knowing what the customer
      // owns, a purchase could charge twice.
      await read(appTransaction: await storeFront.refreshAppTransaction(), including: nil)
    }
    guard knowsOwnership else { return .refused(.ownershipUnknown) }
    let isConsumable = Catalog.consumables.contains(product)
    var offer: Offer?
    if isConsumable {
      guard UpsellPolicy.forSale.contains(product) else { return .refused(.notOffered) }
    } else {
      let upsell = self.upsell
      guard let found = upsell.offers.first(where: { $0.product == product }) else {
        return .refused(upsell.withheld[product].map(PurchaseRefusal.withheld) ?? .notOffered)
      }
      offer = found
    }
    var signed: SignedPromotionalOffer?
    if case .promotionalOffer(let offerID)? = offer?.legacyCharge {
      guard let signer = offerSigner,
        let jws = try? await signer.compactJWS(offerID: offerID, productID: product.rawValue)
      else { return .refused(.offerNotSigned) }
      signed = SignedPromotionalOffer(offerID: offerID, compactJWS: jws)
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
    switch attempt {
    case .userCancelled:
      return .cancelled
    case .pending:
      return .pending
    case .success(let transaction):
      // Unverified: neither unlocked nor finished, so the App Store delivers it again.
      guard transaction.isVerified else { return .unverified }
      if isConsumable {
        let delivery = ConsumableDelivery(product: product, transactionID: transaction.id)
        guard let deliver = deliverConsumable, await deliver(delivery) else {
          return .awaitingDelivery(product)
        }
      } else {
        await read(appTransaction: nil, including: transaction)
      }
      await transaction.finish()
      return .purchased(product)
    }
  }

  /// The App Store products for the current offers, in offer order, for their display prices.
  {{access}}func offeredProducts() async throws -> [StoreProduct] {
    let offers = upsell.offers.map(\.product.rawValue)
    let products = try await storeFront.products(for: offers)
    return offers.compactMap { id in products.first { $0.id == id } }
  }

  // MARK: - Reading the App Store

  /// Whether the cohort rests on verified facts, now or kept within the policy.
  private var knowsOwnership: Bool {
    state.isLoaded && state.proof != .unknown && state.decision.rule != .noProof
  }

  private func handleUpdate(_ transaction: StoreTransaction) async {
    // A product this build doesn't know (added after it shipped) is never finished here: it may
    // be a consumable nobody delivered, and the App Store sends it again to a build that knows it.
    guard let product = ProductID(rawValue: transaction.productID) else { return }
    guard Catalog.consumables.contains(product) else {
      await read(appTransaction: nil, including: nil)
      // Finish only what verified and is now unlocked; an unverified one comes back.
      if transaction.isVerified { await transaction.finish() }
      return
    }
    let delivery = ConsumableDelivery(product: product, transactionID: transaction.id)
    guard transaction.isVerified, let deliver = deliverConsumable, await deliver(delivery) else {
      return
    }
    await transaction.finish()
  }

  private func read(appTransaction given: AppTransactionRead?, including extra: StoreTransaction?)
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
    // Reads overlap at each await: an older answer must never land after a newer one.
    guard ticket > appliedRead else { return }
    appliedRead = ticket
    apply(appTransaction, transactions)
  }

  private func apply(_ appTransaction: AppTransactionRead, _ transactions: [StoreTransaction]) {
    let now = self.now()
    let platform = state.purchase.platform
    var purchase = OriginalPurchase(platform: platform)
    var kept: VerifiedPurchaseRecord?
    let proof: Proof
    switch appTransaction {
    case .verified(let facts):
      // What the cache may extend later: verified, unrevoked, and not used up like a consumable.
      let verifiedProducts = Set(
        transactions.filter { $0.isVerified && !$0.isRevoked }.map(\.productID)
          .filter { ProductID(rawValue: $0).map { !Catalog.consumables.contains($0) } ?? false })
      let record = VerifiedPurchaseRecord(facts, products: verifiedProducts, verifiedAt: now)
      verifiedInProcess = record
      if let data = record.encoded() { cache.save(data) }
      purchase = Self.purchase(from: facts, platform: platform, verification: .verified)
      proof = .verified
    case .unverified:
      // What the payload claims is never read. What was verified before decides, as the policy
      // allows.
      kept = verifiedInProcess ?? cachedRecord(now: now)
      let age = kept.map { $0.age(at: now) }
      if let facts = kept?.facts {
        purchase = Self.purchase(
          from: facts, platform: platform, verification: .failed(lastVerifiedDaysAgo: age))
      } else {
        purchase.verification = .failed(lastVerifiedDaysAgo: nil)
      }
      proof = .verificationFailed
    case .unavailable:
      if let record = verifiedInProcess, let facts = record.facts {
        // Verified while this process runs: still the App Store's answer.
        kept = record
        purchase = Self.purchase(from: facts, platform: platform, verification: .verified)
        proof = .verified
      } else if let record = cachedRecord(now: now), let facts = record.facts {
        kept = record
        let age = record.age(at: now)
        purchase = Self.purchase(
          from: facts, platform: platform, verification: .unreachable(lastVerifiedDaysAgo: age))
        proof = .lastVerified(daysAgo: age)
      } else {
        purchase.verification = .unreachable(lastVerifiedDaysAgo: nil)
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
    let decision = Grandfathering.decide(purchase)
    state = StoreState(
      purchase: purchase,
      decision: decision,
      entitlements: EntitlementResolver.resolve(
        purchase, decision: decision, purchases: owned, now: trustedNow),
      proof: proof,
      isLoaded: true)
  }

  private func cachedRecord(now: Date) -> VerifiedPurchaseRecord? {
    cache.load().flatMap { VerifiedPurchaseRecord.decode($0, now: now) }
  }

  private static func purchase(
    from facts: AppTransactionFacts, platform: AppPlatform, verification: Verification
  ) -> OriginalPurchase {
    OriginalPurchase(
      originalAppVersion: facts.originalAppVersion,
      originalPurchaseDate: facts.originalPurchaseDate,
      platform: platform,
      originalPlatform: facts.originalPlatform,
      environment: facts.environment,
      verification: verification,
      isRevoked: facts.isRevoked)
  }
}

extension StoreState {
  /// Nothing read yet: a new customer with nothing, proof unknown.
  init(platform: AppPlatform) {
    self.init(
      purchase: OriginalPurchase(
        platform: platform, verification: .unreachable(lastVerifiedDaysAgo: nil)),
      decision: CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil),
      entitlements: Entitlements(features: [:], activeProducts: []),
      proof: .unknown,
      isLoaded: false)
  }
}

extension AppTransactionRead {
  /// Whether the App Store's signature verified.
  {{access}}var isVerified: Bool {
    if case .verified = self { return true }
    return false
  }
}

#if canImport(Combine)
  extension FreemiumStore: ObservableObject {}
#endif

"""#,
    "swift/OriginalPurchase": #"""
import Foundation

/// A `CFBundleVersion` or `CFBundleShortVersionString`, compared numerically component by
/// component, with missing components read as zero: `1.10 > 1.9`, `10 > 9`, `1 == 1.0.0`.
///
/// Never compare versions as Strings: there `"10" < "2"`.
{{access}}struct BundleVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  {{access}}let components: [UInt64]
  {{access}}let description: String

  /// Nil for anything that is not period-separated non-negative integers, such as `"2.0.1b"`.
  {{access}}init?(_ text: String) {
    var components: [UInt64] = []
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = UInt64(part)
      else { return nil }
      components.append(value)
    }
    guard !components.isEmpty else { return nil }
    self.components = components
    self.description = text
  }

  init(components: [UInt64], description: String) {
    self.components = components
    self.description = description
  }

  private var significant: ArraySlice<UInt64> {
    var end = components.count
    while end > 1 && components[end - 1] == 0 { end -= 1 }
    return components[0..<end]
  }

  {{access}}static func == (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    lhs.significant == rhs.significant
  }

  {{access}}func hash(into hasher: inout Hasher) {
    hasher.combine(Array(significant))
  }

  {{access}}static func < (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    for position in 0..<max(lhs.components.count, rhs.components.count) {
      let left = position < lhs.components.count ? lhs.components[position] : 0
      let right = position < rhs.components.count ? rhs.components[position] : 0
      if left != right { return left < right }
    }
    return false
  }
}

/// The platforms whose purchases this app sees.
{{access}}enum AppPlatform: String, CaseIterable, Sendable {
{{#platforms}}
  case {{case}}
{{/platforms}}

  /// The order migrate uses to break ties between platforms.
  var order: Int { AppPlatform.allCases.firstIndex(of: self) ?? 0 }

  /// On macOS `originalAppVersion` is the marketing version; everywhere else it is the build number.
  {{access}}var originalVersionIsBuildNumber: Bool {
    {{#hasMac}}self != .macOS{{/hasMac}}{{^hasMac}}true{{/hasMac}}
  }
}

/// Where the App Store's signature came from. TestFlight is `sandbox`.
{{access}}enum StoreEnvironment: String, CaseIterable, Sendable {
  case production
  case sandbox
  case xcode
}

/// Whether `AppTransaction` verified, and if not, how old the last verified result is.
{{access}}enum Verification: Hashable, Sendable {
  case verified
  /// The signature did not verify: `policies.verificationFailure` decides.
  case failed(lastVerifiedDaysAgo: Int?)
  /// The App Store couldn't be reached or nobody is signed in: unknown, not unverified, so the
  /// last verified facts decide for `Grandfathering.keepWhileUnreachableDays`.
  case unreachable(lastVerifiedDaysAgo: Int?)
}

/// What the App Store says about the original purchase, as inputs that tests can set freely:
/// the sandbox always reports `"1.0"`, so real cutoff logic can only be tried this way.
{{access}}struct OriginalPurchase: Hashable, Sendable {
  /// `AppTransaction.originalAppVersion`.
  {{access}}var originalAppVersion: String?
  /// `AppTransaction.originalPurchaseDate`.
  {{access}}var originalPurchaseDate: Date?
  /// The platform the app runs on now.
  {{access}}var platform: AppPlatform
  /// `AppTransaction.originalPlatform`, reported on iOS 18.4 and macOS 15.4 and later.
  {{access}}var originalPlatform: AppPlatform?
  {{access}}var environment: StoreEnvironment
  {{access}}var verification: Verification
  /// The paid download itself was refunded (`AppTransaction.revocationDate` is set).
  {{access}}var isRevoked: Bool

  {{access}}init(
    originalAppVersion: String? = nil,
    originalPurchaseDate: Date? = nil,
    platform: AppPlatform,
    originalPlatform: AppPlatform? = nil,
    environment: StoreEnvironment = .production,
    verification: Verification = .verified,
    isRevoked: Bool = false
  ) {
    self.originalAppVersion = originalAppVersion
    self.originalPurchaseDate = originalPurchaseDate
    self.platform = platform
    self.originalPlatform = originalPlatform
    self.environment = environment
    self.verification = verification
    self.isRevoked = isRevoked
  }
}

/// Legacy tiers: what buyers of each era keep.
{{access}}enum LegacyTier: String, CaseIterable, Sendable {
{{#tiers}}
  /// {{name}}
  case {{case}} = {{literal}}
{{/tiers}}
{{^tiers}}
  case none
{{/tiers}}
}

/// Which group a customer belongs to, by the era of their original purchase.
{{access}}enum Cohort: Hashable, Sendable {
  case legacy(LegacyTier)
  case newCustomer
}

/// How the cohort was decided.
{{access}}enum CohortRule: String, Hashable, Sendable {
  case buildNumber
  case marketingVersion
  case purchaseDate
  case environmentPolicy
  case noProof
  case undetermined
}

/// The cohort and the rule that decided it.
{{access}}struct CohortDecision: Hashable, Sendable {
  {{access}}var cohort: Cohort
  {{access}}var rule: CohortRule
  /// The platform whose releases gave the original version its meaning.
  {{access}}var platform: AppPlatform?
}

/// Decides cohorts from the release history in {{source}}.
{{access}}enum Grandfathering {
  struct Release: Sendable {
    let version: BundleVersion
    let released: Date
    let tier: LegacyTier?
    let paid: Bool
  }

  /// A written tier's window of purchase dates: from (inclusive) until (exclusive).
  struct Window: Sendable {
    let tier: LegacyTier
    let from: Date?
    let until: Date?
  }

  /// Releases per platform in go-live order, with the version receipts carry there.
  static let releases: [AppPlatform: [Release]] = [
{{#tracks}}
    .{{platform}}: [
{{#releases}}
      Release(
        version: BundleVersion(components: [{{components}}], description: {{versionLiteral}}),
        released: Date(timeIntervalSince1970: {{timestamp}}),  // {{iso}}
        tier: {{tier}},
        paid: {{paid}}){{comma}}
{{/releases}}
    ]{{comma}}
{{/tracks}}
  ]

  /// The written tiers' windows per platform, in the plan's order. A purchase made outside a
  /// window is not in that tier, even when its release went live inside it; a tier without
  /// `until` ends when the first free release went live.
  static let windows: [AppPlatform: [Window]] = [
{{#tracks}}
    .{{platform}}: [{{^hasWindows}}]{{comma}}{{/hasWindows}}
{{#windows}}
      Window(
        tier: {{tier}},
        from: {{from}},
        until: {{until}}){{comma}}
{{/windows}}
{{#hasWindows}}
    ]{{comma}}
{{/hasWindows}}
{{/tracks}}
  ]

  /// Platforms where versions order the eras the same way as release dates. Elsewhere build
  /// numbers restart or go backwards, so the purchase date decides.
  static let versionRuleIsSound: [AppPlatform: Bool] = [
{{#tracks}}
    .{{platform}}: {{versionRuleIsSound}}{{comma}}
{{/tracks}}
  ]

  /// Platforms that run another platform's binary when they have no releases of their own.
  static let fallbacks: [AppPlatform: AppPlatform] = [{{^hasFallbacks}}:]{{/hasFallbacks}}
{{#fallbacks}}
    .{{platform}}: .{{fallback}}{{comma}}
{{/fallbacks}}
{{#hasFallbacks}}
  ]
{{/hasFallbacks}}

  static let isUniversalPurchase = {{app.universalPurchase}}
  /// `policies.cutoffRule`: "automatic", "version" or "date".
  static let cutoffRule = {{policies.cutoffRuleLiteral}}
  /// `policies.nonProduction`: the cohort of sandbox, TestFlight and Xcode customers.
  static let nonProductionCohort: Cohort = {{policies.nonProductionCohort}}
  /// `policies.verificationFailure`: days a verified result is kept when verification fails.
  static let keepLastVerifiedDays: Int? = {{policies.keepLastVerifiedDays}}
  /// Days the last verified facts decide while the App Store can't be reached.
  static let keepWhileUnreachableDays = {{policies.keepWhileUnreachableDays}}

  /// Days the last verified facts may decide for this verification, or nil for none.
  static func daysKept(for verification: Verification) -> (age: Int?, limit: Int?)? {
    switch verification {
    case .verified: return nil
    case .failed(let age): return (age, keepLastVerifiedDays)
    case .unreachable(let age): return (age, keepWhileUnreachableDays)
    }
  }

  /// The cohort of a customer, and the rule that decided it.
  {{access}}static func decide(_ purchase: OriginalPurchase) -> CohortDecision {
    // The sandbox and TestFlight report "1.0" for everyone: decide by environment, never by value.
    if purchase.environment != .production {
      return CohortDecision(cohort: nonProductionCohort, rule: .environmentPolicy, platform: nil)
    }
    if purchase.isRevoked {
      return CohortDecision(cohort: .newCustomer, rule: .noProof, platform: nil)
    }
    if let kept = daysKept(for: purchase.verification) {
      guard let age = kept.age, let days = kept.limit, age <= days else {
        return CohortDecision(cohort: .newCustomer, rule: .noProof, platform: nil)
      }
    }
    let version = purchase.originalAppVersion.flatMap(BundleVersion.init)
    let date = purchase.originalPurchaseDate
    let appPlatforms = Set(AppPlatform.allCases.compactMap(track))

    // Universal purchase: the value's meaning follows the platform of the original purchase.
    if isUniversalPurchase && purchase.originalPlatform == nil && appPlatforms.count > 1 {
      let platforms = appPlatforms.sorted { $0.order < $1.order }
      if let date {
        return byDate(date, platforms: platforms, preferred: track(for: purchase.platform))
      }
      if let version {
        let readings = platforms.compactMap { platform -> CohortDecision? in
          guard versionRuleIsSound[platform] == true else { return nil }
          return byVersion(version, on: platform)
        }
        if readings.count == platforms.count, Set(readings.map(\.cohort)).count == 1 {
          return readings[0]
        }
      }
      return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
    }

    guard let platform = track(for: purchase.originalPlatform ?? purchase.platform) else {
      return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
    }
    let sound = versionRuleIsSound[platform] ?? false
    let useVersion = cutoffRule == "version" || (cutoffRule == "automatic" && sound)
    if useVersion, let version {
      return byVersion(version, on: platform, purchased: date)
    }
    if let date {
      return byDate(date, platforms: [platform], preferred: platform)
    }
    if let version, sound {
      return byVersion(version, on: platform)
    }
    return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
  }

  /// The platform whose releases give an original version its meaning.
  static func track(for platform: AppPlatform) -> AppPlatform? {
    if releases[platform] != nil { return platform }
    return fallbacks[platform].flatMap { releases[$0] == nil ? nil : $0 }
  }

  /// The customer's release is the one with the highest version not above theirs.
  static func byVersion(
    _ version: BundleVersion, on platform: AppPlatform, purchased date: Date? = nil
  ) -> CohortDecision {
    let rule: CohortRule = platform.originalVersionIsBuildNumber ? .buildNumber : .marketingVersion
    let sorted = (releases[platform] ?? []).enumerated().sorted {
      $0.element.version != $1.element.version
        ? $0.element.version < $1.element.version : $0.offset < $1.offset
    }
    guard let first = sorted.first else {
      return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
    }
    let match = sorted.last { $0.element.version <= version } ?? first
    // The version decides, unless a tier's window begins or ends while its release was on sale.
    let purchased = windowSplits(match.offset, on: platform) ? date : nil
    return CohortDecision(
      cohort: cohort(of: match.element, on: platform, purchased: purchased), rule: rule,
      platform: platform)
  }

  /// The customer's release is the one on sale at the purchase date; a purchase at the very
  /// moment a release went live counts as that release.
  static func byDate(
    _ date: Date, platforms: [AppPlatform], preferred: AppPlatform?
  ) -> CohortDecision {
    var readings: [(platform: AppPlatform, release: Release)] = []
    for platform in platforms {
      guard let list = releases[platform], let first = list.first else { continue }
      readings.append((platform, list.last { $0.released <= date } ?? first))
    }
    guard var chosen = readings.first(where: { $0.platform == preferred }) ?? readings.first else {
      return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
    }
    if Set(readings.map { $0.release.tier }).count > 1 {
      // The platforms disagree at this moment: never take away what someone may have paid for.
      chosen =
        readings.max { lhs, rhs in
          let left = lhs.release.tier.map { Catalog.tierFeatures[$0]?.count ?? 0 } ?? -1
          let right = rhs.release.tier.map { Catalog.tierFeatures[$0]?.count ?? 0 } ?? -1
          return left != right ? left < right : lhs.platform.order > rhs.platform.order
        } ?? chosen
    }
    return CohortDecision(
      cohort: cohort(of: chosen.release, on: chosen.platform, purchased: date), rule: .purchaseDate,
      platform: chosen.platform)
  }

  /// Whether a written tier's window begins or ends while release `offset` was on sale, so that
  /// its buyers are in different tiers by purchase date.
  static func windowSplits(_ offset: Int, on platform: AppPlatform) -> Bool {
    guard let list = releases[platform], list.indices.contains(offset) else { return false }
    let start = list[offset].released
    let end = offset + 1 < list.count ? list[offset + 1].released : Date.distantFuture
    return (windows[platform] ?? []).contains { window in
      [window.from, window.until].contains { bound in
        bound.map { start < $0 && $0 < end } ?? false
      }
    }
  }

  /// The tier of a purchase of `release`: by its written tier's window when the purchase date is
  /// known, by the release otherwise.
  static func cohort(
    of release: Release, on platform: AppPlatform, purchased date: Date?
  ) -> Cohort {
    guard let date, let list = windows[platform], !list.isEmpty else {
      return release.tier.map(Cohort.legacy) ?? .newCustomer
    }
    let window = list.first { window in
      (window.from.map { date >= $0 } ?? true) && (window.until.map { date < $0 } ?? true)
        && (release.paid || release.tier == window.tier)
    }
    return window.map { Cohort.legacy($0.tier) } ?? .newCustomer
  }
}

"""#,
    "swift/PurchaseCache": #"""
import Foundation

/// The last facts the App Store verified for this customer, kept so a payer isn't locked out while
/// the App Store can't be reached.
///
/// A cache, never a proof: it only extends what was verified, for the policy's days. It can't
/// create a grant (an unverified transaction counts only for a product this record lists), it is
/// bound to the Apple Account's `appTransactionID` and environment, and a record that is malformed
/// in any way (wrong types, dates that aren't finite, in the future or before 1970) is ignored.
{{access}}struct VerifiedPurchaseRecord: Codable, Hashable, Sendable {
  {{access}}var appTransactionID: String
  /// `StoreEnvironment.rawValue`.
  {{access}}var environment: String
  {{access}}var originalAppVersion: String
  /// Seconds since 1970; negative in the Xcode environment, which reports 0001-01-01.
  {{access}}var originalPurchaseDate: Double
  /// `AppPlatform.rawValue`, when the App Store said.
  {{access}}var originalPlatform: String?
  {{access}}var isRevoked: Bool
  /// Products whose transactions verified, sorted.
  {{access}}var products: [String]
  /// Seconds since 1970 when the App Store last verified these facts on this device.
  {{access}}var verifiedAt: Double

  /// Records bigger than this are ignored unread.
  static let maximumBytes = 65_536
  /// Lists or strings longer than this make a record malformed.
  static let maximumItems = 1_000
  static let maximumLength = 256

  {{access}}init(_ facts: AppTransactionFacts, products: Set<String>, verifiedAt: Date) {
    appTransactionID = facts.appTransactionID
    environment = facts.environment.rawValue
    originalAppVersion = facts.originalAppVersion
    originalPurchaseDate = facts.originalPurchaseDate.timeIntervalSince1970
    originalPlatform = facts.originalPlatform?.rawValue
    isRevoked = facts.isRevoked
    self.products = products.sorted()
    self.verifiedAt = verifiedAt.timeIntervalSince1970
  }

  /// The verified facts again, or nil when the record names what this app doesn't know.
  {{access}}var facts: AppTransactionFacts? {
    guard let environment = StoreEnvironment(rawValue: environment) else { return nil }
    var platform: AppPlatform?
    if let originalPlatform {
      guard let known = AppPlatform(rawValue: originalPlatform) else { return nil }
      platform = known
    }
    return AppTransactionFacts(
      appTransactionID: appTransactionID,
      originalAppVersion: originalAppVersion,
      originalPurchaseDate: Date(timeIntervalSince1970: originalPurchaseDate),
      environment: environment,
      originalPlatform: platform,
      isRevoked: isRevoked)
  }

  /// Whole days since the facts were verified.
  {{access}}func age(at now: Date) -> Int {
    Int((now.timeIntervalSince1970 - verifiedAt) / 86_400)
  }

  /// The record in `data`, or nil when it is malformed or was verified in the future.
  {{access}}static func decode(_ data: Data, now: Date) -> VerifiedPurchaseRecord? {
    guard data.count <= maximumBytes,
      let record = try? JSONDecoder().decode(VerifiedPurchaseRecord.self, from: data),
      record.isWellFormed(now: now)
    else { return nil }
    return record
  }

  {{access}}func encoded() -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try? encoder.encode(self)
  }

  func isWellFormed(now: Date) -> Bool {
    let strings = [appTransactionID, environment, originalAppVersion] + products
    return verifiedAt.isFinite && verifiedAt >= 0 && verifiedAt <= now.timeIntervalSince1970
      && originalPurchaseDate.isFinite && abs(originalPurchaseDate) < 1e11
      && products.count <= Self.maximumItems
      && strings.allSatisfy { $0.utf8.count <= Self.maximumLength }
      && (originalPlatform?.utf8.count ?? 0) <= Self.maximumLength
      && facts != nil
  }
}

/// Where the record of the last verified facts lives: the Keychain in the app, memory in tests.
{{access}}protocol PurchaseCacheStore: Sendable {
  func load() -> Data?
  func save(_ data: Data)
  func clear()
}

/// A cache in memory, for tests and previews.
{{access}}final class InMemoryPurchaseCache: PurchaseCacheStore, @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  {{access}}init(data: Data? = nil) {
    self.data = data
  }

  {{access}}func load() -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return data
  }

  {{access}}func save(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    self.data = data
  }

  {{access}}func clear() {
    lock.lock()
    defer { lock.unlock() }
    data = nil
  }
}

#if canImport(Security)
  import Security

  /// Keeps the record in the Keychain. Unlike UserDefaults, whose plist customers can edit, the
  /// Keychain is out of their reach; `ThisDeviceOnly` keeps it out of backups and other devices.
  {{access}}struct KeychainPurchaseCache: PurchaseCacheStore {
    {{access}}var service: String
    {{access}}var account: String

    /// The app's bundle identifier, so the record is the app's alone.
    {{{cacheServiceDeclaration}}}

    {{access}}init(service: String = Self.service, account: String = "lastVerifiedPurchase") {
      self.service = service
      self.account = account
    }

    private var query: [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        // The data protection keychain on macOS too, as on iOS: Apple recommends it for every
        // keychain call (TN3137); other platforms ignore the key.
        kSecUseDataProtectionKeychain as String: true,
      ]
    }

    {{access}}func load() -> Data? {
      var query = self.query
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
      return result as? Data
    }

    {{access}}func save(_ data: Data) {
      let attributes: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
      let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
      if status == errSecItemNotFound {
        let item = query.merging(attributes) { _, new in new }
        _ = SecItemAdd(item as CFDictionary, nil)
      }
    }

    {{access}}func clear() {
      _ = SecItemDelete(query as CFDictionary)
    }
  }
#endif

"""#,
    "swift/StoreFront": #"""
import Foundation

/// What `AppTransaction.shared` answered.
{{access}}enum AppTransactionRead: Hashable, Sendable {
  /// The App Store's signature verified.
  case verified(AppTransactionFacts)
  /// The signature did not verify: what the payload claims. `FreemiumStore` never reads it, so a
  /// forged payload can't pick a cohort, not even the one for testers. Not proof of cracking
  /// either: `policies.verificationFailure` decides.
  case unverified(claimed: AppTransactionFacts)
  /// The App Store couldn't be reached or nobody is signed in (`AppTransaction.shared` threw).
  /// Unknown, not unverified: the last verified facts keep deciding.
  case unavailable
}

/// The facts of an app transaction that decide the cohort.
{{access}}struct AppTransactionFacts: Hashable, Sendable {
  /// `AppTransaction.appTransactionID`: binds the cache of verified facts to one Apple Account.
  {{access}}var appTransactionID: String
  /// `AppTransaction.originalAppVersion`: a build number on iOS, a marketing version on macOS.
  {{access}}var originalAppVersion: String
  {{access}}var originalPurchaseDate: Date
  {{access}}var environment: StoreEnvironment
  /// `AppTransaction.originalPlatform`, or nil when the App Store doesn't say.
  {{access}}var originalPlatform: AppPlatform?
  /// The paid download itself was refunded (`AppTransaction.revocationDate` is set).
  {{access}}var isRevoked: Bool

  {{access}}init(
    appTransactionID: String,
    originalAppVersion: String,
    originalPurchaseDate: Date,
    environment: StoreEnvironment = .production,
    originalPlatform: AppPlatform? = nil,
    isRevoked: Bool = false
  ) {
    self.appTransactionID = appTransactionID
    self.originalAppVersion = originalAppVersion
    self.originalPurchaseDate = originalPurchaseDate
    self.environment = environment
    self.originalPlatform = originalPlatform
    self.isRevoked = isRevoked
  }
}

/// One transaction from `Transaction.currentEntitlements`, `Transaction.updates` or a purchase.
{{access}}struct StoreTransaction: Sendable {
  {{access}}var productID: String
  /// `Transaction.id`: the same for this purchase on every device and each time the App Store
  /// sends it again, so a consumable can be credited once.
  {{access}}var id: UInt64
  {{access}}var ownership: OwnedProduct.Ownership
  /// Refunded or revoked (`Transaction.revocationDate` is set).
  {{access}}var isRevoked: Bool
  /// False when the signature did not verify: such a transaction never creates a grant and is
  /// never finished.
  {{access}}var isVerified: Bool
  /// For information only: membership in `Transaction.currentEntitlements` already says a
  /// subscription is active, including during a billing grace period, whatever the device clock.
  {{access}}var expirationDate: Date?
  /// `Transaction.purchaseDate`: when a free trial began.
  {{access}}var purchaseDate: Date?
  /// When the App Store signed this transaction (`VerificationResult.signedDate`). For a verified
  /// one, a moment that has certainly passed, whatever the device clock says.
  {{access}}var signedDate: Date?
  /// `Transaction.finish()`: tells the App Store the purchase was delivered.
  {{access}}var finish: @Sendable () async -> Void

  {{access}}init(
    productID: String,
    id: UInt64 = 0,
    ownership: OwnedProduct.Ownership = .purchased,
    isRevoked: Bool = false,
    isVerified: Bool = true,
    expirationDate: Date? = nil,
    purchaseDate: Date? = nil,
    signedDate: Date? = nil,
    finish: @escaping @Sendable () async -> Void = {}
  ) {
    self.productID = productID
    self.id = id
    self.ownership = ownership
    self.isRevoked = isRevoked
    self.isVerified = isVerified
    self.expirationDate = expirationDate
    self.purchaseDate = purchaseDate
    self.signedDate = signedDate
    self.finish = finish
  }
}

/// What `Product.purchase(options:)` answered.
{{access}}enum PurchaseAttempt: Sendable {
  case success(StoreTransaction)
  /// Ask to Buy or Strong Customer Authentication: the transaction arrives later through
  /// `Transaction.updates`.
  case pending
  case userCancelled
}

/// Why the App Store couldn't do what was asked.
{{access}}struct StoreFrontError: Error, Hashable, Sendable {
  /// The customer cancelled a prompt: show nothing.
  {{access}}var isUserCancellation: Bool
  /// The App Store refused the promotional offer before charging anything: the customer isn't
  /// eligible for it, or the offer, its price or its signature doesn't match App Store Connect.
  {{access}}var isOfferRejected: Bool
  /// Why, in words a customer can read.
  {{access}}var message: String

  {{access}}init(isUserCancellation: Bool = false, isOfferRejected: Bool = false, message: String) {
    self.isUserCancellation = isUserCancellation
    self.isOfferRejected = isOfferRejected
    self.message = message
  }
}

/// A product as the App Store sells it in the customer's storefront.
{{access}}struct StoreProduct: Hashable, Sendable {
  {{access}}var id: String
  {{access}}var displayName: String
  {{access}}var displayPrice: String
{{#isPublic}}

  {{access}}init(id: String, displayName: String, displayPrice: String) {
    self.id = id
    self.displayName = displayName
    self.displayPrice = displayPrice
  }
{{/isPublic}}
}

/// A promotional offer and the signature the app's server made for it.
{{access}}struct SignedPromotionalOffer: Hashable, Sendable {
  {{access}}var offerID: String
  /// The compact JWS the app's server signed with its In-App Purchase key.
  {{access}}var compactJWS: String
{{#isPublic}}

  {{access}}init(offerID: String, compactJWS: String) {
    self.offerID = offerID
    self.compactJWS = compactJWS
  }
{{/isPublic}}
}

/// Signs promotional offers. The app supplies it: its server holds the In-App Purchase key and
/// signs the offer for this customer. Never put that key in the app.
{{access}}protocol PromotionalOfferSigner: Sendable {
  /// The compact JWS for `offerID` on `productID`, signed by the app's server.
  func compactJWS(offerID: String, productID: String) async throws -> String
}

/// The App Store as the layer sees it: `AppStoreFront` in the app, a fake in tests.
{{access}}protocol StoreFront: Sendable {
  /// `AppTransaction.shared`, verified. Never prompts.
  func appTransaction() async -> AppTransactionRead
  /// `AppTransaction.refresh()`, verified. May ask the customer to sign in: only on a user action.
  func refreshAppTransaction() async -> AppTransactionRead
  /// `Transaction.currentEntitlements`. Never prompts.
  func currentEntitlements() async -> [StoreTransaction]
  /// `Transaction.updates`: purchases approved later, made on other devices, refunds.
  func transactionUpdates() -> AsyncStream<StoreTransaction>
  /// `AppStore.sync()`. May ask for the password: only from a Restore Purchases button.
  func sync() async throws
  /// `Product.products(for:)`.
  func products(for identifiers: [String]) async throws -> [StoreProduct]
  /// `Product.purchase(options:)`, with a signed promotional offer when one applies.
  func purchase(productID: String, offer: SignedPromotionalOffer?) async throws -> PurchaseAttempt
}

"""#,
    "swift/Upsell": #"""
import Foundation

/// How the App Store charges a legacy price.
{{access}}enum LegacyCharge: Hashable, Sendable {
  /// A promotional offer on the subscription; the app's server signs it.
  case promotionalOffer(id: String)
  /// A separate product sold only to this tier.
  case legacyProduct(ProductID)
}

/// A product the customer may be shown.
{{access}}struct Offer: Hashable, Sendable {
  /// What is bought: for a legacy product, the legacy product itself.
  {{access}}var product: ProductID
  /// The features it would add.
  {{access}}var adds: Set<Feature>
  /// The legacy price from the customer's tier, in the app's main storefront, if one applies.
  {{access}}var legacyPrice: String?
  /// How the App Store charges `legacyPrice`: buy `product` with
  /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (your server signs the JWS with an
  /// In-App Purchase key, never shipped in the app), or buy the legacy product. Nil at the usual price.
  {{access}}var legacyCharge: LegacyCharge? = nil
}

/// Why a product is deliberately not offered.
{{access}}enum WithholdReason: Hashable, Sendable {
  /// Every feature it grants is already unlocked.
  case addsNothing
  /// An add-on for customers who already have these features.
  case requires(Set<Feature>)
  /// It would charge again for features the customer has; what it adds is sold alone.
  case wouldChargeTwice(overlap: Set<Feature>, soldAloneAs: Set<ProductID>)
  /// A free trial the customer has already started.
  case trialTaken
}

/// What the upsell screen shows.
{{access}}struct UpsellResult: Hashable, Sendable {
  /// Cheapest useful first.
  {{access}}var offers: [Offer]
  {{access}}var withheld: [ProductID: WithholdReason]
  /// False when everything that can be had is unlocked, so Restore can be hidden.
  {{access}}var showsRestore: Bool
}

/// The three outcomes of a Restore Purchases tap, each with its own message.
{{access}}enum RestoreOutcome: String, CaseIterable, Sendable {
  case failed
  case nothingRestored
  case restored

  {{access}}var message: String {
    switch self {
    case .failed: return {{restoreMessages.failed}}
    case .nothingRestored: return {{restoreMessages.nothingRestored}}
    case .restored: return {{restoreMessages.restored}}
    }
  }
}

/// Chooses offers that never charge twice.
{{access}}enum UpsellPolicy {
  /// Products on sale now.
  static let forSale: [ProductID] = [{{forSaleList}}]
  /// Prices in ten-thousandths of the main storefront's currency, for ordering offers.
  static let prices: [ProductID: Int] = [
{{#products}}
    .{{case}}: {{priceUnits}}{{comma}}
{{/products}}
  ]
  /// Add-ons, offered only to customers who already have these features.
  static let requirements: [ProductID: Set<Feature>] = [{{^anyRequires}}:]{{/anyRequires}}
{{#productsWithRequires}}
    .{{case}}: [{{requiresList}}]{{comma}}
{{/productsWithRequires}}
{{#anyRequires}}
  ]
{{/anyRequires}}
  /// Legacy prices per tier: (price for display, price in ten-thousandths).
  static let discounts: [LegacyTier: [ProductID: (String, Int)]] = [{{^anyDiscounts}}:]{{/anyDiscounts}}
{{#tiersWithDiscounts}}
    .{{case}}: [{{discountsList}}]{{comma}}
{{/tiersWithDiscounts}}
{{#anyDiscounts}}
  ]
{{/anyDiscounts}}
  /// Promotional offer identifiers that charge a tier's legacy price for a subscription.
  static let promotionalOffers: [LegacyTier: [ProductID: String]] = [{{^anyPromotionalOffers}}:]{{/anyPromotionalOffers}}
{{#tiersWithPromotionalOffers}}
    .{{case}}: [{{promotionalOffersList}}]{{comma}}
{{/tiersWithPromotionalOffers}}
{{#anyPromotionalOffers}}
  ]
{{/anyPromotionalOffers}}
  /// Legacy products: what each tier buys instead of the regular product, at its legacy price.
  static let legacyProducts: [LegacyTier: [ProductID: ProductID]] = [{{^anyLegacyProducts}}:]{{/anyLegacyProducts}}
{{#tiersWithLegacyProducts}}
    .{{case}}: [{{legacyProductsList}}]{{comma}}
{{/tiersWithLegacyProducts}}
{{#anyLegacyProducts}}
  ]
{{/anyLegacyProducts}}
  /// Products sold only to a tier in place of a regular product; no other cohort is offered them.
  static let legacyOnly: Set<ProductID> = [{{legacyOnlyList}}]

  /// Every feature someone could have today.
  static var obtainable: Set<Feature> {
    var result = Set(Catalog.tierFeatures.values.flatMap { $0 })
    for features in Catalog.productFeatures.values { result.formUnion(features) }
    for features in Catalog.freeFeatures.values { result.formUnion(features) }
    return result
  }

  /// The offers for a customer: never a product whose features they have, never a bundle that
  /// overlaps what they own when the missing part is sold alone, nothing when everything is unlocked.
  {{access}}static func offers(
    for entitlements: Entitlements, cohort: Cohort, isVolumePurchase: Bool = false
  ) -> UpsellResult {
    // What a running trial lends is not owned: the customer may buy it for good during the trial.
    let owned = Set(entitlements.features.filter { !$0.value.allSatisfy(\.isTrial) }.keys)
    var ownedProducts = entitlements.activeProducts
    for product in entitlements.activeProducts {
      ownedProducts.formUnion(Catalog.productContents[product] ?? [])
    }
    let showsRestore = !obtainable.subtracting(owned).isEmpty
    // Volume Purchase Program installs cannot make in-app purchases.
    if isVolumePurchase {
      return UpsellResult(offers: [], withheld: [:], showsRestore: showsRestore)
    }

    var withheld: [ProductID: WithholdReason] = [:]
    var candidates: [(product: ProductID, regular: ProductID, adds: Set<Feature>)] = []
    for regular in forSale where !Catalog.consumables.contains(regular) {
      // A legacy product is sold only in place of its regular product, to its tier.
      if legacyOnly.contains(regular) { continue }
      // A tier with a legacy product buys it instead: never the regular product at full price.
      var product = regular
      if case .legacy(let tier) = cohort, let twin = legacyProducts[tier]?[regular] {
        product = twin
      }
      if ownedProducts.contains(product) { continue }
      if entitlements.takenTrials.contains(product) {
        withheld[product] = .trialTaken
        continue
      }
      let features = Catalog.productFeatures[product] ?? []
      let adds = features.subtracting(owned)
      if adds.isEmpty {
        if !features.isEmpty { withheld[product] = .addsNothing }
        continue
      }
      let lacking = (requirements[product] ?? []).subtracting(owned)
      if !lacking.isEmpty {
        withheld[product] = .requires(lacking)
        continue
      }
      candidates.append((product, regular, adds))
    }

    func overlaps(_ product: ProductID) -> Bool {
      !(Catalog.productFeatures[product] ?? []).isDisjoint(with: owned)
        || !Set(Catalog.productContents[product] ?? []).isDisjoint(with: ownedProducts)
    }
    // Who sells each feature without overlapping what is owned: a bundle is withheld when every
    // feature it adds is sold by one of them. Indexed by feature, so this stays linear.
    var sellers: [Feature: Set<ProductID>] = [:]
    for candidate in candidates where !overlaps(candidate.product) {
      for feature in candidate.adds { sellers[feature, default: []].insert(candidate.product) }
    }
    var offers: [Offer] = []
    for candidate in candidates {
      if overlaps(candidate.product), candidate.adds.allSatisfy({ sellers[$0] != nil }) {
        let overlap = (Catalog.productFeatures[candidate.product] ?? []).intersection(owned)
        withheld[candidate.product] = .wouldChargeTwice(
          overlap: overlap, soldAloneAs: Set(candidate.adds.flatMap { sellers[$0] ?? [] }))
        continue
      }
      var legacyPrice: String?
      var legacyCharge: LegacyCharge?
      if case .legacy(let tier) = cohort, let discount = discounts[tier]?[candidate.regular],
        discount.1 < prices[candidate.regular] ?? 0
      {
        legacyPrice = discount.0
        if candidate.product != candidate.regular {
          legacyCharge = .legacyProduct(candidate.product)
        } else if let offer = promotionalOffers[tier]?[candidate.regular] {
          legacyCharge = .promotionalOffer(id: offer)
        }
      }
      offers.append(
        Offer(
          product: candidate.product, adds: candidate.adds, legacyPrice: legacyPrice,
          legacyCharge: legacyCharge))
    }
    offers.sort { lhs, rhs in
      let left = price(of: lhs, cohort: cohort)
      let right = price(of: rhs, cohort: cohort)
      if left != right { return left < right }
      if lhs.adds.count != rhs.adds.count { return lhs.adds.count > rhs.adds.count }
      return lhs.product.rawValue < rhs.product.rawValue
    }
    return UpsellResult(offers: offers, withheld: withheld, showsRestore: showsRestore)
  }

  /// Whether buying `product` now would be right: false when it is not offered, so a bundle is
  /// never bought by someone who owns part of it. Check `Transaction.currentEntitlements` first.
  {{access}}static func mayBuy(
    _ product: ProductID, entitlements: Entitlements, cohort: Cohort
  ) -> Bool {
    offers(for: entitlements, cohort: cohort).offers.contains { $0.product == product }
  }

  static func price(of offer: Offer, cohort: Cohort) -> Int {
    if offer.legacyPrice != nil, case .legacy(let tier) = cohort,
      let discount = discounts[tier]?[offer.product]
    {
      return discount.1
    }
    return prices[offer.product] ?? 0
  }
}

"""#,
    "tests/FreemiumTests": #"""
import Foundation
import Testing

@testable import {{module}}

/// One customer, with what migrate's own model expects for them.
struct MatrixCase: Sendable, CustomTestStringConvertible {
  let name: String
  let purchase: OriginalPurchase
  let owns: [OwnedProduct]
  let isVolumePurchase: Bool
  let cohort: Cohort
  let rule: CohortRule
  let features: Set<Feature>
  let offers: [ProductID]
  /// How each offer's legacy price is charged, in offer order.
  let charges: [LegacyCharge?]
  let showsRestore: Bool

  var testDescription: String { name }
}

/// {{testCount}} customers chosen at every boundary of {{source}}, with expected values computed
/// by migrate's own model and written as literals: the code above is checked against an
/// independent implementation of the same rules, not against itself.
let matrix: [MatrixCase] = [
{{#tests}}
  MatrixCase(
    name: {{nameLiteral}},
    purchase: OriginalPurchase(
      originalAppVersion: {{version}},
      originalPurchaseDate: {{date}},
      platform: .{{platform}},
      originalPlatform: {{originalPlatform}},
      environment: .{{environment}},
      verification: {{verification}},
      isRevoked: {{isRevoked}}),
    owns: [{{^hasOwns}}],{{/hasOwns}}
{{#owns}}
      OwnedProduct(
        productID: {{literal}},
        ownership: .{{ownership}},
        isRevoked: {{isRevoked}},
        isExpired: {{isExpired}},
        isVerified: {{isVerified}}){{comma}}
{{/owns}}
{{#hasOwns}}
    ],
{{/hasOwns}}
    isVolumePurchase: {{isVolumePurchase}},
    cohort: {{cohort}},
    rule: .{{rule}},
    features: [{{featuresList}}],
    offers: [{{offersList}}],
    charges: [{{chargesList}}],
    showsRestore: {{showsRestore}}){{comma}}
{{/tests}}
]

@Suite("Grandfathering")
struct FreemiumTests {
  @Test("Cohort, features and offers match migrate's model", arguments: matrix)
  func matrixCase(_ test: MatrixCase) {
    let decision = Grandfathering.decide(test.purchase)
    #expect(decision.cohort == test.cohort)
    #expect(decision.rule == test.rule)
    let entitlements = EntitlementResolver.resolve(
      test.purchase, decision: decision, purchases: test.owns)
    #expect(Set(entitlements.features.keys) == test.features)
    let upsell = UpsellPolicy.offers(
      for: entitlements, cohort: decision.cohort, isVolumePurchase: test.isVolumePurchase)
    #expect(upsell.offers.map(\.product) == test.offers)
    #expect(upsell.offers.map(\.legacyCharge) == test.charges)
    #expect(upsell.showsRestore == test.showsRestore)
  }

  @Test(
    "Versions compare as numbers, never as strings",
    arguments: [("10", "9"), ("1.10", "1.9"), ("13", "2"), ("2.0.1", "2")])
  func numericVersions(higher: String, lower: String) throws {
    let high = try #require(BundleVersion(higher))
    let low = try #require(BundleVersion(lower))
    #expect(low < high)
    #expect(!(high < low))
  }

  @Test("Equal versions ignore trailing zeros")
  func trailingZeros() throws {
    #expect(try #require(BundleVersion("1")) == #require(BundleVersion("1.0.0")))
  }

  @Test("Malformed versions are refused", arguments: ["", "2.0.1b", "1..2", "-1", " 1", "1."])
  func malformed(text: String) {
    #expect(BundleVersion(text) == nil)
  }

  @Test("Restore has three distinct messages")
  func restoreMessages() {
    #expect(Set(RestoreOutcome.allCases.map(\.message)).count == 3)
  }
}

"""#,
    "tests/StoreTests": #"""
import Foundation
import Testing

@testable import {{module}}

/// Plays the App Store for `FreemiumStore`: every answer is set by the test, every call recorded.
final class FakeStoreFront: StoreFront, @unchecked Sendable {
  struct Script {
    /// Answers to `appTransaction()`, one per call; the last one repeats.
    var appTransactions: [(read: AppTransactionRead, delay: UInt64)] = [(.unavailable, 0)]
    /// The answer to `refreshAppTransaction()`; nil repeats `appTransaction()`'s.
    var refreshedAppTransaction: AppTransactionRead?
    var entitlements: [StoreTransaction] = []
    var syncError: StoreFrontError?
    var purchaseResult: PurchaseAttempt = .userCancelled
    /// Thrown by `purchase(productID:offer:)` instead of answering.
    var purchaseError: StoreFrontError?
    var calls: [String] = []
    var offers: [SignedPromotionalOffer] = []
    /// `Transaction.updates` streams still listened to.
    var listeners: [Int: AsyncStream<StoreTransaction>.Continuation] = [:]
    var nextListener = 0
  }

  private let lock = NSLock()
  private var current = Script()

  var script: Script {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  func change(_ edit: (inout Script) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    edit(&current)
  }

  func appTransaction() async -> AppTransactionRead {
    var answer: (read: AppTransactionRead, delay: UInt64) = (.unavailable, 0)
    change {
      $0.calls.append("appTransaction")
      answer =
        $0.appTransactions.count > 1 ? $0.appTransactions.removeFirst() : $0.appTransactions[0]
    }
    if answer.delay > 0 { try? await Task.sleep(nanoseconds: answer.delay) }
    return answer.read
  }

  func refreshAppTransaction() async -> AppTransactionRead {
    change { $0.calls.append("refreshAppTransaction") }
    return script.refreshedAppTransaction ?? script.appTransactions[0].read
  }

  func currentEntitlements() async -> [StoreTransaction] {
    change { $0.calls.append("currentEntitlements") }
    return script.entitlements
  }

  func transactionUpdates() -> AsyncStream<StoreTransaction> {
    let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
    var id = 0
    change {
      id = $0.nextListener
      $0.nextListener += 1
      $0.listeners[id] = continuation
    }
    let listener = id
    continuation.onTermination = { [weak self] _ in self?.change { $0.listeners[listener] = nil } }
    return stream
  }

  /// A transaction arriving through `Transaction.updates`.
  func deliver(_ transaction: StoreTransaction) {
    for listener in script.listeners.values { listener.yield(transaction) }
  }

  func sync() async throws {
    change { $0.calls.append("sync") }
    if let error = script.syncError { throw error }
  }

  func products(for identifiers: [String]) async throws -> [StoreProduct] {
    identifiers.map { StoreProduct(id: $0, displayName: $0, displayPrice: "$0.99") }
  }

  /// A verified purchase joins `currentEntitlements`, as it does in the App Store.
  func purchase(productID: String, offer: SignedPromotionalOffer?) async throws -> PurchaseAttempt {
    change {
      $0.calls.append("purchase \(productID)")
      if let offer { $0.offers.append(offer) }
    }
    if let error = script.purchaseError { throw error }
    change {
      if case .success(let transaction) = $0.purchaseResult, transaction.isVerified {
        $0.entitlements.append(transaction)
      }
    }
    return script.purchaseResult
  }
}

/// Records what happened, from any isolation.
final class Recorder: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []

  var events: [String] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  func record(_ event: String) {
    lock.lock()
    defer { lock.unlock() }
    items.append(event)
  }
}

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var date = {{storeTests.now}}

  var now: Date {
    lock.lock()
    defer { lock.unlock() }
    return date
  }

  func advance(days: Int) {
    lock.lock()
    defer { lock.unlock() }
    date += Double(days) * 86_400
  }
}

/// Waits up to two seconds for `condition`, for what arrives through `Transaction.updates`.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
  for _ in 0..<200 {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 10_000_000)
  }
  return condition()
}

/// The StoreKit layer against a fake App Store: never locks out a payer, never grants a forgery,
/// never charges twice. Each test names the guard it proves.
@MainActor
@Suite("StoreKit layer")
struct StoreTests {
  let fake = FakeStoreFront()
  let cache = InMemoryPurchaseCache()
  let clock = TestClock()

  func makeStore(_ platform: AppPlatform) -> FreemiumStore {
    let clock = self.clock
    return FreemiumStore(platform: platform, storeFront: fake, cache: cache, now: { clock.now })
  }

  func transaction(
    _ product: ProductID, id: UInt64 = 1, verified: Bool = true, expires: Date? = nil,
    recorder: Recorder? = nil, store: FreemiumStore? = nil
  ) -> StoreTransaction {
    StoreTransaction(
      productID: product.rawValue, id: id, isVerified: verified, expirationDate: expires,
      finish: { @Sendable [weak store] in
        let unlocked = await MainActor.run { store?.entitlements.activeProducts.contains(product) }
        recorder?.record("finish \(product.rawValue) unlocked: \(unlocked ?? false)")
      })
  }
{{#storeTests.hasLegacy}}

  /// {{storeTests.legacy.name}}: a customer of a legacy tier.
  static let legacy = AppTransactionFacts(
    appTransactionID: "legacy-1",
    originalAppVersion: {{storeTests.legacy.version}},
    originalPurchaseDate: {{storeTests.legacy.date}},
    originalPlatform: {{storeTests.legacy.originalPlatform}})

  @Test("Offline after a verified launch, the payer keeps the tier (unknown is not unverified)")
  func offlineLaunchAfterVerifiedOne() async {
    fake.change { $0.appTransactions = [(.verified(Self.legacy), 0)] }
    await makeStore(.{{storeTests.legacy.platform}}).refresh()
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    clock.advance(days: {{storeTests.offlineAgeDays}})
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(store.decision.cohort == {{storeTests.legacy.cohort}})
    #expect(store.state.proof == .lastVerified(daysAgo: {{storeTests.offlineAgeDays}}))
  }

  @Test("Offline for longer than the cache may extend, nothing is granted from it")
  func offlineBeyondTheWindow() async {
    fake.change { $0.appTransactions = [(.verified(Self.legacy), 0)] }
    await makeStore(.{{storeTests.legacy.platform}}).refresh()
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    clock.advance(days: {{storeTests.beyondOfflineDays}})
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(store.decision.cohort == .newCustomer)
  }

  @Test("Offline later in the same run, what this process verified still decides")
  func offlineAfterVerifyingInThisProcess() async {
    let store = makeStore(.{{storeTests.legacy.platform}})
    fake.change { $0.appTransactions = [(.verified(Self.legacy), 0)] }
    await store.refresh()
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    cache.clear()
    await store.refresh()
    #expect(store.decision.cohort == {{storeTests.legacy.cohort}})
    #expect(store.state.proof == .verified)
  }

  @Test("A cache record edited into the future or malformed is ignored, without crashing")
  func editedCacheIsIgnored() async throws {
    let future = try #require(
      VerifiedPurchaseRecord(
        Self.legacy, products: [], verifiedAt: clock.now.addingTimeInterval(86_400)
      ).encoded())
    let valid = try #require(
      VerifiedPurchaseRecord(Self.legacy, products: [], verifiedAt: clock.now).encoded())
    let text = String(decoding: valid, as: UTF8.self)
    let malformed = [
      future,
      edited(text, "verifiedAt", to: "NaN"),
      edited(text, "verifiedAt", to: "-1e300"),
      edited(text, "verifiedAt", to: "1e400"),
      edited(text, "verifiedAt", to: "\"now\""),
      edited(text, "originalPurchaseDate", to: "1e300"),
      Data("{\"originalAppVersion\":\"12\",\"verifiedAt\":0}".utf8),
      Data([0xFF, 0x00, 0x7B]),
    ]
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    for data in malformed {
      cache.save(data)
      let store = makeStore(.{{storeTests.legacy.platform}})
      await store.refresh()
      #expect(store.decision.cohort == .newCustomer, "\(String(decoding: data, as: UTF8.self))")
      #expect(store.state.proof == .unknown)
    }
  }

  /// The record with `key` set to `value` (the old value is kept under another key).
  func edited(_ record: String, _ key: String, to value: String) -> Data {
    Data(record.replacingOccurrences(of: "\"\(key)\":", with: "\"\(key)\":\(value),\"x\":").utf8)
  }

  @Test("A forged UserDefaults record grants nothing: the cache is never read from there")
  func userDefaultsForgeryGrantsNothing() async {
    // The key earlier versions of the generated layer used.
    let key = "migrate.lastVerifiedPurchase.{{app.bundleID}}"
    let forged: [String: Any] = [
      "verifiedAt": clock.now.timeIntervalSince1970,
      "originalAppVersion": {{storeTests.legacy.version}},
    ]
    UserDefaults.standard.set(forged, forKey: key)
    defer { UserDefaults.standard.removeObject(forKey: key) }
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(store.decision.cohort == .newCustomer)
  }

  @Test("An unverified app transaction is never read, even when it claims the sandbox")
  func unverifiedSandboxClaimIsNotRead() async {
    var claim = Self.legacy
    claim.environment = .sandbox
    fake.change { $0.appTransactions = [(.unverified(claimed: claim), 0)] }
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(store.state.purchase.environment == .production)
    #expect(store.decision.rule == .noProof)
    #expect(store.decision.cohort == .newCustomer)
  }

  @Test("An unverified transaction for a product never verified is not granted, cache or not")
  func unverifiedProductIsNotGranted() async {
    fake.change { $0.appTransactions = [(.verified(Self.legacy), 0)] }
    await makeStore(.{{storeTests.legacy.platform}}).refresh()
    let forged = ProductID.allCases.filter { !Catalog.consumables.contains($0) }
    // Offline, so the cache of verified facts decides, whatever the policy for failed signatures.
    fake.change {
      $0.appTransactions = [(.unavailable, 0)]
      $0.entitlements = forged.map { transaction($0, verified: false) }
    }
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(store.entitlements.activeProducts.isEmpty)
  }

  @Test("Refresh never prompts: no AppStore.sync() and no AppTransaction.refresh()")
  func refreshNeverPrompts() async {
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    let store = makeStore(.{{storeTests.legacy.platform}})
    await store.refresh()
    #expect(!fake.script.calls.contains("sync"))
    #expect(!fake.script.calls.contains("refreshAppTransaction"))
  }
{{#storeTests.hasNewCustomer}}

  @Test("Overlapping refreshes: an older answer never lands after a newer one")
  func olderAnswerNeverLandsLast() async {
    fake.change {
      $0.appTransactions = [
        (.verified(Self.legacy), 300_000_000), (.verified(Self.newCustomer), 0),
      ]
    }
    let store = makeStore(.{{storeTests.legacy.platform}})
    async let first: Void = store.refresh()
    try? await Task.sleep(nanoseconds: 50_000_000)
    await store.refresh()
    await first
    #expect(store.decision.cohort == {{storeTests.newCustomer.cohort}})
  }
{{/storeTests.hasNewCustomer}}
{{/storeTests.hasLegacy}}
{{#storeTests.hasNewCustomer}}

  /// {{storeTests.newCustomer.name}}: a new customer.
  static let newCustomer = AppTransactionFacts(
    appTransactionID: "new-1",
    originalAppVersion: {{storeTests.newCustomer.version}},
    originalPurchaseDate: {{storeTests.newCustomer.date}},
    originalPlatform: {{storeTests.newCustomer.originalPlatform}})

  func loadedNewCustomer() async -> FreemiumStore {
    fake.change { $0.appTransactions = [(.verified(Self.newCustomer), 0)] }
    let store = makeStore(.{{storeTests.newCustomer.platform}})
    await store.refresh()
    return store
  }

  @Test("Restore: the customer cancels the password prompt, and nothing is shown")
  func restoreCancelledIsSilent() async {
    let store = await loadedNewCustomer()
    fake.change { $0.syncError = StoreFrontError(isUserCancellation: true, message: "cancelled") }
    #expect(await store.restore() == nil)
  }

  @Test("Restore: the App Store can't be reached")
  func restoreFails() async {
    let store = await loadedNewCustomer()
    fake.change { $0.syncError = StoreFrontError(message: "offline") }
    #expect(await store.restore() == .failed)
  }

  @Test("Restore: finished, with nothing to restore")
  func restoreFindsNothing() async {
    let store = await loadedNewCustomer()
    #expect(await store.restore() == .nothingRestored)
  }
{{#storeTests.hasFreeTrial}}

  /// The free trial ({{storeTests.freeTrial.spoken}}), bought at `bought` and signed by the App Store at `signed`.
  func freeTrial(bought: Date, signed: Date? = nil, verified: Bool = true) -> StoreTransaction {
    StoreTransaction(
      productID: ProductID.{{storeTests.freeTrial.product.case}}.rawValue, isVerified: verified,
      purchaseDate: bought, signedDate: signed ?? bought)
  }

  @Test("A free trial grants from its purchase date until it ends, then no more")
  func freeTrialRunsThenEnds() async {
    fake.change { $0.entitlements = [freeTrial(bought: clock.now)] }
    let store = await loadedNewCustomer()
    #expect(store.entitlements.contains(.{{storeTests.freeTrial.feature}}))
    clock.advance(days: {{storeTests.freeTrial.pastDays}})
    await store.refresh()
    #expect(!store.entitlements.contains(.{{storeTests.freeTrial.feature}}))
  }

  @Test("A clock set back doesn't lengthen a trial past a moment the App Store has signed")
  func freeTrialClockSetBack() async {
    let ended = clock.now.addingTimeInterval({{storeTests.freeTrial.pastDays}} * 86_400)
    // The device says day 0; the App Store signed the trial's record after it had ended.
    fake.change { $0.entitlements = [freeTrial(bought: clock.now, signed: ended)] }
    let store = await loadedNewCustomer()
    #expect(!store.entitlements.contains(.{{storeTests.freeTrial.feature}}))
  }

  @Test("An unverified trial grants nothing, even for a trial verified before")
  func freeTrialUnverified() async {
    fake.change { $0.entitlements = [freeTrial(bought: clock.now)] }
    let verified = await loadedNewCustomer()
    clock.advance(days: {{storeTests.freeTrial.pastDays}})
    // Verified again today: the cache may extend the trial's product when verification fails.
    await verified.refresh()
    // Verification fails now, and the trial's record claims it began today.
    fake.change {
      $0.appTransactions = [(.unverified(claimed: Self.newCustomer), 0)]
      $0.entitlements = [freeTrial(bought: clock.now, verified: false)]
    }
    let store = makeStore(.{{storeTests.newCustomer.platform}})
    await store.refresh()
    #expect(!store.entitlements.contains(.{{storeTests.freeTrial.feature}}))
  }

  @Test("During a trial the unlock is offered, and a trial once started is never offered again")
  func freeTrialUpsell() async {
    fake.change { $0.entitlements = [freeTrial(bought: clock.now)] }
    let store = await loadedNewCustomer()
    #expect(store.upsell.offers.contains { $0.product == .{{storeTests.freeTrial.unlock.case}} })
    clock.advance(days: {{storeTests.freeTrial.pastDays}})
    await store.refresh()
    #expect(!store.upsell.offers.contains { $0.product == .{{storeTests.freeTrial.product.case}} })
    #expect(store.upsell.withheld[.{{storeTests.freeTrial.product.case}}] == .trialTaken)
  }
{{/storeTests.hasFreeTrial}}
{{/storeTests.hasNewCustomer}}
{{#storeTests.hasSellable}}

  @Test("Restore: finished, and a purchase is back")
  func restoreRestores() async {
    let store = await loadedNewCustomer()
    fake.change { $0.entitlements = [transaction(.{{storeTests.sellable.case}})] }
    #expect(await store.restore() == .restored)
    #expect(store.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}))
  }

  @Test("Restore asks the App Store for the app transaction again when it was unavailable")
  func restoreRefreshesTheAppTransaction() async {
    fake.change {
      $0.appTransactions = [(.unavailable, 0)]
      $0.refreshedAppTransaction = .verified(Self.newCustomer)
    }
    let store = makeStore(.{{storeTests.newCustomer.platform}})
    _ = await store.restore()
    #expect(fake.script.calls.contains("refreshAppTransaction"))
    #expect(store.state.proof == .verified)
  }

  @Test("A billing grace period keeps the subscriber: the device clock is never consulted")
  func gracePeriodKeepsAccess() async {
    let store = await loadedNewCustomer()
    let expired = clock.now.addingTimeInterval(-3 * 86_400)
    fake.change { $0.entitlements = [transaction(.{{storeTests.grace.case}}, expires: expired)] }
    await store.refresh()
    #expect(store.entitlements.activeProducts.contains(.{{storeTests.grace.case}}))
  }

  @Test("Purchase: verified, then unlocked, and only then finished")
  func purchaseUnlocksThenFinishes() async {
    let store = await loadedNewCustomer()
    let recorder = Recorder()
    let bought = transaction(.{{storeTests.sellable.case}}, recorder: recorder, store: store)
    fake.change { $0.purchaseResult = .success(bought) }
    let outcome = await store.purchase(.{{storeTests.sellable.case}})
    #expect(outcome == .purchased(.{{storeTests.sellable.case}}))
    #expect(store.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}))
    #expect(recorder.events == ["finish {{storeTests.sellable.id}} unlocked: true"])
  }

  @Test("Purchase: an unverified success is neither unlocked nor finished")
  func unverifiedPurchaseIsNotGranted() async {
    let store = await loadedNewCustomer()
    let recorder = Recorder()
    let forged = transaction(
      .{{storeTests.sellable.case}}, verified: false, recorder: recorder, store: store)
    fake.change {
      $0.purchaseResult = .success(forged)
      $0.entitlements = [forged]
    }
    let outcome = await store.purchase(.{{storeTests.sellable.case}})
    #expect(outcome == .unverified)
    #expect(!store.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}))
    #expect(recorder.events.isEmpty)
  }

  @Test("Purchase: Ask to Buy waits for approval, then unlocks through Transaction.updates")
  func pendingPurchaseCompletesThroughUpdates() async {
    let store = await loadedNewCustomer()
    fake.change { $0.purchaseResult = .pending }
    #expect(await store.purchase(.{{storeTests.sellable.case}}) == .pending)
    #expect(!store.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}))
    let recorder = Recorder()
    let approved = transaction(.{{storeTests.sellable.case}}, recorder: recorder, store: store)
    fake.change { $0.entitlements = [approved] }
    fake.deliver(approved)
    #expect(await eventually { recorder.events.count == 1 })
    #expect(store.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}))
    #expect(recorder.events == ["finish {{storeTests.sellable.id}} unlocked: true"])
  }

  @Test("Purchase: the customer cancels, and nothing is shown")
  func cancelledPurchaseIsSilent() async {
    let store = await loadedNewCustomer()
    fake.change { $0.purchaseResult = .userCancelled }
    let outcome = await store.purchase(.{{storeTests.sellable.case}})
    #expect(outcome == .cancelled)
    #expect(outcome.message == nil)
  }

  @Test("Purchase reads what is owned first: bought on another device, it isn't sold again")
  func purchaseReadsOwnershipFirst() async {
    let store = await loadedNewCustomer()
    fake.change { $0.entitlements = [transaction(.{{storeTests.sellable.case}})] }
    let outcome = await store.purchase(.{{storeTests.sellable.case}})
    #expect(outcome.isRefusal)
    #expect(!fake.script.calls.contains("purchase {{storeTests.sellable.id}}"))
  }

  @Test("Purchase while what the customer owns can't be read is refused, not charged")
  func purchaseWithUnknownOwnershipIsRefused() async {
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    let store = makeStore(.{{storeTests.newCustomer.platform}})
    let outcome = await store.purchase(.{{storeTests.sellable.case}})
    #expect(outcome == .refused(.ownershipUnknown))
    #expect(!fake.script.calls.contains("purchase {{storeTests.sellable.id}}"))
  }

  @Test("An unknown product's transaction is never finished: it may be an undelivered consumable")
  func unknownProductIsNotFinished() async {
    let store = await loadedNewCustomer()
    let recorder = Recorder()
    let unknown = StoreTransaction(
      productID: "com.example.added-in-a-later-version", id: 7,
      finish: { @Sendable in recorder.record("finish unknown") })
    fake.deliver(unknown)
    // Updates are handled in order: once the next one is finished, the unknown one was handled.
    let known = transaction(.{{storeTests.sellable.case}}, recorder: recorder, store: store)
    fake.change { $0.entitlements = [known] }
    fake.deliver(known)
    #expect(await eventually { !recorder.events.isEmpty })
    #expect(recorder.events == ["finish {{storeTests.sellable.id}} unlocked: true"])
  }

  @Test("The listener starts with the store and stops when the store goes away")
  func listenerLivesWithTheStore() async {
    var store: FreemiumStore? = await loadedNewCustomer()
    let recorder = Recorder()
    let elsewhere = transaction(.{{storeTests.sellable.case}}, recorder: recorder, store: store)
    fake.change { $0.entitlements = [elsewhere] }
    fake.deliver(elsewhere)
    #expect(await eventually { recorder.events.count == 1 })
    #expect(store?.entitlements.activeProducts.contains(.{{storeTests.sellable.case}}) == true)
    store = nil
    #expect(await eventually { self.fake.script.listeners.isEmpty })
  }
{{/storeTests.hasSellable}}
{{#storeTests.hasSellable}}

  @Test("No offer is shown until what the customer owns is known, and Restore is")
  func noOffersBeforeOwnershipIsKnown() async {
    fake.change { $0.appTransactions = [(.unavailable, 0)] }
    let store = makeStore(.{{storeTests.newCustomer.platform}})
    #expect(store.upsell.offers.isEmpty)
    await store.refresh()
    #expect(store.upsell.offers.isEmpty)
    #expect(store.upsell.showsRestore)
  }
{{/storeTests.hasSellable}}
{{#storeTests.hasRefusal}}

  @Test("Nothing may be bought before the first refresh, and a legacy buyer is refused an overlap")
  func overlappingPurchaseRefusedBeforeFirstRefresh() async {
    let refused = AppTransactionFacts(
      appTransactionID: "refused-1",
      originalAppVersion: {{storeTests.refusal.version}},
      originalPurchaseDate: {{storeTests.refusal.date}},
      originalPlatform: {{storeTests.refusal.originalPlatform}})
    fake.change { $0.appTransactions = [(.verified(refused), 0)] }
    let store = makeStore(.{{storeTests.refusal.platform}})
    // {{storeTests.refusedReason}}
    #expect(!store.mayBuy(.{{storeTests.refused.case}}))
    let outcome = await store.purchase(.{{storeTests.refused.case}})
    #expect(outcome.isRefusal)
    #expect(store.decision.cohort == {{storeTests.refusal.cohort}})
    #expect(!fake.script.calls.contains("purchase {{storeTests.refused.id}}"))
  }
{{/storeTests.hasRefusal}}
{{#storeTests.hasPromo}}

  /// {{storeTests.promo.name}}: offered a legacy subscription price.
  static let promo = AppTransactionFacts(
    appTransactionID: "promo-1",
    originalAppVersion: {{storeTests.promo.version}},
    originalPurchaseDate: {{storeTests.promo.date}},
    originalPlatform: {{storeTests.promo.originalPlatform}})

  struct Signer: PromotionalOfferSigner {
    func compactJWS(offerID: String, productID: String) async throws -> String {
      "signed \(offerID) for \(productID)"
    }
  }

  @Test("A legacy subscription price is bought with the promotional offer the app's server signed")
  func legacyPriceUsesTheSignedOffer() async {
    let bought = transaction(.{{storeTests.promoProduct.case}})
    fake.change {
      $0.appTransactions = [(.verified(Self.promo), 0)]
      $0.purchaseResult = .success(bought)
    }
    let store = makeStore(.{{storeTests.promo.platform}})
    store.offerSigner = Signer()
    let outcome = await store.purchase(.{{storeTests.promoProduct.case}})
    #expect(outcome == .purchased(.{{storeTests.promoProduct.case}}))
    let offerID = "{{storeTests.promoOfferID}}"
    let signature = "signed \(offerID) for {{storeTests.promoProduct.id}}"
    #expect(fake.script.offers == [SignedPromotionalOffer(offerID: offerID, compactJWS: signature)])
  }

  @Test("An offer the App Store refuses is a refusal: nothing unlocked, no retry at the full price")
  func rejectedOfferIsRefused() async {
    fake.change {
      $0.appTransactions = [(.verified(Self.promo), 0)]
      $0.purchaseError = StoreFrontError(isOfferRejected: true, message: "ineligibleForOffer")
    }
    let store = makeStore(.{{storeTests.promo.platform}})
    store.offerSigner = Signer()
    let outcome = await store.purchase(.{{storeTests.promoProduct.case}})
    #expect(outcome == .refused(.offerRejected))
    #expect(outcome.message == StoreMessage.offerRejected)
    #expect(fake.script.calls.filter { $0 == "purchase {{storeTests.promoProduct.id}}" }.count == 1)
    #expect(!store.entitlements.activeProducts.contains(.{{storeTests.promoProduct.case}}))
  }

  @Test("Without a signer the legacy subscription price is refused, never charged in full")
  func legacyPriceWithoutSignerIsRefused() async {
    fake.change { $0.appTransactions = [(.verified(Self.promo), 0)] }
    let store = makeStore(.{{storeTests.promo.platform}})
    #expect(await store.purchase(.{{storeTests.promoProduct.case}}) == .refused(.offerNotSigned))
    #expect(!fake.script.calls.contains("purchase {{storeTests.promoProduct.id}}"))
  }
{{/storeTests.hasPromo}}
{{#storeTests.hasLegacyProduct}}

  @Test("A legacy product is sold to its tier and to nobody else")
  func legacyProductOnlyForItsTier() async {
    let buyer = AppTransactionFacts(
      appTransactionID: "legacy-product-1",
      originalAppVersion: {{storeTests.legacyBuyer.version}},
      originalPurchaseDate: {{storeTests.legacyBuyer.date}},
      originalPlatform: {{storeTests.legacyBuyer.originalPlatform}})
    fake.change {
      $0.appTransactions = [(.verified(buyer), 0)]
      $0.purchaseResult = .success(transaction(.{{storeTests.legacyProduct.case}}))
    }
    let store = makeStore(.{{storeTests.legacyBuyer.platform}})
    #expect(
      await store.purchase(.{{storeTests.legacyProduct.case}})
        == .purchased(.{{storeTests.legacyProduct.case}}))
    let newcomer = await loadedNewCustomer()
    #expect(!newcomer.mayBuy(.{{storeTests.legacyProduct.case}}))
    let refused = await newcomer.purchase(.{{storeTests.legacyProduct.case}})
    #expect(refused.isRefusal)
  }
{{/storeTests.hasLegacyProduct}}
{{#storeTests.hasConsumable}}

  @Test("A consumable is finished only once the app has delivered it")
  func consumableFinishedOnlyWhenDelivered() async {
    let store = await loadedNewCustomer()
    let recorder = Recorder()
    let bought = transaction(.{{storeTests.consumable.case}}, recorder: recorder, store: store)
    fake.change { $0.purchaseResult = .success(bought) }
    #expect(
      await store.purchase(.{{storeTests.consumable.case}})
        == .awaitingDelivery(.{{storeTests.consumable.case}}))
    #expect(recorder.events.isEmpty)
    store.deliverConsumable = { _ in true }
    #expect(await store.purchase(.{{storeTests.consumable.case}}) == .purchased(.{{storeTests.consumable.case}}))
    #expect(recorder.events.count == 1)
  }

  @Test("A consumable is delivered with its transaction id, so one sent again is credited once")
  func consumableDeliveredWithTransactionID() async {
    let store = await loadedNewCustomer()
    let delivered = Recorder()
    store.deliverConsumable = { delivery in
      delivered.record("\(delivery.product.rawValue) #\(delivery.transactionID)")
      return true
    }
    fake.change { $0.purchaseResult = .success(self.transaction(.{{storeTests.consumable.case}}, id: 41)) }
    #expect(await store.purchase(.{{storeTests.consumable.case}}) == .purchased(.{{storeTests.consumable.case}}))
    // The same purchase again through Transaction.updates, as after a crash before it was finished.
    let recorder = Recorder()
    fake.deliver(transaction(.{{storeTests.consumable.case}}, id: 41, recorder: recorder, store: store))
    #expect(await eventually { recorder.events.count == 1 })
    #expect(delivered.events == ["{{storeTests.consumable.id}} #41", "{{storeTests.consumable.id}} #41"])
  }
{{/storeTests.hasConsumable}}
}

extension PurchaseOutcome {
  var isRefusal: Bool {
    if case .refused = self { return true }
    return false
  }
}

"""#,
  ]
}
