import MigrateSupport

/// The codes of the problems `check` and the receipt reader report, each declared once, as a case.
extension DiagnosticCode {
    /// The codes, each a case, so the list of them is complete by construction.
    public enum Check: String, DiagnosticCodes {
        /// A non-renewing subscription that unlocks features: nothing in the plan ends it.
        case nonRenewingNeverEnds = "non-renewing-never-ends"
        case cutoffInFuture = "cutoff-in-future"
        case dateOutOfRange = "date-out-of-range"
        case discountDisplayOnly = "discount-display-only"
        case featureNeverGranted = "feature-never-granted"
        /// A tier's `grants` leave out a feature a free update brought its buyers.
        case freeUpdateTakenAway = "free-update-taken-away"
        /// A name or id holds a control character or a bidirectional formatting character (`TextHazards`).
        case hazardInName = "control-character-in-name"
        case legacyFeatureDropped = "legacy-feature-dropped"
        case legacyProductGrantsLess = "legacy-product-grants-less"
        case legacyProductIsRegular = "legacy-product-is-regular"
        case legacyProductNotForSale = "legacy-product-not-for-sale"
        case legacyProductPrice = "legacy-product-price"
        case legacyProductSubscription = "legacy-product-subscription"
        case malformedJWS = "malformed-jws"
        case noFeatures = "no-features"
        case noFreeRelease = "no-free-release"
        case noReleases = "no-releases"
        case nothingForSale = "nothing-for-sale"
        case offerNotSubscription = "offer-not-subscription"
        case paidFeatureUnobtainable = "paid-feature-unobtainable"
        /// A legacy subscription price for paid-app buyers through a promotional offer, which needs a subscription history.
        case promotionalOfferIneligible = "promotional-offer-ineligible"
        case introductoryOfferForEveryone = "introductory-offer-for-everyone"
        case paidReleaseIncludesNothing = "paid-release-includes-nothing"
        case paidReleaseUncovered = "paid-release-uncovered"
        case receiptStatus = "receipt-status"
        case sandboxVersionCollision = "sandbox-version-collision"
        case swiftNameCollision = "swift-name-collision"
        case tierOverlap = "tier-overlap"
        case universalPurchaseMixed = "universal-purchase-mixed"
        /// One bundle id on several platforms, with universal purchase off: a buyer on one is new on the others.
        case universalPurchaseOff = "universal-purchase-off"
        case unknownReceipt = "unknown-receipt"
        case versionRuleAmbiguous = "version-rule-ambiguous"
        case versionRuleUnsound = "version-rule-unsound"
        case weakReleaseDate = "weak-release-date"
    }

    public static let nonRenewingNeverEnds = DiagnosticCode(Check.nonRenewingNeverEnds)
    public static let cutoffInFuture = DiagnosticCode(Check.cutoffInFuture)
    public static let dateOutOfRange = DiagnosticCode(Check.dateOutOfRange)
    public static let discountDisplayOnly = DiagnosticCode(Check.discountDisplayOnly)
    public static let featureNeverGranted = DiagnosticCode(Check.featureNeverGranted)
    public static let freeUpdateTakenAway = DiagnosticCode(Check.freeUpdateTakenAway)
    public static let hazardInName = DiagnosticCode(Check.hazardInName)
    public static let legacyFeatureDropped = DiagnosticCode(Check.legacyFeatureDropped)
    public static let legacyProductGrantsLess = DiagnosticCode(Check.legacyProductGrantsLess)
    public static let legacyProductIsRegular = DiagnosticCode(Check.legacyProductIsRegular)
    public static let legacyProductNotForSale = DiagnosticCode(Check.legacyProductNotForSale)
    public static let legacyProductPrice = DiagnosticCode(Check.legacyProductPrice)
    public static let legacyProductSubscription = DiagnosticCode(Check.legacyProductSubscription)
    public static let malformedJWS = DiagnosticCode(Check.malformedJWS)
    public static let noFeatures = DiagnosticCode(Check.noFeatures)
    public static let noFreeRelease = DiagnosticCode(Check.noFreeRelease)
    public static let noReleases = DiagnosticCode(Check.noReleases)
    public static let nothingForSale = DiagnosticCode(Check.nothingForSale)
    public static let offerNotSubscription = DiagnosticCode(Check.offerNotSubscription)
    public static let paidFeatureUnobtainable = DiagnosticCode(Check.paidFeatureUnobtainable)
    public static let promotionalOfferIneligible = DiagnosticCode(Check.promotionalOfferIneligible)
    public static let introductoryOfferForEveryone = DiagnosticCode(Check.introductoryOfferForEveryone)
    public static let paidReleaseIncludesNothing = DiagnosticCode(Check.paidReleaseIncludesNothing)
    public static let paidReleaseUncovered = DiagnosticCode(Check.paidReleaseUncovered)
    public static let receiptStatus = DiagnosticCode(Check.receiptStatus)
    public static let sandboxVersionCollision = DiagnosticCode(Check.sandboxVersionCollision)
    public static let swiftNameCollision = DiagnosticCode(Check.swiftNameCollision)
    public static let tierOverlap = DiagnosticCode(Check.tierOverlap)
    public static let universalPurchaseMixed = DiagnosticCode(Check.universalPurchaseMixed)
    public static let universalPurchaseOff = DiagnosticCode(Check.universalPurchaseOff)
    public static let unknownReceipt = DiagnosticCode(Check.unknownReceipt)
    public static let versionRuleAmbiguous = DiagnosticCode(Check.versionRuleAmbiguous)
    public static let versionRuleUnsound = DiagnosticCode(Check.versionRuleUnsound)
    public static let weakReleaseDate = DiagnosticCode(Check.weakReleaseDate)
}
