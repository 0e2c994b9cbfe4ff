import Foundation
import MigratePlan
import MigrateSupport

// How each paid era's buyers are treated, and an era's discount.

struct EraQuestion: WizardQuestion {
    let index: Int
    var id: QuestionID { .era(index) }

    func ask(_ wizard: Wizard) -> Question {
        let era = wizard.answers.eras[index]
        let had = era.hadAtSwitch.isEmpty ? "nothing listed" : era.hadAtSwitch.joined(separator: ", ")
        var choices = [
            "keep what they had when the app went free (\(had)), free updates included",
            "everything, including features added later",
            "keep what they had, plus a discount on a product",
        ]
        // Only a paid upgrade (a new app, or bought again) can mean they never had what later releases added.
        let upgraded = Self.upgraded(era)
        if !upgraded.isEmpty {
            choices.append(
                "only what their own releases included (\(era.features.joined(separator: ", "))): \(upgraded.joined(separator: ", ")) came in a paid upgrade they never got"
            )
        }
        let fallback: String
        switch wizard.answers.eraTreatments[index] {
        case .everything: fallback = "2"
        case .discount: fallback = "3"
        case .paidUpgrade: fallback = upgraded.isEmpty ? "1" : "4"
        default: fallback = "1"
        }
        return Question(
            id: id, prompt: "How are buyers of \(era.label) treated?", choices: choices, defaultAnswer: fallback,
            hint: upgraded.isEmpty ? "1, 2 or 3" : "1, 2, 3 or 4")
    }

    /// What later paid releases added that the era's own releases didn't include.
    static func upgraded(_ era: Era) -> [String] { era.hadAtSwitch.filter { !era.features.contains($0) } }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let era = wizard.answers.eras[index]
        switch input.lowercased() {
        case "1", "keep":
            wizard.answers.eraTreatments[index] = .keepWhatTheyBought
            // "The rest" only when there is a rest: a feature they didn't have at the switch.
            let rest = (wizard.answers.features ?? []).map(\.id).filter { !era.hadAtSwitch.contains($0) }
            return .accepted([
                "Buyers of \(era.label) keep \(era.hadAtSwitch.isEmpty ? "what they had" : era.hadAtSwitch.joined(separator: ", "))"
                    + (rest.isEmpty ? ": every feature the plan lists." : " and buy the rest (\(rest.joined(separator: ", "))) like anyone.")
            ])
        case "4", "upgrade", "paid-upgrade":
            let upgraded = Self.upgraded(era)
            guard !upgraded.isEmpty else {
                return .invalid("buyers of \(era.label) had every feature of the paid app through free updates; answer 1, 2 or 3")
            }
            wizard.answers.eraTreatments[index] = .paidUpgrade
            return .accepted([
                "Buyers of \(era.label) keep \(era.features.joined(separator: ", ")); the plan says they never had \(upgraded.joined(separator: ", ")) (the tier's takesAway)."
            ])
        case "2", "everything", "all":
            wizard.answers.eraTreatments[index] = .everything
            return .accepted(["Buyers of \(era.label) get every feature, including ones added later, free."])
        case "3", "discount":
            if case .discount? = wizard.answers.eraTreatments[index] {
            } else {
                wizard.answers.eraTreatments[index] = .discount(product: "", price: .zero)
            }
            return .accepted(["Buyers of \(era.label) keep what they had and see a cheaper price."])
        default:
            return .invalid(
                (Self.upgraded(era).isEmpty ? "answer 1, 2 or 3." : "answer 1, 2, 3 or 4.")
                    + Suggestions.didYouMean(input, in: ["keep", "everything", "discount", "upgrade"]))
        }
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.eraTreatments[index] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        switch wizard.answers.eraTreatments[index] {
        case .everything?: return "buyers of \(wizard.answers.eras[index].label) get everything"
        case .discount?: return "buyers of \(wizard.answers.eras[index].label) keep what they had, with a discount"
        case .paidUpgrade?: return "buyers of \(wizard.answers.eras[index].label) keep only their own releases' features (a paid upgrade)"
        default: return "buyers of \(wizard.answers.eras[index].label) keep what they had at the switch"
        }
    }
}

struct EraDiscountQuestion: WizardQuestion {
    let index: Int
    var id: QuestionID { .eraDiscount(index) }

    func ask(_ wizard: Wizard) -> Question {
        var fallback: String?
        if case .discount(let product, let price)? = wizard.answers.eraTreatments[index], !product.isEmpty {
            fallback = "\(product) \(price)"
        } else if let product = wizard.answers.products.first(where: { $0.forSale && $0.kind != .consumable }) {
            fallback = "\(product.id) \(Price(tenThousandths: product.price.tenThousandths / 200 * 100))"
        }
        return Question(
            id: id, prompt: "Which product do buyers of \(wizard.answers.eras[index].label) get cheaper, and at what price?",
            defaultAnswer: fallback, hint: "PRODUCT-ID PRICE")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let parts = input.replacingOccurrences(of: ":", with: " ").split(separator: " ").map(String.init)
        guard parts.count == 2 else { return .invalid("answer PRODUCT-ID PRICE, such as com.example.app.pro 1.99") }
        guard let product = wizard.answers.products.first(where: { $0.id == parts[0] }) else {
            return .invalid("'\(parts[0])' is not a product." + Suggestions.didYouMean(parts[0], in: wizard.answers.products.map(\.id)))
        }
        guard let price = try? Price(parts[1]) else { return .invalid("'\(parts[1])' is not a price, such as 1.99") }
        guard price < product.price else { return .invalid("a discount costs less than \(product.id)'s \(product.price)") }
        wizard.answers.eraTreatments[index] = .discount(product: product.id, price: price)
        return .accepted(["Buyers of \(wizard.answers.eras[index].label) are offered \(product.id) at \(price) instead of \(product.price)."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        if case .discount(let product, _)? = wizard.answers.eraTreatments[index] { !product.isEmpty } else { false }
    }
}
