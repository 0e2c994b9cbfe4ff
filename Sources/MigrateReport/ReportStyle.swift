/// The page's only style sheet, inline: system fonts, readable from 320 px up with no table wider than its box (text
/// wraps, and a table whose columns would not fit becomes cards of labelled lines), a dark scheme, and a print layout
/// that keeps tables and the chart whole on their pages.
enum ReportStyle {
    /// The widths (rem) below which a `.stacked` table becomes cards: one rule each.
    static let stackWidths = [40, 48, 64]

    /// The rules that make a table's rows cards of labelled lines, for `selector` (`.cards`, `.stack-40`).
    static func cards(_ selector: String, indent: String) -> String {
        """
        \(indent)\(selector) thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        \(indent)\(selector) table, \(selector) tbody, \(selector) tr, \(selector) tbody th, \(selector) td { display: block; min-width: 0; width: 100%; }
        \(indent)\(selector) tr { border-bottom: 1px solid var(--rule); padding: 0.5rem 0; }
        \(indent)\(selector) tbody th, \(selector) td { border: 0; padding: 0.1rem 0; text-align: left; white-space: normal; }
        \(indent)\(selector) td::before { content: attr(data-label) ": "; color: var(--muted); }
        \(indent)\(selector) tbody th[data-label]::before { content: attr(data-label) " "; }
        \(indent)\(selector) caption { display: block; width: 100%; }

        """
    }

    static let css =
        """
        :root { --ink: #1b1b1f; --muted: #55565c; --paper: #ffffff; --rule: #d6d6dc; --band: #f1f1f4; --accent: #1f5fa8;
          --paid: #5b5b66; --free: #1f5fa8; --free-band: rgba(31, 95, 168, 0.18); --paid-band: rgba(91, 91, 102, 0.14);
          --harm: #a1261b; --harm-band: #fbeceb; }
        @media (prefers-color-scheme: dark) {
          :root { --ink: #ececf1; --muted: #b4b5bd; --paper: #16161a; --rule: #3b3c44; --band: #222228; --accent: #7fb2ee;
            --paid: #b9bac4; --free: #7fb2ee; --free-band: rgba(127, 178, 238, 0.22); --paid-band: rgba(185, 186, 196, 0.14);
            --harm: #ff8f85; --harm-band: #3a1f1d; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--paper); color: var(--ink); line-height: 1.5;
          font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
        header { padding-top: 1.5rem; }
        h1 { font-size: 1.75rem; line-height: 1.2; margin: 0.25rem 0 0.5rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.35rem; margin: 2.25rem 0 0.75rem; padding-top: 0.75rem; border-top: 1px solid var(--rule); }
        h3 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
        p, li, dd, dt, td, th, caption { overflow-wrap: anywhere; }
        a { color: var(--accent); }
        .kicker { margin: 0; color: var(--muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; }
        .sub, .notes p, .note, footer p { color: var(--muted); font-size: 0.9rem; }
        .verdict { font-size: 1.2rem; font-weight: 600; padding: 0.75rem 1rem; background: var(--band); border-left: 4px solid var(--accent); }
        .harm { margin: 1rem 0; padding: 0.5rem 1rem; background: var(--harm-band); border-left: 4px solid var(--harm); }
        .harm h3 { margin: 0.25rem 0; color: var(--harm); }
        .harm ul { margin: 0.25rem 0; padding-left: 1.25rem; }
        .scope { font-weight: 600; }
        nav ol { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; margin: 1rem 0 0; list-style: none; font-size: 0.9rem; }
        dt { font-weight: 600; margin-top: 0.5rem; }
        dd { margin: 0 0 0.5rem 1rem; }
        .table { max-width: 100%; margin: 1rem 0; }
        table { border-collapse: collapse; font-size: 0.9rem; width: 100%; }
        caption { text-align: left; font-weight: 600; padding: 0 0 0.4rem; }
        th, td { border-bottom: 1px solid var(--rule); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
        thead th { background: var(--band); }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tbody th { font-weight: 600; }
        \(cards(".cards", indent: ""))
        .cards tbody { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 21rem), 1fr)); gap: 0.75rem; }
        .cards tr { border: 1px solid var(--rule); border-radius: 6px; padding: 0.5rem 0.75rem; }
        .cards tbody th { font-size: 1rem; padding-bottom: 0.3rem; }
        figure { margin: 1rem 0; }
        figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.4rem; }
        svg.chart { display: block; width: 100%; height: auto; max-width: 48rem; }
        svg.chart text { fill: var(--ink); font-size: 19px; font-family: inherit; }
        svg.chart .axis { fill: var(--muted); font-size: 18px; }
        svg.chart .grid { stroke: var(--rule); stroke-width: 1; }
        svg.chart .line { fill: none; stroke-width: 3; }
        svg.chart .line.paid { stroke: var(--paid); stroke-dasharray: 8 5; }
        svg.chart .line.free { stroke: var(--free); }
        svg.chart .band.free { fill: var(--free-band); stroke: none; }
        svg.chart .band.paid { fill: var(--paid-band); stroke: none; }
        svg.chart .break-even { stroke: var(--accent); stroke-width: 1.5; stroke-dasharray: 2 4; }
        footer { margin: 3rem auto 2rem; border-top: 1px solid var(--rule); }
        @media (max-width: 30rem) {
          body { font-size: 15px; }
          h1 { font-size: 1.45rem; }
          .verdict { font-size: 1.05rem; }
          th, td { padding: 0.25rem 0.4rem; }
        }
        \(stackWidths.map { "@media (max-width: \($0)rem) {\n" + cards(".stack-\($0)", indent: "  ") + "}" }.joined(separator: "\n"))
        @media print {
          :root { --ink: #000000; --muted: #333333; --paper: #ffffff; --rule: #999999; --band: #eeeeee; --harm: #000000; --harm-band: #eeeeee; }
          body { font-size: 10.5pt; }
          header, main, footer { max-width: none; padding: 0; }
          nav { display: none; }
          h2 { break-after: avoid; page-break-after: avoid; }
          h3, caption { break-after: avoid; }
          figure, tr, .verdict, .harm { break-inside: avoid; page-break-inside: avoid; }
          table { font-size: 8.5pt; }
          a { color: inherit; text-decoration: none; }
        }

        """
}
