import MigrateSupport

/// The codes of the problems `check` and the receipt reader report, each declared once.
extension DiagnosticCode {
    /// A non-renewing subscription that unlocks features: nothing in the plan ends it.
    public static let nonRenewingNeverEnds = DiagnosticCode("non-renewing-never-ends")
    public static let cutoffInFuture = DiagnosticCode("cutoff-in-future")
    public static let dateOutOfRange = DiagnosticCode("date-out-of-range")
    public static let discountDisplayOnly = DiagnosticCode("discount-display-only")
    public static let featureNeverGranted = DiagnosticCode("feature-never-granted")
    public static let legacyFeatureDropped = DiagnosticCode("legacy-feature-dropped")
    public static let legacyProductGrantsLess = DiagnosticCode("legacy-product-grants-less")
    public static let legacyProductIsRegular = DiagnosticCode("legacy-product-is-regular")
    public static let legacyProductNotForSale = DiagnosticCode("legacy-product-not-for-sale")
    public static let legacyProductPrice = DiagnosticCode("legacy-product-price")
    public static let legacyProductSubscription = DiagnosticCode("legacy-product-subscription")
    public static let malformedJWS = DiagnosticCode("malformed-jws")
    public static let noFeatures = DiagnosticCode("no-features")
    public static let noFreeRelease = DiagnosticCode("no-free-release")
    public static let noReleases = DiagnosticCode("no-releases")
    public static let nothingForSale = DiagnosticCode("nothing-for-sale")
    public static let offerNotSubscription = DiagnosticCode("offer-not-subscription")
    public static let paidFeatureUnobtainable = DiagnosticCode("paid-feature-unobtainable")
    /// A legacy subscription price for paid-app buyers through a promotional offer, which needs a subscription history.
    public static let promotionalOfferIneligible = DiagnosticCode("promotional-offer-ineligible")
    public static let introductoryOfferTaken = DiagnosticCode("introductory-offer-taken")
    public static let paidReleaseIncludesNothing = DiagnosticCode("paid-release-includes-nothing")
    public static let paidReleaseUncovered = DiagnosticCode("paid-release-uncovered")
    public static let receiptStatus = DiagnosticCode("receipt-status")
    public static let sandboxVersionCollision = DiagnosticCode("sandbox-version-collision")
    public static let swiftNameCollision = DiagnosticCode("swift-name-collision")
    public static let tierOverlap = DiagnosticCode("tier-overlap")
    public static let universalPurchaseMixed = DiagnosticCode("universal-purchase-mixed")
    public static let unknownReceipt = DiagnosticCode("unknown-receipt")
    public static let versionRuleAmbiguous = DiagnosticCode("version-rule-ambiguous")
    public static let versionRuleUnsound = DiagnosticCode("version-rule-unsound")
    public static let weakReleaseDate = DiagnosticCode("weak-release-date")

    /// Every code above, for the test that keeps them unique.
    public static let engine: [DiagnosticCode] = [
        .nonRenewingNeverEnds,
        .cutoffInFuture,
        .dateOutOfRange,
        .discountDisplayOnly,
        .featureNeverGranted,
        .legacyFeatureDropped,
        .legacyProductGrantsLess,
        .legacyProductIsRegular,
        .legacyProductNotForSale,
        .legacyProductPrice,
        .legacyProductSubscription,
        .malformedJWS,
        .noFeatures,
        .noFreeRelease,
        .noReleases,
        .nothingForSale,
        .offerNotSubscription,
        .paidFeatureUnobtainable,
        .promotionalOfferIneligible,
        .introductoryOfferTaken,
        .paidReleaseIncludesNothing,
        .paidReleaseUncovered,
        .receiptStatus,
        .sandboxVersionCollision,
        .swiftNameCollision,
        .tierOverlap,
        .universalPurchaseMixed,
        .unknownReceipt,
        .versionRuleAmbiguous,
        .versionRuleUnsound,
        .weakReleaseDate,
    ]
}
