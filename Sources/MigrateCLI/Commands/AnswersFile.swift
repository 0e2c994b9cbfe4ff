import MigratePlan
import MigrateSupport
import MigrateWizard

/// Reads an `--answers` file: a JSON object keyed like the questions, with per-item objects.
enum AnswersFile {
    static let keys = Set(QuestionKind.all.map(\.key))
    /// Per-item keys, each with what its object is keyed by.
    static let itemKeys: [String: String] = Dictionary(
        uniqueKeysWithValues: QuestionKind.all.compactMap { kind in
            if case .perItem(let item) = kind.form { (kind.key, item) } else { nil }
        })

    static func read(_ bytes: [UInt8], file: String) throws(CommandError) -> [String: String] {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw CommandError(.dataError, "\(file):\(error.location): \(error.message)")
        }
        guard let members = root.objectValue else {
            throw CommandError(.dataError, "\(file): the answers are a JSON object, found \(root.value.kindName)")
        }
        var answers: [String: String] = [:]
        var problems: [String] = []
        for member in members {
            guard keys.contains(member.key) else {
                problems.append("\(file):\(member.keyLocation): unknown key '\(member.key)'.\(Suggestions.didYouMean(member.key, in: keys))")
                continue
            }
            if let item = itemKeys[member.key] {
                guard let items = member.value.objectValue else {
                    problems.append(
                        "\(file):\(member.value.location): '\(member.key)' is an object keyed by \(item == "n" ? "era number" : item + " id")")
                    continue
                }
                for item in items {
                    if let text = text(item.value) {
                        answers[member.key + "." + item.key] = text
                    } else {
                        problems.append("\(file):\(item.value.location): '\(member.key).\(item.key)' cannot be \(item.value.value.kindName)")
                    }
                }
            } else if let text = text(member.value) {
                answers[member.key] = text
            } else {
                problems.append("\(file):\(member.value.location): '\(member.key)' cannot be \(member.value.value.kindName)")
            }
        }
        if !problems.isEmpty { throw CommandError(.dataError, problems.joined(separator: "\n")) }
        return answers
    }

    static func text(_ node: JSONNode) -> String? {
        switch node.value {
        case .string(let text): text
        case .number(let text): text
        case .bool(let value): value ? "yes" : "no"
        case .array(let items):
            items.allSatisfy({ text($0) != nil && $0.arrayValue == nil }) ? items.compactMap(text).joined(separator: ", ") : nil
        case .null, .object: nil
        }
    }
}
