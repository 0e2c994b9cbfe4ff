import Foundation
import MigratePlan
import MigrateSupport

extension DiagnosticCode {
    /// The codes of the checks of an app's free era: what its free releases gave, held against what later ones keep.
    public enum FreeEra: String, DiagnosticCodes {
        /// A free release gave a feature that a later free release no longer does, and no tier keeps it for the
        /// earlier release's downloaders.
        case takenAway = "free-era-taken-away"
    }
}

/// An app that went free gave its free releases' features to everyone who downloaded them. A later release that
/// stops giving one (it is sold from then on) takes it from those downloaders, who have used it since, unless a tier
/// covering their downloads keeps it.
enum FreeEraCheck {
    static func check(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        var diagnostics: [Diagnostic] = []
        for (platform, track) in catalog.tracks.sorted(by: { $0.key < $1.key }) {
            let windows = catalog.windows(on: platform)
            for (position, index) in track.enumerated() where !plan.releases[index].model.isPaid {
                let release = plan.releases[index]
                // Its downloaders are those of its own days: until the next release of the track.
                let later = track[(position + 1)...]
                for feature in catalog.includes[index] {
                    guard let taking = later.first(where: { !plan.releases[$0].model.isPaid && !catalog.includes[$0].contains(feature) }) else {
                        continue
                    }
                    // Only the first free release that gave it is named: the later ones' downloaders are the same story.
                    if track[..<position].contains(where: { !plan.releases[$0].model.isPaid && catalog.includes[$0].contains(feature) }) { continue }
                    let kept = windows.contains { window in
                        window.contains(release.released) && catalog.tiers.indices.contains(window.tier)
                            && catalog.tiers[window.tier].grants.contains(feature)
                    }
                    guard !kept else { continue }
                    let takes = plan.releases[taking]
                    diagnostics.append(
                        .error(
                            DiagnosticCode(DiagnosticCode.FreeEra.takenAway),
                            "everyone who downloaded \(platform) \(release.displayName) or a later free release has used '\(feature)' for free since \(Timestamp.format(release.released)); \(takes.displayName) (\(Timestamp.format(takes.released))) no longer gives it, and no tier keeps it for them",
                            at: (takes.origin ?? (.root / PlanKeys.Root.releases / taking)) / PlanKeys.Release.includes,
                            hint:
                                "Add a tier for the free era's downloaders ({ \"id\": \"free-era\", \"from\": \"\(Timestamp.format(release.released))\", \"until\": \"\(Timestamp.format(takes.released))\", \"grants\": [\"\(feature)\"] }), or keep '\(feature)' in \(takes.displayName)'s 'includes'."
                        ))
                }
            }
        }
        return diagnostics
    }
}
