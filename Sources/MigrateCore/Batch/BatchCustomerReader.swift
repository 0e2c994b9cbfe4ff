import Foundation
import MigratePlan
import MigrateSupport

/// One value of a customer-list row: a CSV field, or a JSON Lines member.
public enum BatchValue: Sendable, Hashable {
    case text(String)
    /// A JSON number, as written (dates in milliseconds since 1970).
    case number(String)
    /// A JSON array of strings (`products`).
    case list([String])
    /// Anything else a JSON member may hold, named for messages (`an object`, `a boolean`).
    case unsupported(kind: String)
    /// JSON `null`.
    case null
}

/// A row that can't be decided: every problem found in it, each naming its column.
public struct BatchRowError: Error, Sendable, Hashable {
    public var problems: [String]
    public var message: String { problems.joined(separator: "; ") }

    public init(problems: [String]) {
        self.problems = problems
    }
}

/// Turns one row of a customer list into the customer `explain` would describe with options.
public struct BatchCustomerReader: Sendable {
    public let plan: MigrationPlan
    /// The moment trials and subscriptions are judged at, the same for every row.
    public let now: Date

    public init(plan: MigrationPlan, now: Date) {
        self.plan = plan
        self.now = now
    }

    /// The customer a row describes; `value` gives a column's value, nil when the row has none.
    public func customer(_ value: (BatchColumn) -> BatchValue?) throws(BatchRowError) -> Customer {
        var problems: [String] = []
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        customer.now = now

        func text(_ column: BatchColumn) -> String? {
            switch value(column) {
            case .text(let text): return text.isEmpty ? nil : text
            case .number(let literal): return literal
            case .null, nil: return nil
            case .list: problems.append("\(column.rawValue): expected a string, found an array")
            case .unsupported(let kind): problems.append("\(column.rawValue): expected a string, found \(kind)")
            }
            return nil
        }
        func date(_ column: BatchColumn) -> Date? {
            if case .number(let literal) = value(column) {
                guard let milliseconds = Double(literal), Limits.receiptMilliseconds.contains(milliseconds) else {
                    problems.append("\(column.rawValue): \(literal) is not a date in milliseconds since 1970")
                    return nil
                }
                return Date(timeIntervalSince1970: milliseconds / 1000)
            }
            guard let text = text(column) else { return nil }
            if let date = Timestamp.parse(text) { return date }
            if text.allSatisfy(\.isNumber), let milliseconds = Double(text), Limits.receiptMilliseconds.contains(milliseconds) {
                return Date(timeIntervalSince1970: milliseconds / 1000)
            }
            problems.append(
                "\(column.rawValue): \(Self.shown(text)) is not a date; write ISO 8601 (2021-06-01T12:00:00Z) or milliseconds since 1970, as the App Store Server API does"
            )
            return nil
        }
        func platform(_ column: BatchColumn) -> Platform? {
            guard let text = text(column) else { return nil }
            if let platform = Platform(rawValue: text) ?? Platform.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
                return platform
            }
            let names = Platform.allCases.map(\.rawValue)
            problems.append(
                "\(column.rawValue): \(Self.shown(text)) is not a platform.\(Suggestions.didYouMean(text, in: names)) Use one of: \(names.joined(separator: ", "))"
            )
            return nil
        }

        if let version = text(.originalAppVersion) {
            // Never decided by the date instead: a value that isn't a version is a garbled row (a stray quote, a
            // shifted column), and whatever the date says about it would be a guess.
            do throws(VersionError) {
                if !Version.isValid(version) { _ = try Version(version) }
                customer.originalAppVersion = version
            } catch {
                problems.append(
                    "originalAppVersion: \(Self.shown(version)) is not a bundle version (\(error.reason)); AppTransaction.originalAppVersion is a build number on iOS, such as 31, or a marketing version on macOS, such as 2.3"
                )
            }
        }
        if let bundleID = text(.bundleID), bundleID != plan.app.bundleID {
            problems.append(
                "bundleID: the row is for the app '\(Self.shown(bundleID, quoted: false))', but the plan is for '\(plan.app.bundleID)'; leave other apps' customers out of the list"
            )
        }
        customer.originalPurchaseDate = date(.originalPurchaseDate)
        customer.originalPlatform = platform(.originalPlatform)
        if let name = text(.environment) {
            if let environment = StoreEnvironment(appleName: name) {
                customer.environment = environment
            } else {
                problems.append("environment: \(Self.shown(name)) is not an App Store environment; use Production, Sandbox or Xcode")
            }
        }
        if date(.revocationDate) != nil { customer.isAppPurchaseRevoked = true }
        var entries: [String] = []
        switch value(.products) {
        case .text(let text): entries = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        case .list(let list): entries = list
        case .number(let literal): entries = [literal]
        case .unsupported(let kind): problems.append("products: expected product ids separated by spaces or an array of strings, found \(kind)")
        case .null, nil: break
        }
        for entry in entries {
            do {
                let owned = try OwnedProductSyntax.parse(entry)
                customer.purchases.removeAll { $0.productID == owned.productID }
                customer.purchases.append(owned)
            } catch {
                problems.append("products: \(error.message)")
            }
        }
        if let current = platform(.platform) {
            if plan.app.platforms.contains(current) {
                customer.platform = current
            } else {
                problems.append(
                    "platform: the app doesn't run on \(current); the plan lists \(plan.app.platforms.map(\.rawValue).joined(separator: ", "))")
            }
        } else if let original = customer.originalPlatform, plan.app.platforms.contains(original) {
            customer.platform = original
        }
        guard problems.isEmpty else { throw BatchRowError(problems: problems) }
        return customer
    }

    /// A value as messages show it: quoted, line breaks and controls escaped, cut after 60 characters.
    static func shown(_ value: String, quoted: Bool = true) -> String {
        var text = ""
        for scalar in value.unicodeScalars.prefix(60) {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text += scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        if value.unicodeScalars.count > 60 { text += "…" }
        return quoted ? "'\(text)'" : text
    }
}
