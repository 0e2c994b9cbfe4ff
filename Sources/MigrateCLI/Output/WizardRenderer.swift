import MigratePlan
import MigrateSupport
import MigrateWizard

/// The `migrate init` wizard's text as a terminal shows it: questions, choices, hints, what each answer did, the
/// summary, the plan's warnings and the next steps, each wrapped at `TerminalWidth` with its later lines indented
/// under its text. The wizard's own strings stay whole (its tests and the answers file read them); only their
/// printing wraps. What a person types, after `> [default] `, is never wrapped.
struct WizardRenderer {
    var style: Style
    var width = TerminalWidth.columns

    private func paragraph(_ text: String, first: String, rest: String, styled: (String) -> String = { $0 }) -> String {
        TextTable.paragraph(text, first: first, rest: rest, width: width, styled: styled).map { $0 + "\n" }.joined()
    }

    /// A question up to its answer line: the prompt, the choices (continued under their text), the hint.
    func question(_ question: Question) -> String {
        var text = paragraph(question.prompt, first: "", rest: "", styled: style.bold)
        for choice in question.visibleChoices {
            if choice.hiddenBefore > 0 {
                text += paragraph(
                    "… \(Limits.grouped(choice.hiddenBefore)) more, not shown (type a version or its start to find one)", first: "  ",
                    rest: "    ", styled: style.dim)
            }
            let number = "  \(choice.number). "
            text += paragraph(choice.text, first: number, rest: String(repeating: " ", count: number.count))
        }
        if let hint = question.hint { text += paragraph(hint, first: "  ", rest: "  ", styled: style.dim) }
        return text
    }

    /// The line a person answers on: the default in brackets, then what they type.
    func answerLine(_ question: Question) -> String {
        "> " + (question.defaultAnswer.map { "[\($0)] " } ?? "")
    }

    /// A question answered by a flag or the answers file, with that answer, which stays whole: after the prompt
    /// when it fits there, on a line of its own when not.
    func given(_ question: Question, answer: String) -> String {
        var lines = TextTable.paragraph(question.prompt + " " + style.dim("(given)"), first: "", rest: "  ", width: width)
        if lines[lines.count - 1].visibleCount + 1 + answer.count <= width {
            lines[lines.count - 1] += " " + answer
        } else {
            lines.append("  " + answer)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// What an answer meant (`→`), one paragraph each.
    func consequences(_ lines: [String], marker: Bool = true) -> String {
        lines.map { paragraph($0, first: "  " + (marker ? style.green("→ ") : ""), rest: "    ") }.joined()
    }

    /// An answer not understood, or an answer given that could not be used.
    func sorry(_ message: String) -> String {
        paragraph(message, first: "  " + style.yellow("Sorry: "), rest: "    ")
    }

    /// A line indented under the text before it, such as a note read from the project or an answer replaced.
    func note(_ text: String, styled: (String) -> String = { $0 }) -> String {
        paragraph(text, first: "  ", rest: "    ", styled: styled)
    }

    /// The summary's lines (`PlanBuilder.summary`), each value continued under its column.
    func summary(_ lines: [String]) -> String {
        let rest = String(repeating: " ", count: 2 + PlanBuilder.summaryLabelWidth)
        return lines.map { paragraph($0, first: "  ", rest: rest) }.joined()
    }

    /// A diagnostic of the plan about to be written, and its fix. No editor reads these lines (they name no file),
    /// so the first wraps too.
    func diagnostic(_ diagnostic: Diagnostic) -> String {
        let label = diagnostic.severity == .error ? style.red("error") : style.yellow(diagnostic.severity.rawValue)
        var text = paragraph("\(label): \(diagnostic.path.map { "\($0): " } ?? "")\(diagnostic.message)", first: "  ", rest: "    ")
        if let hint = diagnostic.hint { text += paragraph("fix: " + hint, first: "    ", rest: "         ", styled: style.dim) }
        return text
    }

    /// A next step: the command, then what it does in the column `descriptionColumn`, continued under it; on a line
    /// of its own when the command leaves that column too narrow.
    func step(_ command: String, _ description: String, descriptionColumn: Int) -> String {
        let lead = "  " + command + String(repeating: " ", count: max(3, descriptionColumn - 2 - command.count))
        if lead.count + description.count <= width || width - lead.count >= 30 {
            return paragraph(description, first: lead, rest: String(repeating: " ", count: lead.count))
        }
        return "  \(command)\n" + paragraph(description, first: "      ", rest: "      ")
    }
}
