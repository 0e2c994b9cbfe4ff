import Foundation
import MigratePlan
import MigrateSupport

extension DiagnosticCode {
    /// The codes of the checks of the platforms a plan declares against the releases that shipped on them.
    public enum Platforms: String, DiagnosticCodes {
        /// A platform in `app.platforms` with no release on it: nobody can have paid there.
        case withoutReleases = "platform-without-releases"
    }
}

/// The platforms a plan declares, held against its evidence: a platform is where the app runs, and a paid era exists
/// only where a release shipped.
enum PlatformCheck {
    static func check(_ catalog: PlanCatalog) -> [Diagnostic] {
        let plan = catalog.plan
        let shipped = Set(plan.releases.map(\.platform))
        guard !shipped.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        for (index, platform) in plan.app.platforms.enumerated() where !shipped.contains(platform) {
            // A platform that runs another's binary (iPad apps on visionOS) has that platform's releases.
            if let track = catalog.trackPlatform(for: platform), track != platform { continue }
            let shippedNames = shipped.sorted().map(\.rawValue).joined(separator: ", ")
            let judged =
                plan.app.universalPurchase
                ? "A \(platform) customer whose original platform is unknown is judged by the \(shippedNames) releases, since only there could the app have been bought."
                : "A \(platform) customer is a new customer: no release of the plan was sold there."
            diagnostics.append(
                .warning(
                    DiagnosticCode(DiagnosticCode.Platforms.withoutReleases),
                    "the plan declares \(platform), but no release shipped on it: nobody can have paid for the app on \(platform). \(judged)",
                    at: .root / PlanKeys.Root.app / PlanKeys.App.platforms / index,
                    hint:
                        "Leave \(platform) out of app.platforms until a release ships on it (a project under the same bundle id that never shipped is not a release), or add the \(platform) releases that went live."
                ))
        }
        return diagnostics
    }
}
