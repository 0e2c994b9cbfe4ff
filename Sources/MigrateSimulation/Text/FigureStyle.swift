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
        /// What follows a percentage's number: `%`, or a no-break space and `%` (`6,5 %`).
        public var percentSign: String
        /// A calendar date: `dateOrder` places year, month and day (`y`, `m`, `d`) with `dateSeparator` between them.
        public var dateOrder: String
        public var dateSeparator: String

        /// `2011-11-01` as this locale writes it: `11/01/2011`, `01.11.2011`.
        public func date(year: Int, month: Int, day: Int) -> String {
            func pad(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return dateOrder.map { part in
                switch part {
                case "y": pad(year, 4)
                case "m": pad(month, 2)
                default: pad(day, 2)
                }
            }.joined(separator: dateSeparator)
        }
    }

    /// A currency `FigureText` can write: its ISO 4217 code, symbol and minor digits (JPY has none).
    public struct Currency: Sendable, Hashable {
        public var code: String
        public var symbol: String
        public var minorDigits: Int
    }

    /// The locales supported, in the order messages and the manual list them.
    public static let locales: [Locale] = [
        Locale(tag: "en-US", grouping: ",", decimal: ".", symbolAfter: false, percentSign: "%", dateOrder: "mdy", dateSeparator: "/"),
        Locale(tag: "en-GB", grouping: ",", decimal: ".", symbolAfter: false, percentSign: "%", dateOrder: "dmy", dateSeparator: "/"),
        Locale(tag: "de-DE", grouping: ".", decimal: ",", symbolAfter: true, percentSign: "\u{00A0}%", dateOrder: "dmy", dateSeparator: "."),
        // French groups digits with a narrow no-break space (U+202F), as CLDR writes it, and before "%" too.
        Locale(tag: "fr-FR", grouping: "\u{202F}", decimal: ",", symbolAfter: true, percentSign: "\u{202F}%", dateOrder: "dmy", dateSeparator: "/"),
        Locale(tag: "ja-JP", grouping: ",", decimal: ".", symbolAfter: false, percentSign: "%", dateOrder: "ymd", dateSeparator: "/"),
    ]

    /// The currencies supported: one symbol each, whatever the locale, so a page reads the same everywhere.
    public static let currencies: [Currency] = [
        Currency(code: "USD", symbol: "$", minorDigits: 2), Currency(code: "EUR", symbol: "€", minorDigits: 2),
        Currency(code: "GBP", symbol: "£", minorDigits: 2), Currency(code: "JPY", symbol: "¥", minorDigits: 0),
        Currency(code: "CHF", symbol: "CHF", minorDigits: 2), Currency(code: "CAD", symbol: "CA$", minorDigits: 2),
        Currency(code: "AUD", symbol: "A$", minorDigits: 2),
    ]

    public static let plain = FigureStyle(locale: locales[0], currency: nil)

    /// The plan's currency when no one has named it: ISO 4217's "no currency" code and the generic currency sign, so an
    /// amount on a page still says it is money, in whatever the plan's prices are in.
    public static let unnamedCurrency = Currency(code: "XXX", symbol: "¤", minorDigits: 2)

    public var locale: Locale
    /// Nil: amounts are plain numbers in the plan's currency, as `simulate` prints them.
    public var currency: Currency?
    /// True for a page a person reads (the report): every figure, not only amounts and counts, is written for the locale,
    /// grouped and with its decimal sign, and dates as the locale writes them. False for `simulate`'s text, whose ratios
    /// (`1683.5`), percentages and ISO dates stay as they are.
    public var localizesEverything: Bool

    public init(locale: Locale, currency: Currency?, localizesEverything: Bool = false) {
        self.locale = locale
        self.currency = currency
        self.localizesEverything = localizesEverything
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

    /// This style for a page: every figure and date written for the locale.
    public var forPage: FigureStyle {
        var style = self
        style.localizesEverything = true
        return style
    }

    /// `text`, a number written with "." as its decimal sign and no grouping (`1683.5`, `-0.02`), with the locale's
    /// grouping and decimal sign when every figure is localized.
    public func localized(_ text: String) -> String {
        guard localizesEverything else { return text }
        var digits = Substring(text)
        var sign = ""
        if let first = digits.first, first == "-" || first == "−" {
            sign = "−"
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber) else { return text }
        var number = grouped(whole)
        if parts.count > 1 { number += locale.decimal + parts[1] }
        return sign + number
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
