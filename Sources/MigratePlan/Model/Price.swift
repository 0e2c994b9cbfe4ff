/// Why a string is not a price.
public struct PriceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var description: String {
        "'\(text)' is not a price; write a decimal string with a period, such as \"4.99\" or \"0\""
    }
}

/// A non-negative decimal amount of money, stored exactly as an integer number of
/// ten-thousandths, so that `"2.99"` never becomes 2.9899999.
public struct Price: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The amount in units of 1/10,000.
    public let tenThousandths: Int64

    public static let zero = Price(tenThousandths: 0)
    private static let scale: Int64 = 10_000

    public init(tenThousandths: Int64) {
        self.tenThousandths = tenThousandths
    }

    /// Parses `"4.99"`, `"0"`, `"12"` or `"0.5"`; at most four decimal places, no sign, no grouping.
    public init(_ text: String) throws(PriceError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= Limits.priceWholeDigits,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw PriceError(text: text) }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw PriceError(text: text)
            }
            fraction = Int64(digits + String(repeating: "0", count: 4 - digits.count))!
        }
        tenThousandths = Int64(whole)! * Self.scale + fraction
    }

    /// The price as a `Double`, for simulations only; never for storage.
    public var doubleValue: Double { Double(tenThousandths) / Double(Self.scale) }

    public var isZero: Bool { tenThousandths == 0 }

    /// Two decimals at least (`4.99`, `5.00`), more only when needed (`0.125`).
    public var description: String {
        let whole = tenThousandths / Self.scale
        var fraction = String(tenThousandths % Self.scale)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.count > 2 && fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
}
