/// A Swift expression laid out as swift-format keeps it within its 100-column limit: a call or an array literal
/// on one line when it fits, else broken after its opening bracket with its arguments packed onto
/// lines two spaces deeper, an argument that itself spans lines starting a line of its own.
///
/// The context makes the generated code's text here so that a template only places it: a plan's
/// values (a long product id, a version string) decide where lines break, and a template can't measure.
indirect enum SwiftLayout: Sendable, Hashable {
    /// Text that never breaks: `.iOS`, `rule: .buildNumber`; or text already laid out on several lines
    /// (a multi-line string literal, its lines indented where they belong), which starts a line.
    case text(String)
    /// `prefix(arguments)`, where `prefix` holds any label and the callee: `purchase: OriginalPurchase`.
    case call(String, [SwiftLayout])
    /// `prefix[elements]`: `features: `, then the literal. Broken, it puts one element per line with a
    /// trailing comma, as swift-format does for collections.
    case array(String, [SwiftLayout])

    /// The longest line: swift-format's `lineLength` of 100 reports a line of 100 characters as too long.
    static let width = 99

    /// The expression's text starting at column `indent` and followed by `trailing` (a comma, closing
    /// brackets): the first line without its indentation, the others with theirs.
    func rendered(at indent: Int, trailing: String = "") -> String {
        let flat = self.flat
        if Self.fits(flat, from: indent, before: trailing) { return flat + trailing }
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .text(let text):
            return text + trailing
        case .call(let prefix, let arguments):
            return prefix + "(\n" + inner + Self.packed(arguments, at: indent + 2, closing: ")" + trailing)
        case .array(let prefix, let elements):
            let comma = elements.count == 1 ? "" : ","
            let lines = elements.map { inner + $0.rendered(at: indent + 2, trailing: comma) + "\n" }
            return prefix + "[\n" + lines.joined() + String(repeating: " ", count: indent) + "]" + trailing
        }
    }

    /// The expression on one line.
    var flat: String {
        switch self {
        case .text(let text): text
        case .call(let prefix, let arguments): prefix + "(" + arguments.map(\.flat).joined(separator: ", ") + ")"
        case .array(let prefix, let elements): prefix + "[" + elements.map(\.flat).joined(separator: ", ") + "]"
        }
    }

    /// Whether `text` and then `trailing` fit on one line from column `column`. Read in bytes first: the flat form of
    /// an array of thousands of offers is hundreds of kilobytes, and counting its characters to learn it doesn't fit
    /// (or searching it for a line break through Foundation) took most of laying out a large plan's tests.
    static func fits(_ text: String, from column: Int, before trailing: String = "") -> Bool {
        let room = width - column - trailing.count
        // A character takes one to four bytes: past four bytes a column, it can't fit.
        guard text.utf8.count <= 4 * max(room, 0), !text.utf8.contains(UInt8(ascii: "\n")) else { return false }
        return text.count <= room
    }

    /// Arguments from column `indent` on: as many on a line as fit, each followed by a comma and the
    /// last by `closing`; one that spans lines starts and ends its own. The first line carries no
    /// indentation (the caller has written it).
    static func packed(_ arguments: [SwiftLayout], at indent: Int, closing: String) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for (offset, argument) in arguments.enumerated() {
            let trailing = offset == arguments.count - 1 ? closing : ","
            let flat = argument.flat + trailing
            if !line.isEmpty && fits(flat, from: indent + line.count + 1) {
                line += " " + flat
                continue
            }
            if !line.isEmpty { lines.append(line) }
            let text = argument.rendered(at: indent, trailing: trailing)
            if text.utf8.contains(UInt8(ascii: "\n")) {
                lines.append(text)
                line = ""
            } else {
                line = text
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n" + pad)
    }
}
