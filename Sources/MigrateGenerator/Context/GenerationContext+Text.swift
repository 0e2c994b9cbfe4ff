import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport

// Escaping and formatting shared by every output: Swift lists, Markdown cells, CSV fields, grouped numbers.
extension GenerationContext {
    static let maximumOfferTableProducts = 24
    /// The most features the Markdown tables give a column each (`featureColumns`).
    public static let maximumFeatureColumns = 40

    /// Product ids in the plan's order.
    func productOrdered(_ ids: Set<String>) -> [String] {
        ids.compactMap { id in productPosition[id].map { ($0, id) } }.sorted { $0 < $1 }.map(\.1)
    }

    /// The most items `abbreviated` shows.
    static let abbreviationLimit = 6

    /// The first few of a list of `count` items, and how many more there are; `items` may hold only the first
    /// `abbreviationLimit`, so a list of thousands needn't be formatted to show six.
    static func abbreviated(_ items: [String], of count: Int) -> [String] {
        count <= abbreviationLimit ? items : Array(items.prefix(abbreviationLimit)) + ["and \(count - abbreviationLimit) more"]
    }

    static func cellsText(_ cells: [TemplateValue]) -> TemplateValue {
        .string(
            cells.compactMap { cell -> String? in if case .string(let mark)? = cell["mark"] { return mark } else { return nil } }.joined(
                separator: " | "))
    }

    /// Items of a multi-line Swift collection, each with the `comma` swift-format expects after it:
    /// a trailing comma on every element, except when there is only one.
    static func swiftList(_ items: [TemplateValue]) -> TemplateValue {
        .list(
            items.enumerated().map { offset, item in
                guard case .object(var members) = item else { return item }
                members["comma"] = .string(items.count == 1 ? "" : ",")
                members["isLast"] = .bool(offset == items.count - 1)
                return .object(members)
            })
    }

    /// The inside of a Swift collection literal that follows `prefix`: on one line when it fits in
    /// swift-format's 100 columns, else one element per line, with the trailing commas it wants.
    static func collectionItems(_ items: [String], prefix: String, indent: String = "    ") -> String {
        let line = items.joined(separator: ", ")
        guard prefix.count + line.count + 3 > 100, !items.isEmpty else { return line }
        let comma = items.count == 1 ? "" : ","
        return "\n" + items.map { indent + "  " + $0 + comma + "\n" }.joined() + indent
    }

    /// `Date(timeIntervalSince1970: 1_299_776_400)`: a date as generated Swift writes it, to the second
    /// (rounded down, so a boundary a second before a go-live stays before it).
    static func dateExpression(_ date: Date) -> String {
        "Date(timeIntervalSince1970: \(grouped(Int64(date.timeIntervalSince1970.rounded(.down)))))"
    }

    /// `1_299_776_400`, the grouping swift-format asks for.
    static func grouped(_ value: Int64) -> String {
        // Four digits stay whole, as swift-format leaves them.
        guard value.magnitude >= 10_000 else { return String(value) }
        return DigitGrouping.grouped(value, separator: "_")
    }

    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    static func markdownCell(_ text: String) -> String {
        let line = oneLine(text)
        guard line.utf8.contains(UInt8(ascii: "|")) else { return line }
        return line.replacingOccurrences(of: "|", with: "\\|")
    }

    static func csvField(_ text: String) -> String {
        CSVWriter.field(oneLine(text))
    }
}
