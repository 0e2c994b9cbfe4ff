import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSimulation

/// The `migrate init` question flow as a pure state machine: no input, no output, no files.
///
/// The command shows `question`, reads a line and passes it to `submit`; `<` or `back` returns to
/// the previous question, whose earlier answer becomes its default. Which questions follow depends
/// on the answers so far (one per feature, product and paid era), so the sequence is recomputed
/// after every answer. At the summary (`confirm`) the number of any earlier answer goes back to that
/// question; once it is answered, the questions the change brings in are asked and the wizard
/// returns to the summary, keeping every other answer.
public struct Wizard: Sendable {
    public let facts: WizardFacts
    /// Pins "today" for defaults such as the date of a release not yet shipped.
    public let now: Date
    /// Asks for the product that unlocks the paid features even when an imported one could
    /// (`--product` given beside a `.storekit`); it is added to the imported products.
    public let asksForProduct: Bool
    public internal(set) var answers = WizardAnswers()
    /// Nil once every question is answered.
    public internal(set) var current: QuestionID?
    var history: [QuestionID] = []
    /// True while the default is being applied: a default number always means the list item.
    var answeringWithDefault = false
    /// True after an answer was picked at the summary: once it is answered, the wizard asks only
    /// what is still unanswered and returns to the summary.
    var returnsToSummary = false

    public static let backWords: Set<String> = ["<", "back"]

    public init(facts: WizardFacts, now: Date, asksForProduct: Bool = false) {
        self.facts = facts
        self.now = now
        self.asksForProduct = asksForProduct
        answers.releases = facts.releases
        answers.products = facts.products
        current = .appName
    }

    /// Whether the imported products leave the plan with nothing to sell that unlocks a feature
    /// (none, or only consumables such as a tip jar), so the product question is asked.
    public var needsProduct: Bool { asksForProduct || !facts.products.contains(where: \.canUnlockFeaturesForSale) }

    public var isFinished: Bool { current == nil }
    public var canGoBack: Bool { !history.isEmpty }

    /// The plan the answers so far describe.
    public var plan: MigrationPlan { PlanBuilder.plan(answers, facts: facts) }

    /// The questions that apply given the answers so far, in order.
    public func sequence() -> [QuestionID] {
        var list: [QuestionID] = [.appName, .bundleID, .platforms]
        let platforms = answers.platforms ?? []
        if platforms.contains(.macOS) && platforms.contains(where: { $0 != .macOS }) { list.append(.universalPurchase) }
        if facts.releases.isEmpty { list.append(.releases) }
        list.append(.firstFree)
        if let firstFree = answers.firstFree, firstFree < answers.releases.count { list.append(.freeGoLive) }
        if answers.firstFree == answers.releases.count { list.append(.newFreeRelease) }
        list += [.price, .features]
        list += (answers.features ?? []).map { .featureSince($0.id) }
        if needsProduct { list.append(.newProduct) }
        list += answers.products.filter { $0.kind != .consumable }.map { .grants($0.id) }
        for (index, _) in answers.eras.enumerated() {
            list.append(.era(index))
            if case .discount = answers.eraTreatments[index] { list.append(.eraDiscount(index)) }
        }
        list += [.nonProduction, .verificationFailure, .familySharing]
        // Sales reports that show a trend measure the rate; without them (or with too few months) it is asked.
        if !(facts.installBase?.showsTrend ?? false) { list.append(.paidDownloads) }
        list.append(.confirm)
        return list
    }

    /// Returns to the previous question; false at the first one.
    @discardableResult
    public mutating func goBack() -> Bool {
        guard let previous = history.popLast() else { return false }
        current = previous
        if previous == .confirm { returnsToSummary = false }
        return true
    }

    /// Answers the current question. Empty text takes the default; `<` or `back` goes back.
    public mutating func submit(_ text: String) -> WizardOutcome {
        guard let id = current, let question = question else { return .invalid("every question is answered") }
        var input = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if Self.backWords.contains(input.lowercased()) {
            return goBack() ? .wentBack : .invalid("this is the first question; there is nothing to go back to")
        }
        answeringWithDefault = input.isEmpty
        defer { answeringWithDefault = false }
        if input.isEmpty {
            // The question and its hint are shown again right after this.
            guard let fallback = question.defaultAnswer else { return .invalid("an answer is needed here: it has no default") }
            input = fallback
        }
        if id == .confirm, let chosen = answerToChange(input) {
            // Back to an earlier answer; '<' there returns to the summary.
            history.append(.confirm)
            current = chosen
            returnsToSummary = true
            return .wentBack
        }
        let result = apply(input, to: id)
        switch result {
        case .accepted:
            if id != .confirm { answers.typed[id.key] = answeringWithDefault ? listAnswer(for: id, default: input) : input }
            history.append(id)
            let list = sequence()
            if returnsToSummary {
                current = list.first { !isAnswered($0) }
            } else if let position = list.firstIndex(of: id), position + 1 < list.count {
                current = list[position + 1]
            } else {
                current = nil
            }
            if current == .confirm { returnsToSummary = false }
        case .cancelled:
            current = nil
        case .invalid, .wentBack:
            break
        }
        return result
    }

    // MARK: - Questions

    /// The current question, with its choices and default.
    public var question: Question? {
        guard let id = current else { return nil }
        return question(id)
    }

    func question(_ id: QuestionID) -> Question {
        switch id {
        case .appName:
            return Question(id: id, prompt: "App name", defaultAnswer: answers.appName ?? facts.app.name)
        case .bundleID:
            return Question(
                id: id, prompt: "Bundle id", defaultAnswer: answers.bundleID ?? facts.app.bundleID, hint: "reverse-DNS, such as com.example.app")
        case .platforms:
            let known = answers.platforms ?? (facts.app.platforms.isEmpty ? Array(Set(facts.releases.map(\.platform))).sorted() : facts.app.platforms)
            return Question(
                id: id, prompt: "Platforms", defaultAnswer: known.isEmpty ? "iOS" : known.map(\.rawValue).joined(separator: ", "),
                hint: "comma-separated: " + Platform.allCases.map(\.rawValue).joined(separator: ", "))
        case .universalPurchase:
            return Question(
                id: id, prompt: "Do iOS and macOS share one App Store record (universal purchase)?",
                defaultAnswer: answers.universalPurchase.map { $0 ? "yes" : "no" } ?? "no", hint: "yes or no")
        case .releases:
            return Question(
                id: id, prompt: "No version history was found. Which releases went live, oldest first?",
                defaultAnswer: answers.releases.isEmpty ? nil : answers.releases.map(Self.text(of:)).joined(separator: ", "),
                hint: "comma-separated VERSION (BUILD) YYYY-MM-DD, such as 1.0 (1) 2019-03-01, 2.0 (40) 2021-06-01")
        case .firstFree:
            var choices = answers.releases.map { release in
                "\(release.platform) \(release.displayName)  \(Self.day(release.date))  (\(release.dateSource))"
            }
            choices.append("a release not listed yet (the one that will go free)")
            let fallback = answers.firstFree ?? (answers.releases.count >= 2 ? answers.releases.count - 1 : answers.releases.count)
            let shown = Self.shownChoices(releases: answers.releases.count, total: choices.count, defaultItem: fallback + 1)
            return Question(
                id: id, prompt: "Which release is the first free one?", choices: choices, defaultAnswer: String(fallback + 1),
                hint: shown == nil ? "a number from the list, or a version" : Self.searchHint(answers.releases.indices.map { ($0, answers.releases[$0]) }),
                shownChoices: shown)
        case .freeGoLive:
            let index = answers.firstFree ?? 0
            let release = answers.releases[min(index, answers.releases.count - 1)]
            // A commit date says when code was written, never when Apple released it, and a rewritten history
            // moves it: it is no default for the moment that decides who keeps what.
            let listedDefault = release.provenance == .commit ? nil : Timestamp.format(release.date)
            // "a git tag date (git tag date)" says nothing twice; "(git commit date, tag v1.0)" adds the tag.
            let phrase = release.provenance.phrase
            let source = phrase.hasSuffix(release.dateSource) ? phrase : "\(phrase) (\(release.dateSource))"
            let evidence: String
            if release.provenance.isEvidence {
                evidence = "listed from \(release.provenance.phrase)"
            } else if release.provenance == .commit {
                evidence =
                    "the list only has \(source), which is when code was written, not when Apple "
                    + "released it: anyone who paid in between would lose what they paid for. If it has not gone live yet, type '<' and choose "
                    + "'a release not listed yet'"
            } else {
                evidence =
                    "the list's date is \(source), which is not when Apple released it; "
                    + "Return keeps it unconfirmed and check warns until you confirm it"
            }
            return Question(
                id: id,
                prompt: "When did \(release.displayName) go live on the App Store (UTC)? App Store Connect shows it in the version's history",
                defaultAnswer: answers.freeGoLive.map(Timestamp.format) ?? listedDefault,
                hint: "a date-time such as 2024-11-20T17:00:00Z (a date alone counts as the end of that day everywhere on Earth); " + evidence)
        case .newFreeRelease:
            return Question(
                id: id, prompt: "The first free release: version, build and the day it goes live (UTC)",
                defaultAnswer: Self.text(of: answers.newFreeRelease ?? suggestedFreeRelease()), hint: "VERSION (BUILD) YYYY-MM-DD")
        case .price:
            return Question(
                id: id, prompt: "What did the download cost while the app was paid?", defaultAnswer: (answers.price ?? Price(tenThousandths: 29_900)).description,
                hint: "a price such as 2.99, in your main currency")
        case .features:
            return Question(
                id: id, prompt: "Which features does the paid app have (or will in-app purchases unlock)?",
                defaultAnswer: (answers.features ?? defaultFeatures()).map(\.name).joined(separator: ", "), hint: "comma-separated names, such as Themes, Sync, Export")
        case .featureSince(let feature):
            let paid = answers.paidReleases
            var choices = paid.map { "\(answers.allReleases[$0].version)" + (answers.allReleases[$0].build.map { " (\($0))" } ?? "") + "  \(Self.day(answers.allReleases[$0].date))" }
            choices.append("none: it is new, only sold in-app")
            let fallback: Int
            if let known = answers.featureSince[feature] {
                fallback = known.flatMap { paid.firstIndex(of: $0) }.map { $0 + 1 } ?? choices.count
            } else {
                fallback = 1
            }
            let name = answers.features?.first { $0.id == feature }?.name ?? feature
            let shown = Self.shownChoices(releases: paid.count, total: choices.count, defaultItem: fallback)
            return Question(
                id: id, prompt: "Which paid release first included \(name)?", choices: choices, defaultAnswer: String(fallback),
                hint: shown == nil ? "a number from the list, or a version" : Self.searchHint(paid.map { ($0, answers.allReleases[$0]) }),
                shownChoices: shown)
        case .newProduct:
            let fallback = "\(answers.bundleID ?? facts.app.bundleID ?? "com.example.app").pro 4.99"
            let lasting = facts.products.filter(\.canUnlockFeaturesForSale)
            let found: String
            if facts.products.isEmpty {
                found = "No .storekit product was found."
            } else if lasting.isEmpty {
                let list = facts.products.map { "\($0.id), \($0.forSale ? $0.kind.rawValue : "not for sale")" }.joined(separator: "; ")
                found = "The .storekit has nothing that can unlock a feature (\(list)): a consumable is used up."
            } else {
                found = "Besides \(lasting.map(\.id).joined(separator: ", ")) from the .storekit:"
            }
            return Question(
                id: id, prompt: found + " Which in-app purchase will unlock the paid features?",
                defaultAnswer: answers.newProduct.map(ProductAnswer.text) ?? fallback,
                hint: "PRODUCT-ID [KIND] PRICE; KIND is non-consumable (the default), non-renewing, or a subscription: weekly, monthly, quarterly, yearly")
        case .grants(let product):
            let features = answers.features ?? []
            let choices = features.map { "\($0.name) (\($0.id))" }
            let name = answers.products.first { $0.id == product }.map { "\($0.name) (\($0.id))" } ?? product
            return Question(
                id: id, prompt: "Which features does \(name) unlock?", choices: choices,
                defaultAnswer: (answers.grants[product] ?? defaultGrants(product)).joined(separator: ", "),
                hint: "comma-separated numbers or ids, 'all' or 'none'")
        case .era(let index):
            let era = answers.eras[index]
            let bought = era.features.isEmpty ? "nothing listed" : era.features.joined(separator: ", ")
            let choices = [
                "keep what they bought (\(bought)), free",
                "everything, including features added later",
                "keep what they bought, plus a discount on a product",
            ]
            let fallback: String
            switch answers.eraTreatments[index] {
            case .everything: fallback = "2"
            case .discount: fallback = "3"
            default: fallback = "1"
            }
            return Question(id: id, prompt: "How are buyers of \(era.label) treated?", choices: choices, defaultAnswer: fallback, hint: "1, 2 or 3")
        case .eraDiscount(let index):
            var fallback: String?
            if case .discount(let product, let price)? = answers.eraTreatments[index], !product.isEmpty {
                fallback = "\(product) \(price)"
            } else if let product = answers.products.first(where: { $0.forSale && $0.kind != .consumable }) {
                fallback = "\(product.id) \(Price(tenThousandths: product.price.tenThousandths / 200 * 100))"
            }
            return Question(
                id: id, prompt: "Which product do buyers of \(answers.eras[index].label) get cheaper, and at what price?",
                defaultAnswer: fallback, hint: "PRODUCT-ID PRICE")
        case .nonProduction:
            var choices = ["as new customers, who own only what they buy in the sandbox"]
            choices += answers.eras.map { "as buyers of \($0.label), to try the grandfathered path" }
            var fallback = "1"
            if case .tier(let tier)? = answers.nonProduction, let number = Int(tier.dropFirst("era-".count)) { fallback = String(number + 1) }
            return Question(id: id, prompt: "How are TestFlight, sandbox and Xcode testers treated?", choices: choices, defaultAnswer: fallback, hint: "a number")
        case .verificationFailure:
            var fallback = "keep 7"
            if case .deny? = answers.verificationFailure { fallback = "deny" }
            if case .keepLastVerified(let days)? = answers.verificationFailure { fallback = "keep \(days)" }
            return Question(
                id: id, prompt: "When the App Store's signature does not verify:", choices: ["deny: grant nothing that needs proof", "keep the last verified entitlements for some days"],
                defaultAnswer: fallback,
                hint: "'deny' or 'keep DAYS', \(PlanKeys.keepLastVerifiedDays.lowerBound) to \(PlanKeys.keepLastVerifiedDays.upperBound) days (1 or 2 also work)")
        case .familySharing:
            return Question(
                id: id, prompt: "Do purchases shared through Family Sharing count?", choices: ["yes: family members are entitled", "no: ignored"],
                defaultAnswer: answers.familySharing == .ignored ? "2" : "1", hint: "1 or 2")
        case .paidDownloads:
            let forms = "a number (written as a range of 60–140% of it) or a range such as 150-350, for migrate simulate"
            if let measured = facts.installBase?.averagePaidPerMonth {
                let rate = Int(measured.rate.rounded())
                return Question(
                    id: id,
                    prompt: "The sales reports cover \(String(format: "%.1f", measured.months)) months, too few to show a trend. How many paid downloads a month does the app get now?",
                    defaultAnswer: answers.paidDownloads?.text ?? PaidDownloads(guess: rate).text,
                    hint: forms + "; the reports average \(rate) a month")
            }
            return Question(
                id: id, prompt: "About how many paid downloads a month does the app get now?", defaultAnswer: answers.paidDownloads?.text ?? "100",
                hint: forms + " (import sales reports with --sales for real figures)")
        case .confirm:
            let changeable = sequence().filter { $0 != .confirm }
            return Question(
                id: id, prompt: "Write the plan, or change an answer?", choices: changeable.map { "\($0.label): \(answerText($0))" }, defaultAnswer: "yes",
                hint: "yes, no, or the number of an answer to change (the others are kept)")
        }
    }

    // MARK: - Defaults

    func defaultFeatures() -> [Feature] {
        let unlocking = facts.products.filter { $0.kind == .nonConsumable }
        if !unlocking.isEmpty && unlocking.count == facts.products.count {
            return unlocking.map { Feature(id: Self.slug($0.name), name: $0.name) }
        }
        return [Feature(id: "pro", name: "Pro features")]
    }

    func defaultGrants(_ productID: String) -> [String] {
        let features = answers.features ?? []
        if let product = answers.products.first(where: { $0.id == productID }), product.kind == .nonConsumable,
            let same = features.first(where: { $0.id == Self.slug(product.name) }), features.count > 1
        {
            return [same.id]
        }
        return features.map(\.id)
    }

    func suggestedFreeRelease() -> ImportedRelease {
        let last = answers.releases.last
        let platform = last?.platform ?? answers.platforms?.first ?? .iOS
        let major = (last?.version.components.first ?? 0) + 1
        var build: Version?
        if platform.originalVersionMeaning == .buildNumber {
            if let lastBuild = last?.build, lastBuild.components.count == 1 { build = Version(lastBuild.components[0] + 1) } else { build = Version(1) }
        }
        // A month from now, at midnight UTC: a date to correct, never a guess presented as fact.
        let day = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 30 * 86_400)
        return ImportedRelease(platform: platform, version: Version(major, 0), build: build, date: day, dateSource: "typed", provenance: .appStore, origin: "init")
    }

    // MARK: - Answers

    mutating func apply(_ input: String, to id: QuestionID) -> WizardOutcome {
        switch id {
        case .appName:
            answers.appName = input
            return .accepted(["The app is called \(input) in the plan and the generated code."])
        case .bundleID:
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-"))
            guard input.contains("."), input.unicodeScalars.allSatisfy(allowed.contains), !input.hasPrefix("."), !input.hasSuffix(".") else {
                return .invalid("'\(input)' is not a bundle id: use reverse-DNS letters, digits, '-' and '.', such as com.example.app")
            }
            answers.bundleID = input
            return .accepted(["Receipts are checked against \(input)."])
        case .platforms:
            var platforms: [Platform] = []
            for word in Self.list(input) {
                guard let platform = Platform(named: word) else {
                    return .invalid("'\(word)' is not a platform." + Suggestions.didYouMean(word, in: Platform.allCases.map(\.rawValue)) + " Choose from " + Platform.allCases.map(\.rawValue).joined(separator: ", ") + ".")
                }
                if !platforms.contains(platform) { platforms.append(platform) }
            }
            guard !platforms.isEmpty else { return .invalid("name at least one platform") }
            answers.platforms = platforms.sorted()
            // Universal purchase is a question only with macOS and another platform; otherwise it is no.
            if !(platforms.contains(.macOS) && platforms.contains(where: { $0 != .macOS })) { answers.universalPurchase = nil }
            let meanings = answers.platforms!.map { "\($0) receipts carry the \($0.originalVersionMeaning.displayName)" }
            return .accepted([meanings.joined(separator: "; ") + "."])
        case .universalPurchase:
            guard let yes = Self.yesNo(input) else { return .invalid("answer yes or no") }
            answers.universalPurchase = yes
            return .accepted([
                yes
                    ? "One purchase covers both; the original version means whatever the platform it was first bought on put there."
                    : "Each platform is sold, and its buyers grandfathered, separately."
            ])
        case .releases:
            var releases: [ImportedRelease] = []
            for item in Self.list(input) {
                switch parseRelease(item) {
                case .success(let release): releases.append(release)
                case .failure(let message): return .invalid(message)
                }
            }
            guard releases.count >= 1 else { return .invalid("list at least the first paid release") }
            var seen = Set<String>()
            for release in releases
            where !seen.insert(Release.identity(platform: release.platform, version: release.version, build: release.build)).inserted {
                return .invalid("\(release.platform) \(release.displayName) is listed twice; list each release once")
            }
            answers.releases = releases.sorted { $0.date < $1.date }
            // Indexes into the old list mean nothing in the new one: asked again.
            answers.firstFree = nil
            answers.featureSince = [:]
            return .accepted(["\(releases.count) release\(releases.count == 1 ? "" : "s") in the version history."])
        case .firstFree:
            let count = answers.releases.count
            var chosen: Int?
            if input.lowercased() == "new" {
                chosen = count
            } else {
                switch choose(input, choices: count + 1, versions: answers.releases.indices.map { ($0, answers.releases[$0]) }) {
                case .item(let number): chosen = number - 1
                case .release(let index): chosen = index
                case .refused(let message): return .invalid(message)
                }
            }
            guard chosen! > 0 else { return .invalid("the first release cannot be the first free one: then no one paid, and there is no one to grandfather") }
            if answers.firstFree != chosen {
                answers.freeGoLive = nil
                answers.freeGoLiveConfirmed = false
            }
            answers.firstFree = chosen
            if chosen == count { return .accepted(["The app goes free with a release not listed yet."]) }
            let paid = answers.paidReleases.count
            return .accepted(["\(paid) paid release\(paid == 1 ? "" : "s") before it; their buyers are the legacy customers."] + cutoffLines())
        case .freeGoLive:
            guard let index = answers.firstFree, answers.releases.indices.contains(index) else { return .invalid("choose the first free release first") }
            guard let date = Self.goLive(input) else {
                return .invalid("'\(input)' is not a date-time; write it in UTC, such as 2024-11-20T17:00:00Z, or a date such as 2024-11-20")
            }
            if index > 0, date <= answers.releases[index - 1].date {
                let previous = answers.releases[index - 1]
                return .invalid("it must be after the release before it (\(previous.displayName), \(Timestamp.format(previous.date)))")
            }
            if index + 1 < answers.releases.count, date >= answers.releases[index + 1].date {
                let next = answers.releases[index + 1]
                return .invalid("it must be before the release after it (\(next.displayName), \(Timestamp.format(next.date)))")
            }
            // Return on an earlier answer keeps it as it was; Return on the listed date confirms only evidence.
            let keepsEarlier = answeringWithDefault && answers.freeGoLive == date
            if !keepsEarlier { answers.freeGoLiveConfirmed = !answeringWithDefault }
            answers.freeGoLive = date
            let provenance = answers.releases[index].provenance
            if answers.freeGoLiveConfirmed { return .accepted(["Free from \(Timestamp.format(date)), confirmed."] + cutoffLines()) }
            if provenance.isEvidence { return .accepted(["Free from \(Timestamp.format(date)), \(provenance.phrase)."] + cutoffLines()) }
            return .accepted([
                "Free from \(Timestamp.format(date)), \(provenance.phrase): check will warn until you confirm it "
                    + "(set \"releasedSource\": \"appStore\" once it matches App Store Connect)."
            ] + cutoffLines())
        case .newFreeRelease:
            switch parseRelease(input) {
            case .failure(let message): return .invalid(message)
            case .success(let release):
                let key = Release.identity(platform: release.platform, version: release.version, build: release.build)
                if let same = answers.releases.first(where: { Release.identity(platform: $0.platform, version: $0.version, build: $0.build) == key }) {
                    return .invalid(
                        "\(same.platform) \(same.displayName) is already listed (\(Self.day(same.date))); choose it at the previous question ('<'), or give the new release's own version and build")
                }
                if let last = answers.releases.last, release.date <= last.date {
                    return .invalid("it must go live after the last listed release (\(last.displayName), \(Self.day(last.date)))")
                }
                answers.newFreeRelease = release
                return .accepted(["Free from \(release.displayName) on \(Self.day(release.date)) (UTC)."] + cutoffLines())
            }
        case .price:
            guard let price = try? Price(input), !price.isZero else { return .invalid("'\(input)' is not a price above 0, such as 2.99") }
            answers.price = price
            return .accepted(["Paid releases are recorded at \(price); migrate simulate compares staying paid at this price."])
        case .features:
            let names = Self.list(input)
            guard !names.isEmpty else { return .invalid("name at least one feature") }
            var features: [Feature] = []
            for name in names {
                let id = Self.slug(name)
                guard !id.isEmpty else { return .invalid("'\(name)' has no letters or digits to make an id from") }
                guard !features.contains(where: { $0.id == id }) else { return .invalid("'\(name)' is listed twice") }
                features.append(Feature(id: id, name: name))
            }
            answers.features = features
            return .accepted(["Features: " + features.map { "\($0.id)" }.joined(separator: ", ") + " (ids as they appear in the plan and the code)."])
        case .featureSince(let feature):
            let paid = answers.paidReleases
            let choices = paid.count + 1
            var since: Int??
            if input.lowercased() == "none" {
                since = .some(nil)
            } else {
                switch choose(input, choices: choices, versions: paid.map { ($0, answers.allReleases[$0]) }) {
                case .item(let number): since = number == choices ? .some(nil) : .some(paid[number - 1])
                case .release(let index): since = .some(index)
                case .refused(let message): return .invalid(message)
                }
            }
            answers.featureSince[feature] = since!
            // The first paid release must have bought something, or its buyers could not be told what they keep.
            if let features = answers.features, feature == features.last?.id, let first = paid.first,
                !features.contains(where: { (answers.featureSince[$0.id] ?? nil) == first })
            {
                answers.featureSince[feature] = nil
                return .invalid("the first paid release (\(answers.allReleases[first].displayName)) must have included at least one feature; choose 1 here or go back")
            }
            guard let index = since! else { return .accepted(["No buyer gets it free; it is sold in-app only."]) }
            return .accepted(["Buyers from \(answers.allReleases[index].displayName) on keep it free after the switch."])
        case .newProduct:
            let product: Product
            switch ProductAnswer.parse(input, group: answers.appName ?? facts.app.name ?? "Subscriptions") {
            case .failure(let message): return .invalid(message.text)
            case .success(let parsed): product = parsed
            }
            if let imported = facts.products.first(where: { $0.id == product.id }) {
                return .invalid(
                    "\(product.id) is already in the .storekit (\(imported.kind.rawValue) at \(imported.price)); give the id of the product that unlocks the paid features")
            }
            // Replaces an earlier answer (going back), never an imported product.
            if let earlier = answers.newProduct {
                answers.products.removeAll { $0.id == earlier.id }
                answers.grants[earlier.id] = nil
            }
            answers.newProduct = product
            answers.products.append(product)
            let kind: String
            switch product.kind {
            case .autoRenewable: kind = "an auto-renewable subscription (\(product.subscription?.period ?? ""))"
            case .nonRenewing: kind = "a non-renewing subscription"
            default: kind = "a non-consumable"
            }
            return .accepted(["\(product.id) is sold at \(product.price) as \(kind); add it to App Store Connect with this id."])
        case .grants(let product):
            let features = answers.features ?? []
            var granted: [String] = []
            let lowered = input.lowercased()
            if lowered == "all" {
                granted = features.map(\.id)
            } else if lowered != "none" {
                for word in Self.list(input) {
                    if let number = Int(word) {
                        guard (1...max(1, features.count)).contains(number), features.indices.contains(number - 1) else {
                            return .invalid("choose numbers from 1 to \(features.count)")
                        }
                        granted.append(features[number - 1].id)
                    } else if let feature = features.first(where: { $0.id == word || $0.name.lowercased() == word.lowercased() }) {
                        granted.append(feature.id)
                    } else {
                        return .invalid("'\(word)' is not a feature." + Suggestions.didYouMean(word, in: features.map(\.id)))
                    }
                }
            }
            granted = features.map(\.id).filter(granted.contains)
            answers.grants[product] = granted
            if let index = answers.products.firstIndex(where: { $0.id == product }) { answers.products[index].grants = granted }
            return .accepted([granted.isEmpty ? "\(product) unlocks no feature." : "\(product) unlocks \(granted.joined(separator: ", "))."])
        case .era(let index):
            let era = answers.eras[index]
            switch input.lowercased() {
            case "1", "keep":
                answers.eraTreatments[index] = .keepWhatTheyBought
                return .accepted(["Buyers of \(era.label) keep \(era.features.isEmpty ? "what they bought" : era.features.joined(separator: ", ")) and buy the rest like anyone."])
            case "2", "everything", "all":
                answers.eraTreatments[index] = .everything
                return .accepted(["Buyers of \(era.label) get every feature, including ones added later, free."])
            case "3", "discount":
                if case .discount? = answers.eraTreatments[index] {} else { answers.eraTreatments[index] = .discount(product: "", price: .zero) }
                return .accepted(["Buyers of \(era.label) keep what they bought and see a cheaper price."])
            default:
                return .invalid("answer 1, 2 or 3." + Suggestions.didYouMean(input, in: ["keep", "everything", "discount"]))
            }
        case .eraDiscount(let index):
            let parts = input.replacingOccurrences(of: ":", with: " ").split(separator: " ").map(String.init)
            guard parts.count == 2 else { return .invalid("answer PRODUCT-ID PRICE, such as com.example.app.pro 1.99") }
            guard let product = answers.products.first(where: { $0.id == parts[0] }) else {
                return .invalid("'\(parts[0])' is not a product." + Suggestions.didYouMean(parts[0], in: answers.products.map(\.id)))
            }
            guard let price = try? Price(parts[1]) else { return .invalid("'\(parts[1])' is not a price, such as 1.99") }
            guard price < product.price else { return .invalid("a discount costs less than \(product.id)'s \(product.price)") }
            answers.eraTreatments[index] = .discount(product: product.id, price: price)
            return .accepted(["Buyers of \(answers.eras[index].label) are offered \(product.id) at \(price) instead of \(product.price)."])
        case .nonProduction:
            let eras = answers.eras
            if input.lowercased() == "new" || input == "1" {
                answers.nonProduction = .newCustomer
                return .accepted(["Testers see what a new customer sees (their original version is always \"1.0\")."])
            }
            var era: Int?
            if let number = Int(input), (2...eras.count + 1).contains(number) { era = number - 2 }
            if input.hasPrefix("era-"), let number = Int(input.dropFirst(4)), eras.indices.contains(number - 1) { era = number - 1 }
            guard let era else { return .invalid("choose a number from 1 to \(eras.count + 1)") }
            answers.nonProduction = .tier("era-\(era + 1)")
            return .accepted(["Testers are treated as buyers of \(eras[era].label), to try the grandfathered path; never in production."])
        case .verificationFailure:
            let words = input.lowercased().replacingOccurrences(of: ":", with: " ").split(separator: " ").map(String.init)
            if words == ["1"] || words == ["deny"] {
                answers.verificationFailure = .deny
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
                answers.verificationFailure = .keepLastVerified(days: days)
                return .accepted(["The last verified entitlements last \(days) day\(days == 1 ? "" : "s") if verification fails, so a bug or outage locks no one out."])
            }
            return .invalid("answer 'deny' or 'keep DAYS'." + Suggestions.didYouMean(words.first ?? input, in: ["deny", "keep"]))
        case .familySharing:
            switch input.lowercased() {
            case "1", "yes", "y", "entitles":
                answers.familySharing = .entitles
                return .accepted(["Family members get what a shared purchase unlocks (only products marked family-shareable)."])
            case "2", "no", "n", "ignored":
                answers.familySharing = .ignored
                return .accepted(["Only the buyer gets what a purchase unlocks."])
            default:
                return .invalid("answer 1 (yes) or 2 (no)")
            }
        case .paidDownloads:
            guard let downloads = PaidDownloads.parse(input) else {
                return .invalid("'\(input)' is neither a whole number of downloads nor a range such as 150-350")
            }
            answers.paidDownloads = downloads
            let written =
                downloads.isRange
                ? "\(downloads.low)–\(downloads.high) paid downloads a month, each as likely,"
                : "about \(downloads.likely) paid downloads a month, as a range (\(downloads.low)–\(downloads.high), most likely \(downloads.likely))"
            return .accepted(["migrate simulate starts from \(written) in simulation.assumptions; edit it there."])
        case .confirm:
            guard let yes = Self.yesNo(input) else {
                return .invalid("answer yes, no, or a number from 1 to \(sequence().count - 1) to change that answer")
            }
            answers.confirmed = yes
            return yes ? .accepted([]) : .cancelled
        }
    }

    /// One line per platform: which cutoff rule `check` will use and why, from the engine itself.
    public func cutoffLines() -> [String] {
        let draft = PlanBuilder.plan(answers, facts: facts, draft: true)
        guard !draft.releases.isEmpty else { return [] }
        let rules = PlanChecker.check(draft, now: now).rules
        return rules.map { rule in
            switch rule.rule {
            case .purchaseDate: "Cutoff rule on \(rule.platform): \(rule.reason), so purchases are dated instead (originalPurchaseDate)."
            case .buildNumber, .marketingVersion: "Cutoff rule on \(rule.platform): the \(rule.rule == .buildNumber ? "build number" : "marketing version") at first purchase, because \(rule.reason)."
            default: "Cutoff rule on \(rule.platform): \(rule.rule.displayName), because \(rule.reason)."
            }
        }
    }

    // MARK: - Parsing helpers

    /// A default saved for a re-run: the list item as `#N`, which can never be read as a version.
    func listAnswer(for id: QuestionID, default text: String) -> String {
        switch id {
        case .firstFree, .featureSince: Int(text) != nil ? "#" + text : text
        default: text
        }
    }

    enum Parsed<T> {
        case success(T)
        case failure(String)
    }

    /// `[PLATFORM] VERSION [(BUILD)] YYYY-MM-DD`.
    func parseRelease(_ text: String) -> Parsed<ImportedRelease> {
        var words = text.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ").split(separator: " ").map(String.init)
        var platform = answers.platforms?.first ?? .iOS
        if let first = words.first, let named = Platform(named: first) {
            platform = named
            words.removeFirst()
        }
        guard words.count == 2 || words.count == 3 else { return .failure("'\(text)' is not VERSION (BUILD) YYYY-MM-DD, such as 2.0 (40) 2021-06-01") }
        guard let version = try? Version(words[0]) else { return .failure("'\(words[0])' is not a version such as 2.0") }
        var build: Version?
        if words.count == 3 {
            guard let parsed = try? Version(words[1]) else { return .failure("'\(words[1])' is not a build number such as 40") }
            build = parsed
        }
        if build == nil && platform.originalVersionMeaning == .buildNumber {
            return .failure("\(platform) receipts carry the build number, so '\(text)' needs one: VERSION (BUILD) YYYY-MM-DD")
        }
        let dateText = words.last!
        guard let date = Timestamp.parse(dateText.contains("T") ? dateText : dateText + "T00:00:00Z") else {
            return .failure("'\(dateText)' is not a date such as 2021-06-01")
        }
        return .success(ImportedRelease(platform: platform, version: version, build: build, date: date, dateSource: "typed", provenance: .appStore, origin: "init"))
    }

    /// A go-live moment as typed: a date-time, or a date alone read as the moment that day has ended everywhere,
    /// so that nobody who paid on that day, wherever they were, counts as a new customer.
    static func goLive(_ text: String) -> Date? {
        guard let date = Timestamp.parse(text) else { return nil }
        return text.contains("T") ? date : Timestamp.endOfDayEverywhere(date)
    }

    static func text(of release: ImportedRelease) -> String {
        release.displayName + " " + day(release.date)
    }

    static func day(_ date: Date) -> String { String(Timestamp.format(date).prefix(10)) }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func yesNo(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "y", "yes": true
        case "n", "no": false
        default: nil
        }
    }

    /// `Dark Themes` → `dark-themes`.
    public static func slug(_ name: String) -> String {
        var result = ""
        for character in name.lowercased() {
            if character.isLetter || character.isNumber, character.isASCII {
                result.append(character)
            } else if !result.isEmpty && !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }
}
