import MigrateCore
import MigrateSimulation
import MigrateSupport

/// Every warning the other commands give for the same inputs, in their words: `check`'s diagnostics, `explain --batch`'s
/// warnings about the list, `simulate`'s notes about how the forecast was set up and `simulate --actuals`' about the
/// reports. Those that harm someone who paid (a payer shown a paywall, a feature taken away, a buyer left in no tier)
/// stand beside the verdict; every one is in the table of warnings.
struct ReportWarning: Hashable {
    /// The command that gives it, as the reader would run it.
    var source: String
    var severity: String
    /// True when it harms someone who paid: it goes beside the verdict.
    var harmsPayers: Bool
    /// How many customers of the list it counts, when it counts them.
    var count: Int?
    var text: String
    var fix: String?
    /// Where: a JSON path in the plan, or the list's lines.
    var place: String?
}

enum ReportWarnings {
    /// The `check` codes that harm someone who paid: their buyers lose what they paid for, or pay again for it.
    static let harmfulCodes: Set<DiagnosticCode> = [
        .paidReleaseUncovered, .legacyFeatureDropped, .freeUpdateTakenAway, .legacyProductGrantsLess,
        DiagnosticCode(DiagnosticCode.DirectSales.legacyProductGrantsLess), DiagnosticCode(DiagnosticCode.DirectSales.editionUnreached),
    ]

    /// The list's row warnings that harm someone who paid: a customer who bought shown a paywall.
    static let harmfulRows: Set<BatchRowWarning> = [.paidButNew]

    static func all(_ input: ReportInput) -> [ReportWarning] {
        var out: [ReportWarning] = []
        for diagnostic in input.check.diagnostics.sorted(by: { $0.severity < $1.severity }) {
            out.append(
                ReportWarning(
                    source: "migrate check", severity: diagnostic.severity.rawValue, harmsPayers: harmfulCodes.contains(diagnostic.code),
                    count: nil, text: diagnostic.message, fix: diagnostic.hint, place: diagnostic.path.map { "\($0)" }))
        }
        if let customers = input.customers {
            let counts = customers.summary.warningCounts
            for warning in customers.summary.classifiedWarnings {
                out.append(
                    ReportWarning(
                        source: "migrate explain --batch \(customers.listName)", severity: "warning",
                        harmsPayers: warning.kind.map(harmfulRows.contains) ?? false, count: warning.kind.flatMap { counts[$0] },
                        text: warning.text, fix: nil, place: nil))
            }
        }
        if let result = input.simulation?.scenarios.first {
            for note in forecastNotes(result) {
                out.append(ReportWarning(source: "migrate simulate", severity: "note", harmsPayers: false, text: note))
            }
        }
        for warning in input.actualsWarnings {
            out.append(ReportWarning(source: "migrate simulate --actuals", severity: "warning", harmsPayers: false, text: warning))
        }
        return out
    }

    /// What `simulate` says about how the forecast was set up, in its words: no uncertainty modelled, the season,
    /// the commission assumed.
    static func forecastNotes(_ result: ScenarioResult) -> [String] {
        var notes: [String] = []
        if !result.verdict.uncertaintyModelled && result.verdict.cannotCompare == nil {
            notes.append(Verdict.noUncertaintyNotice)
        }
        return notes + result.scenario.notes.map(\.text)
    }

    /// The harmful ones, beside the verdict: each with its count and the command that gives it.
    static func besideVerdict(_ warnings: [ReportWarning]) -> String {
        let harmful = warnings.filter(\.harmsPayers)
        guard !harmful.isEmpty else { return "" }
        let count = harmful.count
        var out = "<div class=\"harm\" role=\"note\" aria-labelledby=\"harm-title\">\n"
        out += "<h3 id=\"harm-title\">\(count == 1 ? "One warning touches" : "\(count) warnings touch") people who paid</h3>\n"
        out += HTML.list(
            harmful.map { warning in
                return "\(warning.text) (\(warning.source)\(warning.place.map { ", at \($0)" } ?? ""))."
            })
        return out + "</div>\n"
    }

    /// Every warning, as a table.
    static func table(_ warnings: [ReportWarning]) -> String {
        let rows = warnings.map { warning -> [Markup] in
            [
                "\(warning.source)", "\(warning.severity)\(warning.harmsPayers ? " (touches payers: also beside the verdict)" : "")",
                "\(warning.count.map(FigureText.count) ?? "—")", "\(warning.text)", "\(warning.fix ?? "—")", "\(warning.place ?? "—")",
            ]
        }
        return HTML.table(
            caption: "Every warning check, explain --batch and simulate give for these inputs",
            header: ["from", "kind", "customers", "what", "how to fix", "where"], rows: rows, numeric: [2], layout: .stacked(below: 64))
    }
}

extension ReportWarning {
    init(source: String, severity: String, harmsPayers: Bool, text: String) {
        self.init(source: source, severity: severity, harmsPayers: harmsPayers, count: nil, text: text, fix: nil, place: nil)
    }
}
