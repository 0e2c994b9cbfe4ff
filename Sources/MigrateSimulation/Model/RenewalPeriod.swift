import Foundation
import FreemiumStoreKit
import MigrateCore
import MigratePlan

/// A subscription's renewal period as the monthly model counts it: whole months between charges, or for a period
/// shorter than a month, one "period" a month with as many charges as fit in an average month.
///
/// The period's length is the layer's (`SubscriptionPeriods.lengths`, what the generated app and the App Store model
/// renew by), so the simulation has no table of its own; a period App Store Connect doesn't offer has none.
struct RenewalPeriod: Sendable, Hashable {
    var months: Int
    var chargesPerPeriod: Double

    init?(_ period: String) {
        guard let parts = SubscriptionPeriods.lengths[period]?.calendar else { return nil }
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
