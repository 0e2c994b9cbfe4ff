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
    func isAnswered(_ id: QuestionID) -> Bool {
        switch id {
        case .appName: answers.appName != nil
        case .bundleID: answers.bundleID != nil
        case .platforms: answers.platforms != nil
        case .universalPurchase: answers.universalPurchase != nil
        case .releases: !answers.releases.isEmpty
        case .firstFree: answers.firstFree != nil
        case .freeGoLive: answers.freeGoLive != nil
        case .newFreeRelease: answers.newFreeRelease != nil
        case .price: answers.price != nil
        case .features: answers.features != nil
        case .featureSince(let feature):
            if let since = answers.featureSince[feature] { since.map(answers.paidReleases.contains) ?? true } else { false }
        case .newProduct: answers.newProduct != nil
        case .grants(let product): answers.grants[product] != nil
        case .era(let index): answers.eraTreatments[index] != nil
        case .eraDiscount(let index):
            if case .discount(let product, _)? = answers.eraTreatments[index] { !product.isEmpty } else { false }
        case .nonProduction: answers.nonProduction != nil
        case .verificationFailure: answers.verificationFailure != nil
        case .familySharing: answers.familySharing != nil
        case .paidDownloads: answers.paidDownloads != nil
        case .confirm: false
        }
    }

    /// One answer as the summary's list shows it: what it decided, not the keys typed to get there.
    func answerText(_ id: QuestionID) -> String {
        guard isAnswered(id) else { return "(not answered)" }
        switch id {
        case .firstFree, .newFreeRelease:
            guard let index = answers.firstFree, answers.allReleases.indices.contains(index) else { break }
            let release = answers.allReleases[index]
            return "\(release.platform) \(release.displayName) \(Self.day(release.date))"
        case .featureSince(let feature):
            guard let since = answers.featureSince[feature] else { break }
            return since.map { answers.allReleases[$0].displayName } ?? "none (sold in-app only)"
        case .grants(let product):
            let granted = answers.grants[product] ?? []
            return granted.isEmpty ? "nothing" : granted.joined(separator: ", ")
        case .era(let index):
            switch answers.eraTreatments[index] {
            case .everything?: return "buyers of \(answers.eras[index].label) get everything"
            case .discount?: return "buyers of \(answers.eras[index].label) keep what they bought, with a discount"
            default: return "buyers of \(answers.eras[index].label) keep what they bought"
            }
        case .newProduct:
            return answers.newProduct.map(ProductAnswer.text) ?? ""
        case .freeGoLive:
            guard let date = answers.freeGoLive else { break }
            guard !answers.freeGoLiveConfirmed else { return Timestamp.format(date) + " (confirmed)" }
            let listed = answers.firstFree.flatMap { answers.releases.indices.contains($0) ? answers.releases[$0].provenance : nil }
            return Timestamp.format(date) + (listed?.isEvidence == true ? " (\(listed!.phrase))" : " (as listed, not confirmed)")
        case .platforms:
            return (answers.platforms ?? []).map(\.rawValue).joined(separator: ", ")
        case .universalPurchase:
            return answers.universalPurchase == true ? "yes" : "no"
        case .nonProduction:
            if case .tier(let tier)? = answers.nonProduction, let number = Int(tier.dropFirst("era-".count)), answers.eras.indices.contains(number - 1) {
                return "as buyers of \(answers.eras[number - 1].label)"
            }
            return "as new customers"
        case .verificationFailure:
            if case .keepLastVerified(let days)? = answers.verificationFailure { return "keep the last verified for \(days) day\(days == 1 ? "" : "s")" }
            return "deny"
        case .familySharing:
            return answers.familySharing == .ignored ? "ignored" : "entitles"
        default:
            break
        }
        return answers.typed[id.key] ?? ""
    }
}
