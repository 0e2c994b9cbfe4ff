import MigrateCore
import MigratePlan
import MigrateSupport

/// Renders a `CustomerReport` as text for people or JSON for scripts.
struct ExplainRenderer {
    let catalog: PlanCatalog

    private var plan: MigrationPlan { catalog.plan }

    func cohortTitle(_ report: CustomerReport) -> String {
        switch report.decision.cohort {
        case .legacy(let id): "legacy tier '\(id)'" + (report.tier.map { " — \($0.name)" } ?? "")
        case .newCustomer: report.decision.rule == .undetermined ? "new customer (undetermined)" : "new customer"
        }
    }

    func text(_ report: CustomerReport, style: Style) -> String {
        let customer = report.customer
        var text = style.bold("Customer") + "\n"
        var facts: [[String]] = [["platform", customer.platform.rawValue]]
        if let original = customer.originalPlatform { facts.append(["original platform", original.rawValue]) }
        facts.append(["environment", customer.environment.rawValue])
        facts.append(["original version", customer.originalAppVersion ?? "—"])
        facts.append(["original purchase", customer.originalPurchaseDate.map(Timestamp.format) ?? "—"])
        if case .failed(let age) = customer.appTransaction {
            facts.append(["verification", "failed" + (age.map { ", last verified \($0) days ago" } ?? ", nothing cached")])
        }
        if customer.isAppPurchaseRevoked { facts.append(["app purchase", "refunded"]) }
        if customer.isVolumePurchase { facts.append(["install", "Volume Purchase Program"]) }
        let owns = customer.purchases.map { purchase -> String in
            let states = (purchase.purchaseDate.map { ["bought \(Timestamp.format($0))"] } ?? []) + purchase.stateNames
            return purchase.productID + (states.isEmpty ? "" : " (\(states.joined(separator: ", ")))")
        }
        facts.append(["owns", owns.isEmpty ? "—" : owns.joined(separator: ", ")])
        for line in TextTable(rows: facts).lines() { text += "  " + line + "\n" }

        let decision = report.decision
        text += "\n" + style.bold("Cohort: ") + style.cyan(cohortTitle(report)) + "\n"
        var why: [[String]] = [["rule", decision.rule.displayName + (decision.trackPlatform.map { ", \($0) releases" } ?? "")]]
        for comparison in decision.comparisons { why.append(["compared", comparison]) }
        for reason in decision.reasons { why.append(["because", reason]) }
        for note in decision.notes { why.append(["note", note]) }
        text += indented(why)

        text += "\n" + style.bold("Features") + "\n"
        var rows: [[String]] = []
        // A feature's sellers, one a line under its row: product ids are long, and a list of them wrapped in the
        // last column would break inside its parentheses.
        var sellersOf: [Int: [String]] = [:]
        let grants = Dictionary(report.entitlements.features.map { ($0.featureID, $0) }, uniquingKeysWith: { first, _ in first })
        for feature in plan.features {
            if let grant = grants[feature.id] {
                rows.append([style.green("✓"), feature.id, feature.name, grant.sources.map(\.description).joined(separator: "; ")])
            } else {
                let sellers = catalog.products(granting: feature.id).filter(\.forSale).map { "\($0.id) (\($0.price))" }
                if sellers.count > 0 { sellersOf[rows.count] = sellers }
                rows.append([style.red("✗"), feature.id, feature.name, sellers.isEmpty ? "not sold" : "sold in"])
            }
        }
        if rows.isEmpty { text += "  (the plan lists no features)\n" }
        for (index, lines) in TextTable(rows: rows, maxWidth: TerminalWidth.columns - 2).rowLines().enumerated() {
            for line in lines { text += "  " + line + "\n" }
            for seller in sellersOf[index] ?? [] { text += "       " + seller + "\n" }
        }
        for ignored in report.entitlements.ignored {
            text += "  " + style.dim("ignored \(ignored.productID): \(ignored.reason)") + "\n"
        }
        for note in report.entitlements.notes { text += "  " + style.dim("note: " + note) + "\n" }

        text += "\n" + style.bold("Offers") + "\n"
        let upsell = report.upsell
        if upsell.offers.isEmpty {
            text += "  (none)\n"
        } else {
            let offerRows = upsell.offers.enumerated().map { index, offer -> [String] in
                return ["\(index + 1).", offer.productID, offer.name, offer.priceText, offer.reason]
            }
            for line in TextTable(rows: offerRows, maxWidth: TerminalWidth.columns - 2).lines() { text += "  " + line + "\n" }
        }
        for withheld in upsell.withheld {
            text += Self.dimParagraph("withheld \(withheld.productID): \(withheld.reason)", style: style)
        }
        for note in upsell.notes { text += "  " + style.dim("note: " + note) + "\n" }
        text += "  Restore Purchases: " + (upsell.showsRestore ? "shown" : "can be hidden (everything is unlocked)") + "\n"
        return text
    }

    /// A dim line that wraps at `TerminalWidth`, its continuation lines indented under its first word.
    static func dimParagraph(_ text: String, style: Style) -> String {
        TextTable.wrap(text, width: TerminalWidth.columns - 4).enumerated().map { index, line in
            (index == 0 ? "  " : "    ") + style.dim(line) + "\n"
        }.joined()
    }

    private func indented(_ rows: [[String]]) -> String {
        // Long explanations wrap under their column instead of running off the terminal.
        let labelWidth = (rows.map { $0[0].count }.max() ?? 0) + 2
        var text = ""
        for row in rows {
            let lines = HelpFormatter.wrap(row[1], width: max(40, TerminalWidth.columns - 2 - labelWidth))
            text += "  " + row[0] + String(repeating: " ", count: labelWidth - row[0].count) + (lines.first ?? "") + "\n"
            for line in lines.dropFirst() { text += String(repeating: " ", count: labelWidth + 2) + line + "\n" }
        }
        return text
    }

    func json(_ report: CustomerReport) -> JSONValue {
        let customer = report.customer
        let decision = report.decision
        var cohort: [(String, JSONValue?)] = []
        switch decision.cohort {
        case .legacy(let id):
            cohort = [("kind", .string("legacy")), ("tier", .string(id)), ("tierName", report.tier.map { .string($0.name) })]
        case .newCustomer:
            cohort = [("kind", .string("newCustomer"))]
        }
        cohort += [
            ("rule", .string(decision.rule.rawValue)),
            ("trackPlatform", decision.trackPlatform.map { .string($0.rawValue) }),
            ("originalRelease", decision.originalRelease.map { .string(plan.releases[$0].displayName) }),
            ("comparisons", .strings(decision.comparisons)),
            ("reasons", .strings(decision.reasons)),
            ("notes", .strings(decision.notes)),
            ("fromCache", .bool(decision.fromCache)),
        ]
        return .members([
            (
                "customer",
                .members([
                    ("platform", .string(customer.platform.rawValue)),
                    ("originalPlatform", customer.originalPlatform.map { .string($0.rawValue) }),
                    ("environment", .string(customer.environment.rawValue)),
                    ("originalAppVersion", customer.originalAppVersion.map { .string($0) }),
                    ("originalPurchaseDate", customer.originalPurchaseDate.map { .string(Timestamp.format($0)) }),
                    ("owns", .strings(customer.purchases.map(\.productID))),
                ])
            ),
            ("cohort", .members(cohort)),
            (
                "features",
                .array(
                    report.entitlements.features.map { grant in
                        .object(["id": .string(grant.featureID), "sources": .strings(grant.sources.map(\.description))])
                    })
            ),
            (
                "ignoredPurchases",
                .array(report.entitlements.ignored.map { .object(["product": .string($0.productID), "reason": .string($0.reason)]) })
            ),
            (
                "offers",
                .array(
                    report.upsell.offers.map { offer in
                        .members([
                            ("product", .string(offer.productID)),
                            ("name", .string(offer.name)),
                            ("price", .string(offer.price.description)),
                            ("regularPrice", offer.regularPrice.map { .string($0.description) }),
                            ("mechanism", Self.mechanism(offer.charge)),
                            ("adds", .strings(offer.adds)),
                            ("switchesFrom", offer.switchesFrom.map { .string($0) }),
                            ("keepsRenewing", offer.keepsRenewing.isEmpty ? nil : .strings(offer.keepsRenewing)),
                            ("reason", .string(offer.reason)),
                        ])
                    })
            ),
            (
                "withheld",
                .array(report.upsell.withheld.map { .object(["product": .string($0.productID), "reason": .string($0.reason)]) })
            ),
            ("showsRestore", .bool(report.upsell.showsRestore)),
        ])
    }

    /// How the App Store charges a legacy price, for JSON: `{"type": "promotionalOffer", "id": "…"}` or
    /// `{"type": "legacyProduct", "id": "…"}` (the plan's keys); nil (left out) at the usual price.
    static func mechanism(_ charge: LegacyCharge?) -> JSONValue? {
        charge.map { .object(["type": .string($0.key), "id": .string($0.value)]) }
    }
}
