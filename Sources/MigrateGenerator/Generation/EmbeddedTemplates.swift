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

| cohort | {{featureHeader}} |
|---|{{featureAlignment}}
{{#cohortRows}}
| {{title}} | {{cellsText}} |
{{/cohortRows}}

✓ kept or free without buying; — must be bought.

## Products × features

| product | price | for sale | {{featureHeader}} |
|---|--:|:-:|{{featureAlignment}}
{{#productRows}}
| `{{id}}` {{name}} | {{price}} | {{forSale}} | {{cellsText}} |
{{/productRows}}

## Cohorts × offers

What the upsell shows, cheapest useful first, and what it withholds so no one pays twice.

| cohort | owns | offered | withheld |
|---|---|---|---|
{{#offerRows}}
| {{cohort}} | {{owns}} | {{offered}} | {{withheld}} |
{{/offerRows}}

"""#,
    "docs/TEST_MATRIX": #"""
# Test matrix: {{app.name}}

Generated from `{{source}}`: {{testCount}} customers at every boundary of the plan, with the outcome
migrate expects. The sandbox and TestFlight always report original version "1.0", so the cohort can
only be tried by injecting these values (see `FreemiumTests`); purchases can be tried with
`Products.storekit` in Xcode.

| # | case | platform | environment | original version | purchased | owns | cohort | features | offers | restore |
|--:|---|---|---|---|---|---|---|---|---|---|
{{#tests}}
| {{number}} | {{name}} | {{platformText}} | {{environment}} | {{versionText}} | {{dateText}} | {{ownsText}} | {{cohortText}} | {{featuresText}} | {{offersText}} | {{restoreText}} |
{{/tests}}

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

  {{access}}init(
    productID: String,
    ownership: Ownership = .purchased,
    isRevoked: Bool = false,
    isExpired: Bool = false,
    isVerified: Bool = true
  ) {
    self.productID = productID
    self.ownership = ownership
    self.isRevoked = isRevoked
    self.isExpired = isExpired
    self.isVerified = isVerified
  }
}

/// Why a customer has a feature.
{{access}}enum GrantReason: Hashable, Sendable {
  case free
  case tier(LegacyTier)
  case product(ProductID)
  case bundle(ProductID, via: ProductID)
}

/// What a customer is entitled to, with every reason.
{{access}}struct Entitlements: Hashable, Sendable {
  {{access}}var features: [Feature: [GrantReason]]
  /// Products whose transactions count.
  {{access}}var activeProducts: Set<ProductID>

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
  static let familyShareable: Set<ProductID> = [{{familyShareableList}}]
  /// `policies.familySharing`.
  static let familySharingEntitles = {{policies.familySharingEntitles}}
}

/// Turns a cohort decision and transactions into features.
{{access}}enum EntitlementResolver {
  {{access}}static func resolve(
    _ purchase: OriginalPurchase, decision: CohortDecision, purchases: [OwnedProduct]
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
    var cacheAge: Int?
    if case .failed(let age) = purchase.verification { cacheAge = age }

    var active: Set<ProductID> = []
    for owned in purchases {
      guard let product = ProductID(rawValue: owned.productID) else { continue }
      if Catalog.consumables.contains(product) || owned.isRevoked || owned.isExpired { continue }
      if owned.ownership == .familyShared && !Catalog.familySharingEntitles { continue }
      if !owned.isVerified {
        // A failed signature is not proof of cracking; keep a recent verified result if allowed.
        guard let cacheAge, let days = Grandfathering.keepLastVerifiedDays, cacheAge <= days
        else { continue }
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
    return Entitlements(features: features, activeProducts: active)
  }
}

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
  case failed(lastVerifiedDaysAgo: Int?)
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
  }

  /// Releases per platform in go-live order, with the version receipts carry there.
  static let releases: [AppPlatform: [Release]] = [
{{#tracks}}
    .{{platform}}: [
{{#releases}}
      Release(
        version: BundleVersion(components: [{{components}}], description: {{versionLiteral}}),
        released: Date(timeIntervalSince1970: {{timestamp}}),  // {{iso}}
        tier: {{tier}}){{comma}}
{{/releases}}
    ]{{comma}}
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

  /// The cohort of a customer, and the rule that decided it.
  {{access}}static func decide(_ purchase: OriginalPurchase) -> CohortDecision {
    // The sandbox and TestFlight report "1.0" for everyone: decide by environment, never by value.
    if purchase.environment != .production {
      return CohortDecision(cohort: nonProductionCohort, rule: .environmentPolicy, platform: nil)
    }
    if purchase.isRevoked {
      return CohortDecision(cohort: .newCustomer, rule: .noProof, platform: nil)
    }
    if case .failed(let age) = purchase.verification {
      guard let age, let days = keepLastVerifiedDays, age <= days else {
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
      return byVersion(version, on: platform)
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
  static func byVersion(_ version: BundleVersion, on platform: AppPlatform) -> CohortDecision {
    let rule: CohortRule = platform.originalVersionIsBuildNumber ? .buildNumber : .marketingVersion
    let sorted = (releases[platform] ?? []).enumerated().sorted {
      $0.element.version != $1.element.version
        ? $0.element.version < $1.element.version : $0.offset < $1.offset
    }
    guard let first = sorted.first else {
      return CohortDecision(cohort: .newCustomer, rule: .undetermined, platform: nil)
    }
    let match = sorted.last { $0.element.version <= version } ?? first
    return CohortDecision(cohort: cohort(of: match.element), rule: rule, platform: platform)
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
      cohort: cohort(of: chosen.release), rule: .purchaseDate, platform: chosen.platform)
  }

  static func cohort(of release: Release) -> Cohort {
    release.tier.map(Cohort.legacy) ?? .newCustomer
  }
}

"""#,
    "swift/StoreKitEntitlements": #"""
#if canImport(StoreKit)
  import Foundation
  import StoreKit

  /// Reads what the App Store says about this customer and turns it into entitlements and offers.
  ///
  /// - It never prompts at launch: `refresh()` reads `AppTransaction.shared` and
  ///   `Transaction.currentEntitlements`; only `restore()`, called from a Restore button, uses
  ///   `AppStore.sync()`, which may ask for the password.
  /// - It verifies before it grants, and keeps the last verified result only as a cache, for
  ///   `policies.verificationFailure` ({{policies.verificationFailureText}}).
  /// - Before a purchase, `mayBuy(_:)` checks what is owned, so a bundle is never bought twice.
  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
  @MainActor
  {{access}}final class StoreKitEntitlements {
    {{access}}private(set) var decision = CohortDecision(
      cohort: .newCustomer, rule: .undetermined, platform: nil)
    {{access}}private(set) var entitlements = Entitlements(features: [:], activeProducts: [])
    {{access}}private(set) var purchase: OriginalPurchase

    private let defaults: UserDefaults
    private var updates: Task<Void, Never>?
    private static let cacheKey = "{{cacheKey}}"

    {{access}}init(platform: AppPlatform, defaults: UserDefaults = .standard) {
      self.purchase = OriginalPurchase(platform: platform)
      self.defaults = defaults
    }

    /// The offers to show now.
    {{access}}var upsell: UpsellResult {
      UpsellPolicy.offers(for: entitlements, cohort: decision.cohort)
    }

    /// Re-reads the app transaction and current entitlements, without prompting.
    {{access}}func refresh() async {
      await readAppTransaction()
      var owned: [OwnedProduct] = []
      for await result in Transaction.currentEntitlements {
        owned.append(Self.owned(result))
      }
      apply(owned)
    }

    /// Listens for purchases, renewals and refunds made while the app runs or elsewhere.
    {{access}}func startListening() {
      updates?.cancel()
      updates = Task { [weak self] in
        for await result in Transaction.updates {
          if case .verified(let transaction) = result { await transaction.finish() }
          await self?.refresh()
        }
      }
    }

    {{access}}func stopListening() {
      updates?.cancel()
      updates = nil
    }

    /// Restores purchases. Call only from a Restore Purchases button: it may ask for the password.
    {{access}}func restore() async -> RestoreOutcome {
      let before = entitlements.features.count
      do {
        try await AppStore.sync()
      } catch {
        return .failed
      }
      await refresh()
      return entitlements.features.count > before || !entitlements.activeProducts.isEmpty
        ? .restored : .nothingRestored
    }

    /// Whether buying `product` now is right; false for a bundle overlapping what is owned.
    {{access}}func mayBuy(_ product: ProductID) -> Bool {
      UpsellPolicy.mayBuy(product, entitlements: entitlements, cohort: decision.cohort)
    }

    /// The App Store products for the current offers, in offer order.
    {{access}}func offeredProducts() async throws -> [Product] {
      let offers = upsell.offers.map(\.product)
      let products = try await Product.products(for: offers.map(\.rawValue))
      return offers.compactMap { id in products.first { $0.id == id.rawValue } }
    }

    // MARK: - Reading the App Store

    private func readAppTransaction() async {
      let platform = purchase.platform
      do {
        let result = try await AppTransaction.shared
        switch result {
        case .verified(let transaction):
          purchase = Self.purchase(from: transaction, platform: platform, verification: .verified)
          saveCache(purchase)
        case .unverified(let transaction, _):
          // Not proof of cracking: decide from the last verified facts if the policy allows.
          var facts = Self.purchase(
            from: transaction, platform: platform,
            verification: .failed(lastVerifiedDaysAgo: cacheAge()))
          if let cached = cachedPurchase() {
            facts.originalAppVersion = cached.originalAppVersion
            facts.originalPurchaseDate = cached.originalPurchaseDate
            facts.originalPlatform = cached.originalPlatform
          }
          purchase = facts
        }
      } catch {
        purchase.verification = .failed(lastVerifiedDaysAgo: cacheAge())
        if let cached = cachedPurchase() {
          purchase.originalAppVersion = cached.originalAppVersion
          purchase.originalPurchaseDate = cached.originalPurchaseDate
          purchase.originalPlatform = cached.originalPlatform
        }
      }
      decision = Grandfathering.decide(purchase)
    }

    private func apply(_ owned: [OwnedProduct]) {
      entitlements = EntitlementResolver.resolve(purchase, decision: decision, purchases: owned)
    }

    private static func purchase(
      from transaction: AppTransaction, platform: AppPlatform, verification: Verification
    ) -> OriginalPurchase {
      var purchase = OriginalPurchase(
        originalAppVersion: transaction.originalAppVersion,
        originalPurchaseDate: transaction.originalPurchaseDate,
        platform: platform,
        environment: environment(transaction.environment),
        verification: verification)
      if #available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
        purchase.originalPlatform = Self.platform(transaction.originalPlatform)
      }
      return purchase
    }

    private static func environment(_ environment: AppStore.Environment) -> StoreEnvironment {
      switch environment {
      case .production: return .production
      case .xcode: return .xcode
      default: return .sandbox
      }
    }

    private static func platform(_ platform: AppStore.Platform) -> AppPlatform? {
      switch platform {
{{#platforms}}
{{#storeKitPlatform}}
      case .{{storeKitPlatform}}: return .{{case}}
{{/storeKitPlatform}}
{{/platforms}}
      default: return nil
      }
    }

    private static func owned(_ result: VerificationResult<Transaction>) -> OwnedProduct {
      let transaction: Transaction
      let verified: Bool
      switch result {
      case .verified(let value):
        transaction = value
        verified = true
      case .unverified(let value, _):
        transaction = value
        verified = false
      }
      let expired = transaction.expirationDate.map { $0 <= Date() } ?? false
      return OwnedProduct(
        productID: transaction.productID,
        ownership: transaction.ownershipType == .familyShared ? .familyShared : .purchased,
        isRevoked: transaction.revocationDate != nil,
        isExpired: expired,
        isVerified: verified)
    }

    // MARK: - The cache of the last verified facts (a cache, never a proof)

    private func saveCache(_ purchase: OriginalPurchase) {
      var record: [String: Any] = ["verifiedAt": Date().timeIntervalSince1970]
      record["originalAppVersion"] = purchase.originalAppVersion
      record["originalPurchaseDate"] = purchase.originalPurchaseDate?.timeIntervalSince1970
      record["originalPlatform"] = purchase.originalPlatform?.rawValue
      defaults.set(record, forKey: Self.cacheKey)
    }

    private func cachedPurchase() -> OriginalPurchase? {
      guard let record = defaults.dictionary(forKey: Self.cacheKey) else { return nil }
      var cached = OriginalPurchase(platform: purchase.platform)
      cached.originalAppVersion = record["originalAppVersion"] as? String
      cached.originalPurchaseDate = (record["originalPurchaseDate"] as? Double).map {
        Date(timeIntervalSince1970: $0)
      }
      cached.originalPlatform = (record["originalPlatform"] as? String).flatMap(AppPlatform.init)
      return cached
    }

    private func cacheAge() -> Int? {
      guard let record = defaults.dictionary(forKey: Self.cacheKey),
        let verifiedAt = record["verifiedAt"] as? Double
      else { return nil }
      let days = Date().timeIntervalSince(Date(timeIntervalSince1970: verifiedAt)) / 86_400
      return days < 0 ? nil : Int(days)
    }
  }
#endif

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
    let owned = Set(entitlements.features.keys)
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
  ]
}
