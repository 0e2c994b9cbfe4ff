import Foundation
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

/// `import licenses`' reader: each store's export told by its header, every row a license or skipped with its line and
/// reason, refunds, duplicates and seats decided the same way every time.
@Suite("License exports: Paddle, FastSpring, Gumroad, plain CSV", .timeLimit(.minutes(20)))
struct LicenseImporterTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/licenses")

    static func read(_ name: String) throws -> LicenseExport {
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        return try LicenseImporter.read(bytes, file: name)
    }

    /// One export: its store, rows, holders, seats, refunded, duplicates, and the lines skipped.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var store: LicenseStore
        var rows: Int
        var holders: Int
        var seats: Int
        var refunded: Int
        var duplicates: Int
        var skippedLines: [Int]
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "gumroad-sales.csv", store: .gumroad, rows: 9, holders: 4, seats: 6, refunded: 2, duplicates: 1, skippedLines: [9, 10]),
        Case(
            file: "paddle-classic-transactions.csv", store: .paddle, rows: 9, holders: 3, seats: 7, refunded: 1, duplicates: 1,
            skippedLines: [7, 8, 9, 10]),
        Case(file: "fastspring-revenue.csv", store: .fastspring, rows: 6, holders: 2, seats: 3, refunded: 2, duplicates: 1, skippedLines: [7]),
        Case(file: "plain.csv", store: .csv, rows: 5, holders: 2, seats: 3, refunded: 1, duplicates: 0, skippedLines: [5, 6]),
    ]

    @Test("Each store's export: every row decided or skipped, the counts adding up", arguments: cases)
    func store(_ expected: Case) throws {
        let export = try Self.read(expected.file)
        #expect(export.store == expected.store)
        #expect(export.rowsRead == expected.rows)
        #expect(export.skipped.map(\.line) == expected.skippedLines)
        let holders = LicenseHolders([export])
        #expect(holders.holders.count == expected.holders)
        #expect(holders.holders.map(\.seats).reduce(0, +) == expected.seats)
        #expect(holders.refundedCount == expected.refunded)
        #expect(holders.duplicateCount == expected.duplicates)
        #expect(holders.holders.count + holders.refundedCount + holders.duplicateCount + export.skipped.count == export.rowsRead)
    }

    /// A row and why it is skipped or not counted, as the report says it.
    static let reasons: [(file: String, line: Int, reason: String)] = [
        ("gumroad-sales.csv", 4, "refunded"),
        ("gumroad-sales.csv", 5, "charged back (dispute lost)"),
        ("gumroad-sales.csv", 7, "a duplicate license: the same e-mail address already holds this edition (gumroad-sales.csv:2)"),
        ("gumroad-sales.csv", 9, "a membership's recurring charge, not a license (its first purchase counts)"),
        ("gumroad-sales.csv", 10, "Gumroad's totals row, not a sale"),
        ("paddle-classic-transactions.csv", 4, "refunded"),
        (
            "paddle-classic-transactions.csv", 6,
            "the same order as paddle-classic-transactions.csv:5 (the same order id, buyer and product), read once"
        ),
        ("paddle-classic-transactions.csv", 7, "order status 'pending' is not completed"),
        ("paddle-classic-transactions.csv", 8, "'Customer Email' holds no e-mail address"),
        ("paddle-classic-transactions.csv", 9, "a '\"' opens a quoted field that doesn't close on this line"),
        ("paddle-classic-transactions.csv", 10, "'03/04/2017' in 'Date' is not a date"),
        ("fastspring-revenue.csv", 4, "charged back"),
        ("fastspring-revenue.csv", 5, "refunded"),
        ("fastspring-revenue.csv", 7, "'one' in 'Quantity' is not a number of seats"),
        ("plain.csv", 4, "refunded"),
        ("plain.csv", 5, "'0' in 'seats' is not a number of seats"),
        ("plain.csv", 6, "'maybe' in 'refunded' is neither yes nor no"),
    ]

    @Test("Malformed rows, refunds and duplicates each give their line and reason", arguments: 0..<reasons.count)
    func reason(_ index: Int) throws {
        let (file, line, reason) = Self.reasons[index]
        let export = try Self.read(file)
        let holders = LicenseHolders([export])
        let said =
            export.skipped.filter { $0.line == line }.map(\.reason)
            + holders.decided.filter { $0.license.line == line }.compactMap(\.verdict.reason)
        #expect(said.count == 1 && said[0].contains(reason), "\(said)")
    }

    @Test("A buyer's details stay in the license: label, seats, refund, purchase date in UTC")
    func details() throws {
        let export = try Self.read("gumroad-sales.csv")
        let knuth = try #require(export.licenses.first { $0.email == "don@example.edu" })
        #expect(knuth.seats == 3)
        // The store, the order id and the moment: two shops that both number from #1001 never share a key.
        #expect(knuth.key == "gumroad:e6UiL9pD5kFz2Wn8bR3t==/2021-04-04T04:04:04Z")
        #expect(knuth.legacyKey == "gumroad:e6UiL9pD5kFz2Wn8bR3t==")
        #expect(knuth.purchased == Timestamp.parse("2021-04-04T04:04:04Z"))
        let grace = try #require(export.licenses.first { $0.email == "grace@example.org" })
        #expect(grace.label == "Tally for Mac (Family (5 Macs))")
        // A partial refund keeps the license: the buyer paid for it.
        let barbara = try #require(export.licenses.first { $0.email == "barbara@example.com" })
        #expect(barbara.refund == nil)
    }

    @Test("Unknown headers are refused with the columns each store's export has; a store's export without a column it needs, with that column")
    func refusals() throws {
        let unknown = Array(try Data(contentsOf: Self.folder.appendingPathComponent("unknown-store.csv")))
        do {
            _ = try LicenseImporter.read(unknown, file: "unknown-store.csv")
            Issue.record("an unknown header was read")
        } catch {
            #expect(error.kind == .badData)
            #expect(error.description.contains("'Invoice', 'Client', 'Amount', 'Paid On'"))
            for store in LicenseStore.allCases { #expect(error.description.contains(store.displayName + ":")) }
            #expect(error.description.contains("Purchase ID, Purchase Email, Item Name, Purchase Date, Fully Refunded?"))
        }
        let noStatus = Array("Order ID,Product Name,Customer Email,Date\n1,Tally,a@example.com,2020-01-01\n".utf8)
        do {
            _ = try LicenseImporter.read(noStatus, file: "paddle.csv")
            Issue.record("a Paddle export without Order Status was read")
        } catch {
            #expect(error.description.contains("a Paddle export without the column Order Status"), "\(error)")
        }
        for bytes: [UInt8] in [[], Array("\u{FEFF}".utf8), [0xFF, 0xFE, 0x6F, 0x00]] {
            #expect(throws: ImportError.self) { try LicenseImporter.read(bytes, file: "empty.csv") }
        }
    }

    @Test(
        "Dates: ISO 8601 and 'YYYY-MM-DD HH:MM:SS' (UTC) are read; ambiguous forms are not",
        arguments: [
            ("2019-03-14", "2019-03-14T00:00:00Z"), ("2019-03-14T09:30:00Z", "2019-03-14T09:30:00Z"),
            ("2019-03-14 09:30:12 UTC", "2019-03-14T09:30:12Z"), ("2016-11-03 14:22:01", "2016-11-03T14:22:01Z"),
            ("2016-11-03 14:22", "2016-11-03T14:22:00Z"), ("03/04/2017", nil), ("14.03.2019", nil), ("yesterday", nil),
        ] as [(String, String?)])
    func dates(_ text: String, _ expected: String?) {
        #expect(LicenseImporter.parseDate(text) == expected.flatMap(Timestamp.parse))
    }

    @Test("Two exports read together: editions merged into the plan keep their mapping, new labels become editions, no personal data")
    func merge() throws {
        let holders = LicenseHolders([try Self.read("gumroad-sales.csv"), try Self.read("plain.csv")])
        let existing = DirectSales(editions: [
            DirectEdition(
                id: "mac", name: "Tally for Mac", sources: ["Tally for Mac", "Tally for Mac (Family (5 Macs))"], tier: "t", legacyProduct: "p")
        ])
        let (sales, added, updated) = holders.merged(into: existing)
        #expect(sales.stores == ["csv", "gumroad"])
        #expect(updated == ["mac"])
        #expect(added == ["tally-pro", "tally-basic"])
        let mac = try #require(sales.editions.first)
        #expect((mac.holders, mac.seats, mac.refunded, mac.tier, mac.legacyProduct) == (4, 6, 2, "t", "p"))
        #expect(mac.soldFrom == Timestamp.parse("2019-03-14T09:30:12Z"))
        var plan = MigrationPlan(app: AppInfo(name: "Tally", bundleID: "com.example.tally", platforms: [.macOS]))
        plan.directSales = sales
        let text = PlanEncoder.encode(plan)
        for license in holders.decided.map(\.license) {
            #expect(!text.contains(license.email), "the plan holds an e-mail address")
            if !license.name.isEmpty { #expect(!text.contains(license.name), "the plan holds a name") }
            #expect(!text.contains(license.order), "the plan holds an order id")
        }
        // The same exports read again give the same plan.
        #expect(LicenseHolders(holders.exports).merged(into: existing).sales == sales)
    }
}
