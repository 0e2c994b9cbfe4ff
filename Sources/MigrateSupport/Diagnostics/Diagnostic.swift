/// One problem found in an input file, with enough context to fix it.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error
        case warning
        case note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    /// A stable, kebab-case identifier that tests and `--format json` consumers can rely on.
    public var code: DiagnosticCode
    public var message: String
    /// Where in the document, as a JSON path; nil for whole-file problems.
    public var path: JSONPath?
    /// Where in the file; filled in from the path when the document was parsed.
    public var location: SourceLocation?
    /// How to fix it, in one sentence.
    public var hint: String?
    /// The file, as the user named it, when the problem isn't in the one file being reported on (an import reads
    /// several: pages of a response, an Xcode project and its Info.plist, a repository's commits).
    public var file: String?
    /// Where, when no JSON path can say it: a build setting, a commit, a report's column.
    public var place: String?

    public init(
        _ severity: Severity, code: DiagnosticCode, _ message: String, at path: JSONPath? = nil,
        location: SourceLocation? = nil, hint: String? = nil, file: String? = nil, place: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.path = path
        self.location = location
        self.hint = hint
        self.file = file
        self.place = place
    }

    /// The JSON path or, failing that, the place: what a reader is pointed at before the message.
    public var placeDescription: String? {
        path?.description ?? place
    }

    public static func error(_ code: DiagnosticCode, _ message: String, at path: JSONPath? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, code: code, message, at: path, hint: hint)
    }

    public static func warning(_ code: DiagnosticCode, _ message: String, at path: JSONPath? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, code: code, message, at: path, hint: hint)
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// File order: by file, location, then path, then severity, so that output never depends on discovery order.
    public func sortedForDisplay() -> [Diagnostic] {
        sorted { lhs, rhs in
            if lhs.file != rhs.file { return (lhs.file ?? "") < (rhs.file ?? "") }
            let left = lhs.location ?? SourceLocation(line: Int.max, column: Int.max)
            let right = rhs.location ?? SourceLocation(line: Int.max, column: Int.max)
            if left != right { return left < right }
            let leftPath = lhs.placeDescription ?? ""
            let rightPath = rhs.placeDescription ?? ""
            if leftPath != rightPath { return leftPath < rightPath }
            if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
            return lhs.message < rhs.message
        }
    }

    /// Fills in source locations from the parsed document for diagnostics that carry only a path.
    public func located(in root: JSONNode?) -> [Diagnostic] {
        guard let root else { return self }
        return map { diagnostic in
            var diagnostic = diagnostic
            if diagnostic.location == nil, let path = diagnostic.path {
                diagnostic.location = path.location(in: root)
            }
            return diagnostic
        }
    }
}
