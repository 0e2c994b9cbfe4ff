import Foundation
import MigratePlan
import MigrateSupport

// Testers, unverified signatures, Family Sharing, and the paid downloads a month for simulate.

struct NonProductionQuestion: WizardQuestion {
    var id: QuestionID { .nonProduction }

    func ask(_ wizard: Wizard) -> Question {
        var choices = ["as new customers, who own only what they buy in the sandbox"]
        choices += wizard.answers.eras.map { "as buyers of \($0.label), to try the grandfathered path" }
        var fallback = "1"
        if case .tier(let tier)? = wizard.answers.nonProduction, let number = Int(tier.dropFirst("era-".count)) { fallback = String(number + 1) }
        return Question(
            id: id, prompt: "How are TestFlight, sandbox and Xcode testers treated?", choices: choices, defaultAnswer: fallback, hint: "a number")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let eras = wizard.answers.eras
        if input.lowercased() == "new" || input == "1" {
            wizard.answers.nonProduction = .newCustomer
            return .accepted(["Testers see what a new customer sees (their original version is always \"1.0\")."])
        }
        var era: Int?
        if let number = Int(input), (2...eras.count + 1).contains(number) { era = number - 2 }
        if input.hasPrefix("era-"), let number = Int(input.dropFirst(4)), eras.indices.contains(number - 1) { era = number - 1 }
        guard let era else { return .invalid("choose a number from 1 to \(eras.count + 1)") }
        wizard.answers.nonProduction = .tier("era-\(era + 1)")
        return .accepted(["Testers are treated as buyers of \(eras[era].label), to try the grandfathered path; never in production."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.nonProduction != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        if case .tier(let tier)? = wizard.answers.nonProduction, let number = Int(tier.dropFirst("era-".count)),
            wizard.answers.eras.indices.contains(number - 1)
        {
            return "as buyers of \(wizard.answers.eras[number - 1].label)"
        }
        return "as new customers"
    }
}

struct VerificationFailureQuestion: WizardQuestion {
    var id: QuestionID { .verificationFailure }

    func ask(_ wizard: Wizard) -> Question {
        var fallback = "keep 7"
        if case .deny? = wizard.answers.verificationFailure { fallback = "deny" }
        if case .keepLastVerified(let days)? = wizard.answers.verificationFailure { fallback = "keep \(days)" }
        return Question(
            id: id, prompt: "When the App Store's signature does not verify:",
            choices: ["deny: grant nothing that needs proof", "keep the last verified entitlements for some days"],
            defaultAnswer: fallback,
            hint:
                "'deny' or 'keep DAYS', \(PlanKeys.keepLastVerifiedDays.lowerBound) to \(PlanKeys.keepLastVerifiedDays.upperBound) days (1 or 2 also work)"
        )
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let words = input.lowercased().replacingOccurrences(of: ":", with: " ").split(separator: " ").map(String.init)
        if words == ["1"] || words == ["deny"] {
            wizard.answers.verificationFailure = .deny
            return .accepted(["An unverified device gets nothing that needs proof; an outage can lock out paying users."])
        }
        var days = 7
        if words.first == "2" || words.first == "keep" {
            if words.count == 2 {
                let bounds = PlanKeys.keepLastVerifiedDays
                guard let number = Int(words[1]), bounds.contains(number) else {
                    return .invalid("keep for \(bounds.lowerBound) to \(bounds.upperBound) days, such as 'keep 7' (the plan allows no more)")
                }
                days = number
            } else if words.count > 2 {
                return .invalid("answer 'deny' or 'keep DAYS'")
            }
            wizard.answers.verificationFailure = .keepLastVerified(days: days)
            return .accepted([
                "The last verified entitlements last \(days) day\(days == 1 ? "" : "s") if verification fails, so a bug or outage locks no one out."
            ])
        }
        return .invalid("answer 'deny' or 'keep DAYS'." + Suggestions.didYouMean(words.first ?? input, in: ["deny", "keep"]))
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.verificationFailure != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        if case .keepLastVerified(let days)? = wizard.answers.verificationFailure {
            return "keep the last verified for \(days) day\(days == 1 ? "" : "s")"
        }
        return "deny"
    }
}

struct FamilySharingQuestion: WizardQuestion {
    var id: QuestionID { .familySharing }

    func ask(_ wizard: Wizard) -> Question {
        return Question(
            id: id, prompt: "Do purchases shared through Family Sharing count?", choices: ["yes: family members are entitled", "no: ignored"],
            defaultAnswer: wizard.answers.familySharing == .ignored ? "2" : "1", hint: "1 or 2")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        switch input.lowercased() {
        case "1", "yes", "y", "entitles":
            wizard.answers.familySharing = .entitles
            return .accepted(["Family members get what a shared purchase unlocks."] + Self.notShared(wizard))
        case "2", "no", "n", "ignored":
            wizard.answers.familySharing = .ignored
            return .accepted(["Only the buyer gets what a purchase unlocks."])
        default:
            return .invalid("answer 1 (yes) or 2 (no)")
        }
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.familySharing != nil
    }

    /// The sold products a .storekit marks as not shared: their buyers' families get nothing from them, whatever the
    /// policy says, until Family Sharing is turned on for each in App Store Connect.
    static func notShared(_ wizard: Wizard) -> [String] {
        let typed = wizard.answers.newProduct?.id
        let unshared = wizard.answers.products.filter { $0.kind != .consumable && !$0.familyShareable && $0.id != typed }.map(\.id)
        var lines: [String] = []
        if let typed, wizard.answers.newProduct?.kind != .consumable {
            lines.append("\(typed) is family-shareable in the plan and the generated Products.storekit.")
        }
        if !unshared.isEmpty {
            lines.append(
                "Not family-shareable in your .storekit, so families get nothing from them: \(unshared.joined(separator: ", ")). "
                    + "To share one, turn Family Sharing on for it in App Store Connect (Apple doesn't let it be turned off again) "
                    + "and set familyShareable in the plan.")
        }
        return lines
    }

    func summary(_ wizard: Wizard) -> String? {
        return wizard.answers.familySharing == .ignored ? "ignored" : "entitles"
    }
}

struct PaidDownloadsQuestion: WizardQuestion {
    var id: QuestionID { .paidDownloads }

    func ask(_ wizard: Wizard) -> Question {
        let forms = "a number (written as a range of 60–140% of it) or a range such as 150-350, for migrate simulate"
        if let measured = wizard.facts.installBase?.averagePaidPerMonth {
            let rate = Int(measured.rate.rounded())
            return Question(
                id: id,
                prompt:
                    "The sales reports cover \(String(format: "%.1f", measured.months)) months, too few to show a trend. How many paid downloads a month does the app get now?",
                defaultAnswer: wizard.answers.paidDownloads?.text ?? PaidDownloads(guess: rate).text,
                hint: forms + "; the reports average \(rate) a month")
        }
        return Question(
            id: id, prompt: "About how many paid downloads a month does the app get now?", defaultAnswer: wizard.answers.paidDownloads?.text ?? "100",
            hint: forms + " (import sales reports with --sales for real figures)")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let downloads = PaidDownloads.parse(input) else {
            return .invalid("'\(input)' is neither a whole number of downloads nor a range such as 150-350")
        }
        wizard.answers.paidDownloads = downloads
        let written =
            downloads.isRange
            ? "\(downloads.low)–\(downloads.high) paid downloads a month, each as likely,"
            : "about \(downloads.likely) paid downloads a month, as a range (\(downloads.low)–\(downloads.high), most likely \(downloads.likely))"
        return .accepted(["migrate simulate starts from \(written) in simulation.assumptions; edit it there."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.paidDownloads != nil
    }
}
