// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

extension PlanStore {
  public enum Proof: Hashable, Sendable {
    /// Nothing has been read yet, or the App Store couldn't be reached and nothing verified is kept.
    case unknown
    /// The App Store verified them while this process runs.
    case verified
    /// The App Store's signature didn't verify; `policies.verificationFailure` decides.
    case verificationFailed
    /// The App Store couldn't be reached; what it verified `daysAgo` days ago decides.
    case lastVerified(daysAgo: Int)
  }

  /// A plan change the App Store starts at the next renewal: a downgrade, or another duration in
  /// the same group (`RenewalInfo.autoRenewPreference`). Until then the current plan stays.
  public struct PendingChange: Hashable, Sendable {
    /// The plan the next renewal starts.
    public var product: Plan.Product
    /// When: the current period's end (`Status.transaction`'s `expirationDate`); nil when the App
    /// Store didn't say.
    public var date: Date?

    public init(product: Plan.Product, date: Date?) {
      self.product = product
      self.date = date
    }
  }

  /// A product the customer holds through an offer code they redeemed (`Transaction.OfferType.code`),
  /// in the app's redemption sheet, in the App Store or through a redemption URL.
  public struct RedeemedCode: Hashable, Sendable {
    /// The offer's reference name in App Store Connect (`Transaction.Offer.id`), if the App Store
    /// said it.
    public var referenceName: String?
    /// The App Store's id for the redemption (`Transaction.id`).
    public var transactionID: UInt64

    public init(referenceName: String?, transactionID: UInt64) {
      self.referenceName = referenceName
      self.transactionID = transactionID
    }
  }

  /// A legacy tier granted on the app's own evidence while the App Store can't be reached at a first
  /// launch (`policies.provisionalGrant`). It ends at `ends`, or the moment the App Store answers.
  public struct ProvisionalGrant: Hashable, Sendable {
    /// When the window began: the first grant on this device, remembered in the purchase cache.
    public var started: Date
    /// When it ends, whatever the App Store says meanwhile.
    public var ends: Date

    public init(started: Date, ends: Date) {
      self.started = started
      self.ends = ends
    }
  }

  /// What the store knows about the customer now.
  public struct State: Hashable, Sendable {
    public var purchase: Plan.Purchase
    public var decision: Plan.Decision
    public var entitlements: Plan.Entitlements
    public var proof: Proof
    /// False until the first refresh has finished.
    public var isLoaded: Bool
    /// The plan changes waiting for the next renewal, by the plan in use now: for "Yearly from
    /// 12 March". Empty when none is pending or the subscription status couldn't be read.
    public var pendingChanges: [Plan.Product: PendingChange]
    /// The products the customer holds now through an offer code they redeemed themselves, for
    /// "Thanks for redeeming your code". A redemption grants as a purchase does: this only says
    /// where it came from. A refunded redemption leaves it; a subscription's renewal after the
    /// code's period is a purchase again.
    public var redeemedCodes: [Plan.Product: RedeemedCode]
    /// Set while the plan's provisional tier is granted on the app's own evidence: `entitlements`
    /// include it, `decision` is still the undecided one (`noProof`), and nothing is sold.
    public var provisionalGrant: ProvisionalGrant?
    /// When each of the customer's own subscriptions renews next (its transaction's
    /// `expirationDate`): when a plan change at the next renewal takes effect.
    public var renewalDates: [Plan.Product: Date]

    public init(
      purchase: Plan.Purchase, decision: Plan.Decision, entitlements: Plan.Entitlements,
      proof: Proof, isLoaded: Bool, pendingChanges: [Plan.Product: PendingChange] = [:],
      redeemedCodes: [Plan.Product: RedeemedCode] = [:], provisionalGrant: ProvisionalGrant? = nil,
      renewalDates: [Plan.Product: Date] = [:]
    ) {
      self.purchase = purchase
      self.decision = decision
      self.entitlements = entitlements
      self.proof = proof
      self.isLoaded = isLoaded
      self.pendingChanges = pendingChanges
      self.redeemedCodes = redeemedCodes
      self.provisionalGrant = provisionalGrant
      self.renewalDates = renewalDates
    }

    /// Nothing read yet: a new customer with nothing, proof unknown.
    public init(platform: Plan.Platform) {
      let unread = Plan.unread(on: platform)
      self.init(
        purchase: unread.purchase, decision: unread.decision, entitlements: unread.entitlements,
        proof: .unknown, isLoaded: false)
    }
  }

  /// Why a purchase was not started. Nothing was charged.
  public enum Refusal: Hashable, Sendable {
    /// What the customer owns couldn't be read, so buying could charge twice.
    case ownershipUnknown
    /// The upsell withholds it from this customer, for this reason.
    case withheld(Plan.Withheld)
    /// The customer already switched to it: the next renewal starts it, on the change's date.
    case alreadySwitched(PendingChange)
    /// Not on sale to this customer.
    case notOffered
    /// The legacy price needs a discount signed by the app's server (a promotional offer, or the
    /// introductory offer's eligibility), and none was signed.
    case offerNotSigned
    /// The App Store refused the signed promotional offer (`Product.PurchaseError.ineligibleForOffer`
    /// and the invalid-offer errors), or a win-back offer picked on the App Store isn't listed for
    /// this customer: the offer's price was not charged, and neither was the full one.
    case offerRejected
  }

  /// Whether a product may be bought now, and how.
  public enum Preparation: Hashable, Sendable {
    /// Buy it; with the promotional offer its legacy price needs, when one does.
    case ready(offer: SignedOffer?)
    /// Don't: nothing may be charged, for this reason.
    case refused(Refusal)
  }

  /// The outcome of a purchase. The app's plan words what to tell the customer (`message`).
  public enum Outcome: Hashable, Sendable {
    /// Bought, verified, unlocked and finished.
    case purchased(Plan.Product)
    /// A downgrade or a change of duration in the same group: nothing was charged now, and the
    /// App Store starts it at the next renewal, on `from` (nil when it didn't say when). The
    /// current plan stays until then.
    case scheduled(Plan.Product, from: Date?)
    /// The plan in use was chosen again while a change away from it waited for the renewal: the
    /// change is undone, the plan renews as before, and nothing was charged.
    case kept(Plan.Product)
    /// Waiting for approval (Ask to Buy): it unlocks through `Transaction.updates`.
    case pending
    /// The customer cancelled: show nothing.
    case cancelled
    /// Not started, so nothing was charged.
    case refused(Refusal)
    /// The App Store's answer didn't verify: neither unlocked nor finished, so it comes back.
    case unverified
    /// A consumable that the app hasn't delivered yet: not finished, so it comes back.
    case awaitingDelivery(Plan.Product)
    /// The App Store couldn't complete it.
    case failed(String)
  }

  /// What came of the offer code redemption sheet.
  public enum RedemptionOutcome: Hashable, Sendable {
    /// Redeemed: the products the customer got through it, unlocked. Thank them.
    case redeemed([Plan.Product])
    /// The sheet closed and nothing new was redeemed: show nothing.
    case nothingRedeemed
    /// The sheet couldn't be shown here (macOS: SwiftUI's `offerCodeRedemption`; tvOS, watchOS: the
    /// App Store), or it failed, for this reason.
    case unavailable(String)
  }

  /// A purchase the customer started on the App Store (`PurchaseIntent`), and what came of it.
  public struct PurchaseIntentOutcome: Hashable, Sendable {
    /// The product the intent asked for; nil when this build's plan doesn't know it.
    public var product: Plan.Product?
    public var outcome: Outcome

    public init(product: Plan.Product?, outcome: Outcome) {
      self.product = product
      self.outcome = outcome
    }
  }

  /// A consumable to deliver. `transactionID` is the App Store's id for this purchase: the same
  /// each time it is sent again. The store hands each id over at most once, whatever overlaps
  /// (a refresh, `Transaction.updates`, a relaunch): it keeps the ids delivered in its cache. Only a
  /// crash between your hook's return and that save can bring one back, so an app whose credit must
  /// be exact records the id with what it credits, in the same write.
  public struct ConsumableDelivery: Hashable, Sendable {
    public var product: Plan.Product
    public var transactionID: UInt64

    public init(product: Plan.Product, transactionID: UInt64) {
      self.product = product
      self.transactionID = transactionID
    }
  }
}

/// The three outcomes of a Restore Purchases tap, each with its own message (App Review checks
/// them): failed, finished with nothing, finished and unlocked. The one declaration: `migrate`
/// itself words and tests the same three.
public enum RestoreOutcome: String, CaseIterable, Hashable, Sendable {
  case failed
  case nothingRestored
  case restored
}
