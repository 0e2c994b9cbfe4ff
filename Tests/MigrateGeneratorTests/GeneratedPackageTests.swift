import Foundation
import FreemiumStoreKit
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateTestSupport
import Testing

/// One guard of the generated StoreKit layer removed: the test named `test` must fail (or the run crash, for a
/// guard whose absence traps): a generated `StoreTests.swift` test of `example`'s plan, or, `inLibrary`, one of the
/// library's own tests (`LibraryMutantTests`), for a guard that is the same for every plan.
struct LayerMutant: Sendable {
    var name: String
    var example: String
    var file: String
    var find: String
    var replace: String
    var test: String
    var inLibrary = false
}

/// The generated code is proven here: every example is generated into one SwiftPM package next to
/// the StoreKit, Combine and Security shims, built, tested, and linted with the toolchain's
/// swift-format. A mutant whose versions compare as Strings (Apple's sample) must fail its generated
/// tests, and so must each mutant of the StoreKit layer that removes one guard.
@Suite("Generated package", .serialized, .timeLimit(.minutes(45)))
struct GeneratedPackageTests {
    static let modules: [(example: String, module: String, access: GenerationOptions.Access)] = [
        ("tilt-to-live-hd", "Tilt", .public),
        // server-pal is built and tested as `generate --package` writes it, in PackageLayoutTests' package.
        // Internal access, with the layer's sources copied in: each example is one module, built once.
        ("pocket-ledger", "PocketLedger", .internal),
        ("inkwell-universal", "Inkwell", .public),
        ("tally-two-switches", "Tally", .public),
        ("quill-writer", "Quill", .public),
        // Promotional offers for a tier of the free era, whose customers could have subscribed.
        ("Tests/Fixtures/plans/promotional-offer-free-era.json", "FreeEra", .public),
        // A legacy subscription price charged as the introductory offer, its eligibility signed by the server.
        ("Tests/Fixtures/plans/introductory-offer-paid-era.json", "IntroOffer", .public),
        // Tier windows that end while a release is on sale: the generated code compares purchase dates as the engine does.
        ("Tests/Fixtures/plans/tier-window-mid-release.json", "TierWindows", .public),
        // What `init --yes` writes for a real-shaped repository (ReaderInitTests keeps it byte for byte): four
        // subscriptions' worth of plans at one level with free trials, a lifetime pass, three paid eras.
        ("Tests/Fixtures/plans/reader-init.json", "Reader", .public),
    ]
    static let mutant = "TiltMutant"
    /// The modules also generated with `--server`: vendored and imported layers, universal purchase
    /// (original platforms), promotional and introductory legacy prices.
    static let servers: Set<String> = ["Tilt", "Inkwell", "FreeEra", "IntroOffer"]
    /// The server module whose tests also take Apple's App Store Server Library types, through the one-line
    /// conformances SERVER.md shows, type-checked against a shim of the library's declarations.
    static let libraryServer = "Tilt"
    /// The modules generated with the layer's sources copied in (`--store-layer vendored`, the default);
    /// the rest import the library (`--store-layer dependency`), which is built once for all of them.
    static let vendored: Set<String> = ["Tilt", "PocketLedger"]
    /// The mutants (the layer's, and the cutoff comparing versions as Strings) are a module each, and building
    /// them is most of this suite's time: `swift test` leaves them to CI, whose `.ci/mutants` sets
    /// `MIGRATE_MUTANTS=1` and runs them.
    static let mutantsEnabled = ProcessInfo.processInfo.environment["MIGRATE_MUTANTS"] == "1"
    /// The shims, each a module; StoreKit's imports UIKit's (a purchase confirmed in a scene).
    static let shims = ["UIKit", "StoreKit", "Combine", "Security"]

    /// Each guard of the StoreKit layer, and the generated test that proves it.
    static let layerMutants: [LayerMutant] = [
        // The journeys through the App Store model, each against the behaviour its issue reported.
        // A plan of the subscriber's group counted as charging twice is withheld as adding nothing, not as a switch.
        LayerMutant(
            name: "SwitchRefused", example: "quill-writer", file: "CatalogRules.swift",
            find: "    if let group = subscriptionGroups[product] { return holderGroup != group }\n",
            replace: "    if subscriptionGroups[product] != nil { return true }\n",
            test: "Journey: a plan of the group that adds nothing is a switch, not an upgrade"),
        // A plan change waiting for the renewal sold again: the guard that refuses it, and the upsell that hides it.
        LayerMutant(
            name: "PendingSwitchSoldAgain", example: "quill-writer", file: "PlanStore+Purchasing.swift",
            find: "    if let change = pendingChange(to: product) { return .refused(.alreadySwitched(change)) }\n", replace: "",
            test: "A change of duration waits for the renewal: scheduled, never sold again, shown with its date, then held", inLibrary: true),
        LayerMutant(
            name: "PendingSwitchOffered", example: "tally-two-switches", file: "PlanStore.swift",
            find: "    return switched.isEmpty ? upsell : Plan.upsell(upsell, without: switched)\n", replace: "    return upsell\n",
            test: "A change of duration waits for the renewal: scheduled, never sold again, shown with its date, then held", inLibrary: true),
        // A switch that adds nothing sold on the paywall, a pending change offered again, a pass extension that
        // restarts the clock, a notification applied twice.
        LayerMutant(
            name: "SwitchSoldOnPaywall", example: "quill-writer", file: "CatalogUpsell.swift",
            find: "        if adds.isEmpty {\n          withheld[product] = .switchAddsNothing(from: current)\n          continue\n        }\n",
            replace: "",
            test: "Journey: a plan of the group that adds nothing is a switch, not an upgrade"),
        LayerMutant(
            name: "PendingChangeOfferedAgain", example: "quill-writer", file: "PlanStore+PlanChanges.swift",
            find: "        if pending.product == change.to {\n", replace: "        if pending.product == change.to, false {\n",
            test: "Journey: a subscriber changes plan on the account screen, and is charged once"),
        LayerMutant(
            name: "PassExtensionRestartsClock", example: "Tests/Fixtures/plans/promotional-offer-free-era.json",
            file: "CatalogEntitlements.swift",
            find: "        let start = max(purchase.bought, runningEnd ?? purchase.bought)\n", replace: "        let start = purchase.bought\n",
            test: "Journey: a pass bought while one runs starts where it ends: no day is lost, offline too"),
        LayerMutant(
            name: "NotificationAppliedTwice", example: "tilt-to-live-hd", file: "NotificationLedger.swift",
            find: "    guard notificationUUIDs.insert(notification.notificationUUID).inserted else {\n      return .duplicate\n    }\n",
            replace: "    notificationUUIDs.insert(notification.notificationUUID)\n",
            test: "A notification delivered twice is applied once", inLibrary: true),
        LayerMutant(
            name: "LegacyPriceUncharged", example: "quill-writer", file: "CatalogUpsell.swift",
            find: "          offer.legacyCharge = .legacyProduct(candidate.product)\n", replace: "          offer.legacyCharge = nil\n",
            test: "Journey: a paid-app buyer who never subscribed buys every legacy price offered"),
        // Offline at the first launch, nothing cached: the store must ask again on its own, or the buyer stays unknown.
        LayerMutant(
            name: "FirstLaunchNeverRechecked", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "      renewalDates: renewalDates)\n    scheduleRecheck()\n", replace: "      renewalDates: renewalDates)\n",
            test: "First launch offline, nothing cached: the purchase is being checked, and recognised when the App Store answers, no relaunch",
            inLibrary: true),
        // A provisional grant on the app's own evidence: never past its window, never past the App Store's answer.
        LayerMutant(
            name: "ProvisionalWindowEndIgnored", example: "Tests/Fixtures/plans/tier-window-mid-release.json", file: "PlanStore+Reading.swift",
            find: "    guard window.isOpen(at: now, days: days) else { return nil }\n", replace: "",
            test: "The grant ends at the window's end, and a relaunch or a clock set back doesn't restart it", inLibrary: true),
        LayerMutant(
            name: "ProvisionalGrantKeptAfterAnswer", example: "Tests/Fixtures/plans/tier-window-mid-release.json",
            file: "PlanStore+Reading.swift",
            find: "    let provisional = proof == .unknown ? provisionalGrant(now: now) : nil\n",
            replace: "    let provisional = provisionalGrant(now: now)\n",
            test: "The App Store answers new customer: the grant is withdrawn at once, and the real decision stands", inLibrary: true),
        LayerMutant(
            name: "ApprovalNeverFinished", example: "tilt-to-live-hd", file: "PlanStore+Consumables.swift",
            find: "      if transaction.isVerified { await transaction.finish() }\n", replace: "",
            test: "Ask to Buy: pending, then approved through Transaction.updates, unlocked and finished", inLibrary: true),
        LayerMutant(
            name: "HandOffNotUnlocked", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "      }\n      await read(appTransaction: nil, including: transaction)\n      await transaction.finish()\n",
            replace: "      }\n      await transaction.finish()\n",
            test: "A purchase handed over is unlocked before it is finished", inLibrary: true),
        LayerMutant(
            name: "JourneyRefundedCantBuy", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "      proof = .verified\n    case .unverified(let claimed):\n",
            replace: "      proof = facts.isRevoked ? .unknown : .verified\n    case .unverified(let claimed):\n",
            test: "A refunded paid download is a proven new customer, who may buy", inLibrary: true),
        LayerMutant(
            name: "JourneyRestoreUnknownIsNothing", example: "tilt-to-live-hd", file: "PlanStore+Restoring.swift",
            find: "    guard appTransaction.isVerified else { return .failed }\n", replace: "",
            test: "Restore: cancelled shows nothing; synced but still unknown is a failure, never 'nothing to restore'", inLibrary: true),
        LayerMutant(
            name: "JourneyUnfinishedWaitsForLaunch", example: "tally-two-switches", file: "PlanStore.swift",
            find: "      Task { [weak self] in await self?.deliverUnfinishedConsumables() }\n", replace: "",
            test: "A consumable is finished only once delivered, with its transaction id; one bought before the hook is delivered", inLibrary: true),
        LayerMutant(
            name: "TesterLegacyPriceUncharged", example: "tally-two-switches", file: "CatalogUpsell.swift",
            find: "          offer.legacyCharge = .legacyProduct(candidate.product)\n", replace: "          offer.legacyCharge = nil\n",
            test: "Journey: a sandbox tester (App Review's fresh account) buys the testers' legacy price"),
        LayerMutant(
            name: "FamilyPolicyIgnored", example: "inkwell-universal", file: "CatalogEntitlements.swift",
            find: "if owned.ownership == .familyShared && !familySharingEntitles { return .familySharingIgnored }",
            replace: "if owned.ownership == .familyShared && familySharingEntitles { return .familySharingIgnored }",
            test: "Journey: a family member gets what is shared, as the plan says, until sharing stops"),
        // Win-back offers: eligibility read from the product's offers, which StoreKit lists to anyone, not from the
        // customer's renewal info: a customer who never subscribed is shown and sent a price the App Store refuses.
        LayerMutant(
            name: "WinBackForAnyone", example: "quill-writer", file: "PlanStore+Purchasing.swift",
            find: "    let eligible = statuses.filter { $0.isVerified && $0.ownership == .purchased }\n"
                + "      .flatMap(\\.renewalInfo.eligibleWinBackOfferIDs)\n",
            replace: "    _ = statuses\n    let eligible = (try? await storeFront.products(for: [product.rawValue]).first?\n"
                + "      .winBackPrices.keys.sorted()) ?? []\n",
            test: "Journey: a new customer and an active subscriber see and pay the regular price"),
        LayerMutant(
            name: "IntroductoryUnsigned", example: "Tests/Fixtures/plans/introductory-offer-paid-era.json", file: "CatalogPlan.swift",
            find: "    case .introductoryOffer?: return .offered(signing: .introductory)\n",
            replace: "    case .introductoryOffer?: return .offered(signing: nil)\n",
            test: "Journey: a paid-app buyer who subscribed before gets the introductory offer"),
        LayerMutant(
            name: "OfflineIsUnverified", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "verification: .unreachable(lastVerifiedDaysAgo: age))",
            replace: "verification: .failed(lastVerifiedDaysAgo: age))",
            test: "Offline later in the same run, or at the next launch from the cache, the verified facts keep deciding", inLibrary: true),
        LayerMutant(
            name: "WindowIgnored", example: "tilt-to-live-hd", file: "CohortRules.swift",
            find: "guard let age = kept.age, let days = kept.limit, age <= days else {",
            replace: "guard let age = kept.age, let days = kept.limit, age <= days + 100_000 else {",
            test: "Each rule at its boundary", inLibrary: true),
        LayerMutant(
            name: "ProcessForgets", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "if let record = verifiedInProcess, let facts = record.facts {",
            replace: "if false, let record = verifiedInProcess, let facts = record.facts {",
            test: "Offline later in the same run, or at the next launch from the cache, the verified facts keep deciding", inLibrary: true),
        LayerMutant(
            name: "CacheTrusted", example: "tilt-to-live-hd", file: "PurchaseCache.swift",
            find: "      record.isWellFormed(now: now)\n", replace: "      record.verifiedAt.isNaN || true\n",
            test: "A damaged or edited record is ignored", inLibrary: true),
        LayerMutant(
            name: "ClaimRead", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "    let now = self.now()\n    let purchase: Plan.Purchase\n",
            replace: "    var appTransaction = appTransaction\n"
                + "    if case .unverified(let claimed) = appTransaction { appTransaction = .verified(claimed) }\n"
                + "    let now = self.now()\n    let purchase: Plan.Purchase\n",
            test: "An unverified app transaction is never read: it can't claim to be a legacy buyer", inLibrary: true),
        LayerMutant(
            name: "UnverifiedGrants", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "where transaction.isVerified || extendable.contains(transaction.productID) {",
            replace: "where transaction.isVerified || !extendable.contains(transaction.productID) {",
            test: "An unverified transaction for a product never verified grants nothing", inLibrary: true),
        LayerMutant(
            name: "ClockRechecked", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "          isRevoked: transaction.isRevoked,\n          isVerified: transaction.isVerified,\n",
            replace: "          isRevoked: transaction.isRevoked,\n"
                + "          isExpired: (transaction.expirationDate ?? .distantFuture) <= now,\n"
                + "          isVerified: transaction.isVerified,\n",
            test: "A billing grace period keeps the subscriber: membership in currentEntitlements decides, not the device clock", inLibrary: true),
        LayerMutant(
            name: "FinishBeforeUnlock", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "      await read(appTransaction: nil, including: transaction)\n",
            replace: "      await transaction.finish()\n      await read(appTransaction: nil, including: transaction)\n",
            test: "A purchase handed over is unlocked before it is finished", inLibrary: true),
        LayerMutant(
            name: "UnverifiedPurchase", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "      guard transaction.isVerified else { return .unverified }\n", replace: "",
            test: "An unverified purchase is neither unlocked nor finished", inLibrary: true),
        LayerMutant(
            name: "MayBuyBeforeLoad", example: "tilt-to-live-hd", file: "PlanStore.swift",
            find: "    guard knowsOwnership else { return false }\n", replace: "",
            test: "Before the first refresh nothing is offered or buyable; after it, what the customer owns decides", inLibrary: true),
        LayerMutant(
            name: "OffersBeforeOwnership", example: "tilt-to-live-hd", file: "PlanStore.swift",
            find: "    guard knowsOwnership else { return Plan.noOffers }\n",
            replace: "",
            test: "Before the first refresh nothing is offered or buyable; after it, what the customer owns decides", inLibrary: true),
        LayerMutant(
            name: "StaleOwnership", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "async -> Preparation {\n    await refresh()\n", replace: "async -> Preparation {\n",
            test: "Buying reads what the customer owns first, not what an earlier refresh said", inLibrary: true),
        LayerMutant(
            name: "RefundedCantBuy", example: "tilt-to-live-hd", file: "CatalogPlan.swift",
            find: "      isRevoked: facts.isRevoked)\n", replace: "      isRevoked: false)\n",
            test: "A paid download keeps its tier; refunded, it is a proven new customer, who may buy", inLibrary: true),
        LayerMutant(
            name: "RestoreUnknownIsNothing", example: "tilt-to-live-hd", file: "PlanStore+Restoring.swift",
            find: "    guard appTransaction.isVerified else { return .failed }\n", replace: "",
            test: "Restore: cancelled shows nothing; synced but still unknown is a failure, never 'nothing to restore'", inLibrary: true),
        LayerMutant(
            name: "CacheOfAnotherAccount", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "        return ids.contains(\"\") || ids[0] == ids[1] ? record : nil\n",
            replace: "        return record\n",
            test: "The facts cached for one Apple Account never decide for another", inLibrary: true),
        LayerMutant(
            name: "UnfinishedWaitsForLaunch", example: "tally-two-switches", file: "PlanStore.swift",
            find: "      Task { [weak self] in await self?.deliverUnfinishedConsumables() }\n", replace: "",
            test: "A consumable is finished only once delivered, with its transaction id; one bought before the hook is delivered", inLibrary: true),
        LayerMutant(
            name: "PeriodHeldForGood", example: "quill-writer", file: "CatalogRules.swift",
            find: "    guard holderGroup != nil || nonRenewing.contains(holder) else { return true }\n",
            replace: "    guard holderGroup == nil && false else { return true }\n",
            test: "Journey: a subscriber buys Lifetime, and is told the subscription keeps renewing"),
        LayerMutant(
            name: "PassNeverEnds", example: "Tests/Fixtures/plans/promotional-offer-free-era.json", file: "CatalogEntitlements.swift",
            find: "    if passes[product] != nil, let now, let end = passPeriod?.end, now >= end {\n",
            replace: "    if passes[product] != nil, false, let now, let end = passPeriod?.end, now >= end {\n",
            test: "What entitles and what doesn't, each at its boundary", inLibrary: true),
        LayerMutant(
            name: "UnknownOwnershipBuys", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "    guard knowsOwnership else { return .refused(.ownershipUnknown) }\n", replace: "",
            test: "While what the customer owns can't be read, a purchase is refused and nothing is charged", inLibrary: true),
        LayerMutant(
            name: "OlderAnswerLands", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "    guard ticket > appliedRead else { return }\n", replace: "",
            test: "Overlapping refreshes: an older answer never lands after a newer one", inLibrary: true),
        LayerMutant(
            name: "ListenerLeaks", example: "tilt-to-live-hd", file: "PlanStore.swift",
            find: "    listener?.cancel()\n", replace: "",
            test: "The listener starts with the store and stops when the store goes away", inLibrary: true),
        LayerMutant(
            name: "CancelledRestoreFails", example: "tilt-to-live-hd", file: "PlanStore+Restoring.swift",
            find: "      if (error as? StoreFrontError)?.isUserCancellation == true { return nil }\n      return .failed",
            replace: "      return .failed",
            test: "Restore: cancelled shows nothing; synced but still unknown is a failure, never 'nothing to restore'", inLibrary: true),
        LayerMutant(
            name: "RestoreNeverRefreshes", example: "tilt-to-live-hd", file: "PlanStore+Restoring.swift",
            find: "      appTransaction = await storeFront.refreshAppTransaction()\n",
            replace: "      appTransaction = await storeFront.appTransaction()\n",
            test: "Restore: cancelled shows nothing; synced but still unknown is a failure, never 'nothing to restore'", inLibrary: true),
        LayerMutant(
            name: "UndeliveredFinished", example: "tally-two-switches", file: "PlanStore+Consumables.swift",
            find: "      guard let deliver = deliverConsumable, await deliver(delivery) else { return false }\n",
            replace: "      _ = (deliverConsumable, delivery)\n",
            test: "A consumable is finished only once delivered, with its transaction id; one bought before the hook is delivered", inLibrary: true),
        LayerMutant(
            name: "OverlapDeliversTwice", example: "tally-two-switches", file: "PlanStore+Consumables.swift",
            find: "    if let running = deliveries[transaction.id] { return await running.value }\n", replace: "",
            test: "A naive delivery hook credits a consumable once: a refresh overlapping its delivery, then a relaunch, hand it over again",
            inLibrary: true),
        LayerMutant(
            name: "RelaunchDeliversTwice", example: "tally-two-switches", file: "PlanStore+Consumables.swift",
            find: "    if !delivered.contains(transaction.id) {\n", replace: "    if true {\n",
            test: "A naive delivery hook credits a consumable once: a refresh overlapping its delivery, then a relaunch, hand it over again",
            inLibrary: true),
        LayerMutant(
            name: "DeliveryWithoutID", example: "tally-two-switches", file: "PlanStore+Consumables.swift",
            find: "ConsumableDelivery(product: product, transactionID: transaction.id)",
            replace: "ConsumableDelivery(product: product, transactionID: 0)",
            test: "A consumable is finished only once delivered, with its transaction id; one bought before the hook is delivered", inLibrary: true),
        LayerMutant(
            name: "UnknownFinished", example: "tilt-to-live-hd", file: "PlanStore+Consumables.swift",
            find: "    guard let product = Plan.Product(rawValue: transaction.productID) else { return }\n"
                + "    guard Plan.consumables.contains(product) else {\n",
            replace: "    let known = Plan.Product(rawValue: transaction.productID)\n"
                + "    guard let product = known, Plan.consumables.contains(product) else {\n",
            test: "A product this build doesn't know is never finished: it may be a consumable nobody delivered", inLibrary: true),
        LayerMutant(
            name: "UnsignedFullPrice", example: "Tests/Fixtures/plans/promotional-offer-free-era.json", file: "PlanStore+Purchasing.swift",
            find: "    guard let signer = offerSigner, let jws = try? await signer.compactJWS(for: request)\n"
                + "    else { return .refused(.offerNotSigned) }\n",
            replace: "    let jws = (try? await offerSigner?.compactJWS(for: request)) ?? \"\"\n",
            test: "A legacy buyer is refused what they own; a legacy price without a signer is refused, not charged in full", inLibrary: true),
        LayerMutant(
            name: "SignerWithoutIdentity", example: "Tests/Fixtures/plans/promotional-offer-free-era.json", file: "PlanStore+Purchasing.swift",
            find: "kind: kind, productID: product.rawValue, appTransactionJWS: appTransactionJWS)",
            replace: "kind: kind, productID: product.rawValue, appTransactionJWS: nil)",
            test: "A signed legacy price carries the signed app transaction; the App Store's refusal is a refusal", inLibrary: true),
        LayerMutant(
            name: "OfferRejectionFails", example: "Tests/Fixtures/plans/promotional-offer-free-era.json", file: "PlanStore+Purchasing.swift",
            find: "      if signed != nil, failure?.isOfferRejected == true { return .refused(.offerRejected) }\n",
            replace: "",
            test: "A signed legacy price carries the signed app transaction; the App Store's refusal is a refusal", inLibrary: true),
        // Offer codes and purchases started on the App Store.
        LayerMutant(
            name: "CodeUntold", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "      guard let offer = transaction.offer, offer.kind == .code,\n",
            replace: "      guard let offer = transaction.offer, offer.kind != .code,\n",
            test: "Journey: a code redeemed in the App Store grants its features, is said, not offered again"),
        LayerMutant(
            name: "CodeOfAnyone", example: "tilt-to-live-hd", file: "PlanStore+Reading.swift",
            find: "    where transaction.isVerified && !transaction.isRevoked && transaction.ownership == .purchased {\n",
            replace: "    where !transaction.productID.isEmpty {\n",
            test: "Only the customer's own verified, unrefunded redemption is a redeemed code", inLibrary: true),
        LayerMutant(
            name: "CodeRedeemedTwice", example: "tilt-to-live-hd", file: "AppStoreModelCodes.swift",
            find: "      guard !state.spentCodes.contains(code) else { return .failure(.alreadyRedeemed) }\n", replace: "",
            test: "Journey: a code redeemed in the App Store grants its features, is said, not offered again"),
        LayerMutant(
            name: "CodeSharedUnshareable", example: "tilt-to-live-hd", file: "AppStoreModel.swift",
            find: "    product.isFamilyShareable && product.kind.type.isSharedByFamily\n",
            replace: "    product.kind.type.isSharedByFamily\n",
            test: "Journey: an organizer's redeemed product reaches the family only if family-shareable"),
        LayerMutant(
            name: "IntentBypassesGate", example: "tilt-to-live-hd", file: "PlanStore+Purchasing.swift",
            find: "    let outcome = await purchase(product, chosenWinBack: intent.winBackOfferID)\n",
            replace: "    let attempt = (try? await storeFront.purchase(productID: product.rawValue, offer: nil)) ?? .userCancelled\n"
                + "    let outcome = await complete(attempt, for: product)\n",
            test: "A purchase started on the App Store passes the paywall's gate: what the customer owns is refused, a fitting one is bought",
            inLibrary: true),
        LayerMutant(
            name: "IntentsIgnored", example: "tilt-to-live-hd", file: "PlanStore.swift",
            find: "        await self?.handle(intent)\n", replace: "        _ = intent\n",
            test: "A purchase started on the App Store passes the paywall's gate: what the customer owns is refused, a fitting one is bought",
            inLibrary: true),
        LayerMutant(
            name: "TrialNeverEnds", example: "inkwell-universal", file: "CatalogEntitlements.swift",
            find: "      if now >= end { return .trialEnded(end) }\n",
            replace: "      if now >= end && false { return .trialEnded(end) }\n",
            test: "What entitles and what doesn't, each at its boundary", inLibrary: true),
        LayerMutant(
            name: "TrialDeviceClock", example: "inkwell-universal", file: "PlanStore+Reading.swift",
            find: "    let trustedNow = signed.reduce(now) { max($0, $1) }\n",
            replace: "    let trustedNow = signed.reduce(now) { first, _ in first }\n",
            test: "Trials are judged at the later of the clock and the newest moment the App Store signed", inLibrary: true),
        LayerMutant(
            name: "TrialUnverified", example: "inkwell-universal", file: "CatalogEntitlements.swift",
            find: "      guard owned.isVerified else { return .trialUnverified }\n",
            replace: "",
            test: "What entitles and what doesn't, each at its boundary", inLibrary: true),
        LayerMutant(
            name: "TrialLentIsOwned", example: "inkwell-universal", file: "CatalogUpsell.swift",
            find: "    let held = entitlements.features.mapValues { $0.filter { !isLent($0) } }.filter {\n",
            replace: "    let held = entitlements.features.mapValues { $0.filter { _ in true } }.filter {\n",
            test: "During a trial the unlock is offered: what a trial lends is not owned", inLibrary: true),
        LayerMutant(
            name: "TrialOfferedAgain", example: "inkwell-universal", file: "CatalogUpsell.swift",
            find: "      if entitlements.takenTrials.contains(product) {\n",
            replace: "      if entitlements.takenTrials.contains(product) && false {\n",
            test: "A trial once started is taken, running or ended; one refunded is not", inLibrary: true),
        // Each fact of the kernel changed once: the orders, lengths, tables and words the layer decides by, not a
        // guard, each pinned by the library test named.
        LayerMutant(
            name: "VersionsComparedBackwards", example: "tilt-to-live-hd", file: "CohortRules.swift",
            find: "    for position in 0..<max(lhs.components.count, rhs.components.count) {\n",
            replace: "    for position in (0..<max(lhs.components.count, rhs.components.count)).reversed() {\n",
            test: "Bundle versions compare numerically, with missing components as zero", inLibrary: true),
        LayerMutant(
            name: "TrailingZerosCount", example: "tilt-to-live-hd", file: "CohortRules.swift",
            find: "    lhs.significant == rhs.significant\n", replace: "    lhs.components == rhs.components\n",
            test: "Bundle versions compare numerically, with missing components as zero", inLibrary: true),
        LayerMutant(
            name: "BuildNumberEverywhere", example: "tilt-to-live-hd", file: "CohortRules.swift",
            find: "buildNumberPlatforms.contains(platform) ? .buildNumber : .marketingVersion",
            replace: "!buildNumberPlatforms.isEmpty ? .buildNumber : .marketingVersion",
            test: "Each rule at its boundary", inLibrary: true),
        LayerMutant(
            name: "WindowEndInclusive", example: "Tests/Fixtures/plans/tier-window-mid-release.json", file: "CohortRules.swift",
            find: "(window.until.map { date < $0 } ?? true)", replace: "(window.until.map { date <= $0 } ?? true)",
            test: "Each rule at its boundary", inLibrary: true),
        LayerMutant(
            name: "FamilySharesPasses", example: "inkwell-universal", file: "StoreFront.swift",
            find: "    self == .nonConsumable || self == .autoRenewable\n", replace: "    self != .consumable\n",
            test: "Family Sharing shares a non-consumable and an auto-renewable subscription, never a consumable nor a pass", inLibrary: true),
        LayerMutant(
            name: "FamilyShareableIgnored", example: "inkwell-universal", file: "CatalogEntitlements.swift",
            find: "        if owned.ownership == .familyShared && !familyShareable.contains(product) {\n",
            replace: "        if owned.ownership == .familyShared {\n",
            test: "What entitles and what doesn't, each at its boundary", inLibrary: true),
        LayerMutant(
            name: "MonthOf31Days", example: "quill-writer", file: "CatalogRules.swift",
            find: "      \"P1M\": (DateComponents(month: 1), 30),\n", replace: "      \"P1M\": (DateComponents(month: 1), 31),\n",
            test: "Each renewal period as the calendar adds it, and in whole days its average Gregorian length", inLibrary: true),
        LayerMutant(
            name: "NothingRestoredSaysFailed", example: "tilt-to-live-hd", file: "StoreMessages.swift",
            find: "    case .nothingRestored: return words.nothingRestored\n", replace: "    case .nothingRestored: return words.restoreFailed\n",
            test: "Each outcome says its own sentence, and a cancelled purchase says nothing", inLibrary: true),
        LayerMutant(
            name: "KeptSaysScheduled", example: "quill-writer", file: "StoreMessages.swift",
            find: "    case .kept: return words.planKept\n", replace: "    case .kept: return words.scheduled\n",
            test: "Each outcome says its own sentence, and a cancelled purchase says nothing", inLibrary: true),
    ]

    /// The mutants a generated test must catch: each a module of the scratch package.
    static let generatedMutants = layerMutants.filter { !$0.inLibrary }

    /// Builds the package once; the tests below share it.
    static let package = PackageBuild { try await makePackage() }

    /// A scratch package, built once, by the first test that asks or by `start()`, and shared by the rest.
    final class PackageBuild: @unchecked Sendable {
        private let make: @Sendable () async throws -> URL
        private let lock = NSLock()
        private var built: Task<URL, any Error>?

        init(_ make: @escaping @Sendable () async throws -> URL) {
            self.make = make
        }

        /// Starts the build unless it has started, and returns at once.
        @discardableResult func start() -> Started {
            lock.lock()
            defer { lock.unlock() }
            if let built { return Started(task: built) }
            // High priority: the generation before the build runs on the threads the unit tests keep busy.
            let task = Task(priority: .high) { [make] in try await make() }
            built = task
            return Started(task: task)
        }

        func get() async throws -> URL { try await start().task.value }

        /// A build under way, as a test's argument.
        struct Started: Sendable, CustomTestStringConvertible {
            var task: Task<URL, any Error>
            var testDescription: String { "the scratch package's build" }
        }
    }

    struct PackageError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Writes `text` unless the file already holds it: an unchanged file keeps its date, so a second
    /// run rebuilds only the modules whose generated code changed.
    static func write(_ text: String, to url: URL) throws {
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Removes every file below `root`'s `Sources` and `Tests` that this run didn't write, and the folders left empty.
    static func removeFiles(in root: URL, except written: Set<String>) throws {
        for folder in ["Sources", "Tests"] {
            let url = root.appendingPathComponent(folder)
            guard let paths = FileManager.default.subpaths(atPath: url.path) else { continue }
            for path in paths.sorted(by: >) {
                let file = url.appendingPathComponent(path)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if (try? FileManager.default.contentsOfDirectory(atPath: file.path).isEmpty) == true {
                        try FileManager.default.removeItem(at: file)
                    }
                } else if !written.contains(file.standardizedFileURL.path) {
                    try FileManager.default.removeItem(at: file)
                }
            }
        }
    }

    static func makePackage() async throws -> URL {
        // One folder per checkout, reused between runs so the scratch build is incremental.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-generated-\(Checksum.of(repositoryRoot.path))")
        var written: Set<String> = []
        func write(_ text: String, to url: URL) throws {
            written.insert(url.standardizedFileURL.path)
            try Self.write(text, to: url)
        }
        let sources = root.appendingPathComponent("Sources")
        let tests = root.appendingPathComponent("Tests")
        var targets: [String] = []
        for shim in shims {
            try write(
                try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/\(shim)Shim/\(shim).swift"), encoding: .utf8),
                to: sources.appendingPathComponent("\(shim)/\(shim).swift"))
            let imports = shim == "StoreKit" ? #", dependencies: ["UIKit"]"# : ""
            // The SDK's module version, which `#if canImport(StoreKit, _version:)` reads.
            let version =
                AvailabilityChecker.Module(rawValue: shim)?.userModuleVersion.map {
                    #", swiftSettings: [.unsafeFlags(["-user-module-version", "\#($0)"])]"#
                } ?? ""
            targets.append(#"    .target(name: "\#(shim)"\#(imports)\#(version)),"#)
        }
        let shimDependencies = shims.map { "\"\($0)\"" }.joined(separator: ", ")
        // The library, as an app that depends on it gets it: its own module, built once for every
        // example generated with `--store-layer dependency`.
        for name in StoreLayerSources.names {
            try write(StoreLayerSources.source(named: name) ?? "", to: sources.appendingPathComponent("\(StoreLayerSources.folder)/\(name).swift"))
        }
        targets.append(#"    .target(name: "\#(StoreLayerSources.folder)", dependencies: [\#(shimDependencies)]),"#)
        // Its test double, which only the tests of those examples depend on.
        for name in StoreLayerSources.testingNames {
            try write(
                StoreLayerSources.testingSource(named: name) ?? "",
                to: sources.appendingPathComponent("\(StoreLayerSources.testingFolder)/\(name).swift"))
        }
        targets.append(#"    .target(name: "\#(StoreLayerSources.testingFolder)", dependencies: ["\#(StoreLayerSources.folder)"]),"#)
        func addModule(
            _ name: String, files: [GeneratedFile], from module: String, storeLayer: GenerationOptions.StoreLayer,
            edit: (String, String) throws -> String
        ) throws {
            for file in files {
                let isTest = file.path.hasPrefix("\(module)Tests/")
                var body = GeneratedFileHeader.content(for: file, source: "migration.json")
                body = try edit((file.path as NSString).lastPathComponent, body)
                if name != module { body = body.replacingOccurrences(of: "@testable import \(module)\n", with: "@testable import \(name)\n") }
                let folder = isTest ? tests.appendingPathComponent("\(name)Tests") : sources.appendingPathComponent(name)
                try write(body, to: folder.appendingPathComponent((file.path as NSString).lastPathComponent))
            }
            let library = storeLayer == .dependency ? #", "\#(StoreLayerSources.folder)""# : ""
            targets.append(#"    .target(name: "\#(name)", dependencies: [\#(shimDependencies)\#(library)]),"#)
            let testing = storeLayer == .dependency ? #", "\#(StoreLayerSources.folder)", "\#(StoreLayerSources.testingFolder)""# : ""
            targets.append(#"    .testTarget(name: "\#(name)Tests", dependencies: ["\#(name)"\#(testing)]),"#)
        }

        // The string-comparison mutant is one more module: like the layer's mutants, CI builds it (`.ci/mutants`).
        for entry in modules + (mutantsEnabled ? [("tilt-to-live-hd", mutant, .public)] : []) {
            // The string-comparison mutant changes the cutoff rules, which live in the layer: it takes its own copy.
            let storeLayer =
                vendored.contains(entry.module) || entry.module == mutant ? GenerationOptions.StoreLayer.vendored : .dependency
            let server = servers.contains(entry.module)
            let options = GenerationOptions(access: entry.access, module: entry.module, storeLayer: storeLayer, server: server)
            let generated = try Generator(options: options).generate(try examplePlan(entry.example), only: [.swift, .tests, .server])
            let files = generated.filter { !$0.path.hasPrefix("\(entry.module)Server") }
            if server {
                let library = storeLayer == .dependency ? #", "\#(StoreLayerSources.folder)""# : ""
                for file in generated where file.path.hasPrefix("\(entry.module)Server") {
                    let folder = file.path.hasPrefix("\(entry.module)ServerTests/") ? tests : sources
                    try write(GeneratedFileHeader.content(for: file, source: "migration.json"), to: folder.appendingPathComponent(file.path))
                }
                targets.append(#"    .target(name: "\#(entry.module)Server", dependencies: ["\#(entry.module)"\#(library)]),"#)
                let testing = storeLayer == .dependency ? #", "\#(StoreLayerSources.folder)", "\#(StoreLayerSources.testingFolder)""# : ""
                targets.append(
                    #"    .testTarget(name: "\#(entry.module)ServerTests", dependencies: ["\#(entry.module)Server", "\#(entry.module)"\#(testing)]),"#
                )
                if entry.module == libraryServer {
                    let shim = repositoryRoot.appendingPathComponent("Tests/Fixtures/AppStoreServerLibraryShim")
                    for (file, folder) in [
                        ("AppStoreServerLibrary.swift", sources.appendingPathComponent("AppStoreServerLibrary")),
                        ("LibraryConformanceTests.swift", tests.appendingPathComponent("\(entry.module)ServerLibraryTests")),
                    ] {
                        try write(
                            try String(contentsOf: shim.appendingPathComponent(file), encoding: .utf8), to: folder.appendingPathComponent(file))
                    }
                    targets.append(#"    .target(name: "AppStoreServerLibrary"),"#)
                    targets.append(
                        #"    .testTarget(name: "\#(entry.module)ServerLibraryTests", dependencies: ["AppStoreServerLibrary", "\#(entry.module)Server", "\#(entry.module)"]),"#
                    )
                }
            }
            try addModule(entry.module, files: files, from: entry.module, storeLayer: storeLayer) { name, body in
                if entry.module == "Tilt" && name == "StoreTests.swift" { return try Self.addingProbe(to: body) }
                guard entry.module == mutant && name == "CohortRules.swift" else { return body }
                // Apple's sample code compares originalAppVersion as Strings, where "10" < "2".
                let numeric = "    for position in 0..<max(lhs.components.count, rhs.components.count) {"
                guard body.contains(numeric) else { throw PackageError(message: "the mutation point moved; update the test") }
                return body.replacingOccurrences(of: numeric, with: "    return lhs.description < rhs.description\n" + numeric)
            }
        }
        // Each layer mutant: the example's Swift and only the StoreKit layer's tests, one guard removed.
        for layerMutant in generatedMutants where mutantsEnabled {
            let module = "Mutant" + layerMutant.name
            // A mutant of the library's own sources needs its copy; the rest import the library built once.
            let mutatesLibrary = (StoreLayerSources.names + StoreLayerSources.testingNames).contains(
                (layerMutant.file as NSString).deletingPathExtension)
            let storeLayer: GenerationOptions.StoreLayer = mutatesLibrary ? .vendored : .dependency
            let files = try Generator(options: GenerationOptions(access: .public, module: module, storeLayer: storeLayer))
                .generate(try examplePlan(layerMutant.example), only: [.swift, .tests])
                .filter { !$0.path.hasSuffix("Tests/\(module)Tests.swift") }
            try addModule(module, files: files, from: module, storeLayer: storeLayer) { name, body in
                if name == "StoreTests.swift" { return try Self.keepingOnly(test: layerMutant.test, in: body) }
                guard name == layerMutant.file else { return body }
                guard body.contains(layerMutant.find) else {
                    throw PackageError(message: "\(layerMutant.name): the mutation point moved in \(name); update the test")
                }
                return body.replacingOccurrences(of: layerMutant.find, with: layerMutant.replace)
            }
        }
        // An app whose own types are named like StoreKit's: the layer names StoreKit's qualified.
        try write(
            "/// The app's own types, named like StoreKit's.\nstruct Product {}\n\nstruct Transaction {}\n\nstruct AppStore {}\n",
            to: sources.appendingPathComponent("Tilt/AppTypes.swift"))
        // A new user's trial, exactly as INTEGRATION.md tells it: the file it says to save, unchanged.
        let guide =
            try Generator(options: GenerationOptions(access: .public, module: "Tilt"))
            .generate(try examplePlan("tilt-to-live-hd"), only: [.docs]).first { $0.path == "INTEGRATION.md" }?.body ?? ""
        try write(try Self.trial(in: guide), to: tests.appendingPathComponent("TiltTests/TryTheStore.swift"))
        try await build(named: "Generated", targets: targets, at: root, keeping: written)
        return root
    }

    /// Writes the package's manifest with `targets`, removes every source below `root` that this run didn't
    /// write (`keeping`), and builds it with its tests.
    static func build(named name: String, targets: [String], at root: URL, keeping written: Set<String>) async throws {
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
              name: "\(name)",
              platforms: [.macOS(.v13), .iOS(.v16)],
              targets: [
            \(targets.joined(separator: "\n"))
              ]
            )

            """
        try write(manifest, to: root.appendingPathComponent("Package.swift"))
        try removeFiles(in: root, except: written)
        let build = try await shell(ScratchBuild.swift("build", ["--build-tests"]), in: root)
        guard build.status == 0 else {
            throw PackageError(
                message: "swift build failed:\n"
                    + build.output.split(separator: "\n").filter { $0.contains("error") }.prefix(20).joined(separator: "\n"))
        }
    }

    /// Tilt's generated `StoreTests.swift` with one more test, which references the StoreKit layer: the build fails
    /// if `#if canImport(StoreKit)` didn't see the shim and compiled the layer away; the same for Combine and Security.
    /// (Appended to a generated file rather than a file of its own: one compiler job fewer, each loading every import.)
    static func addingProbe(to body: String) throws -> String {
        let imports = "import Foundation\nimport Testing\n"
        guard body.contains(imports) else { throw PackageError(message: "StoreTests.swift's imports moved; update the probe") }
        let probe = """

            @Test @MainActor func storeKitLayerIsCompiled() {
              let layer: [Any.Type] = [AppStoreFront.self, KeychainPurchaseCache.self]
              #expect(layer.count == 2)
              #expect(FreemiumStore.self is any ObservableObject.Type)
            }

            """
        return body.replacingOccurrences(of: imports, with: "import Combine\n" + imports) + probe
    }

    /// Generated `StoreTests.swift` with only the test titled `title`: the fakes and helpers stay, the other tests
    /// go. A mutant is proven by that one test failing, and compiling every test for each of 26 mutants was most of
    /// this suite's build. Tests are single `@Test("…")` members indented once, ending at the first `  }`.
    static func keepingOnly(test title: String, in body: String) throws -> String {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        var index = 0
        var found = false
        while index < lines.count {
            guard lines[index].hasPrefix("  @Test(") else {
                kept.append(lines[index])
                index += 1
                continue
            }
            guard let end = lines[index...].firstIndex(of: "  }") else { throw PackageError(message: "StoreTests.swift: a test that never ends") }
            if lines[index] == "  @Test(\"\(title)\")" {
                kept += lines[index...end]
                found = true
            } else if end + 1 < lines.count, lines[end + 1].isEmpty {
                index = end + 2
                continue
            }
            index = end + 1
        }
        guard found else { throw PackageError(message: "StoreTests.swift has no test «\(title)»; update the mutant") }
        return kept.joined(separator: "\n")
    }

    /// The Swift block INTEGRATION.md says to save as `MODULETests/TryTheStore.swift`.
    static func trial(in guide: String) throws -> String {
        guard let marker = guide.range(of: "Tests/TryTheStore.swift`"),
            let open = guide.range(of: "```swift\n", range: marker.upperBound..<guide.endIndex),
            let close = guide.range(of: "```\n", range: open.upperBound..<guide.endIndex)
        else { throw PackageError(message: "INTEGRATION.md has no TryTheStore.swift block") }
        return String(guide[open.upperBound..<close.lowerBound])
    }

    /// How many tests a generated test folder declares.
    static func declaredTests(in folder: URL) throws -> Int {
        // A copy of the test double in a folder of its own declares no tests.
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { !$0.hasDirectoryPath }.reduce(0) {
            count, file in count + (try String(contentsOf: file, encoding: .utf8)).components(separatedBy: "@Test").count - 1
        }
    }

    // Swift Testing evaluates a parameterized test's arguments when it plans the run, before any test starts, and
    // only for the tests the run selects (swift-testing 6.3). This one's argument starts the scratch build then:
    // the run's order is random, and the suite used to start it up to 80 s into a cold `swift test`, which then waited
    // on it. Were arguments evaluated later, the build would only start later.
    @Test(
        "Every example's generated code builds, with the StoreKit layer type-checked against the shims, and its tests pass",
        arguments: [package.start()])
    func buildsAndPasses(build: PackageBuild.Started) async throws {
        let root = try await build.task.value
        let skipped = [Self.mutant] + Self.generatedMutants.map { "Mutant" + $0.name }
        let run = try await shell(ScratchBuild.swift("test") + skipped.flatMap { ["--skip", $0 + "Tests"] }, in: root)
        #expect(
            run.status == 0,
            "generated tests failed:\n\(run.output.split(separator: "\n").filter { $0.contains("✘") }.prefix(20).joined(separator: "\n"))")
        // Every module's tests ran, the plan's journeys among them.
        var expected = 0
        for entry in Self.modules { expected += try Self.declaredTests(in: root.appendingPathComponent("Tests/\(entry.module)Tests")) }
        for module in Self.servers { expected += try Self.declaredTests(in: root.appendingPathComponent("Tests/\(module)ServerTests")) }
        expected += try Self.declaredTests(in: root.appendingPathComponent("Tests/\(Self.libraryServer)ServerLibraryTests"))
        Self.expectEveryTestRan(run.output, declared: expected)
        #expect(run.output.contains("✔ Suite \"Customer journeys through the App Store model\" passed"))
        // The App Store model is the tests' alone, vendored or not: no app module holds it, and the tests still passed.
        let model = Set(StoreLayerSources.testingNames.map { $0 + ".swift" })
        for entry in Self.modules {
            let app = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/\(entry.module)").path)
            #expect(model.isDisjoint(with: app), "\(entry.module)")
        }
        // Vendored, the app's tests hold the model, and a server's tests only the payloads they read.
        for module in Self.vendored {
            let tests = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/\(module)Tests").path)
            #expect(Set(StoreLayerSources.appTestingNames.map { $0 + ".swift" }).isSubset(of: tests), "\(module)")
            guard Self.servers.contains(module) else { continue }
            let server = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("Tests/\(module)ServerTests/\(StoreLayerSources.testingFolder)").path)
            #expect(server.sorted() == StoreLayerSources.serverTestingNames.map { $0 + ".swift" }.sorted(), "\(module)")
        }
    }

    /// `swift test`'s summary counts as many tests as the package declares, and they passed.
    static func expectEveryTestRan(_ output: String, declared: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let summary = output.split(separator: "\n").last { $0.contains("Test run with") } ?? ""
        #expect(summary.contains("Test run with \(declared) tests") && summary.contains("passed"), "\(summary)", sourceLocation: sourceLocation)
    }

    /// `swift format lint --strict` over these folders of a generated package finds nothing.
    static func expectLintClean(_ folders: [String], in root: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let run = try await shell(["swift", "format", "lint", "--strict", "-r"] + folders, in: root)
        let problems = run.output.split(separator: "\n").prefix(20).joined(separator: "\n")
        #expect(run.status == 0 && run.output.isEmpty, "swift format lint:\n\(problems)", sourceLocation: sourceLocation)
    }

    @Test("INTEGRATION.md's trial, saved as it says, buys, restores and launches again offline")
    func integrationTrial() async throws {
        let root = try await Self.package.get()
        let run = try await shell(ScratchBuild.swift("test", ["--filter", "TiltTests.tryTheStore"]), in: root)
        #expect(run.status == 0, "\(run.output.suffix(2_000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("cohort: legacy(Tilt.LegacyTier.paid1Dot0)"), "\(lines.suffix(30))")
        #expect(lines.contains("offers: [\"com.example.tilttolivehd.turret\"]"), "\(lines.suffix(30))")
        #expect(lines.contains("purchase: purchased(Tilt.ProductID.turret) - Thank you! Your purchase is unlocked."), "\(lines.suffix(30))")
        #expect(lines.contains("restore: restored - \(RestoreOutcome.restored.message(in: .english))"), "\(lines.suffix(30))")
        #expect(lines.contains("offline: legacy(Tilt.LegacyTier.paid1Dot0) lastVerified(daysAgo: 0)"), "\(lines.suffix(30))")
        #expect(
            lines.contains("offline unlocked: [\"classic\", \"code-red\", \"frostbite\", \"viva-la-turret\"]"), "\(lines.suffix(30))")
    }

    @Test("Each generated mutant names a test its example's generated StoreTests.swift declares")
    func generatedMutantsNameGeneratedTests() throws {
        for layerMutant in Self.generatedMutants {
            let tests = try Generator(options: GenerationOptions()).generate(try examplePlan(layerMutant.example), only: [.tests])
            let body = try #require(tests.first { $0.path.hasSuffix("/StoreTests.swift") }?.body, "\(layerMutant.example)")
            #expect(throws: Never.self, "\(layerMutant.name)") { try Self.keepingOnly(test: layerMutant.test, in: body) }
        }
    }

    @Test(
        "A cutoff that compares versions as Strings fails the generated tests",
        .enabled(if: mutantsEnabled, "the mutants run with MIGRATE_MUTANTS=1 (.ci/mutants)"))
    func mutantFails() async throws {
        let root = try await Self.package.get()
        let run = try await ScratchBuild.runTests(filter: Self.mutant + "Tests", package: "Generated", in: root)
        #expect(run.status != 0, "the string-comparison mutant passed its tests; the matrix misses the trap")
        #expect(run.output.contains("✘ Test \"Cohort, features and offers match migrate's model\""))
    }

    @Test(
        "Each guard of the StoreKit layer, removed, fails the generated test that proves it",
        .enabled(if: mutantsEnabled, "the layer's mutants run with MIGRATE_MUTANTS=1 (.ci/mutants)"), arguments: generatedMutants.map(\.name))
    func layerMutantFails(name: String) async throws {
        let root = try await Self.package.get()
        let layerMutant = try #require(Self.layerMutants.first { $0.name == name })
        let run = try await ScratchBuild.runTests(filter: "Mutant\(name)Tests\\.", package: "Generated", in: root)
        #expect(run.status != 0, "\(name): the layer tests passed with the guard removed")
        let crashed = run.output.contains("Fatal error") || run.output.contains("signal") || run.output.contains("crashed")
        #expect(
            run.output.contains("✘ Test \"\(layerMutant.test)\"") || crashed,
            "\(name): expected «\(layerMutant.test)» to fail:\n\(run.output.split(separator: "\n").filter { $0.contains("✘") }.prefix(10).joined(separator: "\n"))"
        )
    }

    @Test("Generated Swift passes swift format lint --strict")
    func lint() async throws {
        let root = try await Self.package.get()
        let folders =
            Self.modules.flatMap { ["Sources/\($0.module)", "Tests/\($0.module)Tests"] }
            + Self.servers.sorted().flatMap { ["Sources/\($0)Server", "Tests/\($0)ServerTests"] }
        try await Self.expectLintClean(folders, in: root)
    }
}
