import MigrateSupport

/// Text on the page, escaped as it is built. A literal or a `String` interpolated into one is escaped (`HTML.escape`);
/// a name from a plan, a list or a report is interpolated as `\(name: text)`, which also isolates it (`<bdi>`), so a
/// name written right to left can't reorder the page's own words around it; another `Markup` is kept as it is.
struct Markup: ExpressibleByStringInterpolation, Hashable, Sendable {
    /// The HTML, every text in it escaped.
    private(set) var html: String

    init(_ text: String) { html = HTML.escape(text) }

    /// HTML made here (a tag, an entity): never text read from a file.
    init(html: String) { self.html = html }

    init(stringLiteral value: String) { html = HTML.escape(value) }

    init(stringInterpolation: StringInterpolation) { html = stringInterpolation.html }

    struct StringInterpolation: StringInterpolationProtocol {
        var html = ""

        init(literalCapacity: Int, interpolationCount: Int) { html.reserveCapacity(literalCapacity + 16 * interpolationCount) }

        mutating func appendLiteral(_ literal: String) { html += HTML.escape(literal) }
        mutating func appendInterpolation(_ text: String) { html += HTML.escape(text) }
        mutating func appendInterpolation(_ number: Int) { html += String(number) }
        mutating func appendInterpolation(_ markup: Markup) { html += markup.html }
        /// A name, isolated.
        mutating func appendInterpolation(name: String) { html += HTML.name(name) }
        /// Names, each isolated, joined with ", ".
        mutating func appendInterpolation(names: [String]) { html += names.map(HTML.name).joined(separator: ", ") }
    }

    var isEmpty: Bool { html.isEmpty }

    static func + (lhs: Markup, rhs: Markup) -> Markup { Markup(html: lhs.html + rhs.html) }
    static func += (lhs: inout Markup, rhs: Markup) { lhs.html += rhs.html }
}

extension Array where Element == Markup {
    func joined(separator: Markup) -> Markup { Markup(html: map(\.html).joined(separator: separator.html)) }
}

/// The few pieces of HTML the report is made of. Every text from a plan, a list or a report goes
/// through `escape`, so a product named `<script>` is shown, never run, and a control or bidirectional formatting
/// character in it is shown as `\u{202E}` (`TextHazards`), never obeyed.
enum HTML {
    /// Text and attribute values: `&`, `<`, `>`, `"` and `'` become entities, and every control character (but newline
    /// and tab) and bidirectional formatting character is shown as `TextHazards.visible` writes it.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where TextHazards.isHazard(scalar): out += TextHazards.visible(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A name, escaped and isolated from the text around it: its direction is its own (`<bdi>`, direction from its
    /// first strong character), so a name in Hebrew or Arabic is shown as written and the sentence keeps its order.
    static func name(_ text: String) -> String { "<bdi>\(escape(text))</bdi>" }

    /// A section with its heading, which names it for assistive technology.
    static func section(_ id: String, _ title: Markup, _ body: String) -> String {
        "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n<h2 id=\"\(id)-title\">\(title.html)</h2>\n\(body)</section>\n"
    }

    static func paragraph(_ text: Markup, class name: String? = nil) -> String {
        "<p\(name.map { " class=\"\($0)\"" } ?? "")>\(text.html)</p>\n"
    }

    static func heading(_ text: Markup) -> String { "<h3>\(text.html)</h3>\n" }

    /// How a table fits its box: `wraps` lets its text wrap within the page's width; `stacked` makes each row a card of
    /// labelled lines below `stackBelow` (in rem), where its columns would not fit; `cards` always.
    enum Layout: Sendable, Hashable {
        case wraps
        case stacked(below: Int)
        case cards
    }

    /// A table with a caption and column headers; the first cell of each row heads its row. `numeric` columns are
    /// right-aligned. No table scrolls sideways: its text wraps, or its rows become cards where it would not fit.
    static func table(
        caption: Markup, header: [String], rows: [[Markup]], numeric: Set<Int> = [], layout: Layout = .stacked(below: 40)
    ) -> String {
        let kind: String
        switch layout {
        case .wraps: kind = "table"
        case .stacked(let below): kind = "table stack-\(below)"
        case .cards: kind = "table cards"
        }
        let labelled = layout != .wraps
        var out = "<div class=\"\(kind)\">\n<table>\n"
        out += "<caption>\(caption.html)</caption>\n<thead><tr>"
        for (index, name) in header.enumerated() {
            out += "<th scope=\"col\"\(numeric.contains(index) ? " class=\"num\"" : "")>\(escape(name))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                let align = numeric.contains(index) ? " class=\"num\"" : ""
                let label = labelled && index < header.count ? " data-label=\"\(escape(header[index]))\"" : ""
                // A numeric row heading (a month) keeps its label on a card: "month 3".
                let heading = numeric.contains(0) ? label : ""
                out += index == 0 ? "<th scope=\"row\"\(align)\(heading)>\(cell.html)</th>" : "<td\(align)\(label)>\(cell.html)</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</div>\n"
    }

    /// A table whose cells hold no names: each cell escaped.
    static func table(caption: Markup, header: [String], plain rows: [[String]], numeric: Set<Int> = [], layout: Layout = .stacked(below: 40))
        -> String
    {
        table(caption: caption, header: header, rows: rows.map { $0.map { Markup($0) } }, numeric: numeric, layout: layout)
    }

    /// A definition list: each term with its explanation.
    static func definitions(_ items: [(term: Markup, meaning: Markup)]) -> String {
        "<dl>\n" + items.map { "<dt>\($0.term.html)</dt><dd>\($0.meaning.html)</dd>\n" }.joined() + "</dl>\n"
    }

    static func list(_ items: [Markup], class name: String? = nil) -> String {
        "<ul\(name.map { " class=\"\($0)\"" } ?? "")>\n" + items.map { "<li>\($0.html)</li>\n" }.joined() + "</ul>\n"
    }
}
