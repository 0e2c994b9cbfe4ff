import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport

// Which imported products are this app's, and how long an imported non-renewing subscription lasts.

extension Wizard {
    /// The bundle id products are judged against: the answer, else the project's.
    var judgedBundleID: String? { answers.bundleID ?? facts.app.bundleID }

    /// Whose product an imported id is, by the id alone.
    func ownership(_ id: String) -> ProductOwnership {
        ProductOwnership.of(id, bundleID: judgedBundleID, appName: answers.appName ?? facts.app.name)
    }

    /// The imported products whose ids say they may not be this app's (Xcode's placeholders, Apple's samples,
    /// another app's), each asked about before anything is asked of the products.
    var doubtfulProducts: [Product] {
        facts.products.filter { !ownership($0.id).isThisApp }
    }

    /// Whether the plan sells `id`: as answered, else by its id (a doubtful one is left out until the app says it
    /// sells it). The product typed at the product question is always sold.
    func sells(_ id: String) -> Bool {
        if let answer = answers.sells[id] { return answer }
        guard facts.products.contains(where: { $0.id == id }) else { return true }
        return ownership(id).isThisApp
    }

    /// Whether an imported non-renewing subscription's length is asked: a `.storekit` file never says it.
    func asksDuration(_ id: String) -> Bool {
        facts.products.contains { $0.id == id && $0.kind == .nonRenewing && $0.duration == nil }
    }

    /// The imported products the app sells (with the lengths answered), then the one typed at the product question.
    mutating func refreshProducts() {
        var products = facts.products.filter { sells($0.id) }
        for index in products.indices {
            if let duration = answers.durations[products[index].id] { products[index].duration = duration }
            if let grants = answers.grants[products[index].id] { products[index].grants = grants }
        }
        if let typed = answers.newProduct { products.append(typed) }
        answers.products = products
    }
}

struct SellsQuestion: WizardQuestion {
    let product: String
    var id: QuestionID { .sells(product) }

    func ask(_ wizard: Wizard) -> Question {
        let imported = wizard.facts.products.first { $0.id == product }
        let name = imported.map { $0.name == $0.id ? $0.id : "\($0.name) (\($0.id))" } ?? product
        let reason = wizard.ownership(product).reason ?? "not recognised as this app's"
        return Question(
            id: id, prompt: "\(name), found in a .storekit, looks like \(reason). Does this app sell it?",
            choices: [
                "no: leave it out of the plan (it is not sold and unlocks nothing)",
                "yes: it is this app's product",
            ],
            defaultAnswer: wizard.answers.sells[product].map { $0 ? "yes" : "no" } ?? "no",
            hint: "yes or no (1 or 2 also work)")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let answer: Bool
        switch input.lowercased() {
        case "1": answer = false
        case "2": answer = true
        default:
            guard let yesNo = Wizard.yesNo(input) else { return .invalid("answer yes or no (1 or 2)") }
            answer = yesNo
        }
        wizard.answers.sells[product] = answer
        if !answer { wizard.answers.grants[product] = nil }
        wizard.refreshProducts()
        if answer { return .accepted(["\(product) is this app's product; what it unlocks is asked below."]) }
        return .accepted([
            "\(product) is left out of the plan: it is not sold, unlocks nothing, and is not in the generated code or Products.storekit."
        ])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.sells[product] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let answer = wizard.answers.sells[product] else { return nil }
        return answer ? "yes" : "no, left out"
    }
}

/// How long one purchase of an imported non-renewing subscription lasts: StoreKit keeps its transaction in
/// `currentEntitlements` for ever, so the plan must end it, and a `.storekit` file never says when.
struct DurationQuestion: WizardQuestion {
    let product: String
    var id: QuestionID { .duration(product) }

    /// Words that name a length, and the length.
    static let words: [String: String] = [
        "weekly": "P1W", "monthly": "P1M", "quarterly": "P3M", "yearly": "P1Y", "lifetime": "P\(Limits.durationYears)Y",
    ]

    /// The length the product's id or name says (`…lifetime`, `…yearly`, `annual pass`), or nil: a length that
    /// nothing says is never guessed, since a short one would take from people who paid.
    static func suggested(_ product: Product) -> String? {
        let text = (product.id + " " + product.name).lowercased()
        let clues: [(String, [String])] = [
            ("lifetime", ["lifetime", "forever", "permanent", "unlimited", "life-time"]),
            ("yearly", ["year", "annual", "12month", "12-month", "12 month"]),
            ("quarterly", ["quarter", "3month", "3-month", "3 month"]),
            ("monthly", ["month"]),
            ("weekly", ["week"]),
        ]
        return clues.first { $0.1.contains(where: text.contains) }?.0
    }

    /// The length an answer gives: a word or an ISO 8601 duration up to `Limits.durationYears`.
    static func parse(_ input: String) -> Result<TrialPeriod, ProductAnswer.Message> {
        let word = input.lowercased()
        let text = words[word] ?? input.uppercased()
        do {
            return .success(try TrialPeriod(text, for: .purchase))
        } catch {
            if !text.hasPrefix("P") {
                return .failure(
                    ProductAnswer.Message(
                        "'\(input)' is not a length: answer weekly, monthly, quarterly, yearly, lifetime, or an ISO 8601 duration such as P6M or P10Y"
                            + Suggestions.didYouMean(word, in: words.keys.sorted())))
            }
            return .failure(ProductAnswer.Message(error.message))
        }
    }

    func ask(_ wizard: Wizard) -> Question {
        let imported = wizard.facts.products.first { $0.id == product }
        let name = imported.map { $0.name == $0.id ? $0.id : "\($0.name) (\($0.id))" } ?? product
        let fallback = wizard.answers.durations[product].map(\.description) ?? imported.flatMap(Self.suggested)
        return Question(
            id: id,
            prompt:
                "How long does one purchase of \(name) last? It is a non-renewing subscription, which StoreKit never ends: the app ends it this long after its purchase date",
            defaultAnswer: fallback,
            hint:
                "weekly, monthly, quarterly, yearly, lifetime (P\(Limits.durationYears)Y), or an ISO 8601 duration such as P6M or P10Y (at most P\(Limits.durationYears)Y)"
        )
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let duration: TrialPeriod
        switch Self.parse(input) {
        case .failure(let message): return .invalid(message.text)
        case .success(let parsed): duration = parsed
        }
        wizard.answers.durations[product] = duration
        wizard.refreshProducts()
        return .accepted(["One purchase of \(product) lasts \(duration.spoken) from its purchase date; a buyer keeps it that long."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.durations[product] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        wizard.answers.durations[product].map { "\($0.description) (\($0.spoken))" }
    }
}
