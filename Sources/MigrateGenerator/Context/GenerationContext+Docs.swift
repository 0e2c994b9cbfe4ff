import Foundation
import MigrateCore
import MigratePlan

// The Markdown and CSV tables of ENTITLEMENTS.md, TEST_MATRIX.md and TEST_MATRIX.csv.
extension GenerationContext {
    var rulesValue: [TemplateValue] {
        catalog.trackRules.map { rule in
            ["platform": .string(rule.platform.rawValue), "rule": .string(rule.rule.displayName), "reason": .string(Self.markdownCell(rule.reason))]
        }
    }

    /// Whether the Markdown tables have a column per feature. Past `maximumFeatureColumns` they list each
    /// row's features instead: a product × feature grid grows with the square of the catalog (400 MB of
    /// Markdown at 10,000 products), and no one reads a table that wide.
    var featureColumns: Bool { plan.features.count <= Self.maximumFeatureColumns }

    /// `cells` and `cellsText` for a row of a feature table (empty without feature columns), and `featuresText`:
    /// the names of the features in `marked`, in plan order.
    private func featureCells(_ marked: Set<String>, yes: String, no: String) -> [String: TemplateValue] {
        let names = catalog.ordered(marked).map { Self.markdownCell(featureNames[$0] ?? $0) }
        var members: [String: TemplateValue] = ["featuresText": .string(names.isEmpty ? "—" : names.joined(separator: ", "))]
        let cells: [TemplateValue] = featureColumns ? plan.features.map { ["mark": .string(marked.contains($0.id) ? yes : no)] } : []
        members["cells"] = .list(cells)
        members["cellsText"] = Self.cellsText(cells)
        return members
    }

    var cohortRows: [TemplateValue] {
        var rows: [TemplateValue] = []
        let free = Set(plan.app.platforms.flatMap { catalog.freeFeatures(on: $0) })
        for tier in catalog.tiers {
            var row = featureCells(free.union(tier.grants), yes: "✓", no: "—")
            row["title"] = .string(Self.markdownCell("\(tier.name) (`\(tier.id)`)"))
            rows.append(.object(row))
        }
        var row = featureCells(free, yes: "✓", no: "—")
        row["title"] = "New customers (free download)"
        rows.append(.object(row))
        return rows
    }

    var productRows: [TemplateValue] {
        plan.products.map { product in
            let features = catalog.productFeatures[product.id] ?? []
            var row = featureCells(features, yes: "✓", no: " ")
            row["id"] = .string(product.id)
            row["name"] = .string(Self.markdownCell(product.name == product.id ? "" : product.name))
            row["price"] = .string(product.price.description)
            row["forSale"] = .string(product.forSale ? "yes" : "retired")
            // `cells` of a product row leave unmarked features empty rather than "—".
            if featureColumns { row["cells"] = .list(plan.features.map { ["mark": .string(features.contains($0.id) ? "✓" : "")] }) }
            return .object(row)
        }
    }

    /// For each cohort with nothing bought, and with each lasting product bought, what is offered and withheld.
    var offerRows: [TemplateValue] {
        var seen = Set<Cohort>()
        var bases: [(title: String, test: GeneratedTestCase)] = []
        for test in testCases
        where test.customer.environment == .production && test.customer.purchases.isEmpty
            && test.expected.decision.rule != .undetermined && test.customer.appTransaction == .verified
            && !test.customer.isVolumePurchase && !test.customer.isAppPurchaseRevoked
        {
            if seen.insert(test.expected.decision.cohort).inserted {
                let title: String
                if let tier = test.expected.tier { title = "\(tier.name) (`\(tier.id)`)" } else { title = "New customers" }
                bases.append((title, test))
            }
        }
        // One row per lasting product shows how bundles and add-ons behave; past a few dozen
        // products the table would only repeat itself, so it stops there.
        let ownings: [[String]] = [[]] + plan.products.lazy.filter { $0.kind != .consumable }.prefix(Self.maximumOfferTableProducts).map { [$0.id] }
        var owners: [Customer] = []
        for (_, base) in bases {
            for owning in ownings.dropFirst() {
                var customer = base.customer
                customer.purchases = owning.map { OwnedProduct(productID: $0) }
                owners.append(customer)
            }
        }
        // What a row shows of a report (its first few offers and the offers withheld as charging twice), taken where
        // the report is made so that a report of thousands of offers is let go at once.
        @Sendable func shown(_ report: CustomerReport) -> (offered: [String], withheld: [String]) {
            let offers = report.upsell.offers
            let chargingTwice = report.upsell.withheld.filter(\.why.chargesTwice)
            return (
                Self.abbreviated(offers.prefix(Self.abbreviationLimit).map { "`\($0.productID)` \($0.priceText)" }, of: offers.count),
                Self.abbreviated(chargingTwice.prefix(Self.abbreviationLimit).map { "`\($0.productID)`" }, of: chargingTwice.count)
            )
        }
        // Owning nothing, a cohort's row is its test case, whose report is known.
        var owned = ParallelReports.map(owners, advisor: advisor, shown).makeIterator()
        var rows: [TemplateValue] = []
        for (title, base) in bases {
            for owning in ownings {
                let (offered, withheld) = owning.isEmpty ? shown(base.expected) : owned.next()!
                rows.append([
                    "cohort": .string(Self.markdownCell(title)),
                    "owns": .string(owning.isEmpty ? "—" : owning.map { "`\($0)`" }.joined(separator: ", ")),
                    "offered": .string(offered.isEmpty ? "nothing (Restore can be hidden)" : offered.joined(separator: ", ")),
                    "withheld": .string(withheld.isEmpty ? "—" : withheld.joined(separator: ", ") + " (would charge twice)"),
                ])
            }
        }
        return rows
    }
}
