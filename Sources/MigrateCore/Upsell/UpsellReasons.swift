/// Why a product is deliberately not offered: the same cases the generated layer's `WithholdReason` has,
/// with what `explain`, the docs and the simulation say about each made from it, never read back.
public enum WithholdReason: Sendable, Hashable {
    /// Every feature it grants is already unlocked.
    case addsNothing
    /// An add-on that requires these features, which the customer lacks.
    case requires([String])
    /// It would charge again for `overlap`, which the customer has; what it adds is sold alone as `soldAloneAs`.
    case wouldChargeTwice(overlap: [String], soldAloneAs: [String])
    /// A free trial the customer has already started.
    case trialTaken
    /// The original purchase can't be verified now, and a legacy tier may already own these features.
    case originalPurchaseUnknown(tierMayOwn: [String])
    /// Another plan of the subscriber's group (`from`, in `group`) that adds nothing they lack; `changes` says what
    /// would change (period, level, family sharing, price).
    case switchAddsNothing(from: String, group: String, changes: [String])

    /// The sentence `explain` shows.
    public var description: String {
        switch self {
        case .addsNothing:
            return "adds nothing: every feature it grants is already unlocked"
        case .requires(let lacking):
            return "an add-on that requires \(Self.quoted(lacking)), which the customer lacks"
        case .wouldChargeTwice(let overlap, let alternatives):
            return
                "would charge again for \(Self.quoted(overlap)), which the customer has; what it adds is sold alone as \(Self.quoted(alternatives))"
        case .trialTaken:
            return "a free trial the customer has already started"
        case .originalPurchaseUnknown(let ownable):
            return "the original purchase can't be verified now, and a legacy tier may already own \(Self.quoted(ownable)): offered once it verifies"
        case .switchAddsNothing(let current, let group, let changes):
            let changed = changes.isEmpty ? "" : " (" + changes.joined(separator: ", ") + ")"
            return
                "a switch from '\(current)' in subscription group '\(group)' that adds nothing the subscriber lacks\(changed): for an account screen, not the paywall"
        }
    }

    /// The first clause alone, for a table cell: what it would charge again for, without the alternatives.
    public var summary: String {
        if case .wouldChargeTwice(let overlap, _) = self { return "would charge again for \(Self.quoted(overlap)), which the customer has" }
        return description
    }

    /// Whether buying it would charge the customer again for something they have.
    public var chargesTwice: Bool {
        if case .wouldChargeTwice = self { return true }
        return false
    }

    static func quoted(_ ids: [String]) -> String { ids.map { "'\($0)'" }.joined(separator: ", ") }
}

/// What the upsell screen is told besides its offers.
public enum UpsellNote: Sendable, Hashable {
    /// A Volume Purchase Program install, which can't make in-app purchases.
    case volumePurchase
    /// Everything is unlocked and nothing else is offered.
    case everythingUnlocked
    /// Everything is unlocked; the offers are upgrades for an account screen (another plan, or owning for good).
    case everythingUnlockedUpgradesRemain

    /// The short form a table cell shows.
    public var summary: String {
        switch self {
        case .volumePurchase: "a Volume Purchase Program install cannot make in-app purchases, so nothing is offered"
        case .everythingUnlocked, .everythingUnlockedUpgradesRemain: "everything is unlocked"
        }
    }

    /// The sentence `explain` shows.
    public var description: String {
        switch self {
        case .volumePurchase:
            "a Volume Purchase Program install cannot make in-app purchases, so nothing is offered"
        case .everythingUnlocked:
            "everything is unlocked: show no paywall, and the Restore control can be hidden"
        case .everythingUnlockedUpgradesRemain:
            "everything is unlocked for now: show no paywall, and the Restore control can be hidden; the offers are"
                + " upgrades for an account screen (another plan in the group, or owning for good)"
        }
    }
}
