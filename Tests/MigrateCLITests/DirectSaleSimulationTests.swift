import Foundation
import MigrateCLI
import MigrateSimulation
import MigrateTestSupport
import Testing

/// `simulate` and `report` include the direct-sale license holders: how many redeem their code (seats ×
/// codeRedemptionRate, as a range) and the bound on what the free code can cost, the report's numbers equal to simulate's.
@Suite("Direct sales: simulate and report size the license holders", .timeLimit(.minutes(20)))
struct DirectSaleSimulationTests {
    /// The Gumroad export imported as a new user would (4 holders, 6 seats, 2 refunded), with the paid downloads a
    /// forecast needs and, when given, the plan's own redemption rate.
    static func imported(rate: String? = nil) throws -> Scratch {
        let scratch = try DirectSalesCommandTests.folder()
        let imported = Run(arguments: ["import", "licenses", "gumroad-sales.csv"], directory: scratch.url)
        #expect(imported.status == .success, "\(imported.error)")
        let plan = try #require(scratch.read("migration.json"))
        let assumptions = "\"paidDownloadsPerMonth\": 500" + (rate.map { ", \"codeRedemptionRate\": \($0)" } ?? "")
        let last = try #require(plan.range(of: "}", options: .backwards))
        _ = try scratch.write(
            "migration.json", plan[..<last.lowerBound] + ", \"simulation\": { \"assumptions\": { \(assumptions) } }\n}\n")
        return scratch
    }

    static func cohorts(_ scratch: Scratch, _ extra: [String] = []) throws -> [[String: Any]] {
        let run = Run(arguments: ["simulate", "migration.json", "--draws", "100", "--format", "json"] + extra, directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
        return try #require(scenario["cohorts"] as? [[String: Any]])
    }

    @Test(
        "Redeemers are the seats × codeRedemptionRate (P10, median, P90), and the cost at most P90 redeemers × the offer that sells the same",
        arguments: [
            (nil, 1.56, 3.0, 4.44),  // default uniform 20–80%: P10 26%, median 50%, P90 74% of 6 seats
            ("0.9", 5.4, 5.4, 5.4),  // the plan's own figure
        ] as [(String?, Double, Double, Double)])
    func redeemers(rate: String?, low: Double, mid: Double, high: Double) throws {
        let scratch = try Self.imported(rate: rate)
        let cohorts = try Self.cohorts(scratch)
        let row = try #require(cohorts.first { $0["directSale"] != nil })
        #expect(row["cohort"] as? String == "license holders 'tally-for-mac'")
        #expect(row["tier"] as? String == "paid-app")
        #expect(row["owns"] as? [String] == ["com.example.tally.license"])
        #expect(row["entitlements"] as? [String] == ["counters", "sync", "export"])
        let sale = try #require(row["directSale"] as? [String: Any])
        #expect(sale["holders"] as? Int == 4 && sale["seats"] as? Int == 6 && sale["refunded"] as? Int == 2)
        let redeemers = try #require(sale["redeemers"] as? [String: Double])
        #expect(abs(redeemers["p10"]! - low) < 0.01 && abs(redeemers["p50"]! - mid) < 0.01 && abs(redeemers["p90"]! - high) < 0.01)
        #expect(row["size"] as? Double == redeemers["p50"])
        let forgone = try #require(sale["forgoneSales"] as? [String: Any])
        #expect(forgone["product"] as? String == "com.example.tally.pro")
        #expect(forgone["minimum"] as? Double == 0)
        #expect(abs((forgone["maximum"] as? Double ?? 0) - high * 19.99) < 0.01)
    }

    @Test("The text preview says who redeems, how many as a range, and the cost as a bound; the assumption prints its source")
    func textPreview() throws {
        let scratch = try Self.imported()
        let run = Run(arguments: ["simulate", "migration.json", "--draws", "100"], directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let text = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        // The state's line breaks between its parts at 80 columns.
        #expect(text.contains("license holders 'tally-for-mac' · macOS · owns Tally License (direct buyers) size 3 (2–4)"))
        #expect(text.contains("redeem: 3 (2–4) of 6 seats (4 licenses) redeem their code"))
        #expect(text.contains("2 refunded licenses left out"))
        #expect(text.contains("cost: at most 89 in sales (P90 redeemers × Tally Pro at 19.99, before Apple's commission)"))
        #expect(text.contains("as little as nothing"))
        #expect(text.contains("default: judgement: no public figure for how many license holders redeem"))
    }

    @Test("Without directSales nothing changes: no holders' row, no codeRedemptionRate")
    func withoutDirectSales() throws {
        let without = Run("simulate", "Examples/tilt-to-live-hd", "--draws", "0", "--format", "json")
        #expect(without.status == .success, "\(without.error)")
        #expect(without.output.contains("\"cohorts\""), "\(without.output.prefix(500))")
        #expect(!without.output.contains("directSale") && !without.output.contains("codeRedemptionRate"))
        // The same keys are there once the plan has license holders, so a renamed key fails here instead of passing.
        let scratch = try Self.imported()
        let with = Run(arguments: ["simulate", "migration.json", "--draws", "0", "--format", "json"], directory: scratch.url)
        #expect(with.status == .success, "\(with.error)")
        #expect(with.output.contains("\"directSale\"") && with.output.contains("\"codeRedemptionRate\""), "\(with.output.prefix(500))")
    }

    @Test("--sweep codeRedemptionRate is refused: redeemers pay nothing, so it moves no proceeds")
    func sweepRefused() throws {
        let scratch = try Self.imported()
        let run = Run(arguments: ["simulate", "migration.json", "--sweep", "codeRedemptionRate=0.1:0.9:0.1"], directory: scratch.url)
        #expect(run.status == .usage)
        #expect(run.error.contains("moves no proceeds"))
    }

    @Test("The report's holders row has simulate's numbers: the median redeemers, their range and the cost's bound")
    func reportShowsHolders() throws {
        let scratch = try Self.imported()
        let sale = try #require(try Self.cohorts(scratch).first { $0["directSale"] != nil }?["directSale"] as? [String: Any])
        let redeemers = try #require(sale["redeemers"] as? [String: Double])
        let bound = try #require((sale["forgoneSales"] as? [String: Any])?["maximum"] as? Double)
        let run = Run(arguments: ["report", "migration.json", "--draws", "100", "--output", "-"], directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        let row = try #require(ReportMoneyTests.cohortCells(run.output)["License holders of Tally for Mac (edition tally-for-mac), tier paid-app"])
        let people = try #require(row.first { $0.key.hasPrefix("people (estimate") }?.value)
        let range = "\(FigureText.people(redeemers["p50"]!)) (\(FigureText.people(redeemers["p10"]!))–\(FigureText.people(redeemers["p90"]!)))"
        #expect(people.hasPrefix("\(range) of 6 seats"), "\(people)")
        #expect(row["expected first purchases (P10–P90)"] == "none: redeemers pay nothing")
        // The bound is said below the table, as the bound it is.
        let cost = try #require(
            ReportPage.text(run.output).firstRange(of: "can cost: at most ").map { ReportPage.text(run.output)[$0.upperBound...].prefix(40) })
        #expect(cost.contains("\(FigureText.money(bound)) in sales"), "\(cost)")
        #expect(run.output.contains("License holders: people who bought a license outside the App Store"))
    }

    @Test("explain --batch with --licenses: one summary counts the list and the holders, every export row accounted for")
    func batchWithLicenses() throws {
        let scratch = try Self.imported()
        _ = try scratch.write("customers.csv", "originalAppVersion,platform\n3.0,macOS\n4.0,macOS\n")
        let run = Run(
            arguments: ["explain", "migration.json", "--batch", "customers.csv", "--licenses", "gumroad-sales.csv", "--output", "out.csv"],
            directory: scratch.url)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("customers.csv: 3 lines: 1 header, 2 customers decided"))
        // 4 holders + 2 refunded + 1 duplicate (the 7 licenses read) + 2 rows that are no license = the export's 9 rows.
        #expect(
            run.output.contains(
                "License holders:\n  gumroad-sales.csv: 10 lines: 1 header, 7 licenses read, 2 not counted\n  4 holders (6 seats), 2 refunded, 1 duplicate, 2 not licenses (a totals row, a recurring charge…), 0 skipped\n"
            ), "\(run.output)")
        #expect(run.output.contains("  tally-for-mac, tier paid-app, redeems com.example.tally.license: 4 holders, 6 seats\n"))
        #expect(scratch.read("out.csv")?.contains("gumroad") == false, "the decisions file holds the list's rows only")

        let alone = Run(arguments: ["explain", "migration.json", "--batch", "customers.csv", "--output", "out.csv"], directory: scratch.url)
        #expect(!alone.output.contains("License holders"))
        let ledgerAlone = Run(arguments: ["explain", "migration.json", "--batch", "customers.csv", "--ledger", "l.json"], directory: scratch.url)
        #expect(ledgerAlone.status == .usage && ledgerAlone.error.contains("'--ledger' applies only with --licenses"))
        let strayOutput = Run(
            arguments: ["explain", "migration.json", "--licenses", "gumroad-sales.csv", "--output", "o.csv"], directory: scratch.url)
        #expect(strayOutput.status == .usage && strayOutput.error.contains("or add --batch LIST"))
    }
}
