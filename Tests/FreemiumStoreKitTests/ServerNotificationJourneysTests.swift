import Foundation
import FreemiumStoreKitTesting
import Testing

@testable import FreemiumStoreKit

/// `SubscriptionPlan`'s server following App Store Server Notifications, as a generated server's tests give it to the
/// journeys: the plan's products and how the server decides from what a ledger holds.
struct SubscriptionServer: ServerNotificationJourney {
    typealias Decides = @Sendable (_ ledger: NotificationLedger, _ now: Date, _ environment: StoreEnvironment) -> Set<String>

    static let bundleID = "com.example.subscriptions"
    static let subscription = "monthly"
    static let other: String? = "yearly"
    static let oneTime: String? = "lifetime"
    static let familySharingEntitles = true
    static let start = NotificationLedgerTests.start
    let signer = TestSigner()
    /// The server's decision: the layer's, unless a test gives a wrong one.
    var decides: Decides = { NotificationLedgerTests.active($0, at: $1, environment: $2) }

    func has(_ product: String, _ ledger: NotificationLedger, at now: Date, environment: StoreEnvironment) throws -> Bool {
        decides(ledger, now, environment).contains(product)
    }
}

/// The server journeys a generated server's tests run, on a plan of the layer's own tests: each passes with the layer's
/// decision, and a server that decides wrongly fails the journey that covers it, saying which check.
@Suite("The server journeys generated tests run", .timeLimit(.minutes(20)))
struct ServerNotificationJourneysTests {
    struct Journey: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable (SubscriptionServer) throws -> Void
        var testDescription: String { name }
    }

    static let journeys: [Journey] = [
        Journey(name: "forged") { try $0.checkForgedRefused() },
        Journey(name: "subscribed and renewed") { try $0.checkSubscribedAndRenewed() },
        Journey(name: "renewal preference") { try $0.checkRenewalPreferenceChanged() },
        Journey(name: "auto-renew off") { try $0.checkAutoRenewTurnedOff() },
        Journey(name: "failed renewal") { try $0.checkFailedRenewal() },
        Journey(name: "expired, refunded, revoked") { try $0.checkExpiredRefundedRevoked() },
        Journey(name: "offer redeemed, one-time charge") { try $0.checkOfferRedeemedAndOneTimeCharge() },
        Journey(name: "retried, out of order") { try $0.checkRetriedAndOutOfOrder() },
    ]

    @Test("Each journey passes with the layer's decision", arguments: journeys)
    func passes(_ journey: Journey) throws {
        try journey.run(SubscriptionServer())
    }

    struct WrongServer: Sendable, CustomTestStringConvertible {
        let name: String
        let decides: SubscriptionServer.Decides
        let journey: @Sendable (SubscriptionServer) throws -> Void
        /// What the failure says.
        let says: String
        var testDescription: String { name }
    }

    static let wrongServers: [WrongServer] = [
        WrongServer(
            name: "one environment for both", decides: { ledger, now, _ in NotificationLedgerTests.active(ledger, at: now, environment: .sandbox) },
            journey: { try $0.checkSubscribedAndRenewed() }, says: "not subscribed in Production"),
        WrongServer(
            name: "a period that never ends",
            decides: { ledger, _, environment in
                NotificationLedgerTests.active(ledger, at: SubscriptionServer.start, environment: environment)
            }, journey: { try $0.checkAutoRenewTurnedOff() }, says: "kept past the period's end"),
        WrongServer(
            name: "nothing bought once", decides: { NotificationLedgerTests.active($0, at: $1, environment: $2).subtracting(["lifetime"]) },
            journey: { try $0.checkOfferRedeemedAndOneTimeCharge() }, says: "not added by ONE_TIME_CHARGE"),
    ]

    @Test("A server that decides wrongly fails the journey that covers it, naming the check", arguments: wrongServers)
    func wrongServerFails(_ wrong: WrongServer) throws {
        let server = SubscriptionServer(decides: wrong.decides)
        let failure = try #require(throws: JourneyFailure.self) { try wrong.journey(server) }
        #expect(failure.checks.contains { $0.contains(wrong.says) }, "\(failure)")
        #expect(failure.checks.allSatisfy { $0.hasPrefix("FreemiumStoreKitTesting/ServerNotificationJourneys.swift:") })
    }
}
