import Foundation
import MigratePlan
import MigrateSupport

// How each paid era's buyers are treated, and an era's discount.

struct EraQuestion: WizardQuestion {
    let index: Int
    var id: QuestionID { .era(index) }

    func ask(_ wizard: Wizard) -> Question {
        let era = wizard.answers.eras[index]
        let bought = era.features.isEmpty ? "nothing listed" : era.features.joined(separator: ", ")
        let choices = [
            "keep what they bought (\(bought)), free",
            "everything, including features added later",
            "keep what they bought, plus a discount on a product",
        ]
        let fallback: String
        switch wizard.answers.eraTreatments[index] {
        case .everything: fallback = "2"
        case .discount: fallback = "3"
        default: fallback = "1"
        }
        return Question(id: id, prompt: "How are buyers of \(era.label) treated?", choices: choices, defaultAnswer: fallback, hint: "1, 2 or 3")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let era = wizard.answers.eras[index]
        switch input.lowercased() {
        case "1", "keep":
            wizard.answers.eraTreatments[index] = .keepWhatTheyBought
            return .accepted([
                "Buyers of \(era.label) keep \(era.features.isEmpty ? "what they bought" : era.features.joined(separator: ", ")) and buy the rest like anyone."
            ])
        case "2", "everything", "all":
            wizard.answers.eraTreatments[index] = .everything
            return .accepted(["Buyers of \(era.label) get every feature, including ones added later, free."])
        case "3", "discount":
            if case .discount? = wizard.answers.eraTreatments[index] {
            } else {
                wizard.answers.eraTreatments[index] = .discount(product: "", price: .zero)
            }
            return .accepted(["Buyers of \(era.label) keep what they bought and see a cheaper price."])
        default:
            return .invalid("answer 1, 2 or 3." + Suggestions.didYouMean(input, in: ["keep", "everything", "discount"]))
        }
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.eraTreatments[index] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        switch wizard.answers.eraTreatments[index] {
        case .everything?: return "buyers of \(wizard.answers.eras[index].label) get everything"
        case .discount?: return "buyers of \(wizard.answers.eras[index].label) keep what they bought, with a discount"
        default: return "buyers of \(wizard.answers.eras[index].label) keep what they bought"
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
