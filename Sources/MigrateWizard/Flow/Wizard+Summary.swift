import Foundation
import MigrateImport
import MigratePlan

/// Changing one answer from the summary: which answers there are, what each says, and which
/// questions still need one after a change.
extension Wizard {
    /// The question a summary answer (`3`, `#3`) picks to change; nil for anything else (yes, no, typos).
    func answerToChange(_ input: String) -> QuestionID? {
        let text = input.hasPrefix("#") ? String(input.dropFirst()) : input
        guard let number = Int(text) else { return nil }
        let changeable = sequence().filter { $0 != .confirm }
        return changeable.indices.contains(number - 1) ? changeable[number - 1] : nil
    }

    /// Whether the answers hold a usable answer to `id`, so a return to the summary can skip it.
    /// By what the answers say, not by what was typed: a change can leave an answer meaningless
    /// (a feature's first paid release that is now free), and then it is asked again.
    func isAnswered(_ id: QuestionID) -> Bool { id.handler.isAnswered(self) }

    /// One answer as the summary's list shows it: what it decided, not the keys typed to get there.
    func answerText(_ id: QuestionID) -> String {
        guard isAnswered(id) else { return "(not answered)" }
        return id.handler.summary(self) ?? answers.typed[id.key] ?? ""
    }
}
