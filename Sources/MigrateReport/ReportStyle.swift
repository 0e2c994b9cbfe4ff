/// The page's only style sheet, inline: system fonts, readable from 320 px up, a dark scheme, and a print
/// layout that keeps tables and the chart whole on their pages.
enum ReportStyle {
    static let css = """
        :root { --ink: #1b1b1f; --muted: #55565c; --paper: #ffffff; --rule: #d6d6dc; --band: #f1f1f4; --accent: #1f5fa8;
          --paid: #5b5b66; --free: #1f5fa8; --free-band: rgba(31, 95, 168, 0.18); --paid-band: rgba(91, 91, 102, 0.14); }
        @media (prefers-color-scheme: dark) {
          :root { --ink: #ececf1; --muted: #b4b5bd; --paper: #16161a; --rule: #3b3c44; --band: #222228; --accent: #7fb2ee;
            --paid: #b9bac4; --free: #7fb2ee; --free-band: rgba(127, 178, 238, 0.22); --paid-band: rgba(185, 186, 196, 0.14); }
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
        p, li, dd, dt { overflow-wrap: anywhere; }
        a { color: var(--accent); }
        .kicker { margin: 0; color: var(--muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; }
        .sub, .notes p, .note, footer p { color: var(--muted); font-size: 0.9rem; }
        .verdict { font-size: 1.2rem; font-weight: 600; padding: 0.75rem 1rem; background: var(--band); border-left: 4px solid var(--accent); }
        nav ol { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; margin: 1rem 0 0; list-style: none; font-size: 0.9rem; }
        dt { font-weight: 600; margin-top: 0.5rem; }
        dd { margin: 0 0 0.5rem 1rem; }
        .table { max-width: 100%; overflow-x: auto; margin: 1rem 0; }
        table { border-collapse: collapse; font-size: 0.9rem; min-width: 100%; }
        caption { text-align: left; font-weight: 600; padding: 0 0 0.4rem; }
        th, td { border-bottom: 1px solid var(--rule); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
        thead th { background: var(--band); white-space: nowrap; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tbody th { font-weight: 600; min-width: 8rem; }
        td:not(.num) { min-width: 9rem; }
        figure { margin: 1rem 0; }
        figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.4rem; }
        svg.chart { display: block; width: 100%; height: auto; max-width: 48rem; }
        svg.chart text { fill: var(--ink); font-size: 18px; font-family: inherit; }
        svg.chart .axis { fill: var(--muted); font-size: 16px; }
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
        @media (max-width: 40rem) {
          .stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          .stack table, .stack tbody, .stack tr, .stack tbody th, .stack td { display: block; min-width: 0; width: 100%; }
          .stack tr { border-bottom: 1px solid var(--rule); padding: 0.5rem 0; }
          .stack tbody th, .stack td { border: 0; padding: 0.1rem 0; text-align: left; white-space: normal; }
          .stack td::before { content: attr(data-label) ": "; color: var(--muted); }
          .stack caption { display: block; width: 100%; }
        }
        @media print {
          :root { --ink: #000000; --muted: #333333; --paper: #ffffff; --rule: #999999; --band: #eeeeee; }
          body { font-size: 10.5pt; }
          header, main, footer { max-width: none; padding: 0; }
          nav { display: none; }
          h2 { break-after: avoid; page-break-after: avoid; }
          h3, caption { break-after: avoid; }
          figure, tr, .verdict { break-inside: avoid; page-break-inside: avoid; }
          .table { overflow: visible; }
          table { font-size: 8.5pt; }
          a { color: inherit; text-decoration: none; }
        }

        """
}
