import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateSupport

/// `migrate check PLAN`: every problem in a plan, at once.
enum CheckCommand {
    enum Format: String, CaseIterable, Sendable { case text, json, github }

    static let plan = CommonArguments.plan
    static let format = Argument<Format>.choice(
        "format", valueName: "format", help: "Output format; github prints GitHub Actions annotations for pull requests.", default: .text)
    static let strict = Argument<Bool>.flag("strict", help: "Fail on warnings too.")
    static let now = Argument<Date?>.date("now", help: "Judge 'in the future' against this moment instead of the clock (ISO 8601).")

    static let spec = CommandSpec(
        name: "check",
        abstract: "Check a migration plan for launch-day traps.",
        discussion: """
            Reports every problem at once: JSON syntax, unknown keys and references (with suggestions), \
            duplicate ids, bundle cycles, unparseable versions, a missing free release; and warns about \
            ambiguous build numbers (the date rule is used), universal purchase mixing build numbers with \
            marketing versions, paid features no one can get any more, a first paid build that collides \
            with the sandbox's "1.0", and a cutoff in the future. Exits 0 when clean, 1 with errors (or \
            warnings with --strict), 65 when the file is not JSON, 66 when it is missing.
            """.wrappedForHelp,
        arguments: [plan, format, strict, now],
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        let moment = arguments[Self.now] ?? context.now
        let isStrict = arguments[Self.strict]
        var diagnostics = loaded.document.diagnostics
        var report: CheckReport?
        if let plan = loaded.document.plan, !loaded.document.hasErrors {
            let checked = PlanChecker.check(plan, now: moment)
            report = checked
            diagnostics += checked.diagnostics.located(in: loaded.document.root)
        }
        // Generated code beside the plan whose StoreKit layer comes from another migrate.
        let folder = (context.resolve(loaded.file.displayPath) as NSString).deletingLastPathComponent
        let prefix = (loaded.file.displayPath as NSString).deletingLastPathComponent
        diagnostics += StoreLayerCopies.diagnostics(under: folder, displayPrefix: prefix)
        diagnostics = diagnostics.sortedForDisplay()
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        let unreadable = loaded.document.root == nil

        switch arguments[Self.format] {
        case .github:
            var text = GitHubAnnotations.render(diagnostics, file: loaded.file.displayPath)
            text += verdict(errors: errors, warnings: warnings, strict: isStrict, style: Style(enabled: false)) + "\n"
            context.standardOutput.write(text)
        case .json:
            let value = JSONValue.members([
                ("file", .string(loaded.file.displayPath)),
                ("errors", .integer(errors)),
                ("warnings", .integer(warnings)),
                ("diagnostics", .array(diagnostics.map { $0.json() })),
                ("rules", report.map { .array($0.rules.map(json)) }),
                ("tiers", report.map { .array($0.tiers.map(json)) }),
            ])
            context.standardOutput.write(JSONWriter().string(from: value))
        case .text:
            let style = context.style(for: context.standardOutput)
            var text = DiagnosticRenderer(file: loaded.file, style: style).render(diagnostics)
            if let report {
                if !text.isEmpty { text += "\n" }
                text += summary(report, style: style)
            }
            text += "\n" + verdict(errors: errors, warnings: warnings, strict: isStrict, style: style) + "\n"
            // Syntax errors go to stderr as well as the report, so scripts that only show stderr see them.
            context.standardOutput.write(text)
        }
        if unreadable { return .dataError }
        if errors > 0 || (isStrict && warnings > 0) { return .checkFailed }
        return .success
    }

    static func summary(_ report: CheckReport, style: Style) -> String {
        var text = style.bold("Cutoff rules") + "\n"
        let table = TextTable(
            rows: report.rules.map { rule in
                [rule.platform.rawValue, rule.rule.displayName]
            })
        for (line, rule) in zip(table.lines(), report.rules) {
            text += "  " + line + "\n"
            for (index, piece) in TextTable.wrap("because " + rule.reason, width: TerminalWidth.columns - 6).enumerated() {
                text += (index == 0 ? "    " : "      ") + style.dim(piece) + "\n"
            }
            for change in rule.switches { text += "  " + style.dim("  " + change) + "\n" }
        }
        text += style.bold("Legacy tiers") + (report.tiers.first?.isDerived == true ? style.dim(" (derived from the paid releases)") : "") + "\n"
        if report.tiers.isEmpty {
            text += "  (none)\n"
        }
        let tierTable = TextTable(
            rows: report.tiers.map { tier in
                var grants = tier.grants.joined(separator: ", ")
                if grants.isEmpty { grants = "—" }
                if !tier.discounts.isEmpty {
                    grants +=
                        "; discounts: "
                        + tier.discounts.map { "\($0.product) at \($0.price)" + ($0.charge.map { " via \($0)" } ?? "") }.joined(separator: ", ")
                }
                return [tier.id, tier.name, grants]
            })
        for line in tierTable.lines() { text += "  " + line + "\n" }
        return text
    }

    static func verdict(errors: Int, warnings: Int, strict: Bool, style: Style) -> String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        if errors == 0 && warnings == 0 { return style.green("✓ No problems found.") }
        let counts = "\(plural(errors, "error")), \(plural(warnings, "warning"))"
        if errors > 0 { return style.red("✗ \(counts).") }
        return strict ? style.red("✗ \(counts) (--strict).") : style.yellow("✓ \(counts).")
    }

    static func json(_ rule: TrackRule) -> JSONValue {
        .object([
            "platform": .string(rule.platform.rawValue),
            "rule": .string(rule.rule.rawValue),
            "reason": .string(rule.reason),
            "switches": .strings(rule.switches),
        ])
    }

    static func json(_ tier: ResolvedTier) -> JSONValue {
        .object([
            "id": .string(tier.id),
            "name": .string(tier.name),
            "derived": .bool(tier.isDerived),
            "grants": .strings(tier.grants),
            "discounts": .array(
                tier.discounts.map {
                    .members([
                        ("product", .string($0.product)), ("price", .string($0.price.description)),
                        ("mechanism", ExplainRenderer.mechanism($0.charge)),
                    ])
                }),
        ])
    }
}
