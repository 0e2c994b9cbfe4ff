import Foundation
import MigratePlan
import MigrateSupport

// The app: its name, bundle id, platforms and whether iOS and macOS share one purchase.

struct AppNameQuestion: WizardQuestion {
    var id: QuestionID { .appName }

    func ask(_ wizard: Wizard) -> Question {
        return Question(id: id, prompt: "App name", defaultAnswer: wizard.answers.appName ?? wizard.facts.app.name)
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        wizard.answers.appName = input
        return .accepted(["The app is called \(input) in the plan and the generated code."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.appName != nil
    }
}

struct BundleIDQuestion: WizardQuestion {
    var id: QuestionID { .bundleID }

    func ask(_ wizard: Wizard) -> Question {
        return Question(
            id: id, prompt: "Bundle id", defaultAnswer: wizard.answers.bundleID ?? wizard.facts.app.bundleID,
            hint: "reverse-DNS, such as com.example.app")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-"))
        guard input.contains("."), input.unicodeScalars.allSatisfy(allowed.contains), !input.hasPrefix("."), !input.hasSuffix(".") else {
            return .invalid("'\(input)' is not a bundle id: use reverse-DNS letters, digits, '-' and '.', such as com.example.app")
        }
        wizard.answers.bundleID = input
        return .accepted(["Receipts are checked against \(input)."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.bundleID != nil
    }
}

struct PlatformsQuestion: WizardQuestion {
    var id: QuestionID { .platforms }

    func ask(_ wizard: Wizard) -> Question {
        // Only where a release shipped: a project under the same bundle id that never shipped is no platform anyone paid on.
        let shipped = Array(Set(wizard.facts.releases.map(\.platform))).sorted()
        let known = wizard.answers.platforms ?? (shipped.isEmpty ? wizard.facts.app.platforms : shipped)
        var hint = "comma-separated: " + Platform.allCases.map(\.rawValue).joined(separator: ", ")
        let unshipped = shipped.isEmpty ? [] : wizard.facts.app.platforms.filter { !shipped.contains($0) }
        if !unshipped.isEmpty {
            let names = unshipped.map(\.rawValue).joined(separator: ", ")
            hint += "; the project also builds for \(names), where no release has shipped: add it only if it will ship with the switch"
        }
        return Question(
            id: id, prompt: "Platforms", defaultAnswer: known.isEmpty ? "iOS" : known.map(\.rawValue).joined(separator: ", "), hint: hint)
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        var platforms: [Platform] = []
        for word in Wizard.list(input) {
            guard let platform = Platform(named: word) else {
                return .invalid(
                    "'\(word)' is not a platform." + Suggestions.didYouMean(word, in: Platform.allCases.map(\.rawValue)) + " Choose from "
                        + Platform.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            if !platforms.contains(platform) { platforms.append(platform) }
        }
        guard !platforms.isEmpty else { return .invalid("name at least one platform") }
        wizard.answers.platforms = platforms.sorted()
        // Universal purchase is a question only when the platforms are sold from more than one record (an iPad app is the iOS app).
        if !Platform.spansStores(platforms) { wizard.answers.universalPurchase = nil }
        let meanings = wizard.answers.platforms!.map { "\($0) receipts carry the \($0.originalVersionMeaning.displayName)" }
        return .accepted([meanings.joined(separator: "; ") + "."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.platforms != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        return (wizard.answers.platforms ?? []).map(\.rawValue).joined(separator: ", ")
    }
}

struct UniversalPurchaseQuestion: WizardQuestion {
    var id: QuestionID { .universalPurchase }

    func ask(_ wizard: Wizard) -> Question {
        let platforms = (wizard.answers.platforms ?? []).map(\.rawValue)
        let named = platforms.count == 2 ? platforms.joined(separator: " and ") : platforms.joined(separator: ", ")
        // One bundle id on several platforms is one record and one purchase unless the developer says otherwise.
        return Question(
            id: id, prompt: "Is the app one purchase on \(named) (universal purchase)?",
            defaultAnswer: wizard.answers.universalPurchase.map { $0 ? "yes" : "no" } ?? "yes",
            hint:
                "yes or no; one bundle id on several platforms is one App Store record, so yes unless each platform is a separate app "
                + "with its own record (see Apple's \"Offering a universal purchase\")")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let yes = Wizard.yesNo(input) else { return .invalid("answer yes or no") }
        wizard.answers.universalPurchase = yes
        return .accepted([
            yes
                ? "One purchase covers every platform: whoever paid on one keeps what they bought on the others."
                : "Each platform is sold, and its buyers grandfathered, separately: someone who paid on one is a new customer on another; check warns."
        ])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.universalPurchase != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        return wizard.answers.universalPurchase == true ? "yes" : "no"
    }
}
