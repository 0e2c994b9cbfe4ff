import Foundation
import MigratePlan

/// Every question the wizard can ask. Per-item questions carry the item they are about.
public enum QuestionID: Sendable, Hashable, CustomStringConvertible {
    case appName
    case bundleID
    case platforms
    case universalPurchase
    /// Asked only when no version history was found.
    case releases
    case firstFree
    /// When the first free release (a listed one) went live: the moment the cutoff is drawn at.
    case freeGoLive
    case newFreeRelease
    /// The first free release on another platform the app ships on, with its own go-live.
    case platformFreeRelease(Platform)
    /// When the first free release (a listed one) went live on another platform that lists its own.
    case platformGoLive(Platform)
    case price
    case features
    /// Feature id: which paid release first included it.
    case featureSince(String)
    /// The app went free in the past: what its free releases gave to everyone who downloaded them.
    case freeGaveAway
    /// Product id: whether this app sells a product whose id says it is a placeholder, a sample or another app's.
    case sells(String)
    /// Asked only when no product was imported: the product that will unlock the paid features.
    case newProduct
    /// Product id: how long one purchase of an imported non-renewing subscription lasts.
    case duration(String)
    /// Product id: which features it grants.
    case grants(String)
    /// Era number (0-based): how its buyers are treated.
    case era(Int)
    case eraDiscount(Int)
    case nonProduction
    case verificationFailure
    case familySharing
    case paidDownloads
    case confirm

    public var description: String { key }

    /// What the question asks, in a few words, for the list of answers at the summary.
    public var label: String {
        switch self {
        case .appName: "App name"
        case .bundleID: "Bundle id"
        case .platforms: "Platforms"
        case .universalPurchase: "Universal purchase"
        case .releases: "Releases"
        case .firstFree: "First free release"
        case .freeGoLive: "It went live"
        case .newFreeRelease: "The new free release"
        case .platformFreeRelease(let platform): "The new free release on \(platform)"
        case .platformGoLive(let platform): "It went live on \(platform)"
        case .price: "Paid price"
        case .features: "Features"
        case .featureSince(let id): "First paid release with \(id)"
        case .freeGaveAway: "Free since the app went free"
        case .sells(let id): "Sold by this app: \(id)"
        case .newProduct: "Product that unlocks the features"
        case .duration(let id): "How long \(id) lasts"
        case .grants(let id): "What \(id) unlocks"
        case .era(let index): "Paid era \(index + 1)"
        case .eraDiscount(let index): "Era \(index + 1)'s discount"
        case .nonProduction: "Testers"
        case .verificationFailure: "Unverified signature"
        case .familySharing: "Family Sharing"
        case .paidDownloads: "Paid downloads a month"
        case .confirm: "Write the plan"
        }
    }
}

/// A question as shown: the prompt, numbered choices, the default and how to answer.
public struct Question: Sendable, Hashable {
    public var id: QuestionID
    public var prompt: String
    /// Numbered choices (1-based as shown); empty for free text.
    public var choices: [String]
    /// What an empty answer means; nil when an answer is required.
    public var defaultAnswer: String?
    /// What answers look like, shown under the prompt.
    public var hint: String?
    /// The numbers (1-based) of the choices to show, ascending; nil shows them all. A long list of
    /// releases shows a few, and the others are reached by typing a version, its start or `#N`.
    public var shownChoices: [Int]?

    public init(
        id: QuestionID, prompt: String, choices: [String] = [], defaultAnswer: String? = nil, hint: String? = nil, shownChoices: [Int]? = nil
    ) {
        self.id = id
        self.prompt = prompt
        self.choices = choices
        self.defaultAnswer = defaultAnswer
        self.hint = hint
        self.shownChoices = shownChoices
    }

    /// The choices to print, in order, with a `hidden` count before each that stands for the
    /// choices left out just before it.
    public var visibleChoices: [(number: Int, text: String, hiddenBefore: Int)] {
        let numbers = shownChoices ?? Array(choices.indices.map { $0 + 1 })
        var previous = 0
        return numbers.filter { (1...choices.count).contains($0) }.map { number in
            defer { previous = number }
            return (number, choices[number - 1], number - previous - 1)
        }
    }
}

/// What became of an answer.
public enum WizardOutcome: Sendable, Hashable {
    /// Taken; the lines say what it means (the consequence, the cutoff rule).
    case accepted([String])
    /// Not understood; ask again with this message.
    case invalid(String)
    /// Went back to the previous question.
    case wentBack
    /// The user declined to write the plan.
    case cancelled
}
