import MigrateImport
import MigratePlan

/// Turns an import's merge report, build-number analysis and issues into text.
enum ImportReportRenderer {
    static func report(_ report: MergeReport, analysis: BuildNumberAnalysis?, source: String, style: Style) -> String {
        var text = ""
        func section(_ title: String, _ marker: String, _ lines: [String], colour: (String) -> String) {
            guard !lines.isEmpty else { return }
            text += style.bold(title) + "\n"
            for line in lines { text += "  " + colour(marker) + " " + line + "\n" }
        }
        section("Added", "+", report.added, colour: style.green)
        section("Changed", "~", report.changed, colour: style.yellow)
        section("Conflicts (the plan's value kept)", "!", report.conflicts, colour: style.red)
        section("Ignored", "-", report.ignored, colour: style.dim)
        section("Assumed", "?", report.assumptions, colour: style.yellow)
        if let analysis {
            text += style.bold("Versions and build numbers") + "\n"
            if analysis.findings.isEmpty { text += "  no restarts, no versions or builds going backwards, no large gaps\n" }
            for finding in analysis.findings {
                text += "  \(finding.platform) \(finding.kind.rawValue): \(finding.message)\n"
            }
            for verdict in analysis.verdicts where verdict.platform.originalVersionMeaning == .buildNumber {
                let restarts = analysis.findings.contains { $0.platform == verdict.platform && [.restarted, .backwards].contains($0.kind) }
                if verdict.usesBuildRule {
                    var line = "  \(verdict.platform): the build rule applies: \(verdict.reason)"
                    if restarts { line += "; once the first free release is marked, the restarts or backward builds above make `check` use the date rule" }
                    text += line + "\n"
                } else {
                    text += "  \(verdict.platform): the date rule applies (originalPurchaseDate): \(verdict.reason)\n"
                }
            }
        }
        if text.isEmpty { text = "Nothing to import from the \(source) source.\n" }
        return text
    }

    /// `file:line:column: warning: place: message`, then the fix, as compilers print them.
    static func issues(_ issues: [ImportIssue], style: Style) -> String {
        var text = ""
        for issue in issues {
            var place = issue.file
            if let location = issue.location { place += ":\(location)" }
            let label: String
            switch issue.severity {
            case .error: label = style.red(style.bold("error:"))
            case .warning: label = style.yellow(style.bold("warning:"))
            case .note: label = style.bold("note:")
            }
            text += "\(style.bold(place + ":")) \(label) \(issue.place.map { "\($0): " } ?? "")\(issue.message)\n"
            if let hint = issue.hint { text += "  \(style.cyan("fix:")) \(hint)\n" }
        }
        return text
    }
}

/// A small line diff for --dry-run: the changed middle of two texts, with a few lines of context.
enum LineDiff {
    static func render(old: String, new: String, style: Style, context: Int = 2) -> String {
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
        let a = lines(old), b = lines(new)
        // Longest common subsequence on lines; plans are small enough for the quadratic table.
        let n = a.count, m = b.count
        guard n * m <= 4_000_000 else {
            return b.map { style.green("+ " + $0) }.joined(separator: "\n") + "\n"
        }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [(Character, String)] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                lines.append((" ", a[i])); i += 1; j += 1
            } else if j < m, i == n || table[i][j + 1] >= table[i + 1][j] {
                lines.append(("+", b[j])); j += 1
            } else {
                lines.append(("-", a[i])); i += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].0 != " " }
        var text = ""
        var last = -1
        for index in lines.indices where changed.contains(where: { abs($0 - index) <= context }) {
            if last >= 0 && index > last + 1 { text += style.dim("  …") + "\n" }
            let (mark, line) = lines[index]
            let shown = "\(mark) \(line)"
            text += (mark == "+" ? style.green(shown) : mark == "-" ? style.red(shown) : shown) + "\n"
            last = index
        }
        return text
    }
}
