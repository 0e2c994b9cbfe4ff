import Foundation
import MigratePlan

// The summary: write the plan, or go back to any answer.

struct ConfirmQuestion: WizardQuestion {
    var id: QuestionID { .confirm }

    func ask(_ wizard: Wizard) -> Question {
        let changeable = wizard.sequence().filter { $0 != .confirm }
        return Question(
            id: id, prompt: "Write the plan, or change an answer?", choices: changeable.map { "\($0.label): \(wizard.answerText($0))" },
            defaultAnswer: "yes",
            hint: "yes, no, or the number of an answer to change (the others are kept)")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let yes = Wizard.yesNo(input) else {
            return .invalid("answer yes, no, or a number from 1 to \(wizard.sequence().count - 1) to change that answer")
        }
        wizard.answers.confirmed = yes
        return yes ? .accepted([]) : .cancelled
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        false
    }
}
