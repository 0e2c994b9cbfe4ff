import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateWizard
import Testing

/// Family Sharing per product: the policy says whether a shared purchase entitles, and each product says whether it
/// is shared at all; the wizard keeps the two together.
@Suite("init: Family Sharing per product, and a feature no product sells", .timeLimit(.minutes(20)))
struct FamilySharingWizardTests {
    static func facts(products: [Product]) -> WizardFacts {
        var facts = WizardFlowTests.facts
        facts.products = products
        return facts
    }

    static let notShared = Product(id: "com.example.tally.pro", name: "Pro", kind: .nonConsumable, price: try! Price("4.99"))

    static func walked(_ products: [Product], _ answers: [QuestionID: String]) -> (wizard: Wizard, said: [QuestionID: [String]]) {
        var wizard = Wizard(facts: facts(products: products), now: WizardFlowTests.now)
        var said: [QuestionID: [String]] = [:]
        var asked = 0
        while let current = wizard.current, asked < 200 {
            asked += 1
            guard case .accepted(let lines) = wizard.submit(answers[current] ?? "") else {
                Issue.record("\(current) refused '\(answers[current] ?? "")'")
                break
            }
            said[current] = lines
        }
        return (wizard, said)
    }

    @Test(
        "A typed product is family-shareable when Family Sharing entitles, and not when it is ignored",
        arguments: [("yes", true), ("no", false)])
    func typedProduct(answer: String, shared: Bool) throws {
        let (wizard, _) = Self.walked(
            [], [.newProduct: "com.example.tally.unlock 4.99", .familySharing: answer, .grants("com.example.tally.unlock"): "all"])
        let product = try #require(wizard.plan.products.first { $0.id == "com.example.tally.unlock" })
        #expect(product.familyShareable == shared)
    }

    @Test("An imported product the .storekit doesn't share keeps its setting, and the answer names it with the fix")
    func importedNotShared() throws {
        let (wizard, said) = Self.walked([Self.notShared], [.familySharing: "yes"])
        #expect(wizard.plan.products.first { $0.id == Self.notShared.id }?.familyShareable == false)
        let lines = try #require(said[.familySharing]).joined(separator: " ")
        #expect(lines.contains("Not family-shareable in your .storekit, so families get nothing from them: com.example.tally.pro"), "\(lines)")
        #expect(lines.contains("turn Family Sharing on for it in App Store Connect"))
    }

    @Test("An imported product the .storekit shares stays shared, and nothing is said against it")
    func importedShared() throws {
        var shared = Self.notShared
        shared.familyShareable = true
        let (wizard, said) = Self.walked([shared], [.familySharing: "yes"])
        #expect(wizard.plan.products.first { $0.id == shared.id }?.familyShareable == true)
        #expect(said[.familySharing]?.joined().contains("Not family-shareable") == false)
    }

    @Test("Grants that leave a feature unsold say so once every product is answered; grants covering all say nothing")
    func unsoldFeature() throws {
        let features: [QuestionID: String] = [.features: "Themes, Sync"]
        let partial = Self.walked([Self.notShared], features.merging([.grants(Self.notShared.id): "themes"]) { $1 }).said
        let warning = try #require(partial[.grants(Self.notShared.id)]).joined(separator: " ")
        #expect(warning.contains("No product unlocks sync: a new customer could never buy it"), "\(warning)")
        let whole = Self.walked([Self.notShared], features.merging([.grants(Self.notShared.id): "all"]) { $1 }).said
        #expect(whole[.grants(Self.notShared.id)]?.joined().contains("No product unlocks") == false)
    }
}
