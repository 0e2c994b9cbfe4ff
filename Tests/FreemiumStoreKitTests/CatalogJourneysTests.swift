import Foundation
import FreemiumStoreKitTesting
import Testing

@testable import FreemiumStoreKit

/// The journeys a plan's generated tests run, run here on a plan of the layer's own tests: each passes where the
/// plan holds what it claims, and fails, saying which checks, where it doesn't. A journey that couldn't fail would
/// prove nothing in an app's tests.
@Suite("The journeys generated tests run", .timeLimit(.minutes(20)))
@MainActor
struct CatalogJourneysTests {
    typealias Journeys = CatalogJourneys<SubscriptionPlan>

    static let journeys = Journeys(
        products: SubscriptionJourneyTests.products, start: PlanStoreTests.start,
        newCustomer: SubscriptionJourneyTests.newCustomer, on: .iOS)

    struct Journey: Sendable, CustomTestStringConvertible {
        let name: String
        /// What the failure says, for a journey given a claim the plan doesn't hold; nil when it holds.
        var fails: String? = nil
        let run: @MainActor @Sendable (Journeys) async throws -> Void

        var testDescription: String { name }
    }

    nonisolated static let cases: [Journey] = [
        Journey(name: "every offer sold once") { try await $0.offersAreSoldOnce() },
        Journey(name: "Lifetime for a subscriber") { try await $0.subscriberBuysLifetime(.monthly, lifetime: .lifetime) },
        Journey(name: "a plan that adds nothing") { try await $0.subscriberSwitchIsNoUpgrade(.monthly, to: .yearly) },
        Journey(name: "a switch to a plan that adds nothing", fails: "yearly switches from nil") {
            try await $0.subscriberSwitchesPlans(.monthly, to: .yearly)
        },
        Journey(name: "a change at the next renewal") { try await $0.subscriberChangesPlan(.monthly, to: .yearly, atNextRenewal: true) },
        Journey(name: "a change said to be at once", fails: "takes effect nextRenewal") {
            try await $0.subscriberChangesPlan(.monthly, to: .yearly, atNextRenewal: false)
        },
        Journey(name: "a family member") { try await $0.familyMember(shared: .lifetime, entitles: true) },
        Journey(name: "a family member the plan ignores", fails: "shared product active: true") {
            try await $0.familyMember(shared: .lifetime, entitles: false)
        },
        Journey(name: "a lapsed subscriber") { try await $0.lapsedSubscriberOfferedAgain(.monthly) },
        Journey(name: "a win-back offer") { try await $0.lapsedSubscriberWinBack(.monthly) },
        Journey(name: "no win-back offer before a lapse") { try await $0.winBackOnlyForLapsed(.monthly) },
        Journey(name: "a pass extended") { try await $0.passExtended(.pass) },
        Journey(name: "a product that is no pass", fails: "lifetime is no pass") { try await $0.passExtended(.lifetime) },
        Journey(name: "an offer code") { try await $0.offerCodeRedeemed(.lifetime) },
        Journey(name: "an offer code shared") { try await $0.offerCodeSharedWithFamily(.lifetime, shareable: true) },
        Journey(name: "an offer code said not shareable", fails: "shared: true") {
            try await $0.offerCodeSharedWithFamily(.lifetime, shareable: false)
        },
        Journey(name: "a legacy price offered to a new customer", fails: "monthly is not offered at a legacy price") {
            try await $0.sandboxTesterBuys(.monthly)
        },
    ]

    @Test("A journey passes where the plan holds it, and names each failed check where it doesn't", arguments: cases)
    func journey(_ journey: Journey) async throws {
        guard let expected = journey.fails else {
            try await journey.run(Self.journeys)
            return
        }
        let failure = try await #require(throws: JourneyFailure.self) { try await journey.run(Self.journeys) }
        #expect(!failure.checks.isEmpty)
        #expect(failure.checks.contains { $0.contains(expected) }, "\(failure)")
        #expect(failure.checks.allSatisfy { $0.hasPrefix("FreemiumStoreKitTesting/CatalogJourneys.swift:") })
    }

    /// A customer as the engine decides them: the plan's rules, run without a store.
    static func engineCustomer(
        _ name: String, version: String = "2", platform: SubscriptionPlan.Platform = .iOS,
        owns: [OwnedProduct] = [], verification: Verification = .verified
    ) -> Journeys.EngineCustomer {
        let purchase = OriginalPurchaseFacts<SubscriptionPlan.Platform>(
            originalAppVersion: version, originalPurchaseDate: CohortRulesTests.day("2021-06-01"), platform: platform,
            verification: verification)
        let decision = SubscriptionPlan.decide(purchase)
        let entitlements = SubscriptionPlan.resolve(purchase, decision: decision, purchases: owns, now: PlanStoreTests.start)
        let offers = SubscriptionPlan.offeredProducts(in: SubscriptionPlan.upsell(for: entitlements, decision: decision))
        return .init(name: name, purchase: purchase, owns: owns, offers: offers)
    }

    @Test("The store agrees with the plan's own decisions, and a list that disagrees or that the App Store can't produce fails")
    func storeAgrees() async throws {
        let newcomer = Self.engineCustomer("a newcomer")
        let subscriber = Self.engineCustomer("a subscriber", owns: [OwnedProduct(productID: "monthly")])
        #expect(!newcomer.offers.isEmpty && newcomer.offers != subscriber.offers)
        try await Journeys.checkStoreAgrees(with: [newcomer, subscriber], selling: SubscriptionJourneyTests.products, at: PlanStoreTests.start)

        var wrong = subscriber
        wrong.offers = newcomer.offers
        let disagrees = try await #require(throws: JourneyFailure.self) {
            try await Journeys.checkStoreAgrees(with: [newcomer, wrong], selling: SubscriptionJourneyTests.products, at: PlanStoreTests.start)
        }
        #expect(disagrees.checks.contains { $0.contains("a subscriber: offered") }, "\(disagrees)")
        #expect(!disagrees.checks.contains { $0.contains("a newcomer") }, "\(disagrees)")

        let unverified = Self.engineCustomer("unverified", verification: .failed(lastVerifiedDaysAgo: nil))
        #expect(!Journeys.storeCanProduce(unverified))
        let none = try await #require(throws: JourneyFailure.self) {
            try await Journeys.checkStoreAgrees(with: [unverified], selling: SubscriptionJourneyTests.products, at: PlanStoreTests.start)
        }
        #expect(none.checks.contains { $0.contains("no customer of 1 the App Store can produce") }, "\(none)")
    }

    @Test("A failure lists every failed check, one a line")
    func failureDescription() {
        let failure = JourneyFailure(journey: "a pass", checks: ["a: not sold", "b: charged twice"])
        #expect(failure.description == "Journey \"a pass\" failed 2 checks:\n  - a: not sold\n  - b: charged twice")
    }
}
