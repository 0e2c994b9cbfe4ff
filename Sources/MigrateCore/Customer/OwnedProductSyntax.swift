import Foundation
import MigratePlan
import MigrateSupport

/// The words a product entry uses for the states of a transaction: `PRODUCT[@DATE][:STATE…]`, as
/// `migrate explain --owns` and the `products` column of `explain --batch` take them.
public enum OwnedProductSyntax {
    /// The states an entry may name after `:`.
    public static let states = ["familyShared", "revoked", "expired", "unverified", "purchased"]

    /// Why an entry can't be read; `message` names the entry and says what is expected.
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
    }

    /// Reads `pro.unlock`, `pro.unlock:revoked`, `trial.pass@2026-11-01T10:00:00Z` or
    /// `pro.unlock:familyShared:expired`. Messages quote the entry as `shownAs` (such as `--owns ENTRY`).
    public static func parse(_ entry: String, shownAs: String? = nil) throws(Failure) -> OwnedProduct {
        // Most entries are a bare product id.
        if !entry.isEmpty && !entry.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: ":") }) {
            return OwnedProduct(productID: entry)
        }
        let shown = shownAs ?? entry
        var parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var purchaseDate: Date?
        if let at = entry.firstIndex(of: "@") {
            // The date has colons of its own: take the longest run of parts after '@' that reads as one.
            let id = String(entry[..<at])
            let rest = entry[entry.index(after: at)...].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard let count = (1...max(1, rest.count)).reversed().first(where: { Timestamp.parse(rest.prefix($0).joined(separator: ":")) != nil })
            else {
                throw Failure(
                    message: "The date in '\(shown)' is invalid. Expected an ISO 8601 date or date-time, such as PRODUCT@2026-11-01T10:00:00Z.")
            }
            purchaseDate = Timestamp.parse(rest.prefix(count).joined(separator: ":"))
            parts = [id] + rest.dropFirst(count)
        }
        guard let id = parts.first, !id.isEmpty else {
            throw Failure(message: "The entry '\(shown)' is invalid. Expected PRODUCT, PRODUCT@DATE or PRODUCT:STATE.")
        }
        var owned = OwnedProduct(productID: id, purchaseDate: purchaseDate)
        for state in parts.dropFirst() {
            switch state {
            case "familyShared": owned.ownership = .familyShared
            case "revoked": owned.isRevoked = true
            case "expired": owned.isExpired = true
            case "unverified": owned.isVerified = false
            case "purchased": owned.ownership = .purchased
            default:
                throw Failure(
                    message:
                        "The state '\(state)' is invalid in '\(shown)'.\(Suggestions.didYouMean(state, in: states)) Use one of: \(states.joined(separator: ", "))."
                )
            }
        }
        return owned
    }
}
