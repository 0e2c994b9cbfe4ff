/// The one digit grouper: thousands separated by a comma in messages, by a locale's separator in figures, by
/// an underscore in generated Swift.
public enum DigitGrouping {
    /// `digits` (ASCII digits, no sign) with `separator` before every third digit from the right: `1,000,000`.
    public static func grouped(_ digits: some StringProtocol, separator: String) -> String {
        var result = ""
        let count = digits.count
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (count - offset) % 3 == 0 { result += separator }
            result.append(character)
        }
        return result
    }

    /// `value` grouped, with "-" before it when it is negative.
    public static func grouped(_ value: some BinaryInteger, separator: String) -> String {
        (value < 0 ? "-" : "") + grouped(String(value.magnitude), separator: separator)
    }
}
