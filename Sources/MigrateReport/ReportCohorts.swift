import MigrateCore
import MigratePlan
import MigrateSimulation

/// Who the switch touches: every cohort the plan creates (the simulation's cohort preview), how many people
/// (the simulation's estimate from the install base, and beside it the customer list's count when one was decided),
/// what they keep, what they are offered, and the money at stake: what legacy buyers already paid that the plan
/// honours, what it would charge anyone again for what they have, and the first purchases each cohort is expected to
/// make. People and money are never in one cell, and a list's count never replaces the install base's.
enum ReportCohorts {
    /// An amount with its P10–P90 range (equal bounds when nothing uncertain moves it).
    typealias Range = (low: Double, mid: Double, high: Double)

    struct Row {
        var who: Markup
        /// People: the simulation's estimate, with its P10–P90 when it has one.
        var people: String
        var listed: Int?
        var keeps: Markup
        var offered: Markup
        /// Legacy buyers: the price each paid for the app; nil for new users.
        var paidEach: String?
        /// Legacy buyers: what they paid in all, with its range.
        var alreadyPaid: String?
        /// Whether the plan keeps honouring what they paid.
        var kept: Markup?
        /// What the plan would charge again for what the cohort has: an amount, or why it is nothing.
        var chargedAgain: Markup
        /// Expected first purchases of offers that add only what the cohort lacks, at list price; or why there are none.
        var sales: String
    }

    static func section(_ input: ReportInput, _ result: ScenarioResult, months: Int) -> String {
        let rows = self.rows(input, result)
        var body = HTML.paragraph(
            "Everyone the switch touches, grouped as the plan decides them: people who bought the app while it was paid (by legacy "
                + "tier) and the new free users, on each platform. 'Keeps' is what each has without paying again; 'offered' is what "
                + "the upsell screen shows them; then the money at stake.")
        if let customers = input.customers { body += HTML.paragraph(listScope(customers, result), class: "scope") }
        var header = ["who", "people (estimate, by month \(months))"]
        if input.customers != nil { header.append("people in the list") }
        header += ["keeps", "offered", "paid each", "already paid (P10–P90)", "kept", "charged again", "expected first purchases (P10–P90)"]
        let table = rows.map { row -> [Markup] in
            var cells: [Markup] = [row.who, "\(row.people)"]
            if input.customers != nil { cells.append("\(row.listed.map(FigureText.count) ?? "—")") }
            cells += [
                row.keeps, row.offered, "\(row.paidEach ?? "—")", "\(row.alreadyPaid ?? "—")", row.kept ?? "nothing to keep: new users paid nothing",
                row.chargedAgain, "\(row.sales)",
            ]
            return cells
        }
        let numeric: Set<Int> = input.customers != nil ? [1, 2] : [1]
        body += HTML.table(caption: "The cohorts and the money at stake", header: header, rows: table, numeric: numeric, layout: .cards)
        var notes: [Markup] = [
            "People (estimate): the simulation's count by month \(months): legacy buyers from the plan's install base, "
                + "new users from the forecast downloads, at the middle values of the assumptions, with the P10–P90 of the simulated "
                + "futures where they vary (as 'migrate simulate' prints it). Every amount in the table is for these people."
        ]
        if let customers = input.customers {
            let summary = customers.summary
            notes.append(
                "People in the list: the customers of \(name: customers.listName), decided as 'migrate explain --batch' decides them "
                    + "(\(FigureText.count(summary.decided)) decided, \(FigureText.count(summary.skippedCount)) skipped), by tier on every "
                    + "platform. The list's counts stand beside the estimate; no amount is worked out from them.")
        }
        notes += [
            "Paid each and already paid: the price of the paid releases the tier's buyers bought (before Apple's commission), and that "
                + "price times the estimated people, with the P10–P90 of the install base it rests on; 'kept' says whether the plan "
                + "keeps honouring it: what they keep without paying again.",
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
        let sales = result.cohorts.compactMap(\.directSale)
        if !sales.isEmpty {
            notes.insert(
                "License holders: people who bought a license outside the App Store (the plan's directSales), counted by "
                    + "seat, each seat given a one-time offer code; how many redeem is the seats × codeRedemptionRate, its median "
                    + "(P10–P90), as 'migrate simulate' prints it. Redeemers pay nothing.", at: notes.count - 1)
            for sale in sales { notes.insert("What the codes of \(name: sale.editionName) can cost: \(sale.costText).", at: notes.count - 1) }
        }
        body += "<div class=\"notes\">\n" + notes.map { HTML.paragraph($0) }.joined() + "</div>\n"
        return HTML.section("cohorts", "Who is affected", body)
    }

    /// What the list is against the install base: the whole of it, or a sample, said once with both counts.
    static func listScope(_ customers: CustomerCounts, _ result: ScenarioResult) -> Markup {
        let listed = customers.legacyCount
        let estimate = result.cohorts.filter { $0.tierID != nil && $0.owns.isEmpty && $0.folded == nil && $0.directSale == nil }
            .reduce(0.0) { $0 + ($1.size ?? 0) }
        let list = Markup("\(name: customers.listName)")
        guard estimate > 0 else {
            return "\(list) lists \(FigureText.count(listed)) legacy buyers; the plan's install base estimates none, so the amounts below count none."
        }
        let share = Double(listed) / estimate
        if share >= CustomerCounts.wholeBaseShare {
            return "\(list) lists \(FigureText.count(listed)) legacy buyers, \(FigureText.percent(share)) of the \(FigureText.people(estimate)) "
                + "the plan's install base estimates: read it as the whole base. The amounts below are for the install base's estimate."
        }
        return "\(list) lists \(FigureText.count(listed)) legacy buyers, \(FigureText.percent(share)) of the \(FigureText.people(estimate)) "
            + "the plan's install base estimates: read it as a sample, which shows how customers are decided, not how many there are. "
            + "The amounts below are for the install base's estimate."
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

    /// "4,120 (2,300–7,900)": people with their band over the draws, when they have one.
    static func people(_ size: Double?, band: Percentiles?) -> String {
        guard let size else { return "—" }
        guard let band, FigureText.people(band.p10) != FigureText.people(band.p90) else { return FigureText.people(size) }
        return "\(FigureText.people(size)) (\(FigureText.people(band.p10))–\(FigureText.people(band.p90)))"
    }

    static func names(_ ids: [String], _ names: [String: String]) -> Markup {
        ids.isEmpty ? "nothing paid" : "\(names: ids.map { names[$0] ?? $0 })"
    }

    static func rows(_ input: ReportInput, _ result: ScenarioResult) -> [Row] {
        let scenario = result.scenario
        let catalog = scenario.catalog
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let preview = result.cohorts
        var rows: [Row] = []
        for (index, row) in preview.enumerated() where row.owns.isEmpty && row.folded == nil && row.directSale == nil {
            let who: Markup
            if let tierID = row.tierID {
                who = "\(name: catalog.tier(withID: tierID)?.name ?? tierID) (tier \(name: tierID)), \(row.platform.rawValue)"
            } else {
                who = "New free users, \(row.platform.rawValue)"
            }
            var offered: Markup = row.offers.isEmpty ? "nothing" : row.offers.map { "\(name: $0.name) at \(priceText($0))" }.joined(separator: "; ")
            let recharged = row.withheld.filter { $0.why.chargesTwice }
            let withheldNames: Markup = "\(names: recharged.map { catalog.product(withID: $0.productID)?.name ?? $0.productID })"
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
            let listed = input.customers?.count(tierID: row.tierID)
            let driver: SimulationAssumption = row.tierID == nil ? .conversion : .legacyUpgradeRate
            // An offer that includes something the cohort has charges again for it (the upsell shows one only when
            // nothing smaller sells the rest); the others sell only what the cohort lacks.
            let overlapping = row.offers.filter { !(catalog.productFeatures[$0.productID] ?? []).subtracting($0.adds).isEmpty }
            let fresh = row.offers.filter { offer in !overlapping.contains { $0.productID == offer.productID } }
            func proceeds(_ offers: [Offer]) -> Double {
                offers.reduce(0.0) { $0 + (buyers[$1.productID] ?? 0) * $1.price.doubleValue }
            }
            let chargedAgain: Markup
            if !overlapping.isEmpty {
                chargedAgain =
                    "\(text(ranged(proceeds(overlapping), by: driver, in: scenario))): \(names: overlapping.map(\.name)) includes what they have"
            } else if !recharged.isEmpty {
                chargedAgain = "\(FigureText.money(0)): the upsell withholds \(withheldNames), which would charge again for what they own"
            } else {
                chargedAgain = "\(FigureText.money(0)): nothing offered includes what they have"
            }
            let sales = fresh.isEmpty ? "none: nothing offered" : text(ranged(proceeds(fresh), by: driver, in: scenario))
            var out = Row(
                who: who, people: people(row.size, band: row.sizeBand), listed: listed, keeps: names(row.entitlements, featureNames),
                offered: offered, chargedAgain: chargedAgain, sales: sales)
            if let tierID = row.tierID {
                let paid = alreadyPaid(tierID: tierID, row: row, people: row.size ?? 0, scenario)
                (out.paidEach, out.alreadyPaid, out.kept) = (paid.each, paid.total, paid.kept)
            }
            rows.append(out)
        }
        return rows + preview.compactMap { row in directSaleRow(row, featureNames: featureNames, catalog: catalog) }
    }

    /// A direct-sale edition's holders as the simulation sizes them: who redeems (a range), what they keep and are
    /// offered; what the free code can cost is said below the table, as the bound it is.
    static func directSaleRow(_ row: CohortPreviewRow, featureNames: [String: String], catalog: PlanCatalog) -> Row? {
        guard let sale = row.directSale else { return nil }
        let offered: Markup = row.offers.isEmpty ? "nothing" : row.offers.map { "\(name: $0.name) at \(priceText($0))" }.joined(separator: "; ")
        let product = row.owns.first.map { catalog.product(withID: $0)?.name ?? $0 }
        let tier: Markup = row.tierID.map { ", tier \(name: $0)" } ?? ""
        return Row(
            who: "License holders of \(name: sale.editionName) (edition \(name: sale.editionID))\(tier)", people: sale.redeemText,
            listed: nil, keeps: names(row.entitlements, featureNames), offered: offered, paidEach: "outside the App Store",
            alreadyPaid: "not known: the plan holds no prices of licenses sold outside the App Store",
            kept: "yes, through a one-time offer code",
            chargedAgain: "\(FigureText.money(0)): " + (product.map { "the code gives \(name: $0) free" } ?? "no legacy product yet"),
            sales: "none: redeemers pay nothing")
    }

    /// A price as the report writes it: in the page's currency and locale.
    static func priceText(_ offer: Offer) -> String {
        let price = FigureText.price(offer.price.doubleValue)
        guard let regular = offer.regularPrice else { return price }
        return "\(price) (was \(FigureText.price(regular.doubleValue)))"
    }

    /// What a legacy cohort paid for the app: the price of the paid releases of its tier on its platform (a range when they
    /// were sold at different prices), that times its people with the range of the install base, and whether the plan
    /// keeps honouring it.
    static func alreadyPaid(tierID: String, row: CohortPreviewRow, people: Double, _ scenario: PreparedScenario) -> (
        each: String, total: String, kept: Markup
    ) {
        let catalog = scenario.catalog
        let prices: [Double] = (catalog.tier(withID: tierID)?.releases ?? []).compactMap { index in
            let release = catalog.plan.releases[index]
            guard release.platform == row.platform, case .paid(let price) = release.model else { return nil }
            return price.doubleValue
        }
        let names = Dictionary(catalog.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let kept: Markup
        if catalog.tier(withID: tierID)?.grants.isEmpty ?? true {
            kept = "no: the plan leaves them no paid feature"
        } else if let takenAway = catalog.plan.tier(withID: tierID)?.takesAway, !takenAway.isEmpty {
            kept = "in part: all but \(names: takenAway.map { names[$0] ?? $0 }), which the plan takes away"
        } else {
            kept = "yes: they keep what they paid for"
        }
        guard let low = prices.min(), let high = prices.max() else {
            return ("—", "not known: the tier has no paid release on \(row.platform.rawValue) in the plan", kept)
        }
        // The estimate moves with the legacy buyers (or the paid downloads they are derived from).
        let derived = scenario.resolved(.legacyBuyers)?.origin.isDerived ?? true
        let driver: SimulationAssumption = derived ? .paidDownloadsPerMonth : .legacyBuyers
        if low == high { return (FigureText.price(low), text(ranged(people * low, by: driver, in: scenario)), kept) }
        let lower = ranged(people * low, by: driver, in: scenario).low
        let upper = ranged(people * high, by: driver, in: scenario).high
        return ("\(FigureText.price(low)) to \(FigureText.price(high))", "\(FigureText.money(lower))–\(FigureText.money(upper))", kept)
    }
}

extension CustomerCounts {
    /// A list that holds at least this share of the legacy buyers the install base estimates is read as the whole base;
    /// a smaller one as a sample.
    static let wholeBaseShare = 0.9
}
