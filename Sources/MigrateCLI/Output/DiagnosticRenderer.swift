import Foundation
import MigratePlan
import MigrateSupport

/// Prints diagnostics the way compilers do: `file:line:column: error: path: message`,
/// the source line with a caret, and the fix. The one renderer for a plan's, a receipt's and an import's
/// problems: a diagnostic that names its own `file` is printed with that name (and without a source line,
/// which only the file being reported on has).
struct DiagnosticRenderer {
    /// The file the diagnostics without a `file` of their own are about; nil when every one names its file.
    var file: InputFile?
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

    /// The window of a line of any length: `window(_:column:width:)` on the line itself when it is short;
    /// on a long one (a minified plan, a 50 MB string) only the bytes around the column are decoded, counting
    /// columns in Unicode scalars as the parser does, so quoting it costs one pass over its bytes.
    static func window(_ bytes: ArraySlice<UInt8>, column: Int, width: Int = 100) -> (text: String, caret: Int) {
        guard bytes.count > Self.longLine else { return window(String(decoding: bytes, as: UTF8.self), column: column, width: width) }
        // Byte offsets where each scalar starts, up to the window's end.
        var starts: [Int] = []
        let wanted = max(column - 1, 0) + width
        for index in bytes.indices where bytes[index] & 0xC0 != 0x80 {
            starts.append(index)
            if starts.count > wanted + 1 { break }
        }
        let scalars = starts.count
        let caret = min(max(column - 1, 0), scalars)
        let first = max(0, min(caret - width / 2, scalars - width))
        let last = min(scalars, first + width)
        let from = first < starts.count ? starts[first] : bytes.endIndex
        let to = last < starts.count ? starts[last] : bytes.endIndex
        let prefix = first > 0 ? "…" : ""
        let suffix = to < bytes.endIndex ? "…" : ""
        return (prefix + String(decoding: bytes[from..<to], as: UTF8.self) + suffix, caret - first + prefix.count)
    }

    /// Lines longer than this many bytes are quoted through the byte window.
    static let longLine = 4_096

    /// Repeated diagnostics are grouped (`DiagnosticGroup`): the first in full, then one line for the rest.
    func render(_ diagnostics: [Diagnostic]) -> String {
        let lines = diagnostics.contains { $0.location != nil && $0.file == nil } ? file?.lineRanges ?? [] : []
        var text = ""
        for group in DiagnosticGroup.grouping(diagnostics.sortedForDisplay()) {
            let diagnostic = group.first
            var place = diagnostic.file ?? file?.displayPath ?? "input"
            if let location = diagnostic.location { place += ":\(location.line):\(location.column)" }
            let label: String
            switch diagnostic.severity {
            case .error: label = style.red(style.bold("error:"))
            case .warning: label = style.yellow(style.bold("warning:"))
            case .note: label = style.bold("note:")
            }
            let path = diagnostic.placeDescription.map { "\($0): " } ?? ""
            text += "\(style.bold(place + ":")) \(label) \(path)\(diagnostic.message)\n"
            if let file, diagnostic.file == nil, let location = diagnostic.location, location.line >= 1, location.line <= lines.count {
                let number = String(location.line)
                let gutter = String(repeating: " ", count: number.count)
                // The quoted line fits the terminal with its gutter and the ellipses where it was cut.
                let width = TerminalWidth.columns - " \(number) | ".count - 2
                let (window, caretColumn) = Self.window(file.bytes[lines[location.line - 1]], column: location.column, width: width)
                let shown = window.replacingOccurrences(of: "\t", with: " ")
                text += style.dim(" \(number) | ") + shown + "\n"
                text += style.dim(" \(gutter) | ") + String(repeating: " ", count: caretColumn) + style.green("^") + "\n"
            }
            // The first line stays whole, however long: editors and CI read the message from it. What follows is
            // for a person, so it wraps at the terminal's width.
            if let hint = diagnostic.hint {
                for (index, line) in TextTable.wrap(hint, width: TerminalWidth.columns - 7).enumerated() {
                    text += (index == 0 ? "  \(style.cyan("fix:")) " : "       ") + line + "\n"
                }
            }
            if let summary = group.summary {
                for (index, line) in TextTable.wrap(summary + " (--format json lists each)", width: TerminalWidth.columns - 4).enumerated() {
                    text += (index == 0 ? "  " : "    ") + style.dim(line) + "\n"
                }
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
            ("code", .string(code.rawValue)),
            ("message", .string(message)),
            ("file", file.map { .string($0) }),
            ("path", path.map { .string($0.description) }),
            ("place", place.map { .string($0) }),
            ("line", location.map { .integer($0.line) }),
            ("column", location.map { .integer($0.column) }),
            ("hint", hint.map { .string($0) }),
        ])
    }
}
