import MigrateSupport

/// How `FigureText` writes amounts for a reader: the locale's separators and the currency's symbol and minor digits.
///
/// A small fixed table rather than Foundation's `NumberFormatter`, whose output (ICU's data) differs between Linux and macOS
/// and between releases: the same inputs must give the same bytes everywhere. The default is `simulate`'s own style: en-US
/// grouping and no currency symbol (amounts "in the plan's currency").
public struct FigureStyle: Sendable, Hashable {
    /// A locale `FigureText` can write for: its separators and where a currency's symbol goes.
    public struct Locale: Sendable, Hashable {
        /// The BCP 47 tag, such as `de-DE`.
        public var tag: String
        public var grouping: String
        public var decimal: String
        /// True when the symbol follows the amount after a no-break space (`1.234,50 €`); else it leads it (`€1,234.50`).
        public var symbolAfter: Bool
    }

    /// A currency `FigureText` can write: its ISO 4217 code, symbol and minor digits (JPY has none).
    public struct Currency: Sendable, Hashable {
        public var code: String
        public var symbol: String
        public var minorDigits: Int
    }

    /// The locales supported, in the order messages and the manual list them.
    public static let locales: [Locale] = [
        Locale(tag: "en-US", grouping: ",", decimal: ".", symbolAfter: false),
        Locale(tag: "en-GB", grouping: ",", decimal: ".", symbolAfter: false),
        Locale(tag: "de-DE", grouping: ".", decimal: ",", symbolAfter: true),
        // French groups digits with a narrow no-break space (U+202F), as CLDR writes it.
        Locale(tag: "fr-FR", grouping: "\u{202F}", decimal: ",", symbolAfter: true),
        Locale(tag: "ja-JP", grouping: ",", decimal: ".", symbolAfter: false),
    ]

    /// The currencies supported: one symbol each, whatever the locale, so a page reads the same everywhere.
    public static let currencies: [Currency] = [
        Currency(code: "USD", symbol: "$", minorDigits: 2), Currency(code: "EUR", symbol: "€", minorDigits: 2),
        Currency(code: "GBP", symbol: "£", minorDigits: 2), Currency(code: "JPY", symbol: "¥", minorDigits: 0),
        Currency(code: "CHF", symbol: "CHF", minorDigits: 2), Currency(code: "CAD", symbol: "CA$", minorDigits: 2),
        Currency(code: "AUD", symbol: "A$", minorDigits: 2),
    ]

    public static let plain = FigureStyle(locale: locales[0], currency: nil)

    public var locale: Locale
    /// Nil: amounts are plain numbers in the plan's currency, as `simulate` prints them.
    public var currency: Currency?

    public init(locale: Locale, currency: Currency?) {
        self.locale = locale
        self.currency = currency
    }

    /// Why a tag or code can't be used: it isn't in the tables above.
    public struct Unsupported: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The style for a locale tag and a currency code (either nil for the default: en-US, no symbol).
    public init(localeTag: String?, currencyCode: String?) throws(Unsupported) {
        var locale = Self.locales[0]
        if let localeTag {
            guard let found = Self.locales.first(where: { $0.tag == localeTag }) else {
                throw Unsupported(
                    description: "'\(localeTag)' is not a supported locale; use one of \(Self.locales.map(\.tag).joined(separator: ", "))")
            }
            locale = found
        }
        var currency: Currency?
        if let currencyCode {
            guard let found = Self.currencies.first(where: { $0.code == currencyCode }) else {
                throw Unsupported(
                    description:
                        "'\(currencyCode)' is not a supported currency; use one of \(Self.currencies.map(\.code).joined(separator: ", ")) (ISO 4217)")
            }
            currency = found
        }
        self.init(locale: locale, currency: currency)
    }

    /// `digits` (ASCII, no sign) grouped by thousands with the locale's separator.
    func grouped(_ digits: Substring) -> String { DigitGrouping.grouped(digits, separator: locale.grouping) }

    /// `value` rounded to `fraction` digits, grouped, with the currency's symbol where the locale puts it and "−" before it all.
    func amount(_ value: Double, fraction: Int) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1.0
        for _ in 0..<fraction { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let text = String(format: "%.\(fraction)f", abs(rounded))
        let parts = text.split(separator: ".", maxSplits: 1)
        var number = grouped(parts[0])
        if parts.count > 1 { number += locale.decimal + parts[1] }
        let negative = rounded < 0 ? "−" : ""
        guard let currency else { return negative + number }
        if locale.symbolAfter { return negative + number + "\u{00A0}" + currency.symbol }
        let letters = currency.symbol.last?.isLetter == true
        return negative + currency.symbol + (letters ? "\u{00A0}" : "") + number
    }
}
