import MigratePlan

/// How one platform's cohorts will be decided, for the rules table `migrate check` prints and the generated
/// documentation shows.
public struct TrackRule: Sendable, Hashable {
    public var platform: Platform
    public var rule: CutoffRuleKind
    public var reason: String
    /// Descriptions of the moments the app went from paid to free on this platform.
    public var switches: [String]
}

extension TrackCutoff {
    /// Whether the original version decides this track's cohorts under `policy`. The one place the plan's
    /// policy meets the track's soundness: `CohortResolver`, the rules table and `check`'s diagnostics read it.
    public func usesVersionRule(under policy: Policies.CutoffRule) -> Bool {
        switch policy {
        case .date: false
        case .version: true
        case .automatic: isVersionRuleSound
        }
    }

    /// The rule that decides this track's cohorts under `policy`.
    public func rule(under policy: Policies.CutoffRule) -> CutoffRuleKind {
        guard usesVersionRule(under: policy) else { return .purchaseDate }
        return meaning == .buildNumber ? .buildNumber : .marketingVersion
    }
}

extension PlanCatalog {
    /// How each platform's cohorts will be decided, and why, in platform order.
    public var trackRules: [TrackRule] {
        let policy = plan.policies.cutoffRule
        return tracks.keys.sorted().compactMap { platform -> TrackRule? in
            guard let cutoff = cutoffs[platform] else { return nil }
            let switches = freeSwitches(on: platform).map { index -> String in
                let release = plan.releases[index]
                return "free from \(release.displayName), live \(Timestamp.format(release.released))"
            }
            let reason: String
            switch policy {
            case .date, .version:
                reason = "policies.cutoffRule is \"\(policy.rawValue)\""
            case .automatic:
                reason =
                    cutoff.isVersionRuleSound
                    ? "every \(cutoff.meaning.displayName) orders the eras the same way as the release dates" : cutoff.problems[0].message
            }
            return TrackRule(platform: platform, rule: cutoff.rule(under: policy), reason: reason, switches: switches)
        }
    }
}
