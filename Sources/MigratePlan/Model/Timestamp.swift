import Foundation

/// Strict ISO 8601 date-times for the plan, always written back in UTC with a `Z`.
public enum Timestamp {
    /// How long after a calendar day's midnight UTC that day has ended everywhere on Earth: the last time zone
    /// (UTC−12) reaches the next midnight 36 hours later. Two readings of one day in different time zones are
    /// at most this far apart.
    public static let dayEndsEverywhere: TimeInterval = 36 * 3600

    /// The moment a day given without a time (`2021-06-01`, midnight UTC) has ended everywhere. A go-live known
    /// only by its day is read as this moment, so that no purchase made on that day, in any time zone, counts as
    /// made after it: that errs towards the customers who paid.
    public static func endOfDayEverywhere(_ midnight: Date) -> Date { midnight.addingTimeInterval(dayEndsEverywhere) }

    /// A go-live as written: a date-time, or a date alone (`2021-06-01`) read as the moment that day has ended
    /// everywhere on Earth (`2021-06-02T12:00:00Z`), so that nobody who paid on that day, wherever they were,
    /// counts as having bought after it. The one rule for a go-live without a time: a release's `released` in
    /// the plan, and every go-live `init` reads (the manual's "Dates" on the plan format page).
    public static func parseGoLive(_ text: String) -> Date? {
        guard let date = parse(text) else { return nil }
        return isDateAlone(text) ? endOfDayEverywhere(date) : date
    }

    /// Whether `text` is a calendar date without a time, such as `2021-06-01`.
    public static func isDateAlone(_ text: String) -> Bool {
        text.utf8.count == 10 && parse(text) != nil
    }

    /// A go-live as `parseGoLive` reads it back: the date alone when the moment is the end of a day everywhere
    /// (12:00 UTC the next day), else the date-time.
    public static func formatGoLive(_ date: Date) -> String {
        let midnight = date.addingTimeInterval(-dayEndsEverywhere)
        return format(midnight).hasSuffix("T00:00:00Z") ? formatDate(midnight) : format(date)
    }

    /// Parses `2012-02-08T17:00:00Z`, `2012-02-08T17:00:00.250+01:00` or a date alone
    /// (`2012-02-08`, read as midnight UTC; a go-live reads it with `parseGoLive`). Returns nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0

        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }

        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var nanoseconds = 0
        var offsetSeconds = 0
        if index < bytes.count {
            guard expect("T") || expect("t") || expect(" ") else { return nil }
            guard let h = number(2), expect(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(":") {
                guard let s = number(2) else { return nil }
                second = s
                if expect(".") {
                    let start = index
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                    guard index > start else { return nil }
                    let digits = String(decoding: bytes[start..<min(index, start + 9)], as: UTF8.self)
                    nanoseconds = Int(digits + String(repeating: "0", count: 9 - digits.count))!
                }
            }
            if expect("Z") || expect("z") {
                offsetSeconds = 0
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let offsetHours = number(2) else { return nil }
                _ = expect(":")
                guard let offsetMinutes = number(2) else { return nil }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            } else {
                // A time without a zone would be read in the machine's zone: refuse it.
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds)
        return Date(timeIntervalSince1970: seconds + Double(nanoseconds) / 1e9)
    }

    /// `2012-02-08T17:00:00Z`; fractional seconds only when present.
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let whole = Int(interval.rounded(.down))
        let fraction = interval - Double(whole)
        var days = whole / 86_400
        var secondsOfDay = whole % 86_400
        if secondsOfDay < 0 {
            secondsOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilFromDays(days)
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        let milliseconds = Int((fraction * 1000).rounded())
        if milliseconds > 0 && milliseconds < 1000 { text += "." + pad(milliseconds, 3) }
        return text + "Z"
    }

    /// `2012-02-08`, the UTC calendar date.
    public static func formatDate(_ date: Date) -> String {
        String(format(date).prefix(10))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar,
    // with no dependence on the machine's calendar or time zone.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
