import Foundation
import MigrateSupport

/// The record `migrate codes assign` keeps of which code went to which license seat, so a rerun gives the same
/// codes to the same people and never a spent code to someone else. The command owns the file; it holds no
/// personal data (licenses are named by store and order id) and is written all or nothing.
public struct CodeLedger: Sendable, Hashable {
    /// One code given: to a license's seat, for a product.
    public struct Assignment: Sendable, Hashable, Comparable {
        /// `License.key`: `gumroad:AbC123==/2019-03-14T09:30:00Z` (a version 1 ledger's `License.legacyKey`).
        public var license: String
        public var seat: Int
        public var product: String
        public var code: String

        public init(license: String, seat: Int, product: String, code: String) {
            self.license = license
            self.seat = seat
            self.product = product
            self.code = code
        }

        public static func < (lhs: Assignment, rhs: Assignment) -> Bool {
            (lhs.license, lhs.seat, lhs.product) < (rhs.license, rhs.seat, rhs.product)
        }
    }

    public static let kind = "migrate codes ledger"
    /// Version 2 names a license by its store, order id and purchase moment; version 1 (read, never written) by its
    /// store and order id alone, which two shops numbering from #1001 share.
    public static let version = 2

    public var assignments: [Assignment]
    /// The entries name licenses by `License.legacyKey` (a version 1 ledger): `renamingLegacyKeys(for:)` renames them.
    public private(set) var hasLegacyKeys = false

    public init(assignments: [Assignment] = []) {
        self.assignments = assignments.sorted()
    }

    /// The ledger with a version 1 ledger's entries renamed to today's keys: each legacy key goes to the first of
    /// `licenses` (in input order) with that store and order id, the license the run that wrote it gave the code to,
    /// since that run read every later one as a duplicate. An entry no license claims keeps its name (and stays spent).
    public func renamingLegacyKeys(for licenses: [License]) -> CodeLedger {
        guard hasLegacyKeys else { return self }
        var renamed: [String: String] = [:]
        for license in licenses where renamed[license.legacyKey] == nil { renamed[license.legacyKey] = license.key }
        return CodeLedger(
            assignments: assignments.map { assignment in
                var assignment = assignment
                assignment.license = renamed[assignment.license] ?? assignment.license
                return assignment
            })
    }

    /// The file's bytes: the same ledger always gives the same bytes.
    public var bytes: [UInt8] {
        let value = JSONValue.members([
            ("ledger", .string(Self.kind)),
            ("version", .integer(Self.version)),
            (
                "assignments",
                .array(
                    assignments.sorted().map {
                        .members([
                            ("license", .string($0.license)), ("seat", .integer($0.seat)), ("product", .string($0.product)),
                            ("code", .string($0.code)),
                        ])
                    })
            ),
        ])
        return Array((JSONWriter.plan.string(from: value)).utf8)
    }

    /// Reads a ledger this command wrote. Anything else (another file, an edit that gives a code twice) is refused
    /// with every problem at once: a wrong ledger could give a spent code away.
    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> CodeLedger {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ImportError(.badData, file: file, location: error.location, "the ledger is not JSON: \(error.message)", hint: ledgerHint)
        }
        guard root["ledger"]?.stringValue == kind, case .number(let version)? = root["version"]?.value, version == "1" || version == "\(Self.version)"
        else {
            throw ImportError(
                .badData, file: file, "this is not a ledger 'migrate codes assign' wrote (version \(Self.version))", hint: ledgerHint)
        }
        guard let items = root["assignments"]?.arrayValue else {
            throw ImportError(.badData, file: file, "the ledger has no 'assignments' list", hint: ledgerHint)
        }
        var problems: [String] = []
        var assignments: [Assignment] = []
        var codes: [String: Int] = [:]
        var seats: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let place = "assignments[\(index)] (line \(item.location.line))"
            guard let license = item["license"]?.stringValue, !license.isEmpty, let product = item["product"]?.stringValue, !product.isEmpty,
                let code = item["code"]?.stringValue, OfferCodeReader.isCode(code),
                case .number(let seatText)? = item["seat"]?.value, let seat = Int(seatText), seat >= 1
            else {
                problems.append("\(place): needs 'license', 'seat' (1 or more), 'product' and 'code'")
                continue
            }
            if let first = codes[code] {
                problems.append("\(place): code \(code) is given twice (also assignments[\(first)])")
            }
            codes[code] = index
            let key = "\(license)#\(seat)|\(product)"
            if let first = seats[key] {
                problems.append("\(place): \(license) seat \(seat) has two codes for \(product) (also assignments[\(first)])")
            }
            seats[key] = index
            assignments.append(Assignment(license: license, seat: seat, product: product, code: code))
        }
        if !problems.isEmpty {
            throw ImportError(.badData, file: file, "the ledger can't be trusted:\n  " + problems.joined(separator: "\n  "), hint: ledgerHint)
        }
        var ledger = CodeLedger(assignments: assignments)
        ledger.hasLegacyKeys = version == "1"
        return ledger
    }

    static let ledgerHint =
        "The ledger is the record of codes already sent: restore it from a backup (or version control) rather than edit it; give a new --ledger path only for a first run."
}
