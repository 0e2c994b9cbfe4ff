import Foundation
import Testing

@testable import FreemiumStoreKit

/// The layer's words: every outcome a customer sees says its own sentence from one `StoreMessages` value, and an app's
/// rewording reaches every outcome.
@Suite("What the layer tells the customer", .timeLimit(.minutes(20)))
struct StoreMessagesTests {
    typealias Outcome = PlanStore<ShopPlan>.Outcome

    /// Every outcome that says something, each with the sentence it must say.
    static var outcomes: [(Outcome, KeyPath<StoreMessages, String>)] {
        [
            (.purchased(.lifetime), \.purchased), (.scheduled(.yearly, from: nil), \.scheduled), (.kept(.yearly), \.planKept),
            (.pending, \.pending), (.refused(.ownershipUnknown), \.ownershipUnknown), (.refused(.withheld(.addsNothing)), \.addsNothing),
            (.refused(.withheld(.requires([.pro]))), \.requires),
            (.refused(.withheld(.wouldChargeTwice(overlap: [.pro], soldAloneAs: [.lifetime]))), \.wouldChargeTwice),
            (.refused(.withheld(.trialTaken)), \.trialTaken),
            (.refused(.withheld(.originalPurchaseUnknown(tierMayOwn: [.pro]))), \.originalPurchaseUnknown),
            (.refused(.withheld(.switchAddsNothing(from: .yearly))), \.switchAddsNothing),
            (.refused(.alreadySwitched(.init(product: .yearly, date: nil))), \.alreadySwitched), (.refused(.notOffered), \.notOffered),
            (.refused(.offerNotSigned), \.offerNotSigned), (.refused(.offerRejected), \.offerRejected), (.unverified, \.unverified),
            (.awaitingDelivery(.lifetime), \.awaitingDelivery),
        ]
    }

    @Test("Each outcome says its own sentence, and a cancelled purchase says nothing")
    func eachOutcome() {
        for (outcome, sentence) in Self.outcomes {
            #expect(outcome.message(in: .english) == StoreMessages.english[keyPath: sentence], "\(outcome)")
        }
        #expect(Set(Self.outcomes.map { $0.0.message(in: .english) }).count == Self.outcomes.count)
        #expect(Outcome.cancelled.message(in: .english) == nil)
        #expect(Outcome.failed("Network down.").message(in: .english) == StoreMessages.english.failedPrefix + "Network down.")
        #expect(PlanStore<ShopPlan>.RedemptionOutcome.redeemed([.lifetime]).message(in: .english) == StoreMessages.english.codeRedeemed)
        #expect(PlanStore<ShopPlan>.RedemptionOutcome.nothingRedeemed.message(in: .english) == nil)
        #expect(
            PlanStore<ShopPlan>.RedemptionOutcome.unavailable("Not on tvOS.").message(in: .english)
                == StoreMessages.english.codeUnavailablePrefix + "Not on tvOS.")
        #expect(Set(RestoreOutcome.allCases.map { $0.message(in: .english) }).count == RestoreOutcome.allCases.count)
    }

    @Test("An app's rewording reaches every outcome")
    func rewording() {
        var words = StoreMessages.english
        for sentence in StoreMessages.sentences { words[keyPath: sentence.path] = "«\(sentence.name)»" }
        for (outcome, sentence) in Self.outcomes {
            #expect(outcome.message(in: words) == words[keyPath: sentence])
            #expect(outcome.message(in: words)?.hasPrefix("«") == true, "\(outcome) still says the layer's English")
        }
        #expect(RestoreOutcome.allCases.allSatisfy { $0.message(in: words).hasPrefix("«") })
    }

    @Test("`sentences` lists every sentence once, under the name `init` gives it and where it keeps it")
    func entriesAreComplete() {
        let english = StoreMessages.english
        let stored = Mirror(reflecting: english).children.compactMap { child in child.label.map { ($0, child.value as? String) } }
        #expect(english.entries.map(\.name) == stored.map(\.0))
        #expect(english.entries.map(\.text) == stored.map(\.1))
        #expect(Set(english.entries.map(\.text)).count == english.entries.count, "two outcomes would say the same")
    }
}
