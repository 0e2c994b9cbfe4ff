import Foundation
import MigratePlan

/// Prints diagnostics the way compilers do: `file:line:column: error: path: message`,
/// the source line with a caret, and the fix.
struct DiagnosticRenderer {
    var file: InputFile
    var style: Style

    /// At most `width` characters of a long line, around the column, with ellipses where it was cut.
    static func window(_ line: String, column: Int, width: Int = 100) -> (text: String, caret: Int) {
        let characters = Array(line)
        let caret = min(max(column - 1, 0), characters.count)
        guard characters.count > width else { return (line, caret) }
        let start = max(0, min(caret - width / 2, characters.count - width))
        let end = min(characters.count, start + width)
        let prefix = start > 0 ? "…" : ""
        let suffix = end < characters.count ? "…" : ""
        return (prefix + String(characters[start..<end]) + suffix, caret - start + prefix.count)
    }

    /// Repeated diagnostics are grouped (`DiagnosticGroup`): the first in full, then one line for the rest.
    func render(_ diagnostics: [Diagnostic]) -> String {
        let lines = file.lines
        var text = ""
        for group in DiagnosticGroup.grouping(diagnostics.sortedForDisplay()) {
            let diagnostic = group.first
            var place = file.displayPath
            if let location = diagnostic.location { place += ":\(location.line):\(location.column)" }
            let label: String
            switch diagnostic.severity {
            case .error: label = style.red(style.bold("error:"))
            case .warning: label = style.yellow(style.bold("warning:"))
            case .note: label = style.bold("note:")
            }
            let path = diagnostic.path.map { "\($0): " } ?? ""
            text += "\(style.bold(place + ":")) \(label) \(path)\(diagnostic.message)\n"
            if let location = diagnostic.location, location.line >= 1, location.line <= lines.count {
                let source = lines[location.line - 1].replacingOccurrences(of: "\t", with: " ")
                let number = String(location.line)
                let gutter = String(repeating: " ", count: number.count)
                let (shown, caretColumn) = Self.window(String(source), column: location.column)
                text += style.dim(" \(number) | ") + shown + "\n"
                text += style.dim(" \(gutter) | ") + String(repeating: " ", count: caretColumn) + style.green("^") + "\n"
            }
            if let hint = diagnostic.hint {
                text += "  \(style.cyan("fix:")) \(hint)\n"
            }
            if let summary = group.summary {
                text += "  " + style.dim(summary + " (--format json lists each)") + "\n"
            }
        }
        return text
    }
}

extension Diagnostic {
    /// The diagnostic as JSON for `--format json`.
    func json() -> JSONValue {
        .members([
            ("severity", .string(severity.rawValue)),
            ("code", .string(code)),
            ("message", .string(message)),
            ("path", path.map { .string($0.description) }),
            ("line", location.map { .integer($0.line) }),
            ("column", location.map { .integer($0.column) }),
            ("hint", hint.map { .string($0) }),
        ])
    }
}
