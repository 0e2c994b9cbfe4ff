/// A stable, kebab-case name for a kind of problem, which `--format json` consumers, GitHub annotations and
/// tests rely on.
///
/// Codes are declared once each, as cases of an enum beside the module that reports them, with a static constant
/// for each (`DiagnosticCode.unknownKey`), the way `Notification.Name` is: a generic type here, the domain's values
/// there. The enums list every code, so `--format json` consumers and tests can enumerate them.
/// There is deliberately no string-literal initialiser, so no code is spelled at the place it is reported.
public struct DiagnosticCode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A module's code, declared as a case of its `DiagnosticCodes` enum in its `*DiagnosticCodes.swift`.
    public init(_ code: some DiagnosticCodes) {
        self.rawValue = code.rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A module's diagnostic codes, one case each (raw value: the kebab-case code), so the list of them is complete.
public protocol DiagnosticCodes: RawRepresentable<String>, CaseIterable, Sendable {}
