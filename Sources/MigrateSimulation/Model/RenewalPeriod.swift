import Foundation
import MigrateCore
import MigratePlan

/// A subscription's renewal period as the monthly model counts it: whole months between charges, or for a period
/// shorter than a month, one "period" a month with as many charges as fit in an average month.
///
/// The period is read by the plan's one ISO 8601 reader (`TrialPeriod`) into the calendar components the layer's
/// rules add (`TrialPeriod.dateComponents`, which `CatalogRules` uses for trials and passes), so the simulation
/// has no table of its own.
struct RenewalPeriod: Sendable, Hashable {
    var months: Int
    var chargesPerPeriod: Double

    init?(_ period: String) {
        guard let parsed = try? TrialPeriod(period, for: .purchase) else { return nil }
        let parts = parsed.dateComponents
        let whole = (parts.year ?? 0) * 12 + (parts.month ?? 0)
        let days = parts.day ?? 0
        if whole > 0 {
            // A period of months and days (none the App Store sells) is counted by its months.
            months = whole
            chargesPerPeriod = 1
        } else if days > 0 {
            months = 1
            chargesPerPeriod = InstallBase.daysPerMonth / Double(days)
        } else {
            return nil
        }
    }
}
