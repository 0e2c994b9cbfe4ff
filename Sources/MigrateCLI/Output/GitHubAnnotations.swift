import MigratePlan
import MigrateSupport

/// Diagnostics as GitHub Actions workflow commands, which a pull request shows on the lines they name:
/// `::error file=migration.json,line=12,col=7,title=unknown-reference::…`.
///
/// Repeated diagnostics are grouped as in the text output: one annotation for the first, whose message
/// says how many more and where. GitHub shows only 10 error and 10 warning annotations of a step, so
/// a thousand alike would hide every other problem.
enum GitHubAnnotations {
    static func render(_ diagnostics: [Diagnostic], file: String) -> String {
        DiagnosticGroup.grouping(diagnostics).map { group in
            let diagnostic = group.first
            let command: String
            switch diagnostic.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .note: command = "notice"
            }
            var properties = [("file", file)]
            if let location = diagnostic.location {
                properties += [("line", String(location.line)), ("col", String(location.column))]
            }
            properties.append(("title", diagnostic.code.rawValue))
            var message = diagnostic.message
            if let path = diagnostic.path, !path.description.isEmpty { message += " (at \(path))" }
            if let hint = diagnostic.hint { message += "\n" + hint }
            if let summary = group.summary { message += "\n" + summary + " (migrate check --format json lists each)" }
            let rendered = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
            return "::\(command) \(rendered)::\(escapeData(message))\n"
        }.joined()
    }

    /// GitHub's escaping for a command's message.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for a property value, which also may not hold `:` or `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
