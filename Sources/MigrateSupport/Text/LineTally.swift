/// How every physical line of one input was accounted for: each line read is exactly one of these, so the parts
/// add up to `lines`, and a summary that prints them can't hide a customer inside a "row".
///
/// Every reader of rows (customer lists, license exports, offer-code files, sales reports) keeps one, and every
/// command that reads rows prints it with `sentence(records:)`.
public struct LineTally: Sendable, Hashable {
    /// Physical lines read, as the reader counted them.
    public var lines = 0
    /// Header lines (0 or 1).
    public var header = 0
    /// Empty lines, and rows whose every field is empty (a spreadsheet's `,,,,`).
    public var blank = 0
    /// Records turned into what the reader exists for (a customer decided, a license, a code, a counted sale).
    public var decided = 0
    /// Records that can't be read: each named with its line and reason.
    public var skipped = 0
    /// Records read whole but not counted, each with its line and reason: a duplicate of another, a totals row.
    public var refused = 0
    /// Records that belong to something else (another app's sales in a vendor-wide report): counted apart.
    public var setAside = 0

    public init() {}

    /// The lines the parts account for.
    public var accounted: Int { header + blank + decided + skipped + refused + setAside }

    /// Whether the parts add up to the lines read.
    public var balances: Bool { accounted == lines }

    /// `100,001 lines: 1 header, 99,998 customers decided, 1 skipped, 2 blank`: the lines and the nonzero parts,
    /// `records` naming what a decided record is (`("customer", "customers")`).
    /// `detail` follows the decided part in parentheses (`(2 production, 1 sandbox)`).
    public func sentence(records: (one: String, many: String), decidedVerb: String = "decided", detail: String? = nil) -> String {
        func count(_ value: Int, _ one: String, _ many: String) -> String {
            "\(DigitGrouping.grouped(value, separator: ",")) \(value == 1 ? one : many)"
        }
        var parts: [String] = []
        if header > 0 { parts.append(count(header, "header", "headers")) }
        parts.append(count(decided, records.one, records.many) + " " + decidedVerb + (detail.map { " (\($0))" } ?? ""))
        if skipped > 0 { parts.append("\(DigitGrouping.grouped(skipped, separator: ",")) skipped") }
        if refused > 0 { parts.append("\(DigitGrouping.grouped(refused, separator: ",")) not counted") }
        if setAside > 0 { parts.append("\(DigitGrouping.grouped(setAside, separator: ",")) set aside") }
        if blank > 0 { parts.append("\(DigitGrouping.grouped(blank, separator: ",")) blank") }
        return count(lines, "line", "lines") + ": " + parts.joined(separator: ", ")
    }

    /// Adds another input's tally (several files of one kind read together).
    public static func + (left: LineTally, right: LineTally) -> LineTally {
        var sum = left
        sum.lines += right.lines
        sum.header += right.header
        sum.blank += right.blank
        sum.decided += right.decided
        sum.skipped += right.skipped
        sum.refused += right.refused
        sum.setAside += right.setAside
        return sum
    }
}
