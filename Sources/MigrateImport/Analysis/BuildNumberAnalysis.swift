import MigrateCore
import MigratePlan

/// What the build numbers of a plan's releases say about the cutoff rule, per platform.
///
/// Build numbers restarted per marketing version, builds going backwards (a hotfix released after
/// a newer version) and gaps are what decide between the build rule and the date rule (see
/// `TrackCutoff`); the verdict itself comes from MigrateCore's `TrackCutoff`, as `check` uses it.
public struct BuildNumberAnalysis: Sendable, Hashable {
    public struct Finding: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case restarted
            case backwards
            case gap
            /// A marketing version lower than one released before it (a hotfix on an older branch, or a wrong date).
            case versionBackwards
        }

        public var platform: Platform
        public var kind: Kind
        public var message: String
    }

    public var findings: [Finding]
    /// Per platform: the rule `check` would use with the plan as it is, and why.
    public var verdicts: [(platform: Platform, usesBuildRule: Bool, reason: String)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.findings == rhs.findings && lhs.verdicts.map { "\($0)" } == rhs.verdicts.map { "\($0)" }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(findings) }

    /// Gaps larger than this many build numbers are reported (smaller ones are builds that never shipped).
    public static let gapThreshold: UInt64 = 10

    public static func analyze(_ plan: MigrationPlan) -> BuildNumberAnalysis {
        var findings: [Finding] = []
        let platforms = Set(plan.releases.map(\.platform)).sorted()
        for platform in platforms where platform.originalVersionMeaning == .buildNumber {
            let releases = plan.releases.filter { $0.platform == platform && $0.build != nil }.sorted { $0.released < $1.released }
            var highest: Release?
            var firstOfVersion: [Version: Release] = [:]
            for (index, release) in releases.enumerated() {
                let build = release.build!
                if let previous = highest, let previousBuild = previous.build, build < previousBuild || build == previousBuild {
                    let restarted = release.version > previous.version && firstOfVersion[release.version] == nil
                    findings.append(
                        Finding(
                            platform: platform, kind: restarted ? .restarted : .backwards,
                            message: restarted
                                ? "\(release.displayName) restarts the build numbers (after \(previous.displayName)); a build number alone cannot say which era a buyer is from"
                                : "\(release.displayName) came after \(previous.displayName) but its build number is not higher"))
                }
                if index > 0, let previousBuild = releases[index - 1].build, build > previousBuild,
                    let gap = Self.difference(build, previousBuild), gap > gapThreshold
                {
                    findings.append(
                        Finding(
                            platform: platform, kind: .gap,
                            message:
                                "builds jump from \(previousBuild) (\(releases[index - 1].version)) to \(build) (\(release.version)); check no release in between is missing"
                        ))
                }
                if firstOfVersion[release.version] == nil { firstOfVersion[release.version] = release }
                if highest?.build.map({ build > $0 }) ?? true { highest = release }
            }
        }
        for platform in platforms {
            var highest: Release?
            for release in plan.releases.filter({ $0.platform == platform }).sorted(by: { $0.released < $1.released }) {
                if let previous = highest, release.version < previous.version {
                    findings.append(
                        Finding(
                            platform: platform, kind: .versionBackwards,
                            message:
                                "\(release.version) went live after \(previous.version) but its marketing version is lower: a hotfix for an older version, or a wrong date? Check its date"
                        ))
                }
                if highest.map({ release.version > $0.version }) ?? true { highest = release }
            }
        }
        var verdicts: [(Platform, Bool, String)] = []
        if !plan.releases.isEmpty {
            let catalog = PlanCatalog(plan)
            for platform in catalog.cutoffs.keys.sorted() {
                let cutoff = catalog.cutoffs[platform]!
                let noun = cutoff.meaning.displayName
                if cutoff.isVersionRuleSound {
                    verdicts.append((platform, true, "the \(noun) orders the eras the way the release dates do"))
                } else {
                    verdicts.append((platform, false, cutoff.problems.first?.message ?? "the \(noun) is ambiguous"))
                }
            }
        }
        return BuildNumberAnalysis(findings: findings, verdicts: verdicts)
    }

    /// How far apart two single-component build numbers are; nil for dotted builds.
    static func difference(_ a: Version, _ b: Version) -> UInt64? {
        guard a.components.count == 1, b.components.count == 1 else { return nil }
        return a.components[0] - b.components[0]
    }
}
