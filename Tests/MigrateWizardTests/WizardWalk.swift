import MigrateWizard
import Testing

extension Wizard {
    /// Answers each question with `answers[question]`, or its default (an empty answer), until `stop` holds for the
    /// question asked or the wizard ends; returns the questions answered.
    ///
    /// An answer the wizard refuses is recorded as an issue and ends the walk: the wizard would ask the same question
    /// again, so a flow that changed under a test fails that test instead of spinning forever. (Swift Testing's time
    /// limit can't stop a loop that never suspends; two of them once held both of CI's threads until its deadline.)
    @discardableResult
    mutating func walk(
        answers: [QuestionID: String] = [:], until stop: (QuestionID) -> Bool = { _ in false },
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [QuestionID] {
        var asked: [QuestionID] = []
        while let current = self.current, !stop(current) {
            guard asked.count < 1_000 else {
                Issue.record("the wizard asked more than 1,000 questions; the last was \(current)", sourceLocation: sourceLocation)
                break
            }
            asked.append(current)
            let answer = answers[current] ?? ""
            if case .invalid(let message) = submit(answer) {
                Issue.record("\(current) refused '\(answer)': \(message)", sourceLocation: sourceLocation)
                break
            }
        }
        return asked
    }

    /// Walks to `question` (see ``walk(answers:until:sourceLocation:)``).
    @discardableResult
    mutating func walk(to question: QuestionID, answers: [QuestionID: String] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        -> [QuestionID]
    {
        walk(answers: answers, until: { $0 == question }, sourceLocation: sourceLocation)
    }

    /// Submits `answer`, which the wizard must take: its lines, or a failure naming what became of it instead.
    @discardableResult
    mutating func accept(_ answer: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let outcome = submit(answer)
        let lines: [String]? = if case .accepted(let lines) = outcome { lines } else { nil }
        return try #require(lines, "'\(answer)' was not accepted: \(outcome)", sourceLocation: sourceLocation)
    }

    /// Submits `answer`, which the wizard must refuse: its message, or a failure naming what became of it instead.
    @discardableResult
    mutating func refuse(_ answer: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = submit(answer)
        let message: String? = if case .invalid(let message) = outcome { message } else { nil }
        return try #require(message, "'\(answer)' was not refused: \(outcome)", sourceLocation: sourceLocation)
    }
}
