import MigrateCore
import MigratePlan
import MigrateSimulation

/// Who the switch touches: every cohort the plan creates (the simulation's cohort preview), how many people
/// (the customer list's counts when one was decided), what they keep, what they are offered, and the money at
/// stake: what legacy buyers already paid that the plan honours, what it would charge anyone again for what they
/// have, and the first purchases each cohort is expected to make.
enum ReportCohorts {
    /// An amount with its P10–P90 range (equal bounds when nothing uncertain moves it).
    typealias Range = (low: Double, mid: Double, high: Double)

    struct Row {
        var who: String
        var estimate: Double?
        var listed: Int?
        var keeps: String
        var offered: String
        /// Legacy buyers: what they paid for the app, and how much of it the plan honours; nil for new users.
        var alreadyPaid: String?
        /// What the plan would charge again for what the cohort has: an amount, or why it is nothing.
        var chargedAgain: String
        /// Expected first purchases of offers that add only what the cohort lacks, at list price.
        var sales: Range?
        /// Said instead of the expected first purchases (direct-sale holders: what their free code can cost).
        var note: String? = nil
    }

    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        let rows = self.rows(input, result)
        var body = HTML.paragraph(
            "Everyone the switch touches, grouped as the plan decides them: people who bought the app while it was paid (by legacy "
                + "tier) and the new free users, on each platform. 'Keeps' is what each has without paying again; 'offered' is what "
                + "the upsell screen shows them; then the money at stake.")
        var header = ["who", "how many (estimate)"]
        if input.customers != nil { header.append("in the list") }
        header += ["keeps", "offered", "already paid (kept)", "charged again", "expected first purchases (P10–P90)"]
        let table = rows.map { row -> [String] in
            var cells = [row.who, row.estimate.map(FigureText.people) ?? "—"]
            if input.customers != nil { cells.append(row.listed.map(FigureText.count) ?? "—") }
            cells += [row.keeps, row.offered, row.alreadyPaid ?? "new users paid nothing", row.chargedAgain]
            cells.append(row.note ?? row.sales.map(text) ?? "nothing offered")
            return cells
        }
        let numeric: Set<Int> = input.customers != nil ? [1, 2] : [1]
        body += HTML.table(caption: "The cohorts and the money at stake", header: header, rows: table, numeric: numeric, stacked: true)
        var notes = [
            "How many (estimate): the simulation's count by month \(months): legacy buyers from the plan's install base, "
                + "new users from the forecast downloads, at the middle values of the assumptions (as 'migrate simulate' prints it)."
        ]
        if let customers = input.customers {
            let summary = customers.summary
            notes.append(
                "In the list: the customers of \(customers.listName), decided as 'migrate explain --batch' decides them "
                    + "(\(FigureText.count(summary.decided)) decided, \(FigureText.count(summary.skippedCount)) skipped), "
                    + "by tier on every platform; a legacy tier's amounts are scaled to the list's count.")
        }
        notes += [
            "Already paid (kept): what the tier's buyers paid for the app, at the prices of the paid releases they bought "
                + "(before Apple's commission), and whether the plan keeps honouring it: what they keep without paying again.",
            "Charged again: offers that include something the cohort already has, times their expected buyers; nothing when the "
                + "upsell withholds every such offer (it says which) or shows none.",
            "Expected first purchases: what each cohort is expected to buy of what it is offered, at list price before Apple's "
                + "commission, with the middle values of the assumptions; the range moves the cohort's buying rate "
                + "(legacyUpgradeRate for legacy buyers, conversion for new users) from its P10 to its P90. Subscriptions' renewals "
                + "are in the month-by-month forecast, not here.",
            "Lost compared to staying paid: the simulation compares the two futures as a whole, month by month (below): the paid "
                + "downloads the app would no longer sell are not split by cohort, so no cohort's loss is shown here, and the "
                + "verdict above says what going free gains or loses in total.",
        ]
        if rows.contains(where: { $0.note != nil }) {
            notes.insert(
                "License holders: people who bought a license outside the App Store (the plan's directSales), counted by "
                    + "seat, each seat given a one-time offer code; how many redeem is the seats × codeRedemptionRate, its median "
                    + "(P10–P90), as 'migrate simulate' prints it.", at: notes.count - 1)
        }
        body += "<div class=\"notes\">\n" + notes.map { HTML.paragraph($0) }.joined() + "</div>\n"
        return HTML.section("cohorts", "Who is affected", body)
    }

    /// `$1,234 ($1,100–$1,400)`, or one amount when its range is a single value.
    static func text(_ range: Range) -> String {
        let mid = FigureText.money(range.mid)
        let low = FigureText.money(range.low)
        let high = FigureText.money(range.high)
        return low == high ? mid : "\(mid) (\(low)–\(high))"
    }

    /// A figure and its range, the range from how an assumption's P10 and P90 stand to its median.
    static func ranged(_ mid: Double, by assumption: SimulationAssumption, in scenario: PreparedScenario) -> Range {
        guard let distribution = scenario.assumptions.first(where: { $0.assumption == assumption })?.distribution, distribution.median > 0
        else { return (mid, mid, mid) }
        let median = distribution.median
        return (mid * distribution.quantile(0.1) / median, mid, mid * distribution.quantile(0.9) / median)
    }

    static func rows(_ input: ReportInput, _ result: ScenarioResult) -> [Row] {
        let scenario = result.scenario
        let catalog = scenario.catalog
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let preview = result.cohorts
        // The estimated size of each tier over its platforms, to share a list's count out.
        var tierSizes: [String: Double] = [:]
        for row in preview where row.owns.isEmpty && row.folded == nil && row.directSale == nil {
            if let tier = row.tierID { tierSizes[tier, default: 0] += row.size ?? 0 }
        }
        var rows: [Row] = []
        for (index, row) in preview.enumerated() where row.owns.isEmpty && row.folded == nil && row.directSale == nil {
            let who: String
            if let tierID = row.tierID {
                who = "\(catalog.tier(withID: tierID)?.name ?? tierID) (tier \(tierID)), \(row.platform.rawValue)"
            } else {
                who = "New free users, \(row.platform.rawValue)"
            }
            let keeps = row.entitlements.isEmpty ? "nothing paid" : row.entitlements.map { featureNames[$0] ?? $0 }.joined(separator: ", ")
            var offered = row.offers.isEmpty ? "nothing" : row.offers.map { "\($0.name) at \(priceText($0))" }.joined(separator: "; ")
            let recharged = row.withheld.filter { $0.why.chargesTwice }
            let withheldNames = recharged.map { catalog.product(withID: $0.productID)?.name ?? $0.productID }.joined(separator: ", ")
            if !recharged.isEmpty { offered += "; not offered: \(withheldNames), which would charge again for what they own" }
            // Expected buyers of each offer: the states that bought it, which follow the cohort's own row.
            var buyers: [String: Double] = [:]
            for later in preview[(index + 1)...] {
                if (later.owns.isEmpty && later.folded == nil) || later.directSale != nil { break }
                if let folded = later.folded, folded.kind == .offers {
                    for choice in folded.choices { buyers[choice.productID, default: 0] += choice.size ?? 0 }
                } else if later.owns.count == 1, row.offers.contains(where: { $0.productID == later.owns[0] }) {
                    buyers[later.owns[0], default: 0] += later.size ?? 0
                }
            }
            var listed: Int?
            var scale = 1.0
            if let customers = input.customers, let tierID = row.tierID {
                let count = customers.count(tierID: tierID)
                listed = count
                if let total = tierSizes[tierID], total > 0 { scale = Double(count) / total }
            }
            if input.customers != nil && row.tierID == nil { listed = input.customers?.count(tierID: nil) }
            let driver: SimulationAssumption = row.tierID == nil ? .conversion : .legacyUpgradeRate
            // An offer that includes something the cohort has charges again for it (the upsell shows one only when
            // nothing smaller sells the rest); the others sell only what the cohort lacks.
            let overlapping = row.offers.filter { !(catalog.productFeatures[$0.productID] ?? []).subtracting($0.adds).isEmpty }
            let fresh = row.offers.filter { offer in !overlapping.contains { $0.productID == offer.productID } }
            func proceeds(_ offers: [Offer]) -> Double {
                offers.reduce(0.0) { $0 + (buyers[$1.productID] ?? 0) * $1.price.doubleValue } * scale
            }
            let chargedAgain: String
            if !overlapping.isEmpty {
                let names = overlapping.map(\.name).joined(separator: ", ")
                chargedAgain = "\(text(ranged(proceeds(overlapping), by: driver, in: scenario))): \(names) includes what they have"
            } else if !recharged.isEmpty {
                chargedAgain = "\(FigureText.money(0)): the upsell withholds \(withheldNames), which would charge again for what they own"
            } else {
                chargedAgain = "\(FigureText.money(0)): nothing offered includes what they have"
            }
            let sales = fresh.isEmpty ? nil : ranged(proceeds(fresh), by: driver, in: scenario)
            let people = (row.size ?? 0) * scale
            let paid: String? = row.tierID.map { tierID in
                alreadyPaid(tierID: tierID, row: row, people: people, listed: listed != nil, scenario)
            }
            rows.append(
                Row(
                    who: who, estimate: row.size, listed: listed, keeps: keeps, offered: offered, alreadyPaid: paid,
                    chargedAgain: chargedAgain, sales: sales))
        }
        return rows + preview.compactMap { row in directSaleRow(row, featureNames: featureNames, catalog: catalog) }
    }

    /// A direct-sale edition's holders as the simulation sizes them: who redeems (a range), what they keep and are
    /// offered, and what the free code can cost, as the bound it is.
    static func directSaleRow(_ row: CohortPreviewRow, featureNames: [String: String], catalog: PlanCatalog) -> Row? {
        guard let sale = row.directSale else { return nil }
        let keeps = row.entitlements.isEmpty ? "nothing paid" : row.entitlements.map { featureNames[$0] ?? $0 }.joined(separator: ", ")
        let offered = row.offers.isEmpty ? "nothing" : row.offers.map { "\($0.name) at \(priceText($0))" }.joined(separator: "; ")
        let product = row.owns.first.map { catalog.product(withID: $0)?.name ?? $0 }
        return Row(
            who: "License holders of \(sale.editionName) (edition \(sale.editionID))" + (row.tierID.map { ", tier \($0)" } ?? ""),
            estimate: row.size, listed: nil, keeps: keeps, offered: offered,
            alreadyPaid: "paid outside the App Store, at prices the plan doesn't hold; \(sale.redeemText)",
            chargedAgain: "\(FigureText.money(0)): " + (product.map { "the code gives \($0) free" } ?? "no legacy product yet"),
            sales: nil, note: "redeemers pay nothing; what it can cost: \(sale.costText)")
    }

    /// A price as the report writes it: the reader's currency when one is set, else as `simulate` prints it.
    static func priceText(_ offer: Offer) -> String {
        guard FigureText.style != .plain else { return offer.priceText }
        let price = FigureText.price(offer.price.doubleValue)
        guard let regular = offer.regularPrice else { return price }
        return "\(price) (was \(FigureText.price(regular.doubleValue)))"
    }

    /// What a legacy cohort paid for the app: its people times the price of the paid releases of its tier on its platform
    /// (a range when they were sold at different prices), and how much of it the plan keeps honouring.
    static func alreadyPaid(
        tierID: String, row: CohortPreviewRow, people: Double, listed: Bool, _ scenario: PreparedScenario
    ) -> String {
        let catalog = scenario.catalog
        let prices: [Double] = (catalog.tier(withID: tierID)?.releases ?? []).compactMap { index in
            let release = catalog.plan.releases[index]
            guard release.platform == row.platform, case .paid(let price) = release.model else { return nil }
            return price.doubleValue
        }
        guard let low = prices.min(), let high = prices.max() else {
            return "not known: the tier has no paid release on \(row.platform.rawValue) in the plan"
        }
        // The list's count is exact; the estimate moves with the legacy buyers (or the paid downloads they are derived from).
        let derived = scenario.resolved(.legacyBuyers)?.origin.isDerived ?? true
        let driver: SimulationAssumption = derived ? .paidDownloadsPerMonth : .legacyBuyers
        var amount: String
        if low == high {
            amount = listed ? FigureText.money(people * low) : text(ranged(people * low, by: driver, in: scenario))
            amount += " at \(FigureText.price(low)) each"
        } else {
            let lower = listed ? people * low : ranged(people * low, by: driver, in: scenario).low
            let upper = listed ? people * high : ranged(people * high, by: driver, in: scenario).high
            amount = "\(FigureText.money(lower))–\(FigureText.money(upper)) at \(FigureText.price(low)) to \(FigureText.price(high)) each"
        }
        let names = Dictionary(catalog.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        if catalog.tier(withID: tierID)?.grants.isEmpty ?? true { return amount + "; not kept: the plan leaves them no paid feature" }
        let takenAway = catalog.plan.tier(withID: tierID)?.takesAway ?? []
        if !takenAway.isEmpty {
            return amount + "; kept, except \(takenAway.map { names[$0] ?? $0 }.joined(separator: ", ")), which the plan takes away"
        }
        return amount + "; kept: they keep what they paid for"
    }
}
