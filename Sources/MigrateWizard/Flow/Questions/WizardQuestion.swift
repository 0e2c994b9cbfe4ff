/// One question of the wizard as a value of its own type: what it asks given the answers so far (prompt, choices,
/// default, hint), how it reads an answer and what the answer sets, whether the answers hold one, and how the
/// summary shows it. Its answers-file key, flag and label are its `QuestionKind`'s, declared once.
protocol WizardQuestion: Sendable {
    var id: QuestionID { get }
    /// The question as shown now.
    func ask(_ wizard: Wizard) -> Question
    /// Reads `input` (never empty: the default has been put in) and records what it decides; an `.invalid`
    /// answer leaves the answers as they were.
    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome
    /// Whether the answers hold a usable answer, by what they say: a change elsewhere can leave one
    /// meaningless (a feature's first paid release that is now free), and then it is asked again.
    func isAnswered(_ wizard: Wizard) -> Bool
    /// The answer as the summary lists it, by what it decided; nil shows the text typed.
    func summary(_ wizard: Wizard) -> String?
}

extension WizardQuestion {
    func summary(_ wizard: Wizard) -> String? { nil }
}

extension QuestionID {
    /// The question this identifies, as a value.
    var handler: any WizardQuestion {
        switch self {
        case .appName: AppNameQuestion()
        case .bundleID: BundleIDQuestion()
        case .platforms: PlatformsQuestion()
        case .universalPurchase: UniversalPurchaseQuestion()
        case .releases: ReleasesQuestion()
        case .firstFree: FirstFreeQuestion()
        case .freeGoLive: FreeGoLiveQuestion()
        case .newFreeRelease: NewFreeReleaseQuestion()
        case .platformFreeRelease(let platform): PlatformFreeReleaseQuestion(platform: platform)
        case .platformGoLive(let platform): PlatformGoLiveQuestion(platform: platform)
        case .price: PriceQuestion()
        case .features: FeaturesQuestion()
        case .featureSince(let feature): FeatureSinceQuestion(feature: feature)
        case .freeGaveAway: FreeGaveAwayQuestion()
        case .sells(let product): SellsQuestion(product: product)
        case .newProduct: NewProductQuestion()
        case .duration(let product): DurationQuestion(product: product)
        case .grants(let product): GrantsQuestion(product: product)
        case .era(let index): EraQuestion(index: index)
        case .eraDiscount(let index): EraDiscountQuestion(index: index)
        case .nonProduction: NonProductionQuestion()
        case .verificationFailure: VerificationFailureQuestion()
        case .familySharing: FamilySharingQuestion()
        case .paidDownloads: PaidDownloadsQuestion()
        case .confirm: ConfirmQuestion()
        }
    }
}
