import Foundation
import MigratePlan
import MigrateSupport

// The features, which paid release first had each, the product that unlocks them, and what each product unlocks.

struct FeaturesQuestion: WizardQuestion {
    var id: QuestionID { .features }

    func ask(_ wizard: Wizard) -> Question {
        return Question(
            id: id, prompt: "Which features does the paid app have (or will in-app purchases unlock)?",
            defaultAnswer: (wizard.answers.features ?? wizard.defaultFeatures()).map(\.name).joined(separator: ", "),
            hint: "comma-separated names, such as Themes, Sync, Export")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let names = Wizard.list(input)
        guard !names.isEmpty else { return .invalid("name at least one feature") }
        var features: [Feature] = []
        for name in names {
            let id = Wizard.slug(name)
            guard !id.isEmpty else { return .invalid("'\(name)' has no letters or digits to make an id from") }
            guard !features.contains(where: { $0.id == id }) else { return .invalid("'\(name)' is listed twice") }
            features.append(Feature(id: id, name: name))
        }
        wizard.answers.features = features
        return .accepted(["Features: " + features.map { "\($0.id)" }.joined(separator: ", ") + " (ids as they appear in the plan and the code)."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.features != nil
    }
}

struct FeatureSinceQuestion: WizardQuestion {
    let feature: String
    var id: QuestionID { .featureSince(feature) }

    func ask(_ wizard: Wizard) -> Question {
        let paid = wizard.answers.paidReleases
        var choices = paid.map {
            "\(wizard.answers.allReleases[$0].version)" + (wizard.answers.allReleases[$0].build.map { " (\($0))" } ?? "")
                + "  \(Wizard.day(wizard.answers.allReleases[$0].date))"
        }
        choices.append("none: sold separately (in-app), never part of the paid download")
        let fallback: Int
        if let known = wizard.answers.featureSince[feature] {
            fallback = known.flatMap { paid.firstIndex(of: $0) }.map { $0 + 1 } ?? choices.count
        } else {
            fallback = 1
        }
        let name = wizard.answers.features?.first { $0.id == feature }?.name ?? feature
        let shown = Wizard.shownChoices(releases: paid.count, total: choices.count, defaultItem: fallback)
        return Question(
            id: id, prompt: "Which paid release first included \(name)?", choices: choices, defaultAnswer: String(fallback),
            hint: shown == nil ? "a number from the list, or a version" : Wizard.searchHint(paid.map { ($0, wizard.answers.allReleases[$0]) }),
            shownChoices: shown)
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let paid = wizard.answers.paidReleases
        let choices = paid.count + 1
        var since: Int??
        if input.lowercased() == "none" {
            since = .some(nil)
        } else {
            switch wizard.choose(input, choices: choices, versions: paid.map { ($0, wizard.answers.allReleases[$0]) }) {
            case .item(let number): since = number == choices ? .some(nil) : .some(paid[number - 1])
            case .release(let index): since = .some(index)
            case .refused(let message): return .invalid(message)
            }
        }
        wizard.answers.featureSince[feature] = since!
        // The first paid release must have bought something, or its buyers could not be told what they keep.
        if let features = wizard.answers.features, feature == features.last?.id, let first = paid.first,
            !features.contains(where: { (wizard.answers.featureSince[$0.id] ?? nil) == first })
        {
            wizard.answers.featureSince[feature] = nil
            return .invalid(
                "the first paid release (\(wizard.answers.allReleases[first].displayName)) must have included at least one feature; type '#1' or \(wizard.answers.allReleases[first].version.text) here, or go back"
            )
        }
        let name = wizard.answers.features?.first { $0.id == feature }?.name ?? feature
        guard let index = since! else { return .accepted(["No buyer gets \(name) free; it is sold in-app only."]) }
        guard index != paid.first else { return .accepted(["Buyers of every paid release keep \(name) free after the switch."]) }
        // Updates were free: buyers of earlier releases had it too, and keep it unless the era question says it was a paid upgrade.
        return .accepted([
            "Buyers of \(wizard.answers.allReleases[index].displayName) and later paid releases keep \(name) free, and so do earlier buyers, who got it as a free update."
        ])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        if let since = wizard.answers.featureSince[feature] { since.map(wizard.answers.paidReleases.contains) ?? true } else { false }
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let since = wizard.answers.featureSince[feature] else { return nil }
        return since.map { wizard.answers.allReleases[$0].displayName } ?? "none (sold in-app only)"
    }
}

struct NewProductQuestion: WizardQuestion {
    var id: QuestionID { .newProduct }

    func ask(_ wizard: Wizard) -> Question {
        let fallback = "\(wizard.answers.bundleID ?? wizard.facts.app.bundleID ?? "com.example.app").pro 4.99"
        let lasting = wizard.facts.products.filter(\.canUnlockFeaturesForSale)
        let found: String
        if wizard.facts.products.isEmpty {
            found = "No .storekit product was found."
        } else if lasting.isEmpty {
            let list = wizard.facts.products.map { "\($0.id), \($0.forSale ? $0.kind.rawValue : "not for sale")" }.joined(separator: "; ")
            found = "The .storekit has nothing that can unlock a feature (\(list)): a consumable is used up."
        } else {
            found = "Besides \(lasting.map(\.id).joined(separator: ", ")) from the .storekit:"
        }
        return Question(
            id: id, prompt: found + " Which in-app purchase will unlock the paid features?",
            defaultAnswer: wizard.answers.newProduct.map(ProductAnswer.text) ?? fallback,
            hint:
                "PRODUCT-ID [KIND] PRICE; KIND is non-consumable (the default), non-renewing with its length (non-renewing yearly), or a subscription: weekly, monthly, quarterly, yearly"
        )
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let product: Product
        switch ProductAnswer.parse(input, group: wizard.answers.appName ?? wizard.facts.app.name ?? "Subscriptions") {
        case .failure(let message): return .invalid(message.text)
        case .success(let parsed): product = parsed
        }
        if let imported = wizard.facts.products.first(where: { $0.id == product.id }) {
            return .invalid(
                "\(product.id) is already in the .storekit (\(imported.kind.rawValue) at \(imported.price)); give the id of the product that unlocks the paid features"
            )
        }
        // Replaces an earlier answer (going back), never an imported product.
        if let earlier = wizard.answers.newProduct {
            wizard.answers.products.removeAll { $0.id == earlier.id }
            wizard.answers.grants[earlier.id] = nil
        }
        wizard.answers.newProduct = product
        wizard.answers.products.append(product)
        let kind: String
        switch product.kind {
        case .autoRenewable: kind = "an auto-renewable subscription (\(product.subscription?.period ?? ""))"
        case .nonRenewing: kind = "a non-renewing subscription"
        default: kind = "a non-consumable"
        }
        return .accepted(["\(product.id) is sold at \(product.price) as \(kind); add it to App Store Connect with this id."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.newProduct != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        return wizard.answers.newProduct.map(ProductAnswer.text) ?? ""
    }
}

struct GrantsQuestion: WizardQuestion {
    let product: String
    var id: QuestionID { .grants(product) }

    func ask(_ wizard: Wizard) -> Question {
        let features = wizard.answers.features ?? []
        let choices = features.map { "\($0.name) (\($0.id))" }
        let name = wizard.answers.products.first { $0.id == product }.map { "\($0.name) (\($0.id))" } ?? product
        return Question(
            id: id, prompt: "Which features does \(name) unlock?", choices: choices,
            defaultAnswer: (wizard.answers.grants[product] ?? wizard.defaultGrants(product)).joined(separator: ", "),
            hint: "comma-separated numbers or ids, 'all' or 'none'")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let features = wizard.answers.features ?? []
        let granted: [String]
        switch Wizard.features(in: input, of: features) {
        case .success(let ids): granted = ids
        case .failure(let refusal): return .invalid(refusal.message)
        }
        wizard.answers.grants[product] = granted
        if let index = wizard.answers.products.firstIndex(where: { $0.id == product }) { wizard.answers.products[index].grants = granted }
        var said = [granted.isEmpty ? "\(product) unlocks no feature." : "\(product) unlocks \(granted.joined(separator: ", "))."]
        // Once every sold product has its answer: a feature none of them unlocks can never be bought by a new customer.
        let sold = wizard.answers.products.filter { $0.kind != .consumable && wizard.sells($0.id) }
        if sold.allSatisfy({ wizard.answers.grants[$0.id] != nil }) {
            let unlocked = Set(sold.flatMap { wizard.answers.grants[$0.id] ?? [] })
            let unsold = features.map(\.id).filter { !unlocked.contains($0) }
            if !unsold.isEmpty {
                said.append(
                    "No product unlocks \(unsold.joined(separator: ", ")): a new customer could never buy \(unsold.count == 1 ? "it" : "them"). "
                        + "Type '<' to go back and add \(unsold.count == 1 ? "it" : "them") to a product, or keep it so if that is meant.")
            }
        }
        return .accepted(said)
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.grants[product] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        let granted = wizard.answers.grants[product] ?? []
        return granted.isEmpty ? "nothing" : granted.joined(separator: ", ")
    }
}

/// Asked when the first free release went live in the past: the app is free already, and whoever downloaded it since
/// has used what its free releases gave. Whatever they gave is kept for those downloaders (a tier of the free era), and
/// sold only from a release still to come.
struct FreeGaveAwayQuestion: WizardQuestion {
    var id: QuestionID { .freeGaveAway }

    func ask(_ wizard: Wizard) -> Question {
        let features = wizard.answers.features ?? []
        let since = wizard.answers.freeDate.map(Wizard.day) ?? "the switch"
        return Question(
            id: id,
            prompt:
                "The app has been free since \(since). Which features did its free releases give everyone who downloaded them?",
            choices: features.map { "\($0.name) (\($0.id))" },
            defaultAnswer: (wizard.answers.freeGaveAway ?? wizard.answers.hadAtSwitch).joined(separator: ", ").nonEmpty ?? "none",
            hint:
                "comma-separated numbers or ids, 'all' or 'none'; what they gave stays with everyone who downloaded the app since, and is sold only from a new release"
        )
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let features = wizard.answers.features ?? []
        let gave: [String]
        switch Wizard.features(in: input, of: features) {
        case .success(let ids): gave = ids
        case .failure(let refusal): return .invalid(refusal.message)
        }
        wizard.answers.freeGaveAway = gave
        guard !gave.isEmpty, let release = wizard.answers.freemiumReleases.first else {
            return .accepted(["The free releases gave nothing away: the features are sold from the free releases on, as planned."])
        }
        return .accepted([
            "Everyone who downloaded the free app since \(wizard.answers.freeDate.map(Wizard.day) ?? "it went free") keeps \(gave.joined(separator: ", ")) (a tier of the free era).",
            "They are sold from \(release.displayName), a new release planned for \(Wizard.day(release.date)); set its real go-live when it is known.",
        ])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.freeGaveAway != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        let gave = wizard.answers.freeGaveAway ?? []
        return gave.isEmpty ? "nothing" : gave.joined(separator: ", ")
    }
}

extension String {
    /// The text, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// Why a list of features was refused, in words.
struct FeatureListRefusal: Error {
    var message: String
}

extension Wizard {
    /// The features a list answer names (comma-separated numbers, ids or names; 'all' or 'none'), in the plan's order.
    static func features(in input: String, of features: [Feature]) -> Result<[String], FeatureListRefusal> {
        let lowered = input.lowercased()
        if lowered == "all" { return .success(features.map(\.id)) }
        if lowered == "none" { return .success([]) }
        var named: Set<String> = []
        for word in list(input) {
            if let number = Int(word) {
                guard features.indices.contains(number - 1) else {
                    return .failure(FeatureListRefusal(message: "choose numbers from 1 to \(features.count)"))
                }
                named.insert(features[number - 1].id)
            } else if let feature = features.first(where: { $0.id == word || $0.name.lowercased() == word.lowercased() }) {
                named.insert(feature.id)
            } else {
                return .failure(
                    FeatureListRefusal(message: "'\(word)' is not a feature." + Suggestions.didYouMean(word, in: features.map(\.id))))
            }
        }
        return .success(features.map(\.id).filter(named.contains))
    }
}
