import MigratePlan

/// What every place that names a kind of question needs, declared once: its key in an `--answers` file, the
/// `migrate init` flag that answers it and how that flag takes its value, and its help. The wizard (its
/// messages and the answers it saves), the `init` command's options, its answers-file reader and its help all
/// read them from here, so none of them can disagree.
public struct QuestionKind: Sendable, Hashable {
    /// How an answer is given outside the wizard.
    public enum Form: Sendable, Hashable {
        /// One answer: `--price 1.99`, `"price": 1.99`.
        case single
        /// A list: a repeatable flag whose values are joined (`--feature Themes --feature Sync`), or a JSON
        /// array (`"features": ["Themes", "Sync"]`).
        case list
        /// One answer per item: a repeatable `--era 1=keep`, or a JSON object keyed by the item
        /// (`"eras": {"1": "keep"}`); `item` says what the key is.
        case perItem(item: String)
    }

    /// The key in an `--answers` file; per-item answers are `key.ITEM` inside the wizard.
    public let key: String
    /// The flag, without `--`.
    public let flag: String
    /// What the answer looks like, as help shows it (`<yes|no>`); per item, the answer after `ITEM=`.
    public let valueName: String
    public let help: String
    public let form: Form
    /// The allowed answers, when they are a fixed list.
    public let choices: [String]?

    init(_ key: String, flag: String, valueName: String, help: String, form: Form = .single, choices: [String]? = nil) {
        self.key = key
        self.flag = flag
        self.valueName = valueName
        self.help = help
        self.form = form
        self.choices = choices
    }

    /// The flag as help and messages show it: `--era <n=keep|everything|discount>`.
    public var usage: String {
        if case .perItem(let item) = form { return "--\(flag) <\(item)=\(valueName)>" }
        return "--\(flag) <\(valueName)>"
    }

    public static let appName = QuestionKind("appName", flag: "app-name", valueName: "name", help: "The app's name.")
    public static let bundleID = QuestionKind("bundleID", flag: "bundle-id", valueName: "id", help: "The bundle id.")
    public static let platforms = QuestionKind(
        "platforms", flag: "platform", valueName: "platform", help: "A platform (repeatable).", form: .list,
        choices: Platform.allCases.map(\.rawValue))
    public static let universalPurchase = QuestionKind(
        "universalPurchase", flag: "universal-purchase", valueName: "yes|no",
        help: "Whether the platforms are one purchase (default yes: one bundle id on several platforms is one App Store record).")
    public static let releases = QuestionKind(
        "releases", flag: "release", valueName: "'VERSION (BUILD) DATE'", help: "A release, when no history is found (repeatable).", form: .list)
    public static let firstFree = QuestionKind(
        "firstFree", flag: "first-free", valueName: "version|new", help: "The first free release: a listed version or number, or 'new'.")
    public static let freeGoLive = QuestionKind(
        "freeFrom", flag: "free-from", valueName: "date-time",
        help:
            "When the first free release went live (UTC), as App Store Connect shows it; recorded as confirmed, or as planned while still to come. For one not listed yet, its go-live."
    )
    public static let newFreeRelease = QuestionKind(
        "newFreeRelease", flag: "new-free-release", valueName: "'VERSION (BUILD) DATE'", help: "The first free release when it is not listed yet.")
    public static let platformFreeRelease = QuestionKind(
        "newFreeReleases", flag: "new-free-release-on", valueName: "'VERSION (BUILD) DATE'",
        help:
            "The first free release on each other platform the app ships on, with its own go-live (repeatable; default: the new free release's version on the same day).",
        form: .perItem(item: "platform"))
    public static let platformGoLive = QuestionKind(
        "freeFromOn", flag: "free-from-on", valueName: "date-time",
        help:
            "When the first free release (a listed one) went live on each other platform that lists its own, as App Store Connect shows it (repeatable).",
        form: .perItem(item: "platform"))
    public static let price = QuestionKind("price", flag: "price", valueName: "price", help: "What the download cost while paid.")
    public static let features = QuestionKind("features", flag: "feature", valueName: "name", help: "A feature (repeatable).", form: .list)
    public static let featureSince = QuestionKind(
        "featureSince", flag: "feature-since", valueName: "version|none",
        help: "The paid release that first included a feature, or 'none' (repeatable).",
        form: .perItem(item: "feature"))
    public static let freeGaveAway = QuestionKind(
        "freeGaveAway", flag: "free-gave-away", valueName: "f1,f2|none",
        help:
            "When the app went free in the past: the features its free releases gave to everyone who downloaded them (default: every feature the paid app had); they keep them when the features are sold.",
        form: .list)
    public static let newProduct = QuestionKind(
        "product", flag: "product", valueName: "'ID [KIND] PRICE'",
        help: "The product that unlocks the features (KIND: non-consumable, non-renewing, weekly, monthly, yearly…); added beside .storekit products."
    )
    public static let sells = QuestionKind(
        "sells", flag: "sells", valueName: "yes|no",
        help:
            "Whether the app sells a .storekit product whose id is Xcode's placeholder's, Apple's sample's or another app's; default no: left out (repeatable).",
        form: .perItem(item: "product"))
    public static let duration = QuestionKind(
        "durations", flag: "duration", valueName: "P1Y|lifetime",
        help:
            "How long one purchase of a non-renewing product lasts: P1M, P1Y, P10Y… (at most P100Y), or weekly, monthly, quarterly, yearly, lifetime (repeatable).",
        form: .perItem(item: "product"))
    public static let grants = QuestionKind(
        "grants", flag: "grants", valueName: "f1,f2", help: "What a product unlocks: features, 'all' or 'none' (repeatable).",
        form: .perItem(item: "product"))
    public static let era = QuestionKind(
        "eras", flag: "era", valueName: "keep|everything|discount|upgrade",
        help: "How buyers of paid era n are treated (repeatable); 'upgrade': later features came in a paid upgrade they never got.",
        form: .perItem(item: "n"))
    public static let eraDiscount = QuestionKind(
        "eraDiscounts", flag: "era-discount", valueName: "'ID PRICE'", help: "The discounted product and price for era n (repeatable).",
        form: .perItem(item: "n"))
    public static let nonProduction = QuestionKind("nonProduction", flag: "non-production", valueName: "new|era-n", help: "How testers are treated.")
    public static let verificationFailure = QuestionKind(
        "verificationFailure", flag: "verification-failure", valueName: "deny|keep:days", help: "What an unverified signature means.")
    public static let familySharing = QuestionKind(
        "familySharing", flag: "family-sharing", valueName: "yes|no", help: "Whether Family Sharing entitles.")
    public static let paidDownloads = QuestionKind(
        "paidDownloadsPerMonth", flag: "paid-downloads", valueName: "n|low-high",
        help: "Paid downloads a month now, or a range, for migrate simulate (asked when no sales reports show a trend).")

    /// Every kind of question a flag or an answers file can answer, in the order the wizard asks them.
    public static let all: [QuestionKind] = [
        appName, bundleID, platforms, universalPurchase, releases, firstFree, freeGoLive, newFreeRelease, platformFreeRelease, platformGoLive, sells,
        price, features,
        featureSince, freeGaveAway,
        newProduct, duration, grants, era, eraDiscount, nonProduction, verificationFailure, familySharing, paidDownloads,
    ]
}

extension QuestionID {
    /// Its kind; nil for the summary's confirmation, which `--yes` or a script answers.
    public var kind: QuestionKind? {
        switch self {
        case .appName: .appName
        case .bundleID: .bundleID
        case .platforms: .platforms
        case .universalPurchase: .universalPurchase
        case .releases: .releases
        case .firstFree: .firstFree
        case .freeGoLive: .freeGoLive
        case .newFreeRelease: .newFreeRelease
        case .platformFreeRelease: .platformFreeRelease
        case .platformGoLive: .platformGoLive
        case .price: .price
        case .features: .features
        case .featureSince: .featureSince
        case .freeGaveAway: .freeGaveAway
        case .sells: .sells
        case .newProduct: .newProduct
        case .duration: .duration
        case .grants: .grants
        case .era: .era
        case .eraDiscount: .eraDiscount
        case .nonProduction: .nonProduction
        case .verificationFailure: .verificationFailure
        case .familySharing: .familySharing
        case .paidDownloads: .paidDownloads
        case .confirm: nil
        }
    }

    /// The item a per-item question is about, as its flag and answers file name it (eras count from 1).
    var item: String? {
        switch self {
        case .featureSince(let feature): feature
        case .platformFreeRelease(let platform), .platformGoLive(let platform): platform.rawValue
        case .grants(let product), .sells(let product), .duration(let product): product
        case .era(let index), .eraDiscount(let index): String(index + 1)
        default: nil
        }
    }

    /// The key in an `--answers` file; per-item answers are objects keyed by the item (`eras.1`).
    public var key: String {
        guard let kind else { return "confirm" }
        return item.map { "\(kind.key).\($0)" } ?? kind.key
    }

    /// The command-line flag that answers it, as a user would type it: `--era 1=<keep|everything|discount>`.
    public var flag: String {
        guard let kind else { return "--yes" }
        return item.map { "--\(kind.flag) \($0)=<\(kind.valueName)>" } ?? kind.usage
    }
}
