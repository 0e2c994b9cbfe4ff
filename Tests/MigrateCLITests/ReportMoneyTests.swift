import Foundation
import MigrateCLI
import MigrateSimulation
import MigrateTestSupport
import Testing

/// The money at stake per cohort: the expected first purchases are the cohort preview's buyers (as `simulate --format json`
/// prints them) times their prices, and what a legacy tier already paid is `explain --batch`'s count times the paid price.
@Suite(.timeLimit(.minutes(20))) struct ReportMoneyTests {
    /// The cohort table's cells by row name (the `who` column) and column label.
    static func cohortCells(_ html: String) -> [String: [String: String]] {
        guard let start = html.range(of: "<section id=\"cohorts\""), let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)
        else { return [:] }
        var rows: [String: [String: String]] = [:]
        for row in html[start.upperBound..<end.lowerBound].matches(of: /<tr><th scope="row"[^>]*>([^<]*)<\/th>(.*?)<\/tr>/) {
            var cells: [String: String] = [:]
            for cell in row.2.matches(of: /<td[^>]*data-label="([^"]*)">([^<]*)<\/td>/) { cells[String(cell.1)] = String(cell.2) }
            rows[String(row.1)] = cells
        }
        return rows
    }

    /// The leading amount of a cell ("1,234 (1,000–1,500)" → 1234).
    static func amount(_ cell: String) -> Double? {
        guard let match = cell.firstMatch(of: /^(−?[\d,]+)/) else { return nil }
        return Double(match.1.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "−", with: "-"))
    }

    @Test(arguments: Examples.names)
    func expectedFirstPurchasesAreSimulatesBuyersTimesPrices(_ example: String) throws {
        let plan = "Examples/\(example)"
        let simulate = Run("simulate", plan, "--scenario", "plan", "--draws", "200", "--format", "json")
        guard simulate.status == .success else { return }  // no forecast: the page says why (ReportCommandTests)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(simulate.output.utf8)) as? [String: Any])
        let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
        let cohorts = try #require(scenario["cohorts"] as? [[String: Any]])
        let run = Run("report", plan, "--draws", "200", "--output", "-")
        #expect(run.status == .success, "\(run.error)")
        let table = Self.cohortCells(run.output)
        // Each cohort's own row, then the rows of having bought one of its offers: their sizes times the offers' prices.
        var checked = 0
        var index = 0
        while index < cohorts.count {
            let cohort = cohorts[index]
            index += 1
            guard (cohort["owns"] as? [String])?.isEmpty == true else { continue }
            let prices = Dictionary(
                ((cohort["offers"] as? [[String: Any]]) ?? []).map { ($0["product"] as? String ?? "", Double($0["price"] as? String ?? "") ?? 0) },
                uniquingKeysWith: { first, _ in first })
            var expected = 0.0
            while index < cohorts.count, (cohorts[index]["owns"] as? [String])?.isEmpty != true {
                let state = cohorts[index]
                index += 1
                if let owns = state["owns"] as? [String], owns.count == 1, let price = prices[owns[0]] {
                    expected += (state["size"] as? Double ?? 0) * price
                }
                for choice in ((state["ownsOneOf"] as? [String: Any])?["products"] as? [[String: Any]]) ?? [] {
                    expected += (choice["size"] as? Double ?? 0) * (prices[choice["product"] as? String ?? ""] ?? 0)
                }
            }
            let platform = cohort["platform"] as? String ?? ""
            let name = (cohort["tier"] as? String).map { "(tier \($0)), \(platform)" } ?? "New free users, \(platform)"
            let row = try #require(table.first { $0.key.hasSuffix(name) }?.value, "\(example): no row \(name)")
            let purchases = row["expected first purchases (P10–P90)"] ?? ""
            let again = row["charged again"] ?? ""
            // What is offered splits into first purchases and what charges again; together they are simulate's buyers × prices.
            let reported = (Self.amount(purchases) ?? 0) + (Self.amount(again) ?? 0)
            if prices.isEmpty {
                #expect(purchases == "nothing offered", "\(example) \(name)")
            } else {
                // simulate's JSON carries sizes to the cent: the sums agree to the unit the report rounds to.
                #expect(abs(reported - expected) <= 1, "\(example) \(name): report \(reported), simulate \(expected)")
            }
            checked += 1
        }
        #expect(checked > 0, "\(example): no cohort read from simulate")
    }

    @Test func alreadyPaidIsExplainBatchsCountTimesThePaidPrice() throws {
        let flagship = "Examples/tilt-to-live-hd"
        let list = "\(flagship)/customers.csv"
        let explain = Run("explain", flagship, "--batch", list)
        let count = try #require(explain.error.firstMatch(of: /legacy: paid-1\.0 \(.*?\)\s+(\d+)\s/).map { Double($0.1)! })
        let run = Run("report", flagship, "--batch", list, "--draws", "200", "--output", "-")
        let row = try #require(Self.cohortCells(run.output).first { $0.key.contains("(tier paid-1.0)") }?.value)
        // The flagship's paid releases were all sold at 2.99; the plan keeps what they paid for.
        #expect(row["already paid (kept)"] == "\(FigureText.money(count * 2.99)) at 2.99 each; kept: they keep what they paid for")
        #expect(row["charged again"]?.hasPrefix("0: the upsell withholds Full Version + Viva la Turret") == true)
        #expect(Self.cohortCells(run.output).first { $0.key.hasPrefix("New free users") }?.value["already paid (kept)"] == "new users paid nothing")
    }

    @Test func aTierThatKeepsNothingSaysItsMoneyIsNotKept() throws {
        let run = Run("report", "Examples/quill-writer", "--draws", "200", "--output", "-")
        let row = try #require(Self.cohortCells(run.output).first { $0.key.contains("(tier license-holders)") }?.value)
        #expect(row["already paid (kept)"]?.hasSuffix("at 24.99 each; not kept: the plan leaves them no paid feature") == true, "\(row)")
    }

    @Test func localeAndCurrencyReachTheCohortsAndTheForecast() throws {
        let run = Run("report", "Examples/quill-writer", "--draws", "200", "--locale", "de-DE", "--currency", "EUR", "--output", "-")
        #expect(run.status == .success, "\(run.error)")
        let row = try #require(Self.cohortCells(run.output).first { $0.key.contains("(tier license-holders)") }?.value)
        #expect(row["already paid (kept)"]?.contains("at 24,99\u{00A0}€ each") == true, "\(row)")
        #expect(row["offered"]?.contains("Quill (yearly, license holders) at 29,99\u{00A0}€ (was 39,99\u{00A0}€)") == true, "\(row)")
        #expect(run.output.contains("in EUR (the plan&#39;s prices taken as EUR), written for de-DE"))
        #expect(run.output.contains(#"<tr><th scope="row" class="num">1</th><td class="num">"#))
        #expect(run.output.contains("\u{00A0}€</td>"), "the forecast's table carries the currency")
    }

    @Test(arguments: [
        (["--locale", "xx-XX"], "--locale: 'xx-XX' is not a supported locale; use one of en-US, en-GB, de-DE, fr-FR, ja-JP."),
        (["--currency", "SEK"], "--currency: 'SEK' is not a supported currency; use one of USD, EUR, GBP, JPY, CHF, CAD, AUD (ISO 4217)."),
        (["--currency", "JPY"], "--currency JPY: the plan's price 2.99 has more decimals than JPY has (0)"),
    ])
    func unsupportedLocalesAndCurrenciesAreRefused(_ flags: [String], _ message: String) {
        let run = Run(arguments: ["report", "Examples/tilt-to-live-hd", "--output", "-"] + flags)
        #expect(run.status == .usage)
        #expect(run.error.contains(message), "\(run.error)")
    }
}

/// `FigureText` writes amounts for a reader from a fixed table: the same bytes on every system.
@Suite(.timeLimit(.minutes(20))) struct FigureStyleTests {
    @Test(
        arguments: [
            ("en-US", nil, "−1,234,568", "2.99", "1,234"),
            ("en-US", "USD", "−$1,234,568", "$2.99", "1,234"),
            ("en-GB", "GBP", "−£1,234,568", "£2.99", "1,234"),
            ("de-DE", "EUR", "−1.234.568\u{00A0}€", "2,99\u{00A0}€", "1.234"),
            ("de-DE", nil, "−1.234.568", "2,99", "1.234"),
            ("fr-FR", "EUR", "−1\u{202F}234\u{202F}568\u{00A0}€", "2,99\u{00A0}€", "1\u{202F}234"),
            ("ja-JP", "JPY", "−¥1,234,568", "¥3", "1,234"),
            ("en-US", "CHF", "−CHF\u{00A0}1,234,568", "CHF\u{00A0}2.99", "1,234"),
        ] as [(String, String?, String, String, String)])
    func separatorsSymbolsAndMinorDigits(_ locale: String, _ currency: String?, _ money: String, _ price: String, _ count: String) throws {
        let style = try FigureStyle(localeTag: locale, currencyCode: currency)
        FigureText.$style.withValue(style) {
            #expect(FigureText.money(-1_234_567.5) == money)
            #expect(FigureText.price(2.99) == price)
            #expect(FigureText.count(1_234) == count)
            #expect(FigureText.people(1_234.4) == count)
        }
    }

    @Test func theDefaultIsSimulatesOwn() throws {
        #expect(try FigureStyle(localeTag: nil, currencyCode: nil) == .plain)
        #expect(FigureText.money(-43_550.2) == "−43,550")
        #expect(FigureText.money(.nan) == "—")
    }
}
