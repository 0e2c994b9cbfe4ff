import Foundation
import MigratePlan
import MigrateSupport

/// What became of one license read from the exports.
public enum LicenseVerdict: Sendable, Hashable {
    /// It counts: its holder is owed a code per seat.
    case holder
    /// Refunded, charged back or revoked: the reason.
    case refunded(String)
    /// The same order again (the same store, order id, buyer and product, in overlapping exports), or the same
    /// buyer's second license of the same edition: where the first is.
    case duplicate(of: String, sameOrder: Bool)

    /// The reason a skipped license gives.
    public var reason: String? {
        switch self {
        case .holder: nil
        case .refunded(let why): why
        case .duplicate(let first, true): "the same order as \(first) (the same order id, buyer and product), read once"
        case .duplicate(let first, false): "a duplicate license: the same e-mail address already holds this edition (\(first))"
        }
    }
}

/// The licenses of every export read together, each decided: a holder, refunded, or a duplicate. Input order
/// decides which of two duplicates counts (the first not refunded), so the same files always give the same answer.
public struct LicenseHolders: Sendable {
    public var exports: [LicenseExport]
    public var decided: [(license: License, verdict: LicenseVerdict)]
    /// Orders whose id another buyer's order also has (two shops that both number from #1001): read as different
    /// orders, and each pair named so the user sees it. The later place first, then the earlier.
    public var sharedOrderIDs: [(place: String, other: String, order: String)] = []

    public init(_ exports: [LicenseExport]) {
        self.exports = exports
        var byOrder: [String: String] = [:]
        var byOrderID: [String: (place: String, email: String)] = [:]
        var byHolder: [String: String] = [:]
        var decided: [(License, LicenseVerdict)] = []
        var shared: [(String, String, String)] = []
        for license in exports.flatMap(\.licenses) {
            // An order is the store's order id, its buyer and its product: an order listed twice (two exports that
            // overlap, a line item repeated) counts once, refunded or not. The id alone is no order: every shop
            // numbers from #1001.
            let email = license.email.lowercased()
            let orderKey = "\(license.legacyKey)|\(email)|\(license.label)"
            if let first = byOrder[orderKey] {
                decided.append((license, .duplicate(of: first, sameOrder: true)))
                continue
            }
            byOrder[orderKey] = license.place
            if let other = byOrderID[license.legacyKey], other.email != email {
                shared.append((license.place, other.place, license.order))
            } else if byOrderID[license.legacyKey] == nil {
                byOrderID[license.legacyKey] = (license.place, email)
            }
            if let refund = license.refund {
                decided.append((license, .refunded(refund)))
                continue
            }
            let holderKey = "\(license.email.lowercased())|\(license.label)"
            if let first = byHolder[holderKey] {
                decided.append((license, .duplicate(of: first, sameOrder: false)))
                continue
            }
            byHolder[holderKey] = license.place
            decided.append((license, .holder))
        }
        self.decided = decided
        sharedOrderIDs = shared
    }

    /// The licenses that count, in input order.
    public var holders: [License] { decided.filter { $0.verdict == .holder }.map(\.license) }

    /// Rows read (after headers), and how many of them are each kind.
    public var rowsRead: Int { exports.map(\.rowsRead).reduce(0, +) }
    /// Every line of every export, accounted for: a holder, refunded or a duplicate (decided), skipped, blank, header.
    public var tally: LineTally { exports.map(\.tally).reduce(LineTally(), +) }
    public var skippedRows: [SkippedLicenseRow] { exports.flatMap(\.skipped) }
    /// Rows that couldn't be read as licenses, whose buyers may be owed codes: the run fails until they are fixed.
    public var unreadableRows: [SkippedLicenseRow] { skippedRows.filter(\.isUnreadable) }
    public var refundedCount: Int { decided.filter { if case .refunded = $0.verdict { true } else { false } }.count }
    public var duplicateCount: Int { decided.filter { if case .duplicate = $0.verdict { true } else { false } }.count }

    /// The plan's direct-sale channel after these exports: editions found by their labels keep their id, name, tier
    /// and legacy product, and take the counts and dates of these exports; labels no edition has become new editions.
    /// Editions no export mentions are kept as they were.
    public func merged(into existing: DirectSales?) -> (sales: DirectSales, added: [String], updated: [String]) {
        var sales = existing ?? DirectSales()
        sales.stores = Array(Set(sales.stores + exports.map(\.store.rawValue))).sorted()
        var added: [String] = []
        var updated: [String] = []
        var labels: [String] = []
        for (license, _) in decided where !labels.contains(license.label) { labels.append(license.label) }
        var counted: [String: (holders: Int, seats: Int, refunded: Int, from: Date?, until: Date?)] = [:]
        for (license, verdict) in decided {
            var entry = counted[license.label] ?? (0, 0, 0, nil, nil)
            switch verdict {
            case .holder:
                entry.holders += 1
                entry.seats += license.seats
            case .refunded: entry.refunded += 1
            case .duplicate: break
            }
            entry.from = min(entry.from ?? license.purchased, license.purchased)
            entry.until = max(entry.until ?? license.purchased, license.purchased)
            counted[license.label] = entry
        }
        var touched = Set<String>()
        for label in labels {
            let counts = counted[label]!
            if let index = sales.editions.firstIndex(where: { $0.sources.contains(label) }) {
                guard !touched.contains(sales.editions[index].id) else {
                    // A second label of the same edition: add its counts.
                    sales.editions[index].holders += counts.holders
                    sales.editions[index].seats += counts.seats
                    sales.editions[index].refunded += counts.refunded
                    sales.editions[index].soldFrom = min(sales.editions[index].soldFrom ?? counts.from!, counts.from!)
                    sales.editions[index].soldUntil = max(sales.editions[index].soldUntil ?? counts.until!, counts.until!)
                    continue
                }
                touched.insert(sales.editions[index].id)
                sales.editions[index].holders = counts.holders
                sales.editions[index].seats = counts.seats
                sales.editions[index].refunded = counts.refunded
                sales.editions[index].soldFrom = counts.from
                sales.editions[index].soldUntil = counts.until
                updated.append(sales.editions[index].id)
            } else {
                var id = Self.identifier(label)
                var suffix = 2
                while sales.editions.contains(where: { $0.id == id }) {
                    id = Self.identifier(label) + "-\(suffix)"
                    suffix += 1
                }
                sales.editions.append(
                    DirectEdition(
                        id: id, name: label, sources: [label], soldFrom: counts.from, soldUntil: counts.until, holders: counts.holders,
                        seats: counts.seats, refunded: counts.refunded))
                touched.insert(id)
                added.append(id)
            }
        }
        return (sales, added, updated)
    }

    /// `Tally Pro (Family)` → `tally-pro-family`: a stable id from a label.
    static func identifier(_ label: String) -> String {
        var id = ""
        for scalar in label.lowercased().unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty && !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return id.isEmpty ? "edition" : id
    }
}
