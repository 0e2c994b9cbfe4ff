import MigrateSupport

/// The largest inputs migrate accepts, decided once. Each is read by the code that enforces it
/// (the plan decoder, the receipt reader, the PICT parser, the sales importer, `matrix`) and listed in
/// the manual's "Limits and exit codes" page, with the exit code of the error. Anything past a limit is
/// refused with a message that names the limit; nothing past a limit reaches arithmetic that could trap.
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
    /// The largest price elasticity: at 100 a 1% higher price already costs 63% of the buyers.
    public static let priceElasticity = 100.0

    /// Receipt dates in milliseconds since 1970, from 0000-01-01 (Xcode's StoreKit testing reports an
    /// original purchase on 0001-01-01, which Foundation can print as 0000-12-30) to 9999-12-31.
    public static let receiptMilliseconds: ClosedRange<Double> = -62_167_219_200_000...253_402_300_799_999

    /// Parentheses and NOTs nested in one PICT constraint.
    public static let pictNestingDepth = 100
    /// Parameters in one PICT model: 400 take about 3 s, 1,000 nearly a minute (the work grows with the cube).
    public static let pictParameters = 500
    /// AND, OR and IF operators in one PICT constraint.
    public static let pictOperatorsPerConstraint = 1_000

    /// A name in a plan (the app's, a product's, a feature's, a tier's), in characters (Unicode
    /// scalars). The App Store allows 30 for an app's name and 35 for a product's display name; this
    /// leaves room for descriptive names while a 50 MB name is refused before anything copies it.
    public static let planNameCharacters = 200
    /// An id in a plan (a bundle id, a product id, a feature, group or offer id, a month, a version),
    /// in characters: the App Store's bundle ids are at most 155 and product ids far shorter.
    public static let planIdentifierCharacters = 255

    /// Levels of bundles in bundles (`products[].contains`): a bundle of products is one level, a bundle
    /// that contains such a bundle two. Every product's contents are worked out to this depth, so a deeper
    /// chain is refused by `check` instead of costing the square of its length everywhere.
    public static let bundleDepth = 10

    /// The longest free trial a product may give, in days (`products[].trial`): a year.
    public static let trialDays = 366

    /// The longest a purchase of a non-renewing subscription may last, in years (`products[].duration`): long
    /// enough for a "lifetime" pass sold as one (`P100Y`), short enough for every calendar to add.
    public static let durationYears = 100

    /// A sales report's size in bytes, after decompressing a .gz (256 MiB, about two million rows).
    public static let salesReportBytes = 256 << 20
    /// A sales report's line in bytes (a real one has a few hundred): the one piece of a report held whole.
    public static let salesReportLineBytes = 1 << 20
    /// Warnings listed for one sales report; past them, skipped rows are counted in one last warning.
    public static let salesReportWarnings = 1_000
    /// Units on one sales-report row (a billion): with at most a report's rows, unit totals stay far inside
    /// 64 bits, and a corrupt or hostile `Units` value is a warning naming the line, not an overflow.
    public static let salesUnitsPerRow = 1_000_000_000

    /// One record of a customer list for `explain --batch` (a CSV record or a JSON Lines line), in bytes:
    /// a real one has a few hundred; past this the row is skipped, so a broken quote can't hold the file.
    public static let customerListRecordBytes = 1 << 20
    /// Columns in a customer list's header.
    public static let customerListColumns = 1_000
    /// An exchange rate (`--rate EUR=1.08`: one unit of a currency in the plan's): the widest real pair is about
    /// 1:500,000, so anything outside a millionth to a million is a typo, and past it totals would print as nonsense.
    public static let exchangeRate: ClosedRange<Double> = 0.000_001...1_000_000
    /// One App Store Server API response in a folder given to `explain --batch`, in bytes (a transaction
    /// history page holds at most 20 signed transactions, a few kilobytes each).
    public static let customerResponseBytes = 16 << 20

    /// Dictionaries and lists nested in a project.pbxproj (Xcode writes about six levels): a deeper file is
    /// refused at its place rather than recursing until the stack runs out.
    public static let propertyListDepth = 512

    /// The largest plan whose generated tests include the pairwise rows of `migrate matrix`: 60 products
    /// and 200 releases (with any tiers), where `migrate-bench scale` measures `matrix` and `generate` under
    /// 2 s each. A larger plan keeps the boundary and per-product cases, and TEST_MATRIX.md says so.
    public static let pairwiseTestProducts = 60
    public static let pairwiseTestReleases = 200

    /// Rows `matrix --exhaustive` prints, even with `--force`.
    public static let exhaustiveRows = 1_000_000
    /// Rows × factors `matrix --exhaustive` holds (20 million cells, about 160 MB), so wide models stop sooner.
    public static let exhaustiveCells = 20_000_000

    /// The rows `matrix --exhaustive --force` may print for a model with `factors` factors.
    public static func exhaustiveRows(factors: Int) -> Int {
        min(exhaustiveRows, max(1, exhaustiveCells / max(1, factors)))
    }

    /// 1,000,000 with separators, for messages.
    public static func grouped(_ value: Int) -> String { DigitGrouping.grouped(value, separator: ",") }

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

/// Finds the first byte that is not valid UTF-8, so a plan in another encoding is an error at a place
/// rather than text silently replaced with U+FFFD.
public enum UTF8Check {
    public static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let smallest: UInt32
            switch byte {
            case 0xC2...0xDF: (length, smallest) = (2, 0x80)
            case 0xE0...0xEF: (length, smallest) = (3, 0x800)
            case 0xF0...0xF4: (length, smallest) = (4, 0x10000)
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            var scalar = UInt32(byte) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < smallest || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
            index += length
        }
        return nil
    }

    /// Line and column (in characters) of a byte offset.
    public static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(line: line, column: column)
    }
}
