import MigratePlan

/// Something that makes an original version unreliable on one platform.
public struct CutoffProblem: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// One version string belongs to buyers of two different tiers (build numbers restarted).
        case sharedVersion
        /// A later release carries a lower version than an earlier one across a tier boundary.
        case backwards
        /// A release has no version of the kind receipts carry (an iOS release without a build).
        case missingVersion
    }

    public var kind: Kind
    public var message: String
    /// Indices into `plan.releases`.
    public var releases: [Int]
}

/// Whether the original version can decide the cohort on one platform, and how to look it up.
///
/// The version rule is sound when every pair of releases whose buyers are treated differently
/// is ordered the same way by version as by date. Otherwise the version says nothing reliable
/// about the era and the purchase date must decide (build numbers restarted per marketing version;
/// RevenueCat added `originalPurchaseDate` for this, purchases-ios PR #191).
public struct TrackCutoff: Sendable {
    public let platform: Platform
    public let meaning: Platform.VersionMeaning
    public let problems: [CutoffProblem]
    /// Releases that have a version of the right kind, sorted by it (ties by date).
    let byVersion: [Entry]
    /// Where each release (an index into `plan.releases`) is in `byVersion`.
    let positions: [Int: Int]

    init(platform: Platform, meaning: Platform.VersionMeaning, problems: [CutoffProblem], byVersion: [Entry]) {
        self.platform = platform
        self.meaning = meaning
        self.problems = problems
        self.byVersion = byVersion
        positions = Dictionary(byVersion.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { first, _ in first })
    }

    struct Entry: Sendable {
        var version: Version
        var index: Int
        var label: String
        var release: Release
    }

    public var isVersionRuleSound: Bool { problems.isEmpty }

    static func analyze(platform: Platform, releases: [(index: Int, release: Release)], label: (Int) -> String) -> TrackCutoff {
        let meaning = platform.originalVersionMeaning
        var entries: [Entry] = []
        var problems: [CutoffProblem] = []
        for item in releases {
            let key = item.release.receiptVersion(meaning)
            guard let key else {
                problems.append(
                    CutoffProblem(
                        kind: .missingVersion, message: "\(platform) release \(item.release.displayName) has no build number",
                        releases: [item.index]))
                continue
            }
            entries.append(Entry(version: key, index: item.index, label: label(item.index), release: item.release))
        }
        // `entries` is in date order here.
        let maximumReported = 6
        var reportedPairs = 0
        var extra = 0
        let noun = meaning.displayName
        outer: for later in entries.indices {
            for earlier in entries.indices where earlier < later {
                let a = entries[earlier]
                let b = entries[later]
                guard a.label != b.label else { continue }
                var problem: CutoffProblem?
                if a.version == b.version {
                    problem = CutoffProblem(
                        kind: .sharedVersion,
                        message:
                            "\(noun) \(b.version) is used by \(a.release.displayName) and by \(b.release.displayName), whose buyers are treated differently",
                        releases: [a.index, b.index])
                } else if b.version < a.version {
                    problem = CutoffProblem(
                        kind: .backwards,
                        message:
                            "\(b.release.displayName) went live after \(a.release.displayName) but has a lower \(noun) (\(b.version) < \(a.version))",
                        releases: [a.index, b.index])
                }
                if let problem {
                    if reportedPairs < maximumReported {
                        problems.append(problem)
                        reportedPairs += 1
                    } else {
                        extra += 1
                        if extra > 10_000 { break outer }
                    }
                }
            }
        }
        if extra > 0 {
            problems.append(CutoffProblem(kind: .backwards, message: "and \(extra) more pairs like these", releases: []))
        }
        // `entries` is in date order (ties in file order), so a stable tie-break keeps that order.
        let sorted = entries.enumerated().sorted { lhs, rhs in
            lhs.element.version != rhs.element.version ? lhs.element.version < rhs.element.version : lhs.offset < rhs.offset
        }.map(\.element)
        return TrackCutoff(platform: platform, meaning: meaning, problems: problems, byVersion: sorted)
    }

    /// The outcome of looking an original version up on this track.
    public struct Lookup: Sendable, Hashable {
        /// Index into `plan.releases` of the release the customer first got.
        public var release: Int
        /// The comparisons that decided it, such as `build 31 < 40 (numeric), the first build of 2.0 (40)`.
        public var comparisons: [String]
        /// Set when the version is outside the releases the plan knows.
        public var note: String?
    }

    /// The comparisons that put this original version in `release`, the release the rules decided
    /// (`CohortRules`, the one place that finds it); nil when that release has no version here.
    public func lookup(_ version: Version, decided release: Int) -> Lookup? {
        guard let position = positions[release], let first = byVersion.first, let last = byVersion.last else { return nil }
        let noun = meaning == .buildNumber ? "build" : "version"
        let belowAll = version < first.version
        var comparisons: [String] = []
        var note: String?
        if belowAll {
            note = "\(noun) \(version) is older than every \(platform) release in the plan; read as the first one, \(first.release.displayName)"
        }
        let match = byVersion[position]
        // Where the run of releases treated like this one starts and ends, in version order.
        var start = position
        while start > 0 && byVersion[start - 1].label == match.label { start -= 1 }
        var end = position
        while end + 1 < byVersion.count && byVersion[end + 1].label == match.label { end += 1 }
        if !belowAll && start > 0 {
            let first = byVersion[start]
            comparisons.append("\(noun) \(version) ≥ \(first.version) (numeric), the first \(noun) of \(first.release.displayName)")
        } else if !belowAll && version == match.version {
            comparisons.append("\(noun) \(version) = \(match.version) (numeric), the \(noun) of \(match.release.displayName)")
        }
        if end + 1 < byVersion.count {
            let next = byVersion[end + 1]
            let model = next.release.model.isPaid ? "paid" : "free"
            comparisons.append(
                "\(noun) \(version) < \(next.version) (numeric), the first \(noun) of \(next.release.displayName), a \(model) release")
        } else if version > last.version {
            note = note ?? "\(noun) \(version) is newer than every \(platform) release in the plan; read as the newest, \(match.release.displayName)"
        }
        return Lookup(release: match.index, comparisons: comparisons, note: note)
    }
}
