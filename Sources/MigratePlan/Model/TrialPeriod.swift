import Foundation

/// How long a free trial lasts: an ISO 8601 duration of whole years, months, weeks and days (`P14D`,
/// `P1M`, `P1W`). App Review lets a paid app offer "a free time-based trial period" as a non-consumable
/// in-app purchase at the free price tier named like "14-day Trial" (App Review Guidelines, 3.1.1); the app
/// grants its features for this long after the trial's purchase date.
public struct TrialPeriod: Sendable, Hashable, CustomStringConvertible {
    public var years: Int
    public var months: Int
    public var weeks: Int
    public var days: Int

    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
    }

    /// Why a text is not a trial period, in words for a message.
    public struct ParseError: Error, Sendable, Hashable {
        public var message: String
    }

    /// What a length is read for: the limit and the words of its messages.
    public enum Use: Sendable, Hashable {
        /// A free trial (`products[].trial`): at most `Limits.trialDays`.
        case trial
        /// How long one purchase of a non-renewing subscription lasts (`products[].duration`): at most
        /// `Limits.durationYears`, so a "lifetime" pass sold as one can be written (`P10Y`, `P100Y`).
        case purchase

        /// The most days it may span.
        public var longestDays: Int {
            switch self {
            case .trial: Limits.trialDays
            case .purchase: Limits.durationYears * 366
            }
        }

        /// "the 366 days a trial may last", "the 100 years one purchase of a non-renewing subscription may last".
        var limitText: String {
            switch self {
            case .trial: "the \(Limits.trialDays) days a trial may last"
            case .purchase: "the \(Limits.durationYears) years one purchase of a non-renewing subscription may last (P\(Limits.durationYears)Y)"
            }
        }

        var what: String {
            switch self {
            case .trial: "a trial period"
            case .purchase: "how long a purchase lasts"
            }
        }
    }

    /// Reads `P14D`, `P1M2W`, `P1Y`: time parts (`PT12H`) are refused, since App Store dates are compared per day.
    /// `use` sets the longest length accepted and what messages call it.
    public init(_ text: String, for use: Use = .trial) throws(ParseError) {
        var rest = Substring(text)
        guard rest.first == "P" else {
            throw ParseError(message: "'\(text)' is not an ISO 8601 duration: it must start with 'P', as in \"P14D\" (14 days)")
        }
        rest = rest.dropFirst()
        guard !rest.isEmpty else { throw ParseError(message: "'\(text)' has no length: write a number and a unit, as in \"P14D\"") }
        var parts = TrialPeriod()
        var seen = ""
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard !digits.isEmpty, let unit = rest.first else {
                throw ParseError(message: "'\(text)' is not a duration of whole years, months, weeks and days, such as \"P14D\" or \"P1M\"")
            }
            rest = rest.dropFirst()
            guard digits.count <= 5, let value = Int(digits) else {
                throw ParseError(message: "'\(text)' is longer than \(use.limitText)")
            }
            let order = "YMWD"
            guard let position = order.firstIndex(of: unit), !seen.contains(unit),
                seen.last.map({ order.firstIndex(of: $0)! < position }) ?? true
            else {
                let hint =
                    unit == "T" ? "hours and minutes are not used (it is counted in days)" : "units are Y, M, W and D, in that order, each once"
                throw ParseError(message: "'\(text)' is not \(use.what): \(hint)")
            }
            seen.append(unit)
            switch unit {
            case "Y": parts.years = value
            case "M": parts.months = value
            case "W": parts.weeks = value
            default: parts.days = value
            }
        }
        guard parts.longestDays > 0 else { throw ParseError(message: "'\(text)' lasts no time at all") }
        guard parts.longestDays <= use.longestDays else {
            throw ParseError(message: "'\(text)' is longer than \(use.limitText)")
        }
        self = parts
    }

    /// The most days it can span (a month as 31 days, a year as 366), for the limit.
    public var longestDays: Int { years * 366 + months * 31 + weeks * 7 + days }

    /// The moment a trial bought at `start` ends, counted on the Gregorian calendar in UTC; nil only when
    /// the calendar can't represent it.
    public func end(after start: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(byAdding: DateComponents(year: years, month: months, day: weeks * 7 + days), to: start)
    }

    /// `P14D`, canonical: the parts that aren't zero, in order.
    public var description: String {
        var text = "P"
        for (value, unit) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value > 0 { text += "\(value)\(unit)" }
        return text
    }

    /// "14 days", "1 month and 2 weeks", for messages.
    public var spoken: String {
        let words = [(years, "year"), (months, "month"), (weeks, "week"), (days, "day")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return words.count > 1 ? words.dropLast().joined(separator: ", ") + " and " + words.last! : words.joined()
    }
}
