// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// What the layer tells the customer, one sentence for each outcome of a purchase, a plan change, an
/// offer code and a Restore Purchases tap: the words an app rewords or localizes, in one value. Which
/// outcome says which sentence is the layer's (`PlanStore.Outcome.message(in:)` and its siblings), the
/// same for every app.
public struct StoreMessages: Hashable, Sendable {
  public var purchased: String
  public var scheduled: String
  public var planKept: String
  public var pending: String
  public var ownershipUnknown: String
  public var addsNothing: String
  public var requires: String
  public var wouldChargeTwice: String
  public var trialTaken: String
  public var originalPurchaseUnknown: String
  public var switchAddsNothing: String
  public var alreadySwitched: String
  public var notOffered: String
  public var offerNotSigned: String
  public var offerRejected: String
  public var unverified: String
  public var awaitingDelivery: String
  /// Put before the App Store's own reason.
  public var failedPrefix: String
  public var codeRedeemed: String
  /// Put before the reason the redemption sheet couldn't be shown.
  public var codeUnavailablePrefix: String
  /// App Review checks that a Restore Purchases tap says which of the three happened.
  public var restoreFailed: String
  public var nothingRestored: String
  public var restored: String

  public init(
    purchased: String, scheduled: String, planKept: String, pending: String,
    ownershipUnknown: String,
    addsNothing: String, requires: String, wouldChargeTwice: String, trialTaken: String,
    originalPurchaseUnknown: String, switchAddsNothing: String, alreadySwitched: String,
    notOffered: String, offerNotSigned: String, offerRejected: String, unverified: String,
    awaitingDelivery: String, failedPrefix: String, codeRedeemed: String,
    codeUnavailablePrefix: String,
    restoreFailed: String, nothingRestored: String, restored: String
  ) {
    self.purchased = purchased
    self.scheduled = scheduled
    self.planKept = planKept
    self.pending = pending
    self.ownershipUnknown = ownershipUnknown
    self.addsNothing = addsNothing
    self.requires = requires
    self.wouldChargeTwice = wouldChargeTwice
    self.trialTaken = trialTaken
    self.originalPurchaseUnknown = originalPurchaseUnknown
    self.switchAddsNothing = switchAddsNothing
    self.alreadySwitched = alreadySwitched
    self.notOffered = notOffered
    self.offerNotSigned = offerNotSigned
    self.offerRejected = offerRejected
    self.unverified = unverified
    self.awaitingDelivery = awaitingDelivery
    self.failedPrefix = failedPrefix
    self.codeRedeemed = codeRedeemed
    self.codeUnavailablePrefix = codeUnavailablePrefix
    self.restoreFailed = restoreFailed
    self.nothingRestored = nothingRestored
    self.restored = restored
  }

  /// The layer's words, in English: what `migrate generate` writes into an app, for it to reword.
  public static let english = StoreMessages(
    purchased: "Thank you! Your purchase is unlocked.",
    scheduled:
      "Your new plan starts at your next renewal. Until then, you keep your current plan.",
    planKept:
      "You're staying on your current plan. It renews as before, and nothing was charged.",
    pending: "Waiting for approval. It unlocks as soon as the purchase is approved.",
    ownershipUnknown:
      "Couldn't check what you already own, so nothing was charged. Try again when you're online.",
    addsNothing: "You already have everything this includes.",
    requires: "This add-on needs features you don't have yet.",
    wouldChargeTwice:
      "You already own part of this. Buy the part you're missing on its own instead.",
    trialTaken: "You've already used your free trial.",
    originalPurchaseUnknown:
      "Couldn't confirm when you first got the app, and you may already own this, so nothing was charged. Try again when you're online.",
    switchAddsNothing:
      "You already have everything this plan includes. To change your plan, go to your subscriptions in Settings.",
    alreadySwitched:
      "You've already switched to this plan. It starts at your next renewal, and nothing more is charged now.",
    notOffered: "This isn't available to buy.",
    offerNotSigned:
      "Your price couldn't be confirmed with the App Store, so nothing was charged. Try again later.",
    offerRejected:
      "The App Store didn't accept your price for this Apple Account, so nothing was charged.",
    unverified:
      "The App Store's answer couldn't be verified. If you were charged, tap Restore Purchases.",
    awaitingDelivery: "Your purchase is being delivered.",
    failedPrefix: "The purchase couldn't be completed: ",
    codeRedeemed: "Thanks for redeeming your code! It's unlocked.",
    codeUnavailablePrefix: "The code couldn't be redeemed here: ",
    restoreFailed: "Restore failed. Check your connection and try again.",
    nothingRestored: "No previous purchases could be restored.",
    restored: "Your purchases were restored.")

  /// Every sentence's name (the label `init` gives it) and where it is kept, in `init`'s order: how
  /// `migrate` lists the words in the app's integration guide, and how an app rewords them one by one.
  public static var sentences: [(name: String, path: WritableKeyPath<StoreMessages, String>)] {
    [
      ("purchased", \.purchased), ("scheduled", \.scheduled), ("planKept", \.planKept),
      ("pending", \.pending), ("ownershipUnknown", \.ownershipUnknown),
      ("addsNothing", \.addsNothing), ("requires", \.requires),
      ("wouldChargeTwice", \.wouldChargeTwice), ("trialTaken", \.trialTaken),
      ("originalPurchaseUnknown", \.originalPurchaseUnknown),
      ("switchAddsNothing", \.switchAddsNothing), ("alreadySwitched", \.alreadySwitched),
      ("notOffered", \.notOffered), ("offerNotSigned", \.offerNotSigned),
      ("offerRejected", \.offerRejected), ("unverified", \.unverified),
      ("awaitingDelivery", \.awaitingDelivery), ("failedPrefix", \.failedPrefix),
      ("codeRedeemed", \.codeRedeemed), ("codeUnavailablePrefix", \.codeUnavailablePrefix),
      ("restoreFailed", \.restoreFailed), ("nothingRestored", \.nothingRestored),
      ("restored", \.restored),
    ]
  }

  /// Every sentence with its name, in `init`'s order.
  public var entries: [(name: String, text: String)] {
    Self.sentences.map { ($0.name, self[keyPath: $0.path]) }
  }
}

extension PlanStore.Outcome where Plan: CatalogPlan {
  /// What to show in `words`, or nil for nothing (the customer cancelled).
  public func message(in words: StoreMessages) -> String? {
    switch self {
    case .purchased: return words.purchased
    case .scheduled: return words.scheduled
    case .kept: return words.planKept
    case .pending: return words.pending
    case .cancelled: return nil
    case .refused(.ownershipUnknown): return words.ownershipUnknown
    case .refused(.withheld(.addsNothing)): return words.addsNothing
    case .refused(.withheld(.requires)): return words.requires
    case .refused(.withheld(.wouldChargeTwice)): return words.wouldChargeTwice
    case .refused(.withheld(.trialTaken)): return words.trialTaken
    case .refused(.withheld(.originalPurchaseUnknown)): return words.originalPurchaseUnknown
    case .refused(.withheld(.switchAddsNothing)): return words.switchAddsNothing
    case .refused(.alreadySwitched): return words.alreadySwitched
    case .refused(.notOffered): return words.notOffered
    case .refused(.offerNotSigned): return words.offerNotSigned
    case .refused(.offerRejected): return words.offerRejected
    case .unverified: return words.unverified
    case .awaitingDelivery: return words.awaitingDelivery
    case .failed(let reason): return words.failedPrefix + reason
    }
  }
}

extension PlanStore.RedemptionOutcome {
  /// What to show in `words`, or nil for nothing (the sheet closed with nothing redeemed).
  public func message(in words: StoreMessages) -> String? {
    switch self {
    case .redeemed: return words.codeRedeemed
    case .nothingRedeemed: return nil
    case .unavailable(let reason): return words.codeUnavailablePrefix + reason
    }
  }
}

extension RestoreOutcome {
  /// What to tell the customer in `words`: each of the three outcomes its own sentence.
  public func message(in words: StoreMessages) -> String {
    switch self {
    case .failed: return words.restoreFailed
    case .nothingRestored: return words.nothingRestored
    case .restored: return words.restored
    }
  }
}
