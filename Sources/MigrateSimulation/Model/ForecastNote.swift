import Foundation
import MigratePlan

/// What the output says about how a forecast was set up, typed: the renderers word it.
public enum ForecastNote: Sendable, Hashable {
    /// No season is known, so every month counts alike: the switch's month is compared with the paid app's
    /// average month.
    case flatSeason(switchDate: Date?)
    /// The months weigh as `season` says, from the switch's calendar month on.
    case season(Season, switchDate: Date?)
    /// The plan sets no commission and the switch is on or after the Small Business Program began, so its 15% is
    /// assumed (enrolment needed; proceeds up to $1M in the previous calendar year).
    case smallBusinessAssumed(switchDate: Date)
}
