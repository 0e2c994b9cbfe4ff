/// The largest inputs migrate accepts, decided once. Each is read by the code that enforces it
/// (the plan decoder, the receipt reader, the PICT parser, the sales importer, `matrix`) and listed in
/// README.md, "Limits", with the exit code of the error. Anything past a limit is refused with a
/// message that names the limit; nothing past a limit reaches arithmetic that could trap.
public enum Limits {
    /// Digits before the decimal point of a price: up to 999,999,999,999.9999 in any currency.
    /// Prices are exact ten-thousandths in an `Int64`, so this keeps every sum of a few million prices exact.
    public static let priceWholeDigits = 12
    /// The largest price, as a number (for simulation assumptions and `--sweep price.ID`).
    public static let largestPrice = 999_999_999_999.9999

    /// `paidDownloadsPerMonth`: one billion downloads a month.
    public static let downloadsPerMonth = 1e9
    /// `legacyBuyers`: ten billion people.
    public static let people = 1e10
    /// `launchMultiple`, `lastingMultiple`: ten thousand times the paid downloads.
    public static let multiple = 1e4
    /// `burstHalfLifeMonths`: a hundred years.
    public static let halfLifeMonths = 1_200.0

    /// Receipt dates in milliseconds since 1970: from 1970-01-01 to 9999-12-31T23:59:59.999Z.
    public static let receiptMilliseconds: ClosedRange<Double> = 0...253_402_300_799_999

    /// Parentheses and NOTs nested in one PICT constraint.
    public static let pictNestingDepth = 100
    /// AND, OR and IF operators in one PICT constraint.
    public static let pictOperatorsPerConstraint = 1_000

    /// A sales report's size in bytes, after decompressing a .gz (256 MiB, about two million rows).
    public static let salesReportBytes = 256 << 20

    /// Rows `matrix --exhaustive` prints, even with `--force`.
    public static let exhaustiveRows = 1_000_000

    /// 1,000,000 with separators, for messages.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result += "," }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// 1,000,000,000 or 999,999,999,999.9999, for messages.
    public static func display(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        let whole = value.rounded(.towardZero)
        var text = grouped(Int(whole))
        let fraction = abs(value - whole)
        if fraction > 0 {
            var digits = String(Int((fraction * 10_000).rounded()))
            digits = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            if !digits.isEmpty { text += "." + digits }
        }
        return text
    }
}
