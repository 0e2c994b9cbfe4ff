import Foundation
import MigrateCLI
import MigrateSimulation
import MigrateTestSupport
import Testing

/// The money at stake per cohort: the expected first purchases are the cohort preview's buyers (as `simulate --format json`
/// prints them) times their prices, and what a legacy tier already paid is `explain --batch`'s count times the paid price.
@Suite(.timeLimit(.minutes(20))) struct ReportMoneyTests {
    static func cohortCells(_ html: String) -> [String: [String: String]] { ReportPage(html: html).cohortCells() }

    static func amount(_ cell: String) -> Double? { ReportPage.amount(cell) }

    @Test(arguments: Examples.names.filter { !Examples.withoutForecast.contains($0) })
    func expectedFirstPurchasesAreSimulatesBuyersTimesPrices(_ example: String) throws {
        let plan = "Examples/\(example)"
        let simulate = Run("simulate", plan, "--scenario", "plan", "--draws", "200", "--format", "json")
        try #require(simulate.status == .success, "\(example) has a forecast: \(simulate.error)")
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
                #expect(purchases == "none: nothing offered", "\(example) \(name)")
            } else {
                // simulate's JSON carries sizes to the cent: the sums agree to the unit the report rounds to.
                #expect(abs(reported - expected) <= 1, "\(example) \(name): report \(reported), simulate \(expected)")
            }
            checked += 1
        }
        #expect(checked > 0, "\(example): no cohort read from simulate")
    }

    /// Without a forecast no amount is invented: the page says why, and the cohorts are listed with what they keep alone.
    @Test(arguments: Examples.names.filter { Examples.withoutForecast.contains($0) })
    func withoutAForecastNoAmountIsShown(_ example: String) throws {
        let plan = "Examples/\(example)"
        let simulate = Run("simulate", plan, "--scenario", "plan", "--draws", "200", "--format", "json")
        #expect(simulate.status == .dataError, "\(example) has no forecast")
        let run = Run("report", plan, "--draws", "200", "--output", "-")
        #expect(run.status == .success, "\(run.error)")
        let text = ReportPage.text(run.output)
        #expect(text.contains("No forecast yet: the simulation needs the paid downloads a month"), "\(example)")
        #expect(text.contains("Without a forecast their sizes are not estimated; decide a customer list with --batch to count them."))
        let table = Self.cohortCells(run.output)
        #expect(!table.isEmpty, "\(example): no cohort listed")
        for (who, cells) in table {
            #expect(Set(cells.keys) == ["keeps"], "\(example) \(who): \(cells)")
        }
    }

    /// A customer list stands beside the install base: its count in its own column, never the base of an amount.
    @Test func alreadyPaidIsTheInstallBaseTimesThePaidPriceAndTheListStandsBeside() throws {
        let flagship = "Examples/tilt-to-live-hd"
        let list = "\(flagship)/customers.csv"
        let explain = Run("explain", flagship, "--batch", list)
        let count = try #require(explain.error.firstMatch(of: /legacy: paid-1\.0 \(.*?\)\s+(\d+)\s/).map { String($0.1) })
        let withList = Run("report", flagship, "--batch", list, "--draws", "200", "--output", "-")
        let without = Run("report", flagship, "--draws", "200", "--output", "-")
        let row = try #require(Self.cohortCells(withList.output).first { $0.key.contains("(tier paid-1.0)") }?.value)
        let alone = try #require(Self.cohortCells(without.output).first { $0.key.contains("(tier paid-1.0)") }?.value)
        #expect(row["people in the list"] == count)
        // The flagship's paid releases were all sold at 2.99; the plan keeps what they paid for.
        let people = try #require(Self.amount(row["people (estimate, by month 24)"] ?? ""))
        #expect(row["paid each"] == "¤2.99")
        #expect(row["already paid (P10–P90)"]?.hasPrefix("¤" + FigureText.money(people * 2.99)) == true, "\(row)")
        #expect(row["already paid (P10–P90)"] == alone["already paid (P10–P90)"], "the list replaces no install-base figure")
        #expect(row["expected first purchases (P10–P90)"] == alone["expected first purchases (P10–P90)"])
        #expect(row["kept"] == "yes: they keep what they paid for")
        #expect(row["charged again"]?.hasPrefix("¤0: the upsell withholds Full Version + Viva la Turret") == true)
        #expect(
            Self.cohortCells(withList.output).first { $0.key.hasPrefix("New free users") }?.value["kept"] == "nothing to keep: new users paid nothing"
        )
        // The page says what the list is against the base.
        #expect(ReportPage.text(withList.output).contains("read it as a sample"))
        // No cell holds people and money together.
        let peopleCounted = Self.cohortCells(withList.output).values.flatMap { $0 }.filter {
            $0.key.hasPrefix("people") && Self.amount($0.value) != nil
        }
        #expect(!peopleCounted.isEmpty, "the people columns hold counts")
        for (who, cells) in Self.cohortCells(withList.output) {
            for (label, cell) in cells where cell.contains("¤") {
                #expect(!label.hasPrefix("people"), "\(who): \(label) holds money: \(cell)")
            }
            for (label, cell) in cells where label.hasPrefix("people") { #expect(!cell.contains("¤"), "\(who): \(cell)") }
        }
    }

    @Test func aTierThatKeepsNothingSaysItsMoneyIsNotKept() throws {
        let run = Run("report", "Examples/quill-writer", "--draws", "200", "--output", "-")
        let row = try #require(Self.cohortCells(run.output).first { $0.key.contains("(tier license-holders)") }?.value)
        #expect(row["kept"] == "no: the plan leaves them no paid feature", "\(row)")
        #expect(row["paid each"] == "¤24.99", "\(row)")
    }

    @Test func localeAndCurrencyReachTheCohortsAndTheForecast() throws {
        let run = Run("report", "Examples/quill-writer", "--draws", "200", "--locale", "de-DE", "--currency", "EUR", "--output", "-")
        #expect(run.status == .success, "\(run.error)")
        let row = try #require(Self.cohortCells(run.output).first { $0.key.contains("(tier license-holders)") }?.value)
        #expect(row["paid each"] == "24,99\u{00A0}€", "\(row)")
        #expect(row["offered"]?.contains("Quill (yearly, license holders) at 29,99\u{00A0}€ (was 39,99\u{00A0}€)") == true, "\(row)")
        #expect(run.output.contains("in EUR (€; the plan&#39;s prices taken as EUR), written for de-DE"))
        #expect(run.output.contains(#"<tr><th scope="row" class="num" data-label="month">1</th><td class="num" data-label="stay paid">"#))
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
