import Foundation

/// Drives the wizard without a person: answers come from flags or an `--answers` file, keyed by
/// `QuestionID.key`; a missing answer takes the default only when defaults are accepted (`--yes`).
public enum ScriptedRun {
    public enum Failure: Error, Sendable, Hashable {
        /// No answer and no default to take; the flag or key would provide it.
        case missing(QuestionID, prompt: String)
        /// The given answer was not understood.
        case invalid(QuestionID, answer: String, message: String)
    }

    /// Answers every question; the confirmation is implied. Returns the finished wizard and the
    /// consequence lines in order.
    public static func run(_ start: Wizard, answers: [String: String], acceptDefaults: Bool) -> Result<(Wizard, [String]), Failure> {
        var wizard = start
        var lines: [String] = []
        var guardCount = 0
        while let question = wizard.question {
            guardCount += 1
            if guardCount > 10_000 { break }
            let id = question.id
            let text: String
            if id == .confirm {
                text = "yes"
            } else if let given = answers[id.key] {
                text = given
            } else if acceptDefaults, question.defaultAnswer != nil {
                // Empty text takes the default as the wizard means it (a number is the list item).
                text = ""
            } else {
                return .failure(.missing(id, prompt: question.prompt))
            }
            switch wizard.submit(text) {
            case .accepted(let more): lines += more
            case .invalid(let message): return .failure(.invalid(id, answer: text.isEmpty ? question.defaultAnswer ?? "" : text, message: message))
            case .wentBack, .cancelled: return .failure(.invalid(id, answer: text, message: "'\(text)' is not an answer here"))
            }
        }
        return .success((wizard, lines))
    }
}
