import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// `explain --receipt` reads each kind of receipt as what it is, plain or as a compact JWS.
@Suite("explain --receipt: each kind", .timeLimit(.minutes(20)))
struct ReceiptKindsTests {
    struct Case: Sendable, CustomStringConvertible {
        var plan: String
        var file: String
        var kind: String
        var contains: [String]
        var excludes: [String] = []
        var description: String { file }
    }

    static let cases: [Case] = [
        Case(
            plan: "server-pal", file: "app-transaction-xcode.json", kind: "a decoded AppTransaction",
            contains: ["original version \"1\", purchase date 0000-12-30T00:00:00Z, Foundation's 0001-01-01", "never the value \"1\""],
            excludes: ["NOT verified", "is \"1.0\"", "year 1 and"]),
        Case(
            plan: "server-pal", file: "transaction-revoked-localtesting.json",
            kind: "a decoded Transaction (a product the customer owns, not the app's purchase)",
            contains: [
                "owns               com.example.serverpal.unlock (bought 2025-11-23T08:01:40Z, revoked)", "environment        xcode",
                "not the app's own purchase",
            ],
            excludes: ["paid download was refunded", "NOT verified", "environment        production"]),
        Case(
            plan: "server-pal", file: "transaction-revoked-localtesting.jws",
            kind: "a decoded Transaction (a product the customer owns, not the app's purchase)",
            contains: [
                "its JWS signature was NOT verified", "owns               com.example.serverpal.unlock (bought 2025-11-23T08:01:40Z, revoked)",
            ],
            excludes: ["paid download was refunded"]),
        Case(
            plan: "server-pal", file: "app-transaction-production.jws", kind: "a decoded AppTransaction",
            contains: ["its JWS signature was NOT verified", "original version   31", "Cohort: legacy tier 'paid-1.0'"]),
        Case(
            plan: "server-pal", file: "transaction-history-response.json", kind: "an App Store Server API transaction history",
            contains: [
                "its JWS signature was NOT verified", "owns               com.example.serverpal.unlock (bought 2018-03-02T14:13:20Z, familyShared)",
                "environment        production",
            ]),
        Case(
            plan: "tally-two-switches", file: "subscription-status-response.json", kind: "an App Store Server API subscription status",
            contains: [
                "its JWS signature was NOT verified", "owns               com.example.tally.pro.monthly (bought 2025-10-20T22:40:00Z, expired)",
            ]),
        Case(
            plan: "server-pal", file: "../../../Examples/server-pal/receipt-production.json", kind: "a verifyReceipt response",
            contains: ["original version   31", "Cohort: legacy tier 'paid-1.0'"], excludes: ["NOT verified"]),
    ]

    @Test("Each kind is named, read as what it is, and an unverified JWS says so", arguments: cases)
    func kinds(_ item: Case) {
        let path = "Tests/Fixtures/receipts/\(item.file)"
        let run = Run("explain", "Examples/\(item.plan)", "--receipt", path, "--now", "2025-11-23T00:00:00Z")
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.hasPrefix("Receipt\n  \(path): \(item.kind)\n"), "\(run.output.prefix(300))")
        // Reasons wrap at the terminal's width: look in the text with its paragraphs joined.
        for text in item.contains { #expect(flat(run.output).contains(text), "\(item.file): \(text)\n\(run.output)") }
        for text in item.excludes { #expect(!flat(run.output).contains(text), "\(item.file): \(text)") }
    }

    @Test("As JSON, the receipt's kind and verification are part of the output")
    func json() throws {
        let run = Run(
            "explain", "Examples/server-pal", "--receipt", "Tests/Fixtures/receipts/transaction-revoked-localtesting.jws", "--format", "json")
        #expect(run.status == .success)
        #expect(run.output.contains("\"kind\": \"transactionPayload\""), "\(run.output.prefix(400))")
        #expect(run.output.contains("\"signatureVerified\": false"))
    }

    @Test(
        "A malformed JWS is a clear error (exit 65)",
        arguments: [
            ("malformed.jws", "not a compact JWS: expected three base64url parts separated by '.' (header.payload.signature), found 2")
        ])
    func malformed(file: String, message: String) throws {
        let run = Run("explain", "Examples/server-pal", "--receipt", "Tests/Fixtures/receipts/\(file)")
        #expect(run.status == .dataError)
        #expect(run.error.contains("Tests/Fixtures/receipts/\(file): \(message)"), "\(run.error)")
        #expect(run.error.contains("Pass the compact JWS exactly as"))
    }

    @Test("A JWS with a part that is not base64url names the part")
    func badPart() throws {
        let scratch = try Scratch()
        try scratch.write("bad.jws", "eyJhbGciOiJFUzI1NiJ9.not base64!.c2ln\n")
        let run = Run("explain", Self.serverPal, "--receipt", "bad.jws", directory: scratch.url)
        #expect(run.status == .dataError)
        #expect(run.error.contains("bad.jws: not a compact JWS: its payload (part 2 of 3) is not base64url"), "\(run.error)")
    }

    @Test("A JWS quoted as a JSON string is read like the bare JWS")
    func quoted() throws {
        let jws = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/receipts/app-transaction-production.jws"), encoding: .utf8)
        let scratch = try Scratch()
        try scratch.write("quoted.json", "\"" + jws.trimmingCharacters(in: .whitespacesAndNewlines) + "\"\n")
        let run = Run("explain", Self.serverPal, "--receipt", "quoted.json", directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("quoted.json: a decoded AppTransaction"))
        #expect(run.output.contains("its JWS signature was NOT verified"))
    }

    static let serverPal = repositoryRoot.appendingPathComponent("Examples/server-pal").path
}
