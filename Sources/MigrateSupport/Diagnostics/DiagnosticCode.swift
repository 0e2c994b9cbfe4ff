/// A stable, kebab-case name for a kind of problem, which `--format json` consumers, GitHub annotations and
/// tests rely on.
///
/// Codes are declared once each, as static constants beside the module that reports them
/// (`DiagnosticCode.unknownKey`), the way `Notification.Name` is: a generic type here, the domain's values there.
/// There is deliberately no string-literal initialiser, so no code is spelled at the place it is reported.
public struct DiagnosticCode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// For the declarations in each module's `*DiagnosticCodes.swift`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
