import FreemiumStoreKit

/// Why a string is not a bundle version.
public struct VersionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public var description: String { "'\(text)' is not a bundle version: \(reason)" }
}

/// A `CFBundleVersion` or `CFBundleShortVersionString`: period-separated non-negative integers,
/// compared numerically component by component with missing components read as zero.
///
/// So `1 == 1.0 == 1.0.0`, `1.10 > 1.9` and `10 > 9`: the comparisons that Apple's own sample
/// (`originalAppVersion < "2"` on Strings) gets wrong. Which text is a version, and how versions order, are the
/// StoreKit layer's (`BundleVersion`): the plan reads them as the generated app does. This type adds only why a text
/// is not one, for the plan's messages.
public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version as the layer reads and orders it.
    public let bundleVersion: BundleVersion
    /// The components as written, so `1.0` keeps both.
    public var components: [UInt64] { bundleVersion.components }
    /// The text as written.
    public var text: String { bundleVersion.description }

    /// Apple documents one to three components; more are accepted but reported.
    public static let documentedComponentLimit = 3

    public init(_ text: String) throws(VersionError) {
        if let version = BundleVersion(text) {
            bundleVersion = version
            return
        }
        func fail(_ reason: String) -> VersionError { VersionError(text: text, reason: reason) }
        if text.isEmpty { throw fail("it is empty") }
        if text.contains(where: { $0.isWhitespace }) { throw fail("it contains white space; remove it") }
        if text.hasPrefix("-") { throw fail("it is negative; versions are non-negative integers") }
        if text.hasPrefix(".") || text.hasSuffix(".") { throw fail("it starts or ends with a period") }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            if part.isEmpty { throw fail("it has an empty component between two periods") }
            guard part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw fail("component '\(part)' is not a non-negative integer (letters such as 'b' or 'rc' are not allowed)")
            }
            guard UInt64(part) != nil else { throw fail("component '\(part)' is too large") }
        }
        // Every reason the layer refuses a text is named above; one it refuses for a reason not named here is still refused.
        throw fail("it is not period-separated non-negative integers")
    }

    /// Whether `text` is a version, without making one: digits in components separated by single periods (what
    /// `init(_:)` accepts), checked byte by byte, as a list of a million rows checks each.
    public static func isValid(_ text: String) -> Bool {
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if digits == 0 { return false }
                digits = 0
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                // 19 digits always fit in 64 bits; longer ones may not.
                if digits > 19 { return (try? Version(text)) != nil }
            } else {
                return false
            }
        }
        return digits > 0
    }

    /// A version from known-good components, e.g. `Version(2, 0)`.
    public init(_ components: UInt64...) {
        precondition(!components.isEmpty, "a version has at least one component")
        bundleVersion = BundleVersion(components: components, description: components.map(String.init).joined(separator: "."))
    }

    /// True when the version has more components than Apple documents.
    public var hasExtraComponents: Bool { components.count > Self.documentedComponentLimit }

    /// The shortest text that compares equal: trailing zero components removed (`1.0.0` → `1`).
    public var canonical: String {
        var end = components.count
        while end > 1 && components[end - 1] == 0 { end -= 1 }
        return components[0..<end].map(String.init).joined(separator: ".")
    }

    public var description: String { text }

    public static func == (lhs: Version, rhs: Version) -> Bool { lhs.bundleVersion == rhs.bundleVersion }

    public func hash(into hasher: inout Hasher) { hasher.combine(bundleVersion) }

    public static func < (lhs: Version, rhs: Version) -> Bool { lhs.bundleVersion < rhs.bundleVersion }
}
