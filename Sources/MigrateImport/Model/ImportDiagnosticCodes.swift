import MigrateSupport

/// The codes of the doubts and skipped entries importers report, each declared once. Importers also report the
/// plan's own codes where the problem is the same (`invalidDate`, `invalidVersion`, `invalidPrice`,
/// `unknownPlatform`, `duplicateID`).
extension DiagnosticCode {
    /// Something in the source lacks what a release or product needs (an id, a price, a date); it was skipped.
    public static let entrySkipped = DiagnosticCode("entry-skipped")
    /// A `.storekit` file newer than the formats migrate knows; read as far as understood.
    public static let formatNewer = DiagnosticCode("format-newer")
    public static let unknownProductType = DiagnosticCode("unknown-product-type")
    /// A subscription period the App Store doesn't sell.
    public static let unsupportedPeriod = DiagnosticCode("unsupported-period")
    /// An App Store Connect version whose build isn't in the response.
    public static let buildMissing = DiagnosticCode("build-missing")
    /// A paged response with pages missing, or fewer resources than its total says.
    public static let responseIncomplete = DiagnosticCode("response-incomplete")
    /// A sales report row with more or fewer fields than its header.
    public static let rowMalformed = DiagnosticCode("row-malformed")
    /// An Xcode project with several application targets; the first was read.
    public static let severalTargets = DiagnosticCode("several-targets")
    public static let buildSettingCycle = DiagnosticCode("build-setting-cycle")
    public static let buildSettingUndefined = DiagnosticCode("build-setting-undefined")
    public static let infoPlistMissing = DiagnosticCode("info-plist-missing")
    /// An Info.plist version that is a build setting, read without the project that defines it.
    public static let versionUnresolved = DiagnosticCode("version-unresolved")
    public static let commitUnreadable = DiagnosticCode("commit-unreadable")
    public static let historyRewritten = DiagnosticCode("history-rewritten")
    /// Tags made after the releases they mark, dated by their commits.
    public static let tagsMadeLater = DiagnosticCode("tags-made-later")
    /// The version at HEAD has no tag and was imported as a release.
    public static let untaggedHead = DiagnosticCode("untagged-head")
    /// A source that can't be read at all (exit 65).
    public static let unreadableSource = DiagnosticCode("unreadable-source")
    /// A file, folder or repository that isn't there (exit 66).
    public static let missingSource = DiagnosticCode("missing-source")
    /// A tool an importer needs, such as git, that isn't installed (exit 66).
    public static let missingTool = DiagnosticCode("missing-tool")

    /// Every code above, for the test that keeps them unique.
    public static let importer: [DiagnosticCode] = [
        .entrySkipped, .formatNewer, .unknownProductType, .unsupportedPeriod, .buildMissing, .responseIncomplete, .rowMalformed,
        .severalTargets, .buildSettingCycle, .buildSettingUndefined, .infoPlistMissing, .versionUnresolved, .commitUnreadable,
        .historyRewritten, .tagsMadeLater, .untaggedHead, .unreadableSource, .missingSource, .missingTool,
    ]
}
