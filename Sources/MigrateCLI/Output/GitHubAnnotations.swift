import MigratePlan

/// Diagnostics as GitHub Actions workflow commands, which a pull request shows on the lines they name:
/// `::error file=migration.json,line=12,col=7,title=unknown-reference::…`.
enum GitHubAnnotations {
    static func render(_ diagnostics: [Diagnostic], file: String) -> String {
        diagnostics.map { diagnostic in
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
            properties.append(("title", diagnostic.code))
            var message = diagnostic.message
            if let path = diagnostic.path, !path.description.isEmpty { message += " (at \(path))" }
            if let hint = diagnostic.hint { message += "\n" + hint }
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
