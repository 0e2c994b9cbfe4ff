/// Where a release's go-live date came from. The cutoff is only as right as the date of the release that
/// decides it, and most sources only approximate the moment a build went live: App Store Connect keeps no
/// go-live history in its API, git dates say when code was written or tagged, not when Apple released it.
public enum ReleaseDateSource: String, Sendable, Hashable, CaseIterable {
    /// Typed or confirmed by the developer from App Store Connect (the version's history or the release email).
    case appStore
    /// The end of the first day a sales report shows the version selling (Apple's reports are in Pacific time).
    case sales
    /// An App Store Connect record's own date: a version's creation or earliest release date, a build's upload.
    case ascCreated
    /// The date a git tag was created.
    case tag
    /// A git commit's author date.
    case commit
    /// A go-live still to come, as typed when the plan was made: a plan, not a confirmed moment.
    case planned

    /// Whether the date is good enough to decide who keeps what: confirmed from the App Store or
    /// measured from sales. The others are when something happened near the release, not the release.
    public var isEvidence: Bool { self == .appStore || self == .sales }

    /// How strong the evidence is; a higher rank replaces a lower one when importers merge.
    public var strength: Int {
        switch self {
        case .appStore: 5
        case .sales: 4
        case .ascCreated: 3
        case .tag: 2
        case .commit: 1
        case .planned: 0
        }
    }

    /// Where such dates come from, for a list: "git commits".
    public var origins: String {
        switch self {
        case .appStore: "dates you confirmed"
        case .sales: "sales reports"
        case .ascCreated: "App Store Connect records"
        case .tag: "git tags"
        case .commit: "git commits"
        case .planned: "planned go-lives"
        }
    }

    /// In words, for messages: "a git commit date".
    public var phrase: String {
        switch self {
        case .appStore: "a date confirmed from App Store Connect"
        case .sales: "the first day it sold in a sales report"
        case .ascCreated: "an App Store Connect record date"
        case .tag: "a git tag date"
        case .commit: "a git commit date"
        case .planned: "a planned go-live"
        }
    }
}
