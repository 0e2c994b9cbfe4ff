import MigrateCore
import MigratePlan
import MigrateSimulation

/// Who the switch touches: every cohort the plan creates (the simulation's cohort preview), how many people
/// (the customer list's counts when one was decided), what they keep, what they are offered, and what those
/// offers may bring in.
enum ReportCohorts {
    struct Row {
        var who: String
        var estimate: Double?
        var listed: Int?
        var keeps: String
        var offered: String
        /// Expected first purchases at list price, and their P10–P90 with the cohort's buying rate.
        var sales: (low: Double, mid: Double, high: Double)?
    }

    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        let rows = self.rows(input, result)
        var body = HTML.paragraph(
            "Everyone the switch touches, grouped as the plan decides them: people who bought the app while it was paid (by legacy "
                + "tier) and the new free users, on each platform. 'Keeps' is what each has without paying again; 'offered' is what "
                + "the upsell screen shows them.")
        var header = ["who", "how many (estimate)"]
        if input.customers != nil { header.append("in the list") }
        header += ["keeps", "offered", "expected sales", "range (P10–P90)"]
        let table = rows.map { row -> [String] in
            var cells = [row.who, row.estimate.map(FigureText.money) ?? "—"]
            if input.customers != nil { cells.append(row.listed.map(FigureText.count) ?? "—") }
            cells += [row.keeps, row.offered]
            if let sales = row.sales {
                cells += [FigureText.money(sales.mid), "\(FigureText.money(sales.low))–\(FigureText.money(sales.high))"]
            } else {
                cells += ["—", "—"]
            }
            return cells
        }
        let numeric: Set<Int> = input.customers != nil ? [1, 2, 5, 6] : [1, 4, 5]
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
                    + "by tier on every platform; the expected sales of a legacy tier are scaled to the list's count.")
        }
        notes.append(
            "Expected sales: the first purchases of what each cohort is offered, at list price before Apple's commission, with the "
                + "middle values of the assumptions; the range moves the cohort's buying rate (legacyUpgradeRate for legacy buyers, "
                + "conversion for new users) from its P10 to its P90. Subscriptions' renewals are in the month-by-month forecast, not here.")
        body += "<div class=\"notes\">\n" + notes.map { HTML.paragraph($0) }.joined() + "</div>\n"
        return HTML.section("cohorts", "Who is affected", body)
    }

    static func rows(_ input: ReportInput, _ result: ScenarioResult) -> [Row] {
        let scenario = result.scenario
        let catalog = scenario.catalog
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let preview = result.cohorts
        // The estimated size of each tier over its platforms, to share a list's count out.
        var tierSizes: [String: Double] = [:]
        for row in preview where row.owns.isEmpty && row.folded == nil {
            if let tier = row.tierID { tierSizes[tier, default: 0] += row.size ?? 0 }
        }
        var rows: [Row] = []
        for (index, row) in preview.enumerated() where row.owns.isEmpty && row.folded == nil {
            let who: String
            if let tierID = row.tierID {
                who = "\(catalog.tier(withID: tierID)?.name ?? tierID) (tier \(tierID)), \(row.platform.rawValue)"
            } else {
                who = "New free users, \(row.platform.rawValue)"
            }
            let keeps = row.entitlements.isEmpty ? "nothing paid" : row.entitlements.map { featureNames[$0] ?? $0 }.joined(separator: ", ")
            var offered = row.offers.isEmpty ? "nothing" : row.offers.map { "\($0.name) at \($0.priceText)" }.joined(separator: "; ")
            let recharged = row.withheld.filter { $0.reason.hasPrefix("would charge again") }
            if !recharged.isEmpty {
                let names = recharged.map { catalog.product(withID: $0.productID)?.name ?? $0.productID }.joined(separator: ", ")
                offered += "; not offered: \(names), which would charge again for what they own"
            }
            // Expected buyers of each offer: the states that bought it, which follow the cohort's own row.
            var buyers: [String: Double] = [:]
            for later in preview[(index + 1)...] {
                if later.owns.isEmpty && later.folded == nil { break }
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
            var sales: (Double, Double, Double)?
            if !row.offers.isEmpty {
                let mid = row.offers.reduce(0.0) { $0 + (buyers[$1.productID] ?? 0) * $1.price.doubleValue } * scale
                let driver: SimulationAssumption = row.tierID == nil ? .conversion : .legacyUpgradeRate
                let distribution = scenario.assumptions.first { $0.assumption == driver }?.distribution
                if let distribution, distribution.median > 0 {
                    let median = distribution.median
                    sales = (mid * distribution.quantile(0.1) / median, mid, mid * distribution.quantile(0.9) / median)
                } else {
                    sales = (mid, mid, mid)
                }
            }
            let estimate = row.size
            if input.customers != nil && row.tierID == nil { listed = input.customers?.count(tierID: nil) }
            rows.append(Row(who: who, estimate: estimate, listed: listed, keeps: keeps, offered: offered, sales: sales))
        }
        return rows
    }
}
