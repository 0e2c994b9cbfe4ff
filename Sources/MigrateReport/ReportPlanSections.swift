import MigrateCore
import MigratePlan
import MigrateSupport

/// What `check` finds before launch day, and the plan's rules laid out for a reviewer to sign off.
enum ReportPlanSections {
    static func traps(_ input: ReportInput) -> String {
        let diagnostics = input.check.diagnostics.sorted { $0.severity < $1.severity }
        var body: String
        if diagnostics.isEmpty {
            body = HTML.paragraph(
                "'migrate check' finds no launch-day trap in this plan: no paid feature left out of reach, no build number that collides "
                    + "with the sandbox's \"1.0\", no cutoff in the future, no version it cannot read.")
        } else {
            body = HTML.paragraph(
                "What 'migrate check' finds in this plan before launch day. Errors stop the launch; warnings are things to confirm.")
            let rows = diagnostics.map { diagnostic in
                [
                    diagnostic.severity.rawValue, diagnostic.message, diagnostic.hint ?? "—", diagnostic.path.map { "\($0)" } ?? "—",
                ]
            }
            body += HTML.table(caption: "Launch-day traps", header: ["severity", "what", "how to fix", "where in the plan"], rows: rows)
        }
        return HTML.section("traps", "Launch-day traps", body)
    }

    static func rules(_ input: ReportInput) -> String {
        let featureNames = Dictionary(input.plan.features.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var body = HTML.paragraph(
            "How the app will tell who paid, and what each group of paid buyers keeps. Each row is one decision to confirm; the last "
                + "column is left blank for a reviewer's initials on a printed copy.")
        let rules = input.check.rules.map { rule in
            [rule.platform.rawValue, rule.rule.displayName, ([rule.reason] + rule.switches).joined(separator: " "), ""]
        }
        body += HTML.table(caption: "Cutoff rules: who counts as a paid buyer", header: ["platform", "rule", "why", "signed off"], rows: rules)
        let tiers = input.check.tiers.map { tier -> [String] in
            var grants = tier.grants.map { featureNames[$0] ?? $0 }.joined(separator: ", ")
            if grants.isEmpty { grants = "nothing paid" }
            let discounts =
                tier.discounts.isEmpty
                ? "—"
                : tier.discounts.map { "\($0.product) at \($0.price)" + ($0.charge.map { " via \($0)" } ?? "") }.joined(separator: ", ")
            return [tier.id.isEmpty ? "(derived)" : tier.id, tier.name.isEmpty ? "—" : tier.name, grants, discounts, ""]
        }
        if tiers.isEmpty {
            body += HTML.paragraph("The plan has no legacy tier.")
        } else {
            let derived = input.check.tiers.first?.isDerived == true ? " (derived from the paid releases)" : ""
            body += HTML.table(
                caption: "Legacy tiers: what paid buyers keep\(derived)", header: ["tier", "name", "keeps", "discounts", "signed off"], rows: tiers)
        }
        return HTML.section("rules", "The rules to sign off", body)
    }
}
