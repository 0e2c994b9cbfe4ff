/// The few pieces of HTML the report is made of. Every text from a plan, a list or a report goes
/// through `escape`, so a product named `<script>` is shown, never run.
enum HTML {
    /// Text and attribute values: `&`, `<`, `>`, `"` and `'` become entities.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A section with its heading, which names it for assistive technology.
    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n<h2 id=\"\(id)-title\">\(escape(title))</h2>\n\(body)</section>\n"
    }

    static func paragraph(_ text: String, class name: String? = nil) -> String {
        "<p\(name.map { " class=\"\($0)\"" } ?? "")>\(escape(text))</p>\n"
    }

    /// A table with a caption and column headers; the first cell of each row heads its row. Wide tables
    /// scroll inside their own box, so the page never does. `numeric` columns are right-aligned.
    ///
    /// `stacked`: on a phone each row becomes a block of labelled lines instead of a table that scrolls sideways.
    static func table(caption: String, header: [String], rows: [[String]], numeric: Set<Int> = [], stacked: Bool = false) -> String {
        let kind = stacked ? "table stack" : "table"
        var out = "<div class=\"\(kind)\" role=\"region\" aria-label=\"\(escape(caption))\" tabindex=\"0\">\n<table>\n"
        out += "<caption>\(escape(caption))</caption>\n<thead><tr>"
        for (index, name) in header.enumerated() {
            out += "<th scope=\"col\"\(numeric.contains(index) ? " class=\"num\"" : "")>\(escape(name))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                let align = numeric.contains(index) ? " class=\"num\"" : ""
                let label = stacked && index < header.count ? " data-label=\"\(escape(header[index]))\"" : ""
                out += index == 0 ? "<th scope=\"row\"\(align)>\(escape(cell))</th>" : "<td\(align)\(label)>\(escape(cell))</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</div>\n"
    }

    /// A definition list: each term with its explanation.
    static func definitions(_ items: [(term: String, meaning: String)]) -> String {
        "<dl>\n" + items.map { "<dt>\(escape($0.term))</dt><dd>\(escape($0.meaning))</dd>\n" }.joined() + "</dl>\n"
    }

    static func list(_ items: [String]) -> String {
        "<ul>\n" + items.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
    }
}
