import Foundation
import MigrateImport
import MigratePlan

// The releases: the history when none was found, the first free release and when it went live, the paid price.

struct ReleasesQuestion: WizardQuestion {
    var id: QuestionID { .releases }

    func ask(_ wizard: Wizard) -> Question {
        return Question(
            id: id, prompt: "No version history was found. Which releases went live, oldest first?",
            defaultAnswer: wizard.answers.releases.isEmpty ? nil : wizard.answers.releases.map(Wizard.text(of:)).joined(separator: ", "),
            hint: "comma-separated VERSION (BUILD) YYYY-MM-DD, such as 1.0 (1) 2019-03-01, 2.0 (40) 2021-06-01")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        var releases: [ImportedRelease] = []
        for item in Wizard.list(input) {
            switch wizard.parseRelease(item) {
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
        wizard.answers.releases = releases.sorted { $0.date < $1.date }
        // Indexes into the old list mean nothing in the new one: asked again.
        wizard.answers.firstFree = nil
        wizard.answers.featureSince = [:]
        return .accepted(["\(releases.count) release\(releases.count == 1 ? "" : "s") in the version history."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        !wizard.answers.releases.isEmpty
    }
}

struct FirstFreeQuestion: WizardQuestion {
    var id: QuestionID { .firstFree }

    func ask(_ wizard: Wizard) -> Question {
        var choices = wizard.answers.releases.map { release in
            "\(release.platform) \(release.displayName)  \(Wizard.day(release.date))  (\(release.dateSource))"
        }
        choices.append("a release not listed yet (the one that will go free)")
        // Defaulting to a listed release would make its paid buyers new customers on a press of Return: the
        // default is the release still to come, unless the sales reports show the app already free from one.
        let evidence = Self.freeEvidence(in: wizard)
        if let evidence { choices[evidence.index] += "  free: \(evidence.note)" }
        let fallback = wizard.answers.firstFree ?? evidence?.index ?? wizard.answers.releases.count
        let shown = Wizard.shownChoices(releases: wizard.answers.releases.count, total: choices.count, defaultItem: fallback + 1)
        return Question(
            id: id, prompt: "Which release is the first free one?", choices: choices, defaultAnswer: String(fallback + 1),
            hint: shown == nil
                ? "a number from the list, or a version"
                : Wizard.searchHint(wizard.answers.releases.indices.map { ($0, wizard.answers.releases[$0]) }),
            shownChoices: shown)
    }

    /// The first listed release from which the sales reports show every listed release with figures downloaded
    /// only free (free downloads, no paid ones), after a release that sold: the app went free there. Nil
    /// without reports, or when any later release sold for money, so a payer is never made new by default.
    static func freeEvidence(in wizard: Wizard) -> (index: Int, note: String)? {
        guard let downloads = wizard.facts.installBase?.downloads, !wizard.facts.salesFiles.isEmpty else { return nil }
        let releases = wizard.answers.releases
        func counts(_ release: ImportedRelease) -> (paid: Int, free: Int)? {
            let rows = downloads.filter {
                $0.version?.canonical == release.version.canonical && ($0.platform == nil || $0.platform == release.platform)
            }
            guard !rows.isEmpty else { return nil }
            return (rows.reduce(0) { $0 + $1.paid }, rows.reduce(0) { $0 + $1.free })
        }
        var first: Int?
        for index in releases.indices.reversed() {
            guard let figures = counts(releases[index]) else { continue }  // no figures say nothing
            guard figures.paid == 0, figures.free > 0 else { break }
            first = index
        }
        guard let first, first > 0, releases[..<first].contains(where: { (counts($0)?.paid ?? 0) > 0 }),
            let figures = counts(releases[first])
        else { return nil }
        return (first, "\(figures.free) free and 0 paid downloads in \(wizard.facts.salesFiles.joined(separator: ", "))")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        let count = wizard.answers.releases.count
        var chosen: Int?
        if input.lowercased() == "new" {
            chosen = count
        } else {
            switch wizard.choose(input, choices: count + 1, versions: wizard.answers.releases.indices.map { ($0, wizard.answers.releases[$0]) }) {
            case .item(let number): chosen = number - 1
            case .release(let index): chosen = index
            case .refused(let message): return .invalid(message)
            }
        }
        guard chosen! > 0 else {
            return .invalid("the first release cannot be the first free one: then no one paid, and there is no one to grandfather")
        }
        if wizard.answers.firstFree != chosen {
            wizard.answers.freeGoLive = nil
            wizard.answers.freeGoLiveConfirmed = false
            wizard.answers.freeGoLivePlanned = false
        }
        wizard.answers.firstFree = chosen
        if chosen == count { return .accepted(["The app goes free with a release not listed yet."]) }
        let paid = wizard.answers.paidReleases.count
        let evidence = Self.freeEvidence(in: wizard).flatMap { $0.index == chosen ? "The app was already free from it: \($0.note)." : nil }
        return .accepted(
            ["\(paid) paid release\(paid == 1 ? "" : "s") before it; their buyers are the legacy customers."]
                + [evidence, Self.madeFree(wizard)].compactMap { $0 } + wizard.cutoffLines())
    }

    /// What choosing a listed release means for the releases from it on: their buyers are new customers.
    static func madeFree(_ wizard: Wizard) -> String? {
        guard let index = wizard.answers.firstFree, index < wizard.answers.releases.count else { return nil }
        let free = wizard.answers.releases[index...]
        let names = free.count <= 3 ? free.map(\.displayName).joined(separator: ", ") : "\(free.first!.displayName) … \(free.last!.displayName)"
        return
            "\(free.count) listed release\(free.count == 1 ? "" : "s") (\(names)) count as free: whoever bought \(free.count == 1 ? "it" : "one") is a new customer."
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.firstFree != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let index = wizard.answers.firstFree, wizard.answers.allReleases.indices.contains(index) else { return nil }
        let release = wizard.answers.allReleases[index]
        let free = index < wizard.answers.releases.count ? wizard.answers.releases.count - index : 0
        return "\(release.platform) \(release.displayName) \(Wizard.goLiveDay(release.date))"
            + (free == 0 ? " (not listed yet)" : "; makes \(free) listed \(free == 1 ? "release's" : "releases'") buyers new customers")
    }
}

struct FreeGoLiveQuestion: WizardQuestion {
    var id: QuestionID { .freeGoLive }

    func ask(_ wizard: Wizard) -> Question {
        let index = wizard.answers.firstFree ?? 0
        let release = wizard.answers.releases[min(index, wizard.answers.releases.count - 1)]
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
            defaultAnswer: wizard.answers.freeGoLive.map(Timestamp.format) ?? listedDefault,
            hint: "a date-time such as 2024-11-20T17:00:00Z (a date alone counts as the end of that day everywhere on Earth); " + evidence)
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let index = wizard.answers.firstFree, wizard.answers.releases.indices.contains(index) else {
            return .invalid("choose the first free release first")
        }
        guard let date = Wizard.goLive(input) else {
            return .invalid("'\(input)' is not a date-time; write it in UTC, such as 2024-11-20T17:00:00Z, or a date such as 2024-11-20")
        }
        // Compared with the releases on the same platform: another platform's twin of a release is no bound.
        let platform = wizard.answers.releases[index].platform
        let before = wizard.answers.releases[..<index].last { $0.platform == platform }
        let after = wizard.answers.releases[(index + 1)...].first { $0.platform == platform }
        if let previous = before, date <= previous.date {
            return .invalid("it must be after the release before it (\(previous.displayName), \(Timestamp.format(previous.date)))")
        }
        if let next = after, date >= next.date {
            return .invalid("it must be before the release after it (\(next.displayName), \(Timestamp.format(next.date)))")
        }
        // Return on an earlier answer keeps it as it was; Return on the listed date confirms only evidence.
        let keepsEarlier = wizard.answeringWithDefault && wizard.answers.freeGoLive == date
        if !keepsEarlier {
            wizard.answers.freeGoLiveConfirmed = !wizard.answeringWithDefault
            wizard.answers.freeGoLivePlanned = wizard.answers.freeGoLiveConfirmed && date > wizard.now
        }
        wizard.answers.freeGoLive = date
        let provenance = wizard.answers.releases[index].provenance
        if wizard.answers.freeGoLivePlanned && wizard.answers.freeGoLiveConfirmed {
            return .accepted(
                ["Free from \(Timestamp.format(date)), planned: it is still to come, so the plan records it as planned; confirm it once it is live."]
                    + wizard.cutoffLines())
        }
        if wizard.answers.freeGoLiveConfirmed { return .accepted(["Free from \(Timestamp.format(date)), confirmed."] + wizard.cutoffLines()) }
        if provenance.isEvidence { return .accepted(["Free from \(Timestamp.format(date)), \(provenance.phrase)."] + wizard.cutoffLines()) }
        return .accepted(
            [
                "Free from \(Timestamp.format(date)), \(provenance.phrase): check will warn until you confirm it "
                    + "(set \"releasedSource\": \"appStore\" once it matches App Store Connect)."
            ] + wizard.cutoffLines())
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.freeGoLive != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let date = wizard.answers.freeGoLive else { return nil }
        guard !wizard.answers.freeGoLiveConfirmed else {
            return Timestamp.format(date) + (wizard.answers.freeGoLivePlanned ? " (planned)" : " (confirmed)")
        }
        let listed = wizard.answers.firstFree.flatMap { wizard.answers.releases.indices.contains($0) ? wizard.answers.releases[$0].provenance : nil }
        return Timestamp.format(date) + (listed?.isEvidence == true ? " (\(listed!.phrase))" : " (as listed, not confirmed)")
    }
}

/// The go-live on another platform of its listed first free release, when the first free release is a listed one:
/// each platform's free version went live there on its own day, and until it did, buyers there were paying customers.
struct PlatformGoLiveQuestion: WizardQuestion {
    let platform: Platform
    var id: QuestionID { .platformGoLive(platform) }

    func ask(_ wizard: Wizard) -> Question {
        let index = wizard.answers.listedFreeRelease(on: platform) ?? 0
        let release = wizard.answers.releases[index]
        // A commit date says when code was written, never when Apple released it: no default.
        let listed = release.provenance == .commit ? nil : Timestamp.format(release.date)
        return Question(
            id: id,
            prompt: "When did \(release.displayName) go live on the App Store on \(platform) (UTC)? "
                + "App Store Connect shows it in the version's history",
            defaultAnswer: wizard.answers.platformGoLives[platform].map { Timestamp.format($0.date) } ?? listed,
            hint: "a date-time such as 2024-11-20T17:00:00Z (a date alone counts as the end of that day everywhere on Earth); "
                + "until it went live on \(platform), buyers there were paying customers; the list's date is \(release.provenance.phrase)")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let index = wizard.answers.listedFreeRelease(on: platform) else { return .invalid("choose the first free release first") }
        guard let date = Wizard.goLive(input) else {
            return .invalid("'\(input)' is not a date-time; write it in UTC, such as 2024-11-20T17:00:00Z, or a date such as 2024-11-20")
        }
        let releases = wizard.answers.releases
        if let previous = releases[..<index].last(where: { $0.platform == platform }), date <= previous.date {
            return .invalid("it must be after the release before it on \(platform) (\(previous.displayName), \(Timestamp.format(previous.date)))")
        }
        if let next = releases[(index + 1)...].first(where: { $0.platform == platform }), date >= next.date {
            return .invalid("it must be before the release after it on \(platform) (\(next.displayName), \(Timestamp.format(next.date)))")
        }
        // Return on an earlier answer keeps it as it was; Return on the listed date confirms nothing.
        let earlier = wizard.answers.platformGoLives[platform]
        let confirmed = wizard.answeringWithDefault && earlier?.date == date ? earlier!.confirmed : !wizard.answeringWithDefault
        let goLive = PlatformGoLive(date: date, confirmed: confirmed, planned: confirmed && date > wizard.now)
        wizard.answers.platformGoLives[platform] = goLive
        let state = goLive.planned ? "planned" : goLive.confirmed ? "confirmed" : releases[index].provenance.phrase
        return .accepted(["Free on \(platform) from \(releases[index].displayName) at \(Timestamp.format(date)), \(state)."] + wizard.cutoffLines())
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.platformGoLives[platform] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let goLive = wizard.answers.platformGoLives[platform], let index = wizard.answers.listedFreeRelease(on: platform) else { return nil }
        let state = goLive.planned ? " (planned)" : goLive.confirmed ? " (confirmed)" : " (as listed)"
        return "\(platform) \(wizard.answers.releases[index].displayName) \(Timestamp.format(goLive.date))\(state)"
    }
}

struct NewFreeReleaseQuestion: WizardQuestion {
    var id: QuestionID { .newFreeRelease }

    func ask(_ wizard: Wizard) -> Question {
        return Question(
            id: id, prompt: "The first free release: version, build and the day it goes live (UTC)",
            defaultAnswer: Wizard.text(of: wizard.answers.newFreeRelease ?? wizard.suggestedFreeRelease()), hint: "VERSION (BUILD) YYYY-MM-DD")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        switch wizard.parseRelease(input) {
        case .failure(let message): return .invalid(message)
        case .success(let release):
            let key = Release.identity(platform: release.platform, version: release.version, build: release.build)
            if let same = wizard.answers.releases.first(where: {
                Release.identity(platform: $0.platform, version: $0.version, build: $0.build) == key
            }) {
                return .invalid(
                    "\(same.platform) \(same.displayName) is already listed (\(Wizard.day(same.date))); choose it at the previous question ('<'), or give the new release's own version and build"
                )
            }
            if let last = wizard.answers.releases.last, release.date <= last.date {
                return .invalid("it must go live after the last listed release (\(last.displayName), \(Wizard.day(last.date)))")
            }
            wizard.answers.newFreeRelease = release
            let planned = release.provenance == .planned ? ", planned: the plan records it as planned until you confirm it is live" : ""
            return .accepted(["Free from \(release.displayName) at \(Timestamp.format(release.date))\(planned)."] + wizard.cutoffLines())
        }
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.newFreeRelease != nil
    }

    func summary(_ wizard: Wizard) -> String? { FirstFreeQuestion().summary(wizard) }
}

/// The first free release on another platform the app ships on: every platform goes free with a release of its own,
/// each with its own go-live, so that a buyer on that platform is never new before the free version is out there.
struct PlatformFreeReleaseQuestion: WizardQuestion {
    let platform: Platform
    var id: QuestionID { .platformFreeRelease(platform) }

    func ask(_ wizard: Wizard) -> Question {
        let release = wizard.answers.platformFreeReleases[platform] ?? wizard.suggestedFreeRelease(on: platform)
        return Question(
            id: id, prompt: "The first free release on \(platform): version, build and the day it goes live there (UTC)",
            defaultAnswer: Wizard.text(of: release),
            hint: "VERSION (BUILD) YYYY-MM-DD; its own go-live: until it is out on \(platform), buyers there are still paying customers")
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        var text = input
        if let first = input.split(separator: " ").first, let named = Platform(named: String(first)) {
            guard named == platform else { return .invalid("this is the release on \(platform), not \(named)") }
        } else {
            text = platform.rawValue + " " + input
        }
        switch wizard.parseRelease(text) {
        case .failure(let message): return .invalid(message)
        case .success(let release):
            let key = Release.identity(platform: release.platform, version: release.version, build: release.build)
            if let same = wizard.answers.releases.first(where: {
                Release.identity(platform: $0.platform, version: $0.version, build: $0.build) == key
            }) {
                return .invalid(
                    "\(same.platform) \(same.displayName) is already listed (\(Wizard.day(same.date))); give the new release's own version and build")
            }
            if let last = wizard.answers.releases.last(where: { $0.platform == platform }), release.date <= last.date {
                return .invalid("it must go live after the last listed \(platform) release (\(last.displayName), \(Wizard.day(last.date)))")
            }
            wizard.answers.platformFreeReleases[platform] = release
            let planned = release.provenance == .planned ? ", planned" : ""
            return .accepted(["Free on \(platform) from \(release.displayName) at \(Timestamp.format(release.date))\(planned)."])
        }
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.platformFreeReleases[platform] != nil
    }

    func summary(_ wizard: Wizard) -> String? {
        guard let release = wizard.answers.platformFreeReleases[platform] else { return nil }
        return "\(release.platform) \(release.displayName) \(Wizard.goLiveDay(release.date))"
    }
}

struct PriceQuestion: WizardQuestion {
    var id: QuestionID { .price }

    func ask(_ wizard: Wizard) -> Question {
        // Only real evidence is a default: what the sales reports show paid downloads cost. An in-app product's price is
        // another price (an unlock, a tip), so without a report the price is asked, with no default.
        let sold = wizard.facts.paidDownloadPrice
        var hint = "a price such as 2.99, in your main currency; no sales report shows a paid download, so there is no default"
        if let sold {
            hint =
                "a price such as 2.99, in \(sold.currency); the default is what \(Limits.grouped(sold.units)) of the \(Limits.grouped(sold.of)) paid downloads in \(sold.currency) cost in the sales reports"
        }
        return Question(
            id: id, prompt: "What did the download cost while the app was paid?",
            defaultAnswer: (wizard.answers.price ?? sold?.price)?.description, hint: hint)
    }

    func apply(_ input: String, to wizard: inout Wizard) -> WizardOutcome {
        guard let price = try? Price(input), !price.isZero else { return .invalid("'\(input)' is not a price above 0, such as 2.99") }
        wizard.answers.price = price
        return .accepted(["Paid releases are recorded at \(price); migrate simulate compares staying paid at this price."])
    }

    func isAnswered(_ wizard: Wizard) -> Bool {
        wizard.answers.price != nil
    }
}
