import Foundation
import MigratePlan
import MigrateSupport

/// Pairs license holders with one-time-use offer codes: each code used once, each holder given one code per seat for
/// its edition's legacy product, what the ledger already gave kept, so a rerun changes nothing and a run with more
/// codes or more holders only adds. Pure: the same plan, licenses, codes and ledger always give the same result.
public struct CodeAssignment: Sendable {
    /// One line of the mail merge: a code for one seat of one license.
    public struct Letter: Sendable, Hashable {
        public var license: License
        public var seat: Int
        public var edition: DirectEdition
        public var product: String
        public var code: String
        public var expires: Date?
        /// The code was in the ledger before this run.
        public var alreadyAssigned: Bool
    }

    /// A holder who got nothing, and why (no edition, no legacy product, no code left).
    public struct Unserved: Sendable, Hashable {
        public var license: License
        public var reason: String
    }

    public var letters: [Letter] = []
    public var unserved: [Unserved] = []
    public var ledger: CodeLedger
    /// Seats still without a code, per product.
    public var missing: [String: Int] = [:]
    /// Valid codes nobody has yet, per product.
    public var left: [String: Int] = [:]
    /// Codes dropped: already expired at `now`, or listed twice.
    public var expired: [OfferCode] = []
    public var repeated: [(code: OfferCode, first: String)] = []
    /// Codes given (now or before) that expire within `expiringWithin` of `now`.
    public var expiringSoon = 0
    /// Ledger entries for licenses that no longer count (refunded since, or gone from the exports): their codes stay spent.
    public var orphaned: [CodeLedger.Assignment] = []

    /// How close to expiry a given code is worth a warning: 30 days.
    public static let expiringWithin: TimeInterval = 30 * 86_400

    /// Assigns codes. `now` decides which codes have expired.
    public init(plan sales: DirectSales, holders: [License], codes: [OfferCode], ledger given: CodeLedger, now: Date) {
        let ledger = given.renamingLegacyKeys(for: holders)
        self.ledger = ledger
        var expiryByCode: [String: Date] = [:]
        var firstPlace: [String: String] = [:]
        var available: [String: [OfferCode]] = [:]
        let spent = Set(ledger.assignments.map(\.code))
        for code in codes {
            if let first = firstPlace[code.code] {
                repeated.append((code, first))
                continue
            }
            firstPlace[code.code] = code.place
            if let expires = code.expires { expiryByCode[code.code] = expires }
            if spent.contains(code.code) { continue }
            if let expires = code.expires, expires <= now {
                expired.append(code)
                continue
            }
            available[code.product, default: []].append(code)
        }
        var given: [String: CodeLedger.Assignment] = [:]
        for assignment in ledger.assignments { given["\(assignment.license)#\(assignment.seat)|\(assignment.product)"] = assignment }
        var used = Set<String>()
        var newAssignments: [CodeLedger.Assignment] = []
        // Oldest buyers first: when codes run short, those who waited longest are served.
        let ordered = holders.sorted { ($0.purchased, $0.store.rawValue, $0.order) < ($1.purchased, $1.store.rawValue, $1.order) }
        for license in ordered {
            guard let edition = sales.edition(forSource: license.label) else {
                unserved.append(
                    Unserved(
                        license: license,
                        reason: "'\(license.label)' is no edition's source in the plan; run 'migrate import licenses' with this export"))
                continue
            }
            guard let product = edition.legacyProduct else {
                unserved.append(Unserved(license: license, reason: "edition '\(edition.id)' has no legacyProduct, so there is no code to give"))
                continue
            }
            for seat in 1...license.seats {
                let key = "\(license.key)#\(seat)|\(product)"
                if let assignment = given[key] {
                    used.insert(key)
                    letters.append(
                        Letter(
                            license: license, seat: seat, edition: edition, product: product, code: assignment.code,
                            expires: expiryByCode[assignment.code], alreadyAssigned: true))
                    continue
                }
                guard var queue = available[product], !queue.isEmpty else {
                    missing[product, default: 0] += 1
                    continue
                }
                let code = queue.removeFirst()
                available[product] = queue
                newAssignments.append(CodeLedger.Assignment(license: license.key, seat: seat, product: product, code: code.code))
                letters.append(
                    Letter(
                        license: license, seat: seat, edition: edition, product: product, code: code.code, expires: code.expires,
                        alreadyAssigned: false))
            }
        }
        for (key, assignment) in given where !used.contains(key) { orphaned.append(assignment) }
        orphaned.sort()
        for (product, queue) in available where !queue.isEmpty { left[product] = queue.count }
        expiringSoon =
            letters.filter { letter in letter.expires.map { $0 > now && $0 <= now.addingTimeInterval(Self.expiringWithin) } ?? false }.count
        self.ledger = CodeLedger(assignments: ledger.assignments + newAssignments)
    }

    /// Codes given by this run.
    public var newlyAssigned: Int { letters.filter { !$0.alreadyAssigned }.count }

    /// The redemption URL of a code: `https://apps.apple.com/redeem?ctx=offercodes&id=APPID&code=CODE`.
    public static func redemptionURL(appID: String, code: String) -> String {
        "https://apps.apple.com/redeem?ctx=offercodes&id=\(appID)&code=\(code)"
    }

    /// The mail-merge columns.
    public static let mailMergeColumns = ["name", "email", "edition", "product", "seat", "seats", "code", "url", "expires", "store", "order"]

    /// The mail merge as CSV: a header, then a line per code given, in the order holders were served. Nothing is sent.
    /// `CSVWriter` makes every field spreadsheet-safe: a buyer who named themselves `=HYPERLINK(…)` is text in the mail
    /// tool, never a formula.
    public func mailMerge(appID: String) -> [UInt8] {
        var text = Self.mailMergeColumns.joined(separator: ",") + "\n"
        for letter in letters {
            let fields = [
                letter.license.name, letter.license.email, letter.edition.name, letter.product,
                String(letter.seat), String(letter.license.seats),
                letter.code, Self.redemptionURL(appID: appID, code: letter.code), letter.expires.map(Timestamp.formatDate) ?? "",
                letter.license.store.rawValue, letter.license.order,
            ]
            text += fields.map { CSVWriter.field($0) }.joined(separator: ",") + "\n"
        }
        return Array(text.utf8)
    }
}
