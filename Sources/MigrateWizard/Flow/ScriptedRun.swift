import Foundation

/// Drives the wizard without a person: answers come from flags or an `--answers` file, keyed by
/// `QuestionID.key`; a missing answer takes the default only when defaults are accepted (`--yes`).
public enum ScriptedRun {
    public enum Failure: Error, Sendable, Hashable {
        /// No answer and no default to take; the flag or key would provide it.
        case missing(QuestionID, prompt: String)
        /// The given answer was not understood.
        case invalid(QuestionID, answer: String, message: String)
        /// An answer given for a question this run does not ask (or for an item it does not have), or answers
        /// that disagree: refused, never dropped.
        case unused([UnusedAnswer])
        case conflict(UnusedAnswerConflict)
    }

    /// Answers every question; the confirmation is implied. Returns the finished wizard and the
    /// consequence lines in order. Every answer given is used, or the run fails naming those that are not.
    public static func run(_ start: Wizard, answers: [String: String], acceptDefaults: Bool) -> Result<(Wizard, [String]), Failure> {
        var wizard = start
        var lines: [String] = []
        var guardCount = 0
        // `--product` makes the product question asked (`Wizard.asksForProduct`).
        var used: Set<String> = wizard.asksForProduct ? [QuestionKind.newProduct.key] : []
        while let question = wizard.question {
            guardCount += 1
            if guardCount > 10_000 { break }
            let id = question.id
            let text: String
            if id == .confirm {
                text = "yes"
            } else if id == .newFreeRelease, let freeFrom = answers[QuestionKind.freeGoLive.key] {
                // The go-live of a release not listed yet is its date: --free-from gives it.
                switch wizard.newFreeRelease(given: answers[id.key], freeFrom: freeFrom) {
                case .failure(let conflict): return .failure(.conflict(conflict))
                case .success(let answer): text = answer
                }
                used.formUnion([id.key, QuestionKind.freeGoLive.key])
            } else if let given = answers[id.key] {
                if let problem = Wizard.positionProblem(id, answer: given) {
                    return .failure(.invalid(id, answer: given, message: problem))
                }
                text = given
                used.insert(id.key)
            } else if acceptDefaults, question.defaultAnswer != nil {
                // Empty text takes the default as the wizard means it (a number is the list item).
                text = ""
            } else {
                return .failure(.missing(id, prompt: question.prompt))
            }
            switch wizard.submit(text) {
            case .accepted(let more): lines += more
            case .invalid(let message):
                if id == .newFreeRelease, answers[id.key] == nil, let freeFrom = answers[QuestionKind.freeGoLive.key] {
                    // The release was made from --free-from: that is the answer to name.
                    return .failure(.conflict(UnusedAnswerConflict(key: QuestionKind.freeGoLive.key, answer: freeFrom, message: message)))
                }
                return .failure(.invalid(id, answer: text.isEmpty ? question.defaultAnswer ?? "" : text, message: message))
            case .wentBack, .cancelled: return .failure(.invalid(id, answer: text, message: "'\(text)' is not an answer here"))
            }
        }
        let unused = wizard.unused(answers.keys, used: used)
        if !unused.isEmpty { return .failure(.unused(unused)) }
        return .success((wizard, lines))
    }
}
