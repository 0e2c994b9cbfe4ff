import MigrateSupport

/// The codes of the problems a plan's decoder and validator report (and the engine reuses for the same kinds of
/// problem in other inputs), each declared once.
extension DiagnosticCode {
    public static let bundleCycle = DiagnosticCode("bundle-cycle")
    public static let bundleTooDeep = DiagnosticCode("bundle-too-deep")
    public static let consumableGrants = DiagnosticCode("consumable-grants")
    public static let discountNotCheaper = DiagnosticCode("discount-not-cheaper")
    public static let discountTwoMechanisms = DiagnosticCode("discount-two-mechanisms")
    public static let duplicate = DiagnosticCode("duplicate")
    public static let duplicateID = DiagnosticCode("duplicate-id")
    public static let duplicateKey = DiagnosticCode("duplicate-key")
    public static let duplicateRelease = DiagnosticCode("duplicate-release")
    public static let emptyValue = DiagnosticCode("empty-value")
    public static let invalidDate = DiagnosticCode("invalid-date")
    public static let invalidOfferID = DiagnosticCode("invalid-offer-id")
    public static let invalidPrice = DiagnosticCode("invalid-price")
    public static let invalidTrial = DiagnosticCode("invalid-trial")
    public static let invalidDuration = DiagnosticCode("invalid-duration")
    public static let invalidUTF8 = DiagnosticCode("invalid-utf8")
    public static let invalidValue = DiagnosticCode("invalid-value")
    public static let invalidVersion = DiagnosticCode("invalid-version")
    public static let invalidWindow = DiagnosticCode("invalid-window")
    public static let jsonSyntax = DiagnosticCode("json-syntax")
    public static let missingKey = DiagnosticCode("missing-key")
    public static let numberAsPrice = DiagnosticCode("number-as-price")
    public static let numberAsVersion = DiagnosticCode("number-as-version")
    public static let platformNotListed = DiagnosticCode("platform-not-listed")
    public static let productGrantsNothing = DiagnosticCode("product-grants-nothing")
    public static let reservedID = DiagnosticCode("reserved-id")
    public static let tooLarge = DiagnosticCode("too-large")
    public static let unknownKey = DiagnosticCode("unknown-key")
    public static let unknownPlatform = DiagnosticCode("unknown-platform")
    public static let unknownReference = DiagnosticCode("unknown-reference")
    public static let unsupportedFormat = DiagnosticCode("unsupported-format")
    public static let versionComponents = DiagnosticCode("version-components")
    public static let wrongType = DiagnosticCode("wrong-type")

    /// Every code above, for the test that keeps them unique.
    public static let plan: [DiagnosticCode] = [
        .bundleCycle,
        .bundleTooDeep,
        .consumableGrants,
        .discountNotCheaper,
        .discountTwoMechanisms,
        .duplicate,
        .duplicateID,
        .duplicateKey,
        .duplicateRelease,
        .emptyValue,
        .invalidDate,
        .invalidOfferID,
        .invalidPrice,
        .invalidTrial,
        .invalidDuration,
        .invalidUTF8,
        .invalidValue,
        .invalidVersion,
        .invalidWindow,
        .jsonSyntax,
        .missingKey,
        .numberAsPrice,
        .numberAsVersion,
        .platformNotListed,
        .productGrantsNothing,
        .reservedID,
        .tooLarge,
        .unknownKey,
        .unknownPlatform,
        .unknownReference,
        .unsupportedFormat,
        .versionComponents,
        .wrongType,
    ]
}
