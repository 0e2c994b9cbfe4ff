import MigrateCore
import MigratePlan
import MigrateSimulation
import MigrateSupport

/// Every warning the other commands give for these inputs, and the plan's rules laid out for a reviewer to sign off.
enum ReportPlanSections {
    static func warnings(_ input: ReportInput, _ warnings: [ReportWarning]) -> String {
        var body: String
        let fromCheck = warnings.contains { $0.source == "migrate check" }
        if warnings.isEmpty {
            body = HTML.paragraph(
                "No command warns about these inputs. 'migrate check' finds no launch-day trap in this plan: no paid feature left out of "
                    + "reach, no build number that collides with the sandbox's \"1.0\", no cutoff in the future, no version it cannot read.")
        } else {
            let checkLine: Markup =
                fromCheck
                ? "Errors stop the launch; warnings are things to confirm."
                : "'migrate check' finds no launch-day trap in the plan itself; the others below come from the customer list, the "
                    + "forecast or the sales reports."
            body = HTML.paragraph(
                "Every warning 'migrate check', 'migrate explain --batch' and 'migrate simulate' give for the same inputs, in their "
                    + "words. Those that touch people who paid are also beside the verdict. \(checkLine)")
            body += ReportWarnings.table(warnings)
        }
        return HTML.section("warnings", "Warnings and launch-day traps", body)
    }

    static func rules(_ input: ReportInput) -> String {
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var body = HTML.paragraph(
            "How the app will tell who paid, and what each group of paid buyers keeps. Each row is one decision to confirm; the last "
                + "column is left blank for a reviewer's initials on a printed copy.")
        let rules = input.check.rules.map { rule -> [String] in
            let switches = rule.switches.isEmpty ? "" : "; " + rule.switches.joined(separator: "; ")
            return [rule.platform.rawValue, rule.rule.displayName, "because " + rule.reason + switches, ""]
        }
        body += HTML.table(
            caption: "Cutoff rules: who counts as a paid buyer", header: ["platform", "rule", "why", "signed off"], plain: rules,
            layout: .stacked(below: 40))
        let tiers = input.check.tiers.map { tier -> [Markup] in
            let grants: Markup = tier.grants.isEmpty ? "nothing paid" : "\(names: tier.grants.map { featureNames[$0] ?? $0 })"
            let discounts: Markup =
                tier.discounts.isEmpty
                ? "—"
                : tier.discounts.map { discount -> Markup in
                    let via = discount.charge.map { " via \($0.description)" } ?? ""
                    return "\(name: discount.product) at \(FigureText.price(discount.price.doubleValue))\(via)"
                }.joined(separator: ", ")
            return [
                tier.id.isEmpty ? "(derived)" : "\(name: tier.id)", tier.name.isEmpty ? "—" : "\(name: tier.name)", grants, discounts, "",
            ]
        }
        if tiers.isEmpty {
            body += HTML.paragraph("The plan has no legacy tier.")
        } else {
            let derived = input.check.tiers.first?.isDerived == true ? " (derived from the paid releases)" : ""
            body += HTML.table(
                caption: "Legacy tiers: what paid buyers keep\(derived)", header: ["tier", "name", "keeps", "discounts", "signed off"],
                rows: tiers, layout: .stacked(below: 40))
        }
        return HTML.section("rules", "The rules to sign off", body)
    }
}
