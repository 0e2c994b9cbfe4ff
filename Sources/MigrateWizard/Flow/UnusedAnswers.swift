import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport

/// An answer given by a flag or an `--answers` key that no question of this run asks, and why: `init` refuses it
/// rather than drop it.
public struct UnusedAnswer: Sendable, Hashable {
    /// The `--answers` key (`eras.3` for a per-item one).
    public var key: String
    public var reason: String

    /// The flag as a user would type it: `--era 3=…`.
    public var flag: String {
        let (kind, item) = Wizard.split(key)
        guard let kind else { return key }
        return item.map { "--\(kind.flag) \($0)=…" } ?? "--\(kind.flag)"
    }

    /// The key as an `--answers` file holds it: `"eras": {"3": …}`.
    public var answersKey: String {
        let (kind, item) = Wizard.split(key)
        guard let kind else { return "\"\(key)\"" }
        return item.map { "\"\(kind.key)\": {\"\($0)\": …}" } ?? "\"\(kind.key)\""
    }
}

extension Wizard {
    /// The kind and item of an `--answers` key (`eras.3` → era, "3").
    static func split(_ key: String) -> (QuestionKind?, String?) {
        if let kind = QuestionKind.all.first(where: { $0.key == key }) { return (kind, nil) }
        guard let dot = key.firstIndex(of: "."), let kind = QuestionKind.all.first(where: { $0.key == key[..<dot] }) else { return (nil, nil) }
        return (kind, String(key[key.index(after: dot)...]))
    }

    /// The answers no question of the finished flow asked, each with why it wasn't asked.
    public func unused(_ given: some Collection<String>, used: Set<String>) -> [UnusedAnswer] {
        given.filter { !used.contains($0) }.sorted().map { UnusedAnswer(key: $0, reason: whyNotAsked($0)) }
    }

    /// Why the question a key answers is not part of this run.
    func whyNotAsked(_ key: String) -> String {
        let (kind, item) = Self.split(key)
        let list = { (names: [String]) in names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ") }
        switch kind {
        case .releases?:
            return
                "the version history was found (\(facts.releases.count) release\(facts.releases.count == 1 ? "" : "s")), so the releases are not asked"
        case .universalPurchase?:
            let platforms = (answers.platforms ?? []).map(\.rawValue).joined(separator: ", ")
            return
                "it is asked only of an app on platforms sold from separate App Store records (an iPad app is the iOS app), and the app is on \(platforms.isEmpty ? "no platform" : platforms)"
        case .freeGoLive?:
            return "the first free release's go-live was not asked"
        case .newFreeRelease?:
            let listed = answers.firstFree.flatMap { answers.releases.indices.contains($0) ? answers.releases[$0].displayName : nil }
            return "the first free release is a listed one (\(listed ?? "?")), so no new release is asked; give --first-free new to add one"
        case .platformFreeRelease?:
            let asked = otherFreePlatforms.map(\.rawValue)
            return
                "'\(item ?? "")' is not another platform the app ships on that needs its own free release (those asked: \(list(asked)))"
                + guess(item, asked)
        case .platformGoLive?:
            let asked = (answers.platforms ?? []).filter { answers.listedFreeRelease(on: $0) != nil }.map(\.rawValue)
            return
                "'\(item ?? "")' is not another platform that lists its own first free release (those asked: \(list(asked)))" + guess(item, asked)
        case .featureSince?:
            let ids = (answers.features ?? []).map(\.id)
            return "there is no feature '\(item ?? "")' (the features are \(list(ids)), by id)\(guess(item, ids))"
        case .grants?:
            let products = answers.products.filter { $0.kind != .consumable }.map(\.id)
            if answers.products.contains(where: { $0.id == item && $0.kind == .consumable }) {
                return "'\(item ?? "")' is a consumable, which unlocks no feature"
            }
            return "there is no product '\(item ?? "")' (the products are \(list(products)))\(guess(item, products))"
        case .sells?:
            let doubtful = doubtfulProducts.map(\.id)
            return
                "'\(item ?? "")' is not a .storekit product whose id says it may be another app's (those asked about: \(list(doubtful)))\(guess(item, doubtful))"
        case .duration?:
            if let item, answers.sells[item] == false {
                return "'\(item)' is left out of the plan (it is not this app's), so its length is not asked"
            }
            let asked = answers.products.filter { asksDuration($0.id) }.map(\.id)
            return
                "'\(item ?? "")' is not a non-renewing subscription found in a .storekit (those asked about: \(list(asked)))\(guess(item, asked)); give a typed product's length in --product"
        case .era?:
            return "there is no paid era \(item ?? "") (there \(answers.eras.count == 1 ? "is 1" : "are \(answers.eras.count)"))"
        case .eraDiscount?:
            if let number = item.flatMap(Int.init), answers.eras.indices.contains(number - 1) {
                return "era \(number) is not treated with a discount; give --era \(number)=discount with it"
            }
            return "there is no paid era \(item ?? "") (there \(answers.eras.count == 1 ? "is 1" : "are \(answers.eras.count)"))"
        case .paidDownloads?:
            return "the sales reports measure it (their trend), so it is not asked"
        default:
            return "no question of this run asks it"
        }
    }

    /// "; did you mean 'themes'?", or nothing.
    func guess(_ item: String?, _ candidates: [String]) -> String {
        guard let item, let match = Suggestions.closest(to: item, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// The answer to the new free release's question when `--free-from` gives its go-live: the release given (or
    /// the suggested one) going live at that moment. Fails when the go-live is not a date-time, or when the release
    /// given goes live on another day.
    public func newFreeRelease(given: String?, freeFrom: String) -> Result<String, UnusedAnswerConflict> {
        guard let goLive = Self.goLive(freeFrom) else {
            return .failure(
                UnusedAnswerConflict(
                    key: QuestionKind.freeGoLive.key, answer: freeFrom,
                    message: "'\(freeFrom)' is not a date-time; write it in UTC, such as 2024-11-20T17:00:00Z, or a date such as 2024-11-20"))
        }
        var release = suggestedFreeRelease()
        if let given {
            guard case .success(let parsed) = parseRelease(given) else { return .success(given) }  // its own question says what is wrong
            release = parsed
            // The calendar days typed, compared as typed: a date alone is read as the end of that day everywhere.
            let typedDay = { (text: String) in Timestamp.parse(text).map { Self.day($0) } }
            let givenDay = given.split(separator: " ").last.map(String.init).flatMap(typedDay)
            if givenDay != typedDay(freeFrom) && parsed.date != goLive {
                return .failure(
                    UnusedAnswerConflict(
                        key: QuestionKind.newFreeRelease.key, answer: given,
                        message:
                            "it goes live on \(givenDay ?? Self.day(parsed.date)), but --free-from says \(freeFrom); give the same day to both, or leave the date to --free-from"
                    ))
            }
        }
        let build = release.build.map { " (\($0.text))" } ?? ""
        return .success("\(release.platform.rawValue) \(release.version.text)\(build) \(Timestamp.format(goLive))")
    }
}

/// Two answers that disagree, or one that cannot be read, found before its question is asked.
public struct UnusedAnswerConflict: Error, Sendable, Hashable {
    public var key: String
    public var answer: String
    public var message: String
}
