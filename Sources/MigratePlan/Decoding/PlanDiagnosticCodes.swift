import MigrateSupport

/// The codes of the problems a plan's decoder and validator report (and the engine reuses for the same kinds of
/// problem in other inputs), each declared once, as a case.
extension DiagnosticCode {
    /// The codes, each a case, so the list of them is complete by construction.
    public enum Plan: String, DiagnosticCodes {
        case bundleCycle = "bundle-cycle"
        case bundleTooDeep = "bundle-too-deep"
        case consumableGrants = "consumable-grants"
        case discountNotCheaper = "discount-not-cheaper"
        case discountTwoMechanisms = "discount-two-mechanisms"
        case duplicate = "duplicate"
        case duplicateID = "duplicate-id"
        case duplicateKey = "duplicate-key"
        case duplicateRelease = "duplicate-release"
        case emptyValue = "empty-value"
        case invalidDate = "invalid-date"
        case invalidOfferID = "invalid-offer-id"
        case invalidPrice = "invalid-price"
        case invalidTrial = "invalid-trial"
        case invalidDuration = "invalid-duration"
        case invalidIntroductoryOffer = "invalid-introductory-offer"
        case invalidUTF8 = "invalid-utf8"
        case invalidValue = "invalid-value"
        case invalidVersion = "invalid-version"
        case invalidWindow = "invalid-window"
        case jsonSyntax = "json-syntax"
        case missingKey = "missing-key"
        case numberAsPrice = "number-as-price"
        case numberAsVersion = "number-as-version"
        case platformNotListed = "platform-not-listed"
        case productGrantsNothing = "product-grants-nothing"
        case reservedID = "reserved-id"
        case tooLarge = "too-large"
        case unknownKey = "unknown-key"
        case unknownPlatform = "unknown-platform"
        case unknownReference = "unknown-reference"
        case unsupportedFormat = "unsupported-format"
        case versionComponents = "version-components"
        case wrongType = "wrong-type"
    }

    public static let bundleCycle = DiagnosticCode(Plan.bundleCycle)
    public static let bundleTooDeep = DiagnosticCode(Plan.bundleTooDeep)
    public static let consumableGrants = DiagnosticCode(Plan.consumableGrants)
    public static let discountNotCheaper = DiagnosticCode(Plan.discountNotCheaper)
    public static let discountTwoMechanisms = DiagnosticCode(Plan.discountTwoMechanisms)
    public static let duplicate = DiagnosticCode(Plan.duplicate)
    public static let duplicateID = DiagnosticCode(Plan.duplicateID)
    public static let duplicateKey = DiagnosticCode(Plan.duplicateKey)
    public static let duplicateRelease = DiagnosticCode(Plan.duplicateRelease)
    public static let emptyValue = DiagnosticCode(Plan.emptyValue)
    public static let invalidDate = DiagnosticCode(Plan.invalidDate)
    public static let invalidOfferID = DiagnosticCode(Plan.invalidOfferID)
    public static let invalidPrice = DiagnosticCode(Plan.invalidPrice)
    public static let invalidTrial = DiagnosticCode(Plan.invalidTrial)
    public static let invalidDuration = DiagnosticCode(Plan.invalidDuration)
    public static let invalidIntroductoryOffer = DiagnosticCode(Plan.invalidIntroductoryOffer)
    public static let invalidUTF8 = DiagnosticCode(Plan.invalidUTF8)
    public static let invalidValue = DiagnosticCode(Plan.invalidValue)
    public static let invalidVersion = DiagnosticCode(Plan.invalidVersion)
    public static let invalidWindow = DiagnosticCode(Plan.invalidWindow)
    public static let jsonSyntax = DiagnosticCode(Plan.jsonSyntax)
    public static let missingKey = DiagnosticCode(Plan.missingKey)
    public static let numberAsPrice = DiagnosticCode(Plan.numberAsPrice)
    public static let numberAsVersion = DiagnosticCode(Plan.numberAsVersion)
    public static let platformNotListed = DiagnosticCode(Plan.platformNotListed)
    public static let productGrantsNothing = DiagnosticCode(Plan.productGrantsNothing)
    public static let reservedID = DiagnosticCode(Plan.reservedID)
    public static let tooLarge = DiagnosticCode(Plan.tooLarge)
    public static let unknownKey = DiagnosticCode(Plan.unknownKey)
    public static let unknownPlatform = DiagnosticCode(Plan.unknownPlatform)
    public static let unknownReference = DiagnosticCode(Plan.unknownReference)
    public static let unsupportedFormat = DiagnosticCode(Plan.unsupportedFormat)
    public static let versionComponents = DiagnosticCode(Plan.versionComponents)
    public static let wrongType = DiagnosticCode(Plan.wrongType)
}
