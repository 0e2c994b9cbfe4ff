import MigrateImport
import MigratePlan

/// Turns an import's merge report, build-number analysis and issues into text.
enum ImportReportRenderer {
    static func report(_ report: MergeReport, analysis: BuildNumberAnalysis?, source: String, style: Style) -> String {
        var text = ""
        // An item wider than the terminal wraps, its later lines indented under its text.
        func item(_ line: String, first: String) {
            let fits = first.count + line.count <= TerminalWidth.columns
            for (index, piece) in (fits ? [line] : TextTable.wrap(line, width: TerminalWidth.columns - 4)).enumerated() {
                text += (index == 0 ? first : "    ") + piece + "\n"
            }
        }
        func section(_ title: String, _ marker: String, _ lines: [String], colour: (String) -> String) {
            guard !lines.isEmpty else { return }
            text += style.bold(title) + "\n"
            for line in lines { item(line, first: "  " + colour(marker) + " ") }
        }
        section("Added", "+", report.added, colour: style.green)
        section("Changed", "~", report.changed.map(\.description), colour: style.yellow)
        section("Conflicts (the plan's value kept)", "!", report.conflicts, colour: style.red)
        section("Ignored", "-", report.ignored, colour: style.dim)
        section("Assumed", "?", report.assumptions, colour: style.yellow)
        if let analysis {
            text += style.bold("Versions and build numbers") + "\n"
            if analysis.findings.isEmpty { text += "  no restarts, no versions or builds going backwards, no large gaps\n" }
            for finding in analysis.findings {
                item("\(finding.platform) \(finding.kind.rawValue): \(finding.message)", first: "  ")
            }
            for verdict in analysis.verdicts where verdict.platform.originalVersionMeaning == .buildNumber {
                let restarts = analysis.findings.contains { $0.platform == verdict.platform && [.restarted, .backwards].contains($0.kind) }
                if verdict.usesBuildRule {
                    var line = "\(verdict.platform): the build rule applies: \(verdict.reason)"
                    if restarts {
                        line += "; once the first free release is marked, the restarts or backward builds above make `check` use the date rule"
                    }
                    item(line, first: "  ")
                } else {
                    item("\(verdict.platform): the date rule applies (originalPurchaseDate): \(verdict.reason)", first: "  ")
                }
            }
        }
        if text.isEmpty { text = "Nothing to import from the \(source) source.\n" }
        return text
    }
}

/// A small line diff for --dry-run: the changed middle of two texts, with a few lines of context.
enum LineDiff {
    /// The changed lines of a plan with `context` unchanged lines around each change, `+`/`-` marked.
    /// The standard library's `difference(from:)` finds the changes (Myers' algorithm, linear in the
    /// common case), so a large plan needs no quadratic table and no cap.
    static func render(old: String, new: String, style: Style, context: Int = 2) -> String {
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
        let a = lines(old)
        let b = lines(new)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in b.difference(from: a) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both: at a change, the new lines first, then the old ones they replace.
        var lines: [(mark: Character, text: String)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j < b.count, inserted.contains(j) {
                lines.append(("+", b[j]))
                j += 1
            } else if i < a.count, removed.contains(i) {
                lines.append(("-", a[i]))
                i += 1
            } else {
                lines.append((" ", a[i]))
                i += 1
                j += 1
            }
        }
        var shown = [Bool](repeating: false, count: lines.count)
        for index in lines.indices where lines[index].mark != " " {
            for near in max(0, index - context)...min(lines.count - 1, index + context) { shown[near] = true }
        }
        var text = ""
        var last = -1
        for index in lines.indices where shown[index] {
            if last >= 0 && index > last + 1 { text += style.dim("  …") + "\n" }
            let (mark, line) = lines[index]
            let marked = "\(mark) \(line)"
            text += (mark == "+" ? style.green(marked) : mark == "-" ? style.red(marked) : marked) + "\n"
            last = index
        }
        return text
    }
}
