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
        answers.now = now
        answers.untagged = facts.untaggedVersions
        answers.products = facts.products
        current = .appName
    }

    /// Whether the imported products leave the plan with nothing to sell that unlocks a feature
    /// (none, or only consumables such as a tip jar), so the product question is asked.
    public var needsProduct: Bool { asksForProduct || !facts.products.contains { $0.canUnlockFeaturesForSale && sells($0.id) } }

    public var isFinished: Bool { current == nil }

    /// The plan the answers so far describe.
    public var plan: MigrationPlan { PlanBuilder.plan(answers, facts: facts) }

    /// The questions that apply given the answers so far, in order.
    public func sequence() -> [QuestionID] {
        var list: [QuestionID] = [.appName, .bundleID, .platforms]
        let platforms = answers.platforms ?? []
        if Platform.spansStores(platforms) { list.append(.universalPurchase) }
        if facts.releases.isEmpty { list.append(.releases) }
        list.append(.firstFree)
        if let firstFree = answers.firstFree, firstFree < answers.releases.count {
            list.append(.freeGoLive)
            list += (answers.platforms ?? []).filter { answers.listedFreeRelease(on: $0) != nil }.map { .platformGoLive($0) }
            list += otherFreePlatforms.map { .platformFreeRelease($0) }
        }
        if answers.firstFree == answers.releases.count {
            list.append(.newFreeRelease)
            list += otherFreePlatforms.map { .platformFreeRelease($0) }
        }
        list += doubtfulProducts.map { .sells($0.id) }
        list += [.price, .features]
        list += (answers.features ?? []).map { .featureSince($0.id) }
        // Gone free in the past: its free releases gave features away, which their downloaders have used since.
        if answers.wentFree(before: now) { list.append(.freeGaveAway) }
        if needsProduct { list.append(.newProduct) }
        for product in answers.products where product.kind != .consumable && sells(product.id) {
            if asksDuration(product.id) { list.append(.duration(product.id)) }
            list.append(.grants(product.id))
        }
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
            if id != .confirm { answers.typed[id.key] = savedAnswer(for: id, typed: input) }
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

    func question(_ id: QuestionID) -> Question { id.handler.ask(self) }

    // MARK: - Defaults

    func defaultFeatures() -> [Feature] {
        let sold = facts.products.filter { sells($0.id) }
        let unlocking = sold.filter { $0.kind == .nonConsumable }
        if !unlocking.isEmpty && unlocking.count == sold.count {
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

    /// The platforms besides the first free release's own that need a first free release of their own (asked as
    /// `platformFreeRelease`). With a new free release: each the app ships on, unless it only runs the main platform's
    /// binary (an iPad or Apple Vision Pro running the iPhone app, with no releases of its own listed). With a listed
    /// one: each that lists releases but none of its version or later.
    public var otherFreePlatforms: [Platform] {
        guard let firstFree = answers.firstFree else { return [] }
        // A listed first free release: the platforms that list no release of its version or later.
        guard firstFree == answers.releases.count else { return (answers.platforms ?? []).filter(answers.needsOwnFreeRelease) }
        let main = answers.newFreeRelease?.platform ?? suggestedFreeRelease().platform
        return (answers.platforms ?? []).filter { platform in
            guard platform != main else { return false }
            let listed = answers.releases.contains { $0.platform == platform }
            return listed || !(platform.fallbackPlatforms.contains(main) || platform.storeRecord == main.storeRecord)
        }
    }

    /// The first free release suggested on another platform: the new free release's version, going live the same
    /// moment, with the platform's next build when its receipts carry one.
    func suggestedFreeRelease(on platform: Platform) -> ImportedRelease {
        var main = answers.newFreeRelease ?? suggestedFreeRelease()
        if let firstFree = answers.firstFree, firstFree < answers.releases.count {
            // A listed first free release: its version, going live when the app went free.
            main = answers.releases[firstFree]
            if let goLive = answers.freeGoLive { main.date = goLive }
        }
        var build: Version?
        if platform.originalVersionMeaning == .buildNumber {
            let last = answers.releases.last { $0.platform == platform }
            if let lastBuild = last?.build, lastBuild.components.count == 1 {
                build = Version(lastBuild.components[0] + 1)
            } else {
                build = main.build ?? Version(1)
            }
        }
        return ImportedRelease(
            platform: platform, version: main.version, build: build, date: main.date, dateSource: main.dateSource, provenance: main.provenance,
            origin: "init")
    }

    func suggestedFreeRelease() -> ImportedRelease {
        // The first platform the app ships on (the one typed releases default to), its own last release.
        let platform = answers.platforms?.first ?? answers.releases.last?.platform ?? .iOS
        let last = answers.releases.last { $0.platform == platform } ?? answers.releases.last
        let major = (last?.version.components.first ?? 0) + 1
        var build: Version?
        if platform.originalVersionMeaning == .buildNumber {
            if let lastBuild = last?.build, lastBuild.components.count == 1 {
                build = Version(lastBuild.components[0] + 1)
            } else {
                build = Version(1)
            }
        }
        // A month from now, the end of that day everywhere: a planned date to correct, never a guess presented as fact.
        let day = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 30 * 86_400)
        return ImportedRelease(
            platform: platform, version: Version(major, 0), build: build, date: Timestamp.endOfDayEverywhere(day), dateSource: "typed",
            provenance: .planned, origin: "init")
    }

    // MARK: - Answers

    mutating func apply(_ input: String, to id: QuestionID) -> WizardOutcome { id.handler.apply(input, to: &self) }

    /// One line per platform: which cutoff rule `check` will use and why, from the engine itself.
    public func cutoffLines() -> [String] {
        let draft = PlanBuilder.plan(answers, facts: facts, draft: true)
        guard !draft.releases.isEmpty else { return [] }
        let rules = PlanChecker.check(draft, now: now).rules
        return rules.map { rule in
            switch rule.rule {
            case .purchaseDate: "Cutoff rule on \(rule.platform): \(rule.reason), so purchases are dated instead (originalPurchaseDate)."
            case .buildNumber, .marketingVersion:
                "Cutoff rule on \(rule.platform): the \(rule.rule == .buildNumber ? "build number" : "marketing version") at first purchase, because \(rule.reason)."
            default: "Cutoff rule on \(rule.platform): \(rule.rule.displayName), because \(rule.reason)."
            }
        }
    }

    // MARK: - Parsing helpers

    /// An answer saved for a re-run: a release chosen from a list by what it is (its version, or version and build
    /// when several builds share it, or with its platform), never by its position, which shifts when a release is added.
    func savedAnswer(for id: QuestionID, typed: String) -> String {
        switch id {
        case .firstFree:
            guard let index = answers.firstFree else { return typed }
            if index == answers.releases.count { return "new" }
            return Self.name(of: index, among: answers.releases.indices.map { ($0, answers.releases[$0]) }) ?? typed
        case .featureSince(let feature):
            guard let since = answers.featureSince[feature] else { return typed }
            guard let index = since else { return "none" }
            return Self.name(of: index, among: answers.paidReleases.map { ($0, answers.allReleases[$0]) }) ?? typed
        default:
            return typed
        }
    }

    /// The shortest text that names one release among a list and reads back as it (`choose`): its version, its
    /// version and build, or those with its platform; never a bare number, which would be read as a position.
    static func name(of index: Int, among versions: [(index: Int, release: ImportedRelease)]) -> String? {
        guard let release = versions.first(where: { $0.index == index })?.release else { return nil }
        let candidates = [release.version.text, release.displayName, "\(release.platform) \(release.displayName)"]
        return candidates.first { text in
            Int(text) == nil && matches(text, in: versions).map(\.index) == [index]
        }
    }

    /// Why an answer given by a flag or an answers file can't be taken as it is: a list position (`#33`), which
    /// shifts when a release is added, for a question that chooses a release. Nil when it can.
    public static func positionProblem(_ id: QuestionID, answer: String) -> String? {
        switch id {
        case .firstFree, .featureSince:
            guard answer.hasPrefix("#"), Int(answer.dropFirst()) != nil else { return nil }
            return
                "'\(answer)' is a position in the list of releases, which shifts when a release is tagged or added; give the release's version "
                + "instead, such as '1.2.0' or '1.2.0 (62)'\(id == .firstFree ? ", or 'new'" : ", or 'none'")"
        default:
            return nil
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
        guard words.count == 2 || words.count == 3 else {
            return .failure("'\(text)' is not VERSION (BUILD) YYYY-MM-DD, such as 2.0 (40) 2021-06-01")
        }
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
        guard let date = Self.goLive(dateText) else {
            return .failure("'\(dateText)' is not a date such as 2021-06-01")
        }
        // A moment still to come is a plan, not a confirmed go-live.
        return .success(
            ImportedRelease(
                platform: platform, version: version, build: build, date: date, dateSource: "typed",
                provenance: date > now ? .planned : .appStore, origin: "init"))
    }

    /// A go-live moment as typed, by the plan's one rule (`Timestamp.parseGoLive`): a date-time, or a date alone
    /// read as the moment that day has ended everywhere, so that nobody who paid on that day counts as a new customer.
    static func goLive(_ text: String) -> Date? { Timestamp.parseGoLive(text) }

    /// `2.0 (40) 2021-06-01`, which `parseRelease` reads back as the same release and moment.
    static func text(of release: ImportedRelease) -> String {
        release.displayName + " " + Timestamp.formatGoLive(release.date)
    }

    static func day(_ date: Date) -> String { String(Timestamp.format(date).prefix(10)) }

    /// The day of a go-live as it was typed: the day whose end everywhere it is, for a date typed alone (the next
    /// day at 12:00 UTC), else its UTC day.
    public static func goLiveDay(_ date: Date) -> String {
        let shown = Timestamp.formatGoLive(date)
        return shown.count == 10 ? shown : day(date)
    }

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
