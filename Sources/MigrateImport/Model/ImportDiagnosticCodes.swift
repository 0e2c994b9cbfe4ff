import MigrateSupport

/// The codes of the doubts and skipped entries importers report, each declared once, as a case. Importers also report the
/// plan's own codes where the problem is the same (`invalidDate`, `invalidVersion`, `invalidPrice`,
/// `unknownPlatform`, `duplicateID`).
extension DiagnosticCode {
    /// The codes, each a case, so the list of them is complete by construction.
    public enum Import: String, DiagnosticCodes {
        /// Something in the source lacks what a release or product needs (an id, a price, a date); it was skipped.
        case entrySkipped = "entry-skipped"
        /// A `.storekit` file newer than the formats migrate knows; read as far as understood.
        case formatNewer = "format-newer"
        case unknownProductType = "unknown-product-type"
        /// A subscription period the App Store doesn't sell.
        case unsupportedPeriod = "unsupported-period"
        /// An App Store Connect version whose build isn't in the response.
        case buildMissing = "build-missing"
        /// A paged response with pages missing, or fewer resources than its total says.
        case responseIncomplete = "response-incomplete"
        /// A sales report row with more or fewer fields than its header.
        case rowMalformed = "row-malformed"
        /// An Xcode project with several application targets; the first was read.
        case severalTargets = "several-targets"
        case buildSettingCycle = "build-setting-cycle"
        case buildSettingUndefined = "build-setting-undefined"
        case infoPlistMissing = "info-plist-missing"
        /// An Info.plist version that is a build setting, read without the project that defines it.
        case versionUnresolved = "version-unresolved"
        case commitUnreadable = "commit-unreadable"
        case historyRewritten = "history-rewritten"
        /// Tags made after the releases they mark, dated by their commits.
        case tagsMadeLater = "tags-made-later"
        /// The version at HEAD has no tag and was imported as a release.
        case untaggedHead = "untagged-head"
        /// A source that can't be read at all (exit 65).
        case unreadableSource = "unreadable-source"
        /// A file, folder or repository that isn't there (exit 66).
        case missingSource = "missing-source"
        /// A tool an importer needs, such as git, that isn't installed (exit 66).
        case missingTool = "missing-tool"
    }

    public static let entrySkipped = DiagnosticCode(Import.entrySkipped)
    public static let formatNewer = DiagnosticCode(Import.formatNewer)
    public static let unknownProductType = DiagnosticCode(Import.unknownProductType)
    public static let unsupportedPeriod = DiagnosticCode(Import.unsupportedPeriod)
    public static let buildMissing = DiagnosticCode(Import.buildMissing)
    public static let responseIncomplete = DiagnosticCode(Import.responseIncomplete)
    public static let rowMalformed = DiagnosticCode(Import.rowMalformed)
    public static let severalTargets = DiagnosticCode(Import.severalTargets)
    public static let buildSettingCycle = DiagnosticCode(Import.buildSettingCycle)
    public static let buildSettingUndefined = DiagnosticCode(Import.buildSettingUndefined)
    public static let infoPlistMissing = DiagnosticCode(Import.infoPlistMissing)
    public static let versionUnresolved = DiagnosticCode(Import.versionUnresolved)
    public static let commitUnreadable = DiagnosticCode(Import.commitUnreadable)
    public static let historyRewritten = DiagnosticCode(Import.historyRewritten)
    public static let tagsMadeLater = DiagnosticCode(Import.tagsMadeLater)
    public static let untaggedHead = DiagnosticCode(Import.untaggedHead)
    public static let unreadableSource = DiagnosticCode(Import.unreadableSource)
    public static let missingSource = DiagnosticCode(Import.missingSource)
    public static let missingTool = DiagnosticCode(Import.missingTool)
}
